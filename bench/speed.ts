/**
 * `npm run bench`: the speed figures of issue 12, in one run, on this machine.
 *
 * 1. Small request (one ERCOT wind plant, 7 days) req/s against a bare Node HTTP server
 *    returning the same bytes, both driven by autocannon (16 connections; each load measured
 *    after 3 s of the same load, not counted: steady state).
 * 2. p50/p99 latency of the small request at 16 and 200 connections, on the embedded store
 *    and (with GRIDCAST_TEST_DATABASE_URL) on PostgreSQL; client time-outs and errors.
 * 3. Small-request latency while four cold heavy requests run (a fresh server).
 * 4. The large request (every ERCOT wind plant, 2026-01-01 to 2026-11-19) cold and warm,
 *    against JSON.stringify of its own body (the serialisation floor).
 * 5. The same request after a restart: a new server on the first one's data directory, whose
 *    disk cache (query/diskBlocks.ts) holds the blocks the first one computed.
 * 0. Start-up (issue 23): a fresh server's time from start to ready (/readyz 200: workers warm),
 *    its RSS at idle once ready, the first request after ready (a week of every SPP wind plant,
 *    never computed before) against the median of nine more such weeks; and the embedded
 *    server's peak RSS while it serves the figures below (loaded).
 * 6. Forecast skill (bench/skill.ts): a year of PJM total demand and wind, 8 lead days, every
 *    model, cold and warm.
 * 7. Own data (bench/ingest.ts): ingest values/s embedded and on PostgreSQL, bytes per value
 *    against one row per value, a stored year of continuous values over HTTP against synthetic,
 *    and the ingest's peak RSS on a ~1 GB file.
 *
 * Servers run from the built code (bin/gridcast.js, as `npm start`; `npm run bench` builds first) with rate limits off and the request log on (to /dev/null),
 * GRIDCAST_NOW=2026-11-20T18:00:00Z. The load generator shares the machine's cores. Results go
 * to bench/results/speed-latest.json and a line to bench/results/history.md.
 * Options (env): BENCH_SECONDS (autocannon duration, default 10), BENCH_WORKERS (the servers'
 * GRIDCAST_WORKERS; default one per core), BENCH_ONLY=small (the small request against the bare
 * server alone, printed), BENCH_ONLY=large (only sections 4 and 5, printed, not
 * recorded: for comparing changes to the large request's path), BENCH_ONLY=start (only section 0,
 * start-up and idle memory: printed, not recorded).
 */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import autocannon from 'autocannon';
import pg from 'pg';
import { ingestFigures, ingestLines } from './ingest.ts';
import { largestFigures, largestLines } from './largest.ts';
import { ROOT, startServe, untilReady, type BenchServer } from './serve.ts';
import { skillFigures, skillLines } from './skill.ts';

const NOW = '2026-11-20T18:00:00Z';
const SECONDS = Number(process.env.BENCH_SECONDS ?? 10);
const SERVER_ENV: NodeJS.ProcessEnv = {
  GRIDCAST_NOW: NOW,
  ...(process.env.BENCH_WORKERS ? { GRIDCAST_WORKERS: process.env.BENCH_WORKERS } : {}),
};
const LARGE = '/v1/plant/ercot/wind/continuous?start=2026-01-01&end=2026-11-19';
/** Warm requests of the large body measured after the cold one. */
const WARM_RUNS = 9;
const RESULTS = path.join(ROOT, 'bench', 'results');

const round = (x: number, digits = 1) => Math.round(x * 10 ** digits) / 10 ** digits;
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const percentile = (xs: number[], p: number) => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor((p / 100) * xs.length))];
const say = (line: string) => process.stderr.write(`bench: ${line}\n`);

/** One GET to the body's last byte: status, body and milliseconds. */
function timedGet(url: string, key: string): Promise<{ status: number; body: Buffer; ms: number; headers: http.IncomingHttpHeaders }> {
  const started = performance.now();
  return new Promise((resolve, reject) => {
    http
      .get(url, { headers: { 'x-api-key': key, 'accept-encoding': 'identity' }, agent: false }, (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () =>
          resolve({ status: res.statusCode!, body: Buffer.concat(chunks), ms: performance.now() - started, headers: res.headers }),
        );
        res.on('error', reject);
      })
      .on('error', reject);
  });
}

/** Resident memory of a process (all its threads), MB. */
function rssMb(pid: number): number {
  const status = fs.readFileSync(`/proc/${pid}/status`, 'utf8');
  return round(Number(/VmRSS:\s+(\d+)/.exec(status)![1]) / 1024, 0);
}

/** Samples a process's RSS every 100 ms until stop(), which returns the highest, MB. */
function rssPeak(pid: number): { stop(): number } {
  let peakMb = rssMb(pid);
  const timer = setInterval(() => (peakMb = Math.max(peakMb, rssMb(pid))), 100);
  return {
    stop() {
      if (timer.hasRef()) peakMb = Math.max(peakMb, rssMb(pid));
      clearInterval(timer);
      timer.unref();
      return peakMb;
    },
  };
}

/** CPU time (ms) the process `pid` has used so far, all its threads (Linux: /proc/<pid>/task/<tid>/schedstat). */
function processCpuMs(pid: number): number {
  let ns = 0;
  for (const tid of fs.readdirSync(`/proc/${pid}/task`)) {
    try {
      ns += Number(fs.readFileSync(`/proc/${pid}/task/${tid}/schedstat`, 'utf8').split(' ')[0]);
    } catch {
      // A thread that ended meanwhile.
    }
  }
  return ns / 1e6;
}

/**
 * A fresh server: start to ready, RSS at idle once ready, and the first request after ready
 * (a week of every SPP wind plant, not computed before) against nine more weeks like it.
 */
async function startUp() {
  const started = performance.now();
  const server = await startServe({ env: SERVER_ENV });
  try {
    const listeningMs = performance.now() - started;
    await untilReady(server);
    const readyMs = performance.now() - started;
    await new Promise((r) => setTimeout(r, 2000));
    const idleRssMb = rssMb(server.pid);
    const times: number[] = [];
    // CPU time of the whole process (every thread) per request: robust against other load on the machine.
    const cpus: number[] = [];
    for (let month = 1; month <= 10; month++) {
      const m = String(month).padStart(2, '0');
      const cpuBefore = processCpuMs(server.pid);
      const res = await timedGet(`${server.url}/v1/plant/spp/wind/continuous?start=2026-${m}-01&end=2026-${m}-07`, server.key);
      if (res.status !== 200) throw new Error(`first request after ready: ${res.status} ${res.body.toString().slice(0, 300)}`);
      times.push(res.ms);
      // The response's last byte can arrive before its threads' last bookkeeping: let them finish.
      await new Promise((r) => setTimeout(r, 30));
      cpus.push(processCpuMs(server.pid) - cpuBefore);
    }
    const later = median(times.slice(1));
    const laterCpu = median(cpus.slice(1));
    return {
      listeningMs: round(listeningMs),
      readyMs: round(readyMs),
      idleRssMb,
      firstMs: round(times[0]),
      laterMedianMs: round(later),
      firstRatio: round(times[0] / later, 2),
      firstCpuMs: round(cpus[0]),
      laterCpuMedianMs: round(laterCpu),
      firstCpuRatio: round(cpus[0] / laterCpu, 2),
    };
  } finally {
    await server.stop();
  }
}

interface Load {
  connections: number;
  requestsPerSec: number;
  p50: number;
  p99: number;
  timeouts: number;
  errors: number;
  non2xx: number;
}

/**
 * Steady-state throughput: WARM_UP_SECONDS of the same load first, not counted. Without it the
 * measured 10 s included V8 optimising the request path under load (the first 10 s of a server
 * ran at 5,100–7,000 req/s, the next at 6,300–8,600, alternating runs on one machine), and the
 * bare server is warmed the same way. The first request after ready is measured on its own.
 */
const WARM_UP_SECONDS = 3;

async function load(url: string, key: string | undefined, connections: number): Promise<Load> {
  const options = { url, connections, timeout: 10, headers: key ? { 'x-api-key': key } : {} };
  await autocannon({ ...options, duration: WARM_UP_SECONDS });
  const r = await autocannon({ ...options, duration: SECONDS });
  return {
    connections,
    requestsPerSec: round(r.requests.average),
    p50: r.latency.p50,
    p99: r.latency.p99,
    timeouts: r.timeouts,
    errors: r.errors,
    non2xx: r.non2xx,
  };
}

/** A bare Node server answering every request with these bytes and headers: the ceiling. */
async function bareServer(body: Buffer, contentType: string): Promise<{ url: string; close(): Promise<void> }> {
  const server = http.createServer((_req, res) => {
    res.writeHead(200, { 'content-type': contentType, 'content-length': body.length });
    res.end(body);
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const { port } = server.address() as { port: number };
  return { url: `http://127.0.0.1:${port}/`, close: () => new Promise((r) => server.close(() => r())) };
}

async function smallPath(server: BenchServer): Promise<string> {
  const list = await timedGet(`${server.url}/v1/plant/ercot/wind/list`, server.key);
  const id = (JSON.parse(list.body.toString()) as { id: number }[])[0].id;
  return `/v1/plant/ercot/wind/continuous?id=${id}&start=2026-06-01&end=2026-06-07`;
}

async function largeFigures(server: BenchServer) {
  say('large request, cold …');
  const cold = await timedGet(server.url + LARGE, server.key);
  if (cold.status !== 200) throw new Error(`large request: ${cold.status} ${cold.body.toString().slice(0, 300)}`);
  // Warm: the median of WARM_RUNS requests in a row (single runs vary by ±40 % with garbage
  // collection in the workers and on the HTTP thread).
  const warm: number[] = [];
  for (let i = 0; i < WARM_RUNS; i++) warm.push((await timedGet(server.url + LARGE, server.key)).ms);
  const parsed = JSON.parse(cold.body.toString());
  const floor = stringifyFloor(parsed);
  const values = parsed.values.length * parsed.time_utc.length;
  // The same request again is answered from the response cache (a repeated body is kept for its
  // minute); the path under it — warm blocks, the body written anew — is timed on windows that
  // end 1…WARM_RUNS days earlier: each is a body not served before, of blocks already computed.
  // Each time is set against the stringify floor scaled to its number of values.
  const blockRatios: number[] = [];
  const blockMs: number[] = [];
  for (let i = 1; i <= WARM_RUNS; i++) {
    const end = new Date(Date.parse('2026-11-19T00:00:00Z') - i * 86_400_000).toISOString().slice(0, 10);
    const res = await timedGet(server.url + LARGE.replace('end=2026-11-19', `end=${end}`), server.key);
    const body = JSON.parse(res.body.toString());
    blockMs.push(res.ms);
    blockRatios.push(res.ms / ((floor * body.values.length * body.time_utc.length) / values));
  }
  return {
    path: LARGE,
    values,
    bytes: cold.body.length,
    coldMs: round(cold.ms),
    warmMs: round(median(warm)),
    stringifyMs: round(floor),
    coldRatio: round(cold.ms / floor, 2),
    warmRatio: round(median(warm) / floor, 2),
    warmBlocksMs: round(median(blockMs)),
    warmBlocksRatio: round(median(blockRatios), 2),
    body: cold.body,
  };
}

/** The median of a few JSON.stringify runs of the body (the first one warms up). */
function stringifyFloor(parsed: unknown): number {
  const times: number[] = [];
  for (let i = 0; i < 4; i++) {
    const t = performance.now();
    JSON.stringify(parsed);
    times.push(performance.now() - t);
  }
  return median(times.slice(1));
}

/** Bytes and files under a directory. */
function du(dir: string): { files: number; bytes: number } {
  let files = 0;
  let bytes = 0;
  for (const entry of fs.readdirSync(dir, { withFileTypes: true, recursive: true })) {
    if (!entry.isFile()) continue;
    files++;
    bytes += fs.statSync(path.join(entry.parentPath, entry.name)).size;
  }
  return { files, bytes };
}

/**
 * The large request first thing after a restart: a new server on `dataDir` (where the first
 * server computed it), settled like the first; then, as a diagnostic, a fresh server again whose
 * code has run one small request of other data first (what is left is the disk tier's own cost).
 */
async function afterRestart(dataDir: string, expected: Buffer) {
  const cache = du(path.join(dataDir, 'block-cache'));
  const measure = async (warmUp: boolean) => {
    const server = await startServe({ env: SERVER_ENV, dataDir });
    try {
      await untilReady(server);
      if (warmUp) {
        // Within the forecast history (from 2026-01-01): a request before it is a 422 and computes nothing.
        const other = await timedGet(`${server.url}/v1/plant/spp/wind/continuous?start=2026-03-01&end=2026-03-07`, server.key);
        if (other.status !== 200) throw new Error(`after a restart, the small request of other data: ${other.status}`);
      }
      const res = await timedGet(server.url + LARGE, server.key);
      if (res.status !== 200 || !res.body.equals(expected)) throw new Error(`after a restart the large request differs (${res.status})`);
      return res.ms;
    } finally {
      await server.stop();
    }
  };
  say('large request after a restart, with the disk cache …');
  const firstMs = await measure(false);
  say('… and after one small request of other data …');
  const warmedMs = await measure(true);
  const floor = stringifyFloor(JSON.parse(expected.toString()));
  return {
    diskCacheFiles: cache.files,
    diskCacheMB: round(cache.bytes / 1e6, 1),
    firstMs: round(firstMs),
    ratio: round(firstMs / floor, 2),
    afterSmallMs: round(warmedMs),
    afterSmallRatio: round(warmedMs / floor, 2),
    stringifyMs: round(floor),
  };
}

async function smallDuringHeavy() {
  const server = await startServe({ env: SERVER_ENV });
  try {
    const small = `${server.url}/v1/region/ercot/demand/forecast?id=ercot_total`;
    await timedGet(small, server.key); // warm: the small request's own blocks are not the point
    const heavy = ['2026-01-01&end=2026-03-31', '2026-04-01&end=2026-06-30', '2026-07-01&end=2026-09-30', '2026-10-01&end=2026-11-19'].map(
      (w) => timedGet(`${server.url}/v1/plant/ercot/wind/continuous?start=${w}`, server.key),
    );
    let done = false;
    const heavyAll = Promise.all(heavy).then((r) => ((done = true), r));
    const latencies: number[] = [];
    while (!done) {
      latencies.push((await timedGet(small, server.key)).ms);
      await new Promise((r) => setTimeout(r, 20));
    }
    const heavyMs = (await heavyAll).map((r) => round(r.ms));
    return {
      heavy: '4 × every ERCOT wind plant over a quarter of 2026, cold',
      heavyMs,
      smallRequests: latencies.length,
      p50: round(percentile(latencies, 50)),
      p99: round(percentile(latencies, 99)),
      max: round(Math.max(...latencies)),
    };
  } finally {
    await server.stop();
  }
}

async function postgresFigures(pathAndQuery: string) {
  const admin = process.env.GRIDCAST_TEST_DATABASE_URL;
  if (!admin) return null;
  const name = `gridcast_bench_${process.pid}`;
  const client = new pg.Client({ connectionString: admin });
  await client.connect();
  await client.query(`CREATE DATABASE ${name}`);
  const url = new URL(admin);
  url.pathname = `/${name}`;
  const server = await startServe({ env: SERVER_ENV, databaseUrl: url.toString() });
  try {
    await timedGet(server.url + pathAndQuery, server.key);
    return { at16: await load(server.url + pathAndQuery, server.key, 16), at200: await load(server.url + pathAndQuery, server.key, 200) };
  } finally {
    await server.stop();
    await client.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
    await client.end();
  }
}

/** Sections 4 and 5 alone (BENCH_ONLY=large). */
async function largeOnly() {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'gridcast-bench-'));
  try {
    const server = await startServe({ env: SERVER_ENV, dataDir });
    let large: Awaited<ReturnType<typeof largeFigures>>;
    try {
      await untilReady(server);
      large = await largeFigures(server);
    } finally {
      await server.stop();
    }
    const restart = await afterRestart(dataDir, large.body);
    process.stdout.write(JSON.stringify({ load: os.loadavg(), large: { ...large, body: undefined }, restart }, null, 2) + '\n');
  } finally {
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

/** The small request against the bare server alone (BENCH_ONLY=small), printed, not recorded. */
async function smallOnly() {
  const server = await startServe({ env: SERVER_ENV });
  try {
    await untilReady(server);
    const smallUrl = await smallPath(server);
    const sample = await timedGet(server.url + smallUrl, server.key);
    const bare = await bareServer(sample.body, String(sample.headers['content-type']));
    const bareLoad = await load(bare.url, undefined, 16);
    await bare.close();
    const at16 = await load(server.url + smallUrl, server.key, 16);
    process.stdout.write(
      `small request (${sample.body.length} B): bare node ${bareLoad.requestsPerSec} req/s, gridcast ${at16.requestsPerSec} req/s → ` +
        `${round(at16.requestsPerSec / bareLoad.requestsPerSec, 3)}× (target ≥ 0.35×); p50 ${at16.p50} ms, p99 ${at16.p99} ms\n`,
    );
  } finally {
    await server.stop();
  }
}

function startLines(start: Awaited<ReturnType<typeof startUp>>): string[] {
  return [
    `start-up: listening after ${start.listeningMs} ms, ready (workers warm) after ${start.readyMs} ms; idle RSS ${start.idleRssMb} MB (target ≤ 500 MB with 2 workers)`,
    `first request after ready (a week of every SPP wind plant, cold data): ${start.firstMs} ms, later weeks median ${start.laterMedianMs} ms → ${start.firstRatio}×; ` +
      `CPU ${start.firstCpuMs} ms against ${start.laterCpuMedianMs} ms → ${start.firstCpuRatio}× (target ≈ 1×)`,
  ];
}

async function main() {
  const loadBefore = os.loadavg()[0];
  // Kept when the server stops: the restart figure starts a new server on it.
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'gridcast-bench-'));
  say('start-up: start to ready, idle RSS, the first request after ready …');
  const start = await startUp();
  if (process.env.BENCH_ONLY === 'start') {
    process.stdout.write(startLines(start).join('\n') + '\n');
    return;
  }
  const embedded = await startServe({ env: SERVER_ENV, dataDir });
  // Ready means warm (catalogs, cell geometry, warm-up requests): "cold" below means no computed
  // block of the request is cached yet, not that the server is still starting.
  await untilReady(embedded);
  const idleRssMb = rssMb(embedded.pid);
  let loadedRssMb = idleRssMb;
  let large: Awaited<ReturnType<typeof largeFigures>>;
  let small: {
    path: string;
    bytes: number;
    bare: Load;
    at16: Load;
    at200: Load;
    ratioToBare: number;
    postgres: Awaited<ReturnType<typeof postgresFigures>>;
  };
  let heavy: Awaited<ReturnType<typeof smallDuringHeavy>>;
  let skill: Awaited<ReturnType<typeof skillFigures>>;
  const peak = rssPeak(embedded.pid);
  try {
    // Cold first: nothing else has computed the large request's blocks in this process.
    large = await largeFigures(embedded);
    say('skill: a year of one target, 8 lead days, every model (bench/skill.ts) …');
    skill = await skillFigures(embedded);
    const smallUrl = await smallPath(embedded);
    const sample = await timedGet(embedded.url + smallUrl, embedded.key);
    say(`small request ${smallUrl} (${sample.body.length} bytes): bare server vs gridcast …`);
    const bare = await bareServer(sample.body, String(sample.headers['content-type']));
    const bareLoad = await load(bare.url, undefined, 16);
    await bare.close();
    const at16 = await load(embedded.url + smallUrl, embedded.key, 16);
    say('200 connections …');
    const at200 = await load(embedded.url + smallUrl, embedded.key, 200);
    say('PostgreSQL …');
    const postgres = await postgresFigures(smallUrl);
    const ratioToBare = round(at16.requestsPerSec / bareLoad.requestsPerSec, 3);
    small = { path: smallUrl, bytes: sample.body.length, bare: bareLoad, at16, at200, ratioToBare, postgres };
    loadedRssMb = peak.stop();
    say('small requests during 4 cold heavy requests …');
    heavy = await smallDuringHeavy();
  } finally {
    // Stopped before the server is (a process that has exited has no RSS to read).
    loadedRssMb = Math.max(loadedRssMb, peak.stop());
    await embedded.stop();
  }
  let restart: Awaited<ReturnType<typeof afterRestart>>;
  try {
    restart = await afterRestart(dataDir, large.body);
  } finally {
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
  say('largest request, every format and layout (bench/largest.ts) …');
  const largest = await largestFigures();
  say('own data: ingest, storage, a stored year over HTTP (bench/ingest.ts) …');
  const ingest = await ingestFigures();
  const report = {
    when: new Date().toISOString(),
    commit: execFileSync('git', ['rev-parse', '--short', 'HEAD'], { cwd: ROOT }).toString().trim(),
    machine: `${os.cpus().length} × ${os.cpus()[0]?.model ?? 'cpu'}, load average before ${round(loadBefore, 2)}`,
    workers: process.env.BENCH_WORKERS ?? `one per core (${os.availableParallelism()})`,
    start,
    memory: { idleRssMb, loadedRssMb },
    small,
    duringHeavy: heavy,
    large: { ...large, body: undefined },
    restart,
    skill,
    largest,
    ingest,
  };
  fs.mkdirSync(RESULTS, { recursive: true });
  fs.writeFileSync(path.join(RESULTS, 'speed-latest.json'), JSON.stringify(report, null, 2) + '\n');
  const pgLine = small.postgres
    ? `latency, postgres:  16 conns ${small.postgres.at16.requestsPerSec} req/s p50 ${small.postgres.at16.p50} ms p99 ${small.postgres.at16.p99} ms; ` +
      `200 conns ${small.postgres.at200.requestsPerSec} req/s p50 ${small.postgres.at200.p50} ms p99 ${small.postgres.at200.p99} ms, ` +
      `time-outs ${small.postgres.at200.timeouts}, errors ${small.postgres.at200.errors}`
    : 'latency, postgres: skipped (set GRIDCAST_TEST_DATABASE_URL)';
  const lines = [
    `speed bench, commit ${report.commit}, ${report.machine}, workers: ${report.workers}`,
    ...startLines(start),
    `memory, embedded server: idle ${idleRssMb} MB once ready, peak ${loadedRssMb} MB while serving the figures below (large, skill, small at 16/200 connections)`,
    `small request (${small.bytes} B): bare node ${small.bare.requestsPerSec} req/s, gridcast ${small.at16.requestsPerSec} req/s → ${small.ratioToBare}× (target ≥ 0.35×)`,
    `latency, embedded:  16 conns p50 ${small.at16.p50} ms p99 ${small.at16.p99} ms; 200 conns ${small.at200.requestsPerSec} req/s ` +
      `p50 ${small.at200.p50} ms p99 ${small.at200.p99} ms, time-outs ${small.at200.timeouts}, errors ${small.at200.errors}, non-2xx ${small.at200.non2xx}`,
    pgLine,
    `small requests during ${heavy.heavy}: ${heavy.smallRequests} requests, p50 ${heavy.p50} ms, p99 ${heavy.p99} ms, max ${heavy.max} ms ` +
      `(heavy took ${heavy.heavyMs.join(' / ')} ms)`,
    `large request (${large.values} values, ${round(large.bytes / 1e6, 2)} MB): cold ${large.coldMs} ms (${large.coldRatio}× stringify), ` +
      `warm ${large.warmMs} ms (${large.warmRatio}×; the response cache), JSON.stringify ${large.stringifyMs} ms; targets ≤ 3× cold, ≤ 1.3× warm`,
    `large request, warm blocks but a body not served before (windows ending 1–${WARM_RUNS} days earlier): median ${large.warmBlocksMs} ms (${large.warmBlocksRatio}× stringify)`,
    `large request after a restart (disk cache ${restart.diskCacheFiles} files, ${restart.diskCacheMB} MB): first request ${restart.firstMs} ms ` +
      `(${restart.ratio}× stringify ${restart.stringifyMs} ms; target ≤ 2×); after one small request of other data ${restart.afterSmallMs} ms (${restart.afterSmallRatio}×)`,
    ...skillLines(skill),
    ...largestLines(largest),
    ...ingestLines(ingest),
  ];
  process.stdout.write(lines.join('\n') + '\n');
  fs.appendFileSync(path.join(RESULTS, 'history.md'), `\n- ${report.when}: ${lines.join('; ')}\n`);
}

await (process.env.BENCH_ONLY === 'large' ? largeOnly() : process.env.BENCH_ONLY === 'small' ? smallOnly() : main());
