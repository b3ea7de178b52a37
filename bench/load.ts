/**
 * Load test of N replicas on one PostgreSQL database (issue 6 deployment figures).
 *
 *   GRIDCAST_TEST_DATABASE_URL=postgres://… npm run -s bench:load   # scripts/ci-postgres.sh prints one
 *
 * Creates a fresh database, starts LOAD_REPLICAS (default 2) `gridcast serve` processes on it
 * (built JS, as `npm start` runs them; logs off, no rate limits so the test measures the
 * service, GRIDCAST_NOW=2026-12-31T18:00:00Z), creates a key through the admin API, then for
 * each case drives every replica at once with autocannon (one client per replica, the way a
 * round-robin load balancer spreads connections) and sums the results:
 *   small: one region's 15-day forecast (360 values), many connections;
 *   large: every ERCOT wind plant over 90 days (~520,000 values, ~2.5 MB), 2 connections per replica.
 * Reports requests/s, p50/p99 latency, non-2xx counts and each replica's peak RSS, and writes
 * bench/results/load-latest.json. The load generator shares the machine's cores with the
 * replicas, so absolute numbers are a floor for a real deployment.
 */
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import autocannon from 'autocannon';
import pg from 'pg';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const REPLICAS = Number(process.env.LOAD_REPLICAS ?? 2);
const ADMIN_TOKEN = 'load-test-admin-token';
const SMALL_SECONDS = Number(process.env.LOAD_SMALL_SECONDS ?? 15);
const LARGE_SECONDS = Number(process.env.LOAD_LARGE_SECONDS ?? 20);

interface Replica {
  child: ChildProcess;
  url: string;
}

function vmKb(pid: number, field: 'VmRSS' | 'VmHWM'): number {
  const m = new RegExp(`${field}:\\s+(\\d+) kB`).exec(fs.readFileSync(`/proc/${pid}/status`, 'utf8'));
  return m ? Number(m[1]) : Number.NaN;
}

function resetPeak(pid: number): void {
  try {
    fs.writeFileSync(`/proc/${pid}/clear_refs`, '5');
  } catch {
    /* not permitted: the peak then covers the process's whole life */
  }
}

async function startReplica(databaseUrl: string): Promise<Replica> {
  const env = {
    ...process.env,
    DATABASE_URL: databaseUrl,
    GRIDCAST_ADMIN_TOKEN: ADMIN_TOKEN,
    GRIDCAST_LOG: 'off',
    GRIDCAST_NOW: '2026-12-31T18:00:00Z',
    GRIDCAST_RATE_LIMITS: 'core=none,advanced=none,enterprise=none',
  };
  const child = spawn(process.execPath, [path.join(ROOT, 'bin', 'gridcast.js'), 'serve', '--port', '0', '--host', '127.0.0.1'], {
    cwd: ROOT,
    env,
    // The URL is printed on stderr (stdout is the request log, off here).
    stdio: ['ignore', 'inherit', 'pipe'],
  });
  const url = await new Promise<string>((resolve, reject) => {
    let out = '';
    child.stderr!.on('data', (c: Buffer) => {
      out += c.toString();
      const m = /listening on (http:\/\/[^\s]+)/.exec(out);
      if (m) resolve(m[1]);
    });
    child.on('exit', (code) => reject(new Error(`replica exited with ${code}: ${out}`)));
  });
  return { child, url };
}

interface CaseResult {
  name: string;
  path: string;
  connectionsPerReplica: number;
  seconds: number;
  requests: number;
  requestsPerSec: number;
  p50Ms: number;
  p99Ms: number;
  non2xx: number;
  bytesPerResponse: number;
  peakRssMb: number[];
}

async function runCase(
  replicas: Replica[],
  key: string,
  name: string,
  p: string,
  connections: number,
  seconds: number,
): Promise<CaseResult> {
  process.stderr.write(`load: ${name} (${replicas.length} replicas × ${connections} connections, ${seconds} s) …\n`);
  for (const r of replicas) resetPeak(r.child.pid!);
  const results = await Promise.all(
    replicas.map((r) => autocannon({ url: r.url + p, connections, duration: seconds, headers: { 'x-api-key': key } })),
  );
  const requests = results.reduce((s, r) => s + r.requests.total, 0);
  // Per-replica percentiles are combined by weighting with each replica's request count.
  const weighted = (pick: (r: autocannon.Result) => number) =>
    results.reduce((s, r) => s + pick(r) * r.requests.total, 0) / Math.max(1, requests);
  return {
    name,
    path: p,
    connectionsPerReplica: connections,
    seconds,
    requests,
    requestsPerSec: Math.round((requests / seconds) * 10) / 10,
    p50Ms: Math.round(weighted((r) => r.latency.p50)),
    p99Ms: Math.round(weighted((r) => r.latency.p99)),
    non2xx: results.reduce((s, r) => s + r.non2xx, 0),
    bytesPerResponse: Math.round(results.reduce((s, r) => s + r.throughput.total, 0) / Math.max(1, requests)),
    peakRssMb: replicas.map((r) => Math.round(vmKb(r.child.pid!, 'VmHWM') / 1024)),
  };
}

async function main(): Promise<void> {
  const admin = process.env.GRIDCAST_TEST_DATABASE_URL;
  if (!admin) throw new Error('set GRIDCAST_TEST_DATABASE_URL (scripts/ci-postgres.sh prints one)');
  execFileSync('npm', ['run', '-s', 'build'], { cwd: ROOT, stdio: 'inherit' });
  const dbName = `gridcast_load_${process.pid}`;
  const client = new pg.Client({ connectionString: admin });
  await client.connect();
  await client.query(`CREATE DATABASE ${dbName}`);
  const url = new URL(admin);
  url.pathname = `/${dbName}`;
  const replicas: Replica[] = [];
  try {
    for (let i = 0; i < REPLICAS; i++) replicas.push(await startReplica(url.toString()));
    const idleMb = replicas.map((r) => Math.round(vmKb(r.child.pid!, 'VmRSS') / 1024));
    const created = await fetch(`${replicas[0].url}/admin/keys`, {
      method: 'POST',
      headers: { authorization: `Bearer ${ADMIN_TOKEN}`, 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'load', subscriptions: [{ iso: 'all', level: 'enterprise' }] }),
    }).then((r) => r.json() as Promise<{ key: string }>);
    const small = '/v1/region/ercot/demand/forecast?id=ercot_total';
    const large = '/v1/plant/ercot/wind/continuous?start=2026-01-01&end=2026-03-31';
    // Warm each replica once (JIT, catalogs, the large request's day blocks in each process's cache).
    for (const r of replicas)
      for (const p of [small, large]) await fetch(r.url + p, { headers: { 'x-api-key': created.key } }).then((x) => x.arrayBuffer());
    const cases = [
      await runCase(replicas, created.key, 'small: one region, 15-day forecast', small, 16, SMALL_SECONDS),
      await runCase(replicas, created.key, 'large: every ERCOT wind plant, 90 days', large, 2, LARGE_SECONDS),
    ];
    const report = {
      date: new Date().toISOString(),
      machine: { cores: os.cpus().length, cpu: os.cpus()[0]?.model.trim(), node: process.version },
      replicas: REPLICAS,
      database: 'PostgreSQL (local server)',
      idleRssMb: idleMb,
      cases,
    };
    fs.mkdirSync(path.join(ROOT, 'bench', 'results'), { recursive: true });
    fs.writeFileSync(path.join(ROOT, 'bench', 'results', 'load-latest.json'), JSON.stringify(report, null, 2) + '\n');
    for (const c of cases) {
      process.stdout.write(
        `${c.name}: ${c.requestsPerSec} req/s, p50 ${c.p50Ms} ms, p99 ${c.p99Ms} ms, non-2xx ${c.non2xx}, ` +
          `${Math.round(c.bytesPerResponse / 1024)} kB per response, peak RSS ${c.peakRssMb.join(' / ')} MB\n`,
      );
    }
    process.stdout.write(`idle RSS per replica: ${idleMb.join(' / ')} MB; wrote bench/results/load-latest.json\n`);
  } finally {
    for (const r of replicas) r.child.kill('SIGTERM');
    await Promise.all(replicas.map((r) => new Promise((res) => (r.child.exitCode !== null ? res(null) : r.child.on('exit', res)))));
    await client.query(`DROP DATABASE IF EXISTS ${dbName} WITH (FORCE)`);
    await client.end();
  }
}

await main();
