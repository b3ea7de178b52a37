/**
 * The container files, tested as far as a machine without a Docker engine allows: the build
 * context holds what the Dockerfile copies (and .dockerignore keeps out what must stay out);
 * the image's file tree, assembled on the host by doing what the Dockerfile's stages do, holds
 * production dependencies only, and its CMD — with the image's environment — serves /readyz and
 * passes the image's HEALTHCHECK; and compose.yaml describes the two profiles correctly (with
 * `docker compose config` too where a compose client is installed).
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync, spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import { builtinModules } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { parse as parseYaml } from 'yaml';
import { dashboardAssetFiles } from '../src/api/dashboard.ts';
import { buildOnce, digestOf, rawRequest, ROOT, waitFor } from './helpers.ts';

// ---------------------------------------------------------------------------------------------
// Dockerfile and .dockerignore, read the way Docker reads them (for the forms this project uses).

interface Instruction {
  op: string;
  args: string;
}
interface Stage {
  image: string;
  name?: string;
  instructions: Instruction[];
}

/** Stages of a Dockerfile: comments dropped, `\` continuations joined. */
function parseDockerfile(text: string): Stage[] {
  const logical: string[] = [];
  let pending = '';
  for (const raw of text.split('\n')) {
    const line = raw.trim();
    if (pending === '' && (line === '' || line.startsWith('#'))) continue;
    if (line.startsWith('#')) continue; // a comment inside a continued instruction
    if (line.endsWith('\\')) {
      pending += line.slice(0, -1) + ' ';
      continue;
    }
    logical.push(pending + line);
    pending = '';
  }
  const stages: Stage[] = [];
  for (const line of logical) {
    const [, op, args] = /^(\S+)\s+([\s\S]*)$/.exec(line)!;
    if (op.toUpperCase() === 'FROM') {
      const [image, as, name] = args.split(/\s+/);
      stages.push({ image, name: as?.toUpperCase() === 'AS' ? name : undefined, instructions: [] });
    } else {
      assert.ok(stages.length > 0, `instruction before FROM: ${line}`);
      stages.at(-1)!.instructions.push({ op: op.toUpperCase(), args: args.trim() });
    }
  }
  return stages;
}

interface Copy {
  from?: string;
  sources: string[];
  dest: string;
}

function copies(stage: Stage): Copy[] {
  return stage.instructions
    .filter((i) => i.op === 'COPY')
    .map((i) => {
      const words = i.args.split(/\s+/);
      const flags = words.filter((w) => w.startsWith('--'));
      const paths = words.filter((w) => !w.startsWith('--'));
      const from = flags.find((f) => f.startsWith('--from='))?.slice('--from='.length);
      return { from, sources: paths.slice(0, -1), dest: paths.at(-1)! };
    });
}

/** ENV of a stage (`K=V` pairs, unquoted values). */
function stageEnv(stage: Stage): Record<string, string> {
  const env: Record<string, string> = {};
  for (const i of stage.instructions.filter((x) => x.op === 'ENV')) {
    for (const pair of i.args.split(/\s+/)) {
      const eq = pair.indexOf('=');
      assert.ok(eq > 0, `ENV in K=V form: ${pair}`);
      env[pair.slice(0, eq)] = pair.slice(eq + 1);
    }
  }
  return env;
}

/** The exec form (JSON array) of CMD, or of HEALTHCHECK's CMD after its options. */
function execForm(stage: Stage, op: 'CMD' | 'HEALTHCHECK'): string[] {
  const found = stage.instructions.filter((i) => i.op === op);
  assert.equal(found.length, 1, `one ${op} in the final stage`);
  const json = op === 'CMD' ? found[0].args : /(?:^|\s)CMD\s+(\[[\s\S]*\])$/.exec(found[0].args)?.[1];
  assert.ok(json, `${op} in exec form`);
  const form = JSON.parse(json);
  assert.ok(Array.isArray(form) && form.every((x) => typeof x === 'string'), `${op} is a JSON array of strings`);
  return form;
}

/** A .dockerignore pattern as a regular expression over context-relative paths. */
function ignoreRegex(pattern: string): RegExp {
  const p = pattern.replace(/^\/+|\/+$/g, '');
  let re = '';
  for (let i = 0; i < p.length; i++) {
    if (p.startsWith('**', i)) {
      re += '.*';
      i++;
    } else if (p[i] === '*') re += '[^/]*';
    else if (p[i] === '?') re += '[^/]';
    else re += p[i].replace(/[.+^${}()|[\]\\]/g, '\\$&');
  }
  return new RegExp(`^${re}$`);
}

/** Whether .dockerignore keeps `rel` (or a folder it is in) out of the build context. */
function makeIgnored(dockerignore: string): (rel: string) => boolean {
  const patterns = dockerignore
    .split('\n')
    .map((l) => l.trim())
    .filter((l) => l !== '' && !l.startsWith('#'));
  assert.ok(!patterns.some((p) => p.startsWith('!')), 'no exceptions (!) in .dockerignore: this check does not model them');
  const regexes = patterns.map(ignoreRegex);
  return (rel) => {
    const parts = rel.split('/');
    return parts.some((_, n) => regexes.some((re) => re.test(parts.slice(0, n + 1).join('/'))));
  };
}

/** Files under `rel` (a file or folder of `root`), as paths relative to `root`. */
function filesUnder(rel: string, root = ROOT): string[] {
  const abs = path.join(root, rel);
  if (!fs.statSync(abs).isDirectory()) return [rel];
  return fs.readdirSync(abs).flatMap((name) => filesUnder(path.posix.join(rel, name), root));
}

/** `./x/` → `x`, for comparing COPY paths. */
const norm = (p: string) => path.posix.normalize(p).replace(/^\.\/?|\/$/g, '') || '.';

const dockerfile = parseDockerfile(fs.readFileSync(path.join(ROOT, 'Dockerfile'), 'utf8'));
const buildStage = dockerfile[0];
const runStage = dockerfile.at(-1)!;
const imageEnv = stageEnv(runStage);
const workdir = (stage: Stage) => stage.instructions.filter((i) => i.op === 'WORKDIR').at(-1)?.args;

describe('Dockerfile and build context', () => {
  test('two stages on a small Node 20 base; the image runs as a non-root user with its data in a volume', () => {
    assert.equal(dockerfile.length, 2);
    for (const stage of dockerfile) assert.match(stage.image, /^node:20-(alpine|.*slim)/, stage.image);
    assert.equal(buildStage.name, 'build');
    const ops = runStage.instructions.map((i) => i.op);
    const user = runStage.instructions.filter((i) => i.op === 'USER').at(-1)?.args;
    assert.ok(user && user !== 'root' && user !== '0', `USER ${user}`);
    assert.ok(ops.lastIndexOf('USER') > ops.lastIndexOf('RUN'), 'nothing runs as root after USER');
    const volume = runStage.instructions.find((i) => i.op === 'VOLUME');
    assert.deepEqual(JSON.parse(volume!.args), [imageEnv.GRIDCAST_DATA_DIR]);
    const chown = runStage.instructions.find((i) => i.op === 'RUN' && i.args.includes('chown'));
    assert.ok(chown?.args.includes(`${user}:${user} ${imageEnv.GRIDCAST_DATA_DIR}`), 'the data directory belongs to the user');
    assert.equal(imageEnv.HOST, '0.0.0.0');
    assert.equal(imageEnv.PORT, '8000');
    assert.ok(runStage.instructions.some((i) => i.op === 'EXPOSE' && i.args === imageEnv.PORT));
    // The build stage installs everything to compile, then drops the development dependencies.
    const buildRuns = buildStage.instructions
      .filter((i) => i.op === 'RUN')
      .map((i) => i.args)
      .join(' && ');
    assert.match(buildRuns, /npm ci\b/);
    assert.match(buildRuns, /npm run build\s+&&\s+npm prune --omit=dev/);
    // The HEALTHCHECK needs nothing the base lacks (no curl in node images).
    assert.equal(execForm(runStage, 'HEALTHCHECK')[0], 'node');
  });

  test('every file the Dockerfile copies is in the build context; node_modules, data, .git and secrets are not', () => {
    const ignored = makeIgnored(fs.readFileSync(path.join(ROOT, '.dockerignore'), 'utf8'));
    for (const excluded of [
      'node_modules',
      'node_modules/fastify/package.json',
      'data',
      'data/pg/PG_VERSION',
      'data-2',
      '.git',
      '.git/HEAD',
      'dist',
      '.env',
      'test-output',
    ]) {
      assert.ok(ignored(excluded), `.dockerignore excludes ${excluded}`);
    }
    const fromContext = dockerfile.flatMap(copies).filter((c) => c.from === undefined);
    assert.ok(fromContext.length >= 5);
    for (const c of fromContext) {
      for (const source of c.sources) {
        assert.ok(fs.existsSync(path.join(ROOT, source)), `COPY ${source}: exists`);
        // A file left out silently would only show when the image runs.
        for (const file of filesUnder(norm(source))) assert.ok(!ignored(file), `COPY ${source}: ${file} is excluded by .dockerignore`);
      }
    }
  });

  test('the image has the repository layout under WORKDIR, so its command can run from the repository root', () => {
    assert.equal(workdir(buildStage), workdir(runStage));
    for (const c of copies(runStage)) {
      assert.equal(c.sources.length, 1);
      const source = c.from === undefined ? norm(c.sources[0]) : norm(path.posix.relative(workdir(buildStage)!, c.sources[0]));
      assert.equal(norm(c.dest), source, `COPY ${c.sources[0]} ${c.dest}`);
      if (c.from !== undefined) assert.equal(c.from, buildStage.name);
    }
    const copied = new Set(copies(runStage).map((c) => norm(c.dest)));
    for (const needed of ['package.json', 'node_modules', 'dist', 'bin', 'assets', 'web'])
      assert.ok(copied.has(needed), `the image has ${needed}`);
    // What the build stage compiles from.
    const built = new Set(copies(buildStage).flatMap((c) => c.sources.map(norm)));
    for (const needed of ['package.json', 'package-lock.json', 'tsconfig.json', 'tsconfig.build.json', 'src'])
      assert.ok(built.has(needed), `the build has ${needed}`);
  });
});

/**
 * The image's file tree, made on the host by doing what its stages do: COPY from the build
 * context (as .dockerignore filters it) or from the build stage, and the build stage's RUN
 * commands in a shell in its WORKDIR. The final stage's own RUN only prepares the data volume
 * for the image's user (outside WORKDIR); here the volume is a temporary directory.
 * Returns the final stage's WORKDIR.
 *
 * A stage before the final one is kept, like a layer in Docker's build cache, in the temporary
 * directory under a digest of everything it is made from: its instructions, the names and
 * contents of the files it copies from the context (after .dockerignore), and the Node and npm
 * that run its commands. Its `npm ci`, `npm run build` and `npm prune` cost ~50 s of CPU; a
 * later run with the same inputs (another test run on this machine, another checkout of the
 * same commit) copies from the kept stage instead, and any changed input builds it again.
 */
async function assembleImage(root: string): Promise<string> {
  const ignored = makeIgnored(fs.readFileSync(path.join(ROOT, '.dockerignore'), 'utf8'));
  const stageDirs = new Map<string, string>();
  const copyTree = (from: string, to: string, skip: (rel: string) => boolean, rel = '') => {
    if (skip(rel)) return;
    if (fs.statSync(from).isDirectory()) {
      fs.mkdirSync(to, { recursive: true });
      for (const name of fs.readdirSync(from)) copyTree(path.join(from, name), path.join(to, name), skip, rel ? `${rel}/${name}` : name);
    } else {
      fs.mkdirSync(path.dirname(to), { recursive: true });
      fs.copyFileSync(from, to);
    }
  };
  const runInstructions = (stage: Stage, dir: string) => {
    const env: Record<string, string> = {};
    for (const i of stage.instructions) {
      if (i.op === 'WORKDIR') assert.equal(i.args, workdir(runStage), 'one WORKDIR');
      else if (i.op === 'ENV') Object.assign(env, stageEnv({ ...stage, instructions: [i] }));
      else if (i.op === 'COPY') {
        const [c] = copies({ ...stage, instructions: [i] });
        for (const source of c.sources) {
          const dest =
            c.sources.length > 1 || c.dest.endsWith('/') ? path.join(dir, c.dest, path.basename(source)) : path.join(dir, c.dest);
          if (c.from === undefined) copyTree(path.join(ROOT, source), dest, (rel) => ignored(norm(path.posix.join(source, rel))));
          else copyTree(path.join(stageDirs.get(c.from)!, path.posix.relative(workdir(buildStage)!, source)), dest, () => false);
        }
      } else if (i.op === 'RUN') {
        if (stage === runStage) {
          assert.match(i.args, /^mkdir -p (\S+) && chown \S+ \1$/, 'the final stage runs nothing but the volume preparation');
          continue;
        }
        execFileSync('/bin/sh', ['-c', i.args], { cwd: dir, env: { ...process.env, ...env }, stdio: ['ignore', 'ignore', 'inherit'] });
      }
    }
  };
  /** What a stage is made from (see above), as a digest. */
  const stageDigest = (stage: Stage) => {
    const fromContext = copies(stage)
      .filter((c) => c.from === undefined)
      .flatMap((c) => c.sources.flatMap((source) => filesUnder(norm(source)).sort()))
      .filter((file) => !ignored(file))
      .map((file) => path.join(ROOT, file));
    const fromStages = copies(stage).flatMap((c) => (c.from === undefined ? [] : [stageDirs.get(c.from)!]));
    const npm = execFileSync('npm', ['--version'], { encoding: 'utf8' }).trim();
    return digestOf(fromContext, [JSON.stringify(stage.instructions), process.version, npm, ...fromStages]);
  };
  let dir = '';
  for (const [n, stage] of dockerfile.entries()) {
    if (stage === runStage) {
      dir = path.join(root, stage.name ?? `stage${n}`);
      fs.mkdirSync(dir, { recursive: true });
      runInstructions(stage, dir);
    } else {
      dir = path.join(os.tmpdir(), `gridcast-test-image-stage-${stageDigest(stage)}`);
      await buildOnce(dir, async (into) => runInstructions(stage, into));
    }
    if (stage.name) stageDirs.set(stage.name, dir);
  }
  return dir;
}

describe('the image, assembled on the host from the Dockerfile', () => {
  let root: string;
  let app: string;
  let dataDir: string;
  before(async () => {
    root = fs.mkdtempSync(path.join(os.tmpdir(), 'gridcast-image-'));
    app = await assembleImage(root);
    dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'gridcast-image-data-'));
  });
  after(() => {
    for (const d of [root, dataDir]) if (d) fs.rmSync(d, { recursive: true, force: true });
  });

  test('it holds the compiled code and production dependencies only', (t) => {
    const pkg = JSON.parse(fs.readFileSync(path.join(app, 'package.json'), 'utf8'));
    // No package that only development needs (the lockfile marks them "dev").
    const lock = JSON.parse(fs.readFileSync(path.join(ROOT, 'package-lock.json'), 'utf8'));
    const devOnly = Object.entries(lock.packages as Record<string, { dev?: boolean }>)
      .filter(([p, info]) => p && info.dev)
      .map(([p]) => p);
    assert.ok(devOnly.includes('node_modules/typescript') && devOnly.includes('node_modules/playwright-core'));
    for (const p of devOnly) assert.ok(!fs.existsSync(path.join(app, p)), `no ${p} in the image`);
    assert.ok(fs.existsSync(path.join(app, 'node_modules/fastify/package.json')));
    // Small: what the image adds to its base (71 MB at this writing; PGlite alone is 27 MB).
    const bytes = filesUnder('.', app).reduce((sum, f) => sum + fs.statSync(path.join(app, f)).size, 0);
    t.diagnostic(`the image's own files: ${(bytes / 1e6).toFixed(0)} MB`);
    assert.ok(bytes < 120e6, `the image's files take ${(bytes / 1e6).toFixed(0)} MB`);
    assert.ok(!fs.existsSync(path.join(app, 'src')) && !fs.existsSync(path.join(app, 'test')), 'no sources or tests');
    // Every package the compiled code names is a production dependency.
    const allowed = new Set([...Object.keys(pkg.dependencies), ...builtinModules]);
    const files = filesUnder('dist', app).filter((f) => f.endsWith('.js'));
    assert.ok(files.length > 20);
    const used = new Set<string>();
    for (const file of files) {
      const code = fs.readFileSync(path.join(app, file), 'utf8');
      // Static and dynamic imports, and createRequire(…)('x') / .resolve('x').
      for (const m of code.matchAll(
        /(?:\bfrom\s*|\bimport\s*\(?\s*|\)\(\s*|\.resolve\(\s*)['"]((?:node:)?@?[a-z0-9][\w.-]*(?:\/[\w.-]+)*)['"]/g,
      )) {
        const spec = m[1].replace(/^node:/, '');
        const name = spec.startsWith('@') ? spec.split('/').slice(0, 2).join('/') : spec.split('/')[0];
        // tsx is resolved only when the code runs as .ts (development), never from dist.
        if (name === 'tsx' && file === 'dist/util/moduleWorker.js') continue;
        used.add(name);
        assert.ok(allowed.has(name), `${file} imports '${spec}', which is not a production dependency`);
      }
    }
    for (const expected of ['fastify', 'echarts', 'leaflet', '@electric-sql/pglite'])
      assert.ok(used.has(expected), `found the import of ${expected}`);
  });

  test('its CMD, with the image environment, serves /readyz, the dashboard and the API; HEALTHCHECK passes while it runs', async () => {
    const [command, ...args] = execForm(runStage, 'CMD');
    assert.equal(command, 'node');
    // The image's environment; PORT 0 (any free port) instead of 8000, the volume a temporary
    // directory, and one compute worker (the image leaves their number to the host's cores: this
    // is the image on a one-core host, and spares the suite a second worker's warm-up).
    const env = {
      PATH: process.env.PATH,
      HOME: os.tmpdir(),
      ...imageEnv,
      PORT: '0',
      GRIDCAST_DATA_DIR: dataDir,
      GRIDCAST_LOG: 'off',
      GRIDCAST_WORKERS: '1',
    };
    const child = spawn(process.execPath, args, { cwd: app, env, stdio: ['ignore', 'pipe', 'pipe'] });
    // What the container's log shows: both streams (messages on stderr, the request log on stdout).
    let out = '';
    for (const stream of [child.stdout, child.stderr]) stream.on('data', (c: Buffer) => (out += c.toString()));
    const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
    try {
      const port = await new Promise<number>((resolve, reject) => {
        // A first start on an empty volume runs initdb (~10 s of CPU): minutes on a busy machine.
        const timer = setTimeout(() => reject(new Error(`no 'listening on' in 120 s: ${out}`)), 120_000);
        child.stderr.on('data', () => {
          // Bound to 0.0.0.0, the server names itself localhost.
          const m = /listening on http:\/\/localhost:(\d+)/.exec(out);
          if (m) {
            clearTimeout(timer);
            resolve(Number(m[1]));
          }
        });
        child.on('exit', (code) => reject(new Error(`exited with ${code}: ${out}`)));
      });
      const base = `http://127.0.0.1:${port}`;
      // Ready once its compute workers are warm (a 503 until then).
      await waitFor(async () => (await rawRequest(base, '/readyz')).status === 200, 'ready', 120_000);
      const ready = await rawRequest(base, '/readyz');
      assert.equal(ready.status, 200, ready.text);
      assert.deepEqual(ready.json(), { status: 'ready', database: 'embedded' });
      assert.ok(fs.existsSync(path.join(dataDir, 'pg')), 'the embedded store is in GRIDCAST_DATA_DIR');
      // Every file of the dashboard's allow-list is in the image (ECharts is trimmed to its one file).
      for (const name of ['', ...dashboardAssetFiles().keys()].map((n) => (n ? `/dashboard/assets/${n}` : '/dashboard'))) {
        const res = await rawRequest(base, name);
        assert.equal(res.status, 200, `${name}: ${res.text.slice(0, 200)}`);
      }
      const demoKey = /shown only this once:\n(\S+)\n/.exec(out)?.[1];
      assert.ok(demoKey, `a demo key on first start: ${out}`);
      const forecast = await rawRequest(base, '/v1/region/ercot/demand/forecast?id=ercot_total', { 'x-api-key': demoKey });
      assert.equal(forecast.status, 200, forecast.text);
      const cells = await rawRequest(base, '/v1/cells/isone/wind/list?resolution=3', { 'x-api-key': demoKey });
      assert.equal(cells.status, 200, 'cell geometry (worker thread) works from dist');

      const health = execForm(runStage, 'HEALTHCHECK');
      const runHealthcheck = () =>
        spawnSync(process.execPath, health.slice(1), { env: { ...env, PORT: String(port) }, timeout: 10_000 }).status;
      assert.equal(runHealthcheck(), 0, 'healthy while serving');

      child.kill('SIGTERM');
      assert.equal(await exited, 0);
      assert.match(out, /gridcast: stopped/);
      assert.equal(runHealthcheck(), 1, 'unhealthy once stopped');
    } finally {
      child.kill('SIGKILL');
    }
  });
});

// ---------------------------------------------------------------------------------------------
// compose.yaml

describe('compose.yaml', () => {
  const text = fs.readFileSync(path.join(ROOT, 'compose.yaml'), 'utf8');
  const doc = parseYaml(text, { merge: true }) as { services: Record<string, any>; volumes?: Record<string, unknown> };
  const services = doc.services;
  const inProfile = (profile: string) =>
    Object.entries(services)
      .filter(([, s]) => (s.profiles ?? []).includes(profile))
      .map(([name]) => name)
      .sort();
  const isGridcast = (s: any) => s.build === '.' || s.build?.context === '.';

  test('two profiles: embedded (one service) and postgres (PostgreSQL, two replicas, a proxy)', () => {
    assert.deepEqual(inProfile('embedded'), ['gridcast']);
    assert.deepEqual(inProfile('postgres'), ['gridcast-1', 'gridcast-2', 'postgres', 'proxy']);
    for (const [name, s] of Object.entries(services)) assert.ok(s.profiles?.length === 1, `${name} is in exactly one profile`);
    for (const name of ['gridcast', 'gridcast-1', 'gridcast-2']) {
      assert.ok(isGridcast(services[name]), `${name} is built from this repository's Dockerfile`);
      assert.equal(services[name].image, services.gridcast.image);
      assert.equal(
        services[name].environment.GRIDCAST_ADMIN_TOKEN,
        '${GRIDCAST_ADMIN_TOKEN:-}',
        `${name}: admin token from the environment`,
      );
    }
  });

  test('embedded: the service on port 8000 with its data directory in a named volume', () => {
    const s = services.gridcast;
    assert.deepEqual(s.ports, [`8000:${imageEnv.PORT}`]);
    assert.deepEqual(s.volumes, [`gridcast-data:${imageEnv.GRIDCAST_DATA_DIR}`]);
    assert.ok(doc.volumes && 'gridcast-data' in doc.volumes);
    assert.equal(s.environment.DATABASE_URL, undefined);
  });

  test('postgres: replicas on the database once it is healthy, the proxy once they are, health checks throughout', () => {
    const pg = services.postgres;
    assert.match(pg.image, /^postgres:\d+/);
    assert.match(pg.healthcheck.test.join(' '), /pg_isready -U gridcast -d gridcast/);
    const { POSTGRES_USER: user, POSTGRES_DB: db, POSTGRES_PASSWORD: password } = pg.environment;
    for (const name of ['gridcast-1', 'gridcast-2']) {
      const s = services[name];
      assert.equal(s.environment.DATABASE_URL, `postgres://${user}:${password}@postgres:5432/${db}`);
      assert.deepEqual(s.depends_on, { postgres: { condition: 'service_healthy' } });
      assert.equal(s.ports, undefined, 'replicas are reached through the proxy only');
      // Without a healthcheck of its own, the service uses the image's HEALTHCHECK (GET /readyz).
      assert.ok(s.healthcheck === undefined || s.healthcheck.test, `${name} has a health check`);
    }
    const proxy = services.proxy;
    assert.deepEqual(proxy.depends_on, { 'gridcast-1': { condition: 'service_healthy' }, 'gridcast-2': { condition: 'service_healthy' } });
    assert.match(proxy.healthcheck.test.join(' '), /\/readyz/);
    assert.deepEqual(proxy.ports, ['8000:80']);
    assert.ok(doc.volumes && 'postgres-data' in doc.volumes);
  });

  test('the proxy configuration is in the repository and sends requests to both replicas', () => {
    const mount = (services.proxy.volumes as string[]).find((v) => v.includes('/etc/nginx/'));
    assert.ok(mount, 'nginx configuration mounted');
    const [hostPath, containerPath] = mount.split(':');
    assert.equal(containerPath, '/etc/nginx/conf.d/default.conf');
    const conf = fs.readFileSync(path.join(ROOT, hostPath), 'utf8');
    const upstream = /upstream\s+(\w+)\s*\{([^}]*)\}/.exec(conf);
    assert.ok(upstream, 'an upstream block');
    const servers = [...upstream[2].matchAll(/^\s*server\s+([\w.-]+):(\d+)/gm)].map((m) => `${m[1]}:${m[2]}`);
    assert.deepEqual(servers, [`gridcast-1:${imageEnv.PORT}`, `gridcast-2:${imageEnv.PORT}`]);
    assert.match(conf, new RegExp(`proxy_pass\\s+http://${upstream[1]};`));
    assert.match(conf, /listen\s+80;/);
  });

  test('docker compose accepts the file for both profiles (where a compose client is installed)', (t) => {
    const probe = spawnSync('docker', ['compose', 'version'], { encoding: 'utf8' });
    if (probe.status !== 0) {
      t.skip('no `docker compose` here; the YAML checks above stand in for it');
      return;
    }
    for (const profile of ['embedded', 'postgres']) {
      const r = spawnSync('docker', ['compose', '-f', 'compose.yaml', '--profile', profile, 'config', '--quiet'], {
        cwd: ROOT,
        encoding: 'utf8',
      });
      assert.equal(r.status, 0, `${profile}: ${r.stderr}`);
    }
  });
});
