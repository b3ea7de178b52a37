/**
 * HTTP benchmark of the plant continuous endpoint (see bench/README.md).
 *
 *   npm run bench                                   # starts its own server on a free port
 *   BENCH_URL=http://127.0.0.1:8000 BENCH_KEY=… npm run bench   # uses a running server
 *
 * Env: BENCH_RUNS (timed runs per case, default 3), BENCH_PID (pid of an external server,
 * for its RSS), BENCH_TIMEOUT_MS (per request, default 600000), BENCH_SERVER_NODE_ARGS
 * (extra node flags for the server started here, e.g. "--cpu-prof --cpu-prof-dir=/tmp/prof").
 * The server started here inherits the environment, so GRIDCAST_CACHE_MB=0 turns its cache off.
 */
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { gunzipSync } from 'node:zlib';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const RESULTS_DIR = path.join(ROOT, 'bench', 'results');
const FIXED_NOW = '2026-12-31T18:00:00Z';
const RUNS = positiveInt(process.env.BENCH_RUNS, 3);
const REQUEST_TIMEOUT_MS = positiveInt(process.env.BENCH_TIMEOUT_MS, 600_000);
const STARTUP_TIMEOUT_MS = 120_000;
const RSS_SAMPLE_MS = 50;
const RATIO_TARGETS = { now: 3, later: 1.3 };

// ---------------------------------------------------------------------------------------------
// Small helpers

function positiveInt(text: string | undefined, fallback: number): number {
  const n = Number(text);
  return text && Number.isInteger(n) && n > 0 ? n : fallback;
}

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  const mid = Math.floor(s.length / 2);
  return s.length % 2 ? s[mid] : (s[mid - 1] + s[mid]) / 2;
}

const round = (x: number, digits = 1): number => Math.round(x * 10 ** digits) / 10 ** digits;
const mb = (bytes: number): number => round(bytes / 1e6, 2);

function formatBytes(bytes: number): string {
  if (Number.isNaN(bytes)) return 'n/a';
  return bytes >= 1e6 ? `${mb(bytes)} MB` : bytes >= 1e3 ? `${round(bytes / 1e3)} kB` : `${bytes} B`;
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

// ---------------------------------------------------------------------------------------------
// The server: an external one, or a child process started here

interface Server {
  url: string;
  key: string;
  /** Pid whose /proc status we read for memory, if known. */
  pid: number | null;
  external: boolean;
  stop(): Promise<void>;
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = net.createServer();
    srv.unref();
    srv.on('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const { port } = srv.address() as net.AddressInfo;
      srv.close(() => resolve(port));
    });
  });
}

function externalServer(): Server | null {
  const url = process.env.BENCH_URL;
  const key = process.env.BENCH_KEY;
  if (!url || !key) return null;
  const pid = process.env.BENCH_PID ? Number(process.env.BENCH_PID) : null;
  return { url: url.replace(/\/+$/, ''), key, pid, external: true, stop: async () => {} };
}

async function stopChild(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  child.kill('SIGTERM');
  const timedOut = await Promise.race([exited.then(() => false), sleep(10_000).then(() => true)]);
  if (timedOut) {
    child.kill('SIGKILL');
    await exited;
  }
}

/** Starts `gridcast serve` on a fresh data dir; resolves with the demo key once it listens. */
async function startServer(): Promise<Server> {
  const port = await freePort();
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'gridcast-bench-'));
  const nodeFlags = (process.env.BENCH_SERVER_NODE_ARGS ?? '').split(' ').filter(Boolean);
  const args = [
    ...nodeFlags,
    '--import',
    'tsx',
    'src/cli/main.ts',
    'serve',
    '--port',
    String(port),
    '--host',
    '127.0.0.1',
    '--data',
    dataDir,
  ];
  const child = spawn(process.execPath, args, {
    cwd: ROOT,
    env: { ...process.env, GRIDCAST_NOW: FIXED_NOW, GRIDCAST_LOG: 'off' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const stop = async () => {
    await stopChild(child);
    fs.rmSync(dataDir, { recursive: true, force: true });
  };
  try {
    const { key, url } = await waitForListening(child);
    return { url: url ?? `http://127.0.0.1:${port}`, key, pid: child.pid ?? null, external: false, stop };
  } catch (e) {
    await stop();
    throw e;
  }
}

/**
 * Reads the server's stderr lines (its messages for a person) until "listening on URL"; the
 * demo key is the line after "created a demo API key". stdout (the request log) is drained.
 */
function waitForListening(child: ChildProcess): Promise<{ key: string; url: string | undefined }> {
  return new Promise((resolve, reject) => {
    const lines: string[] = [];
    let stdout = '';
    let partial = '';
    let settled = false;
    const onExit = (code: number | null, signal: string | null) => fail(`exited early (code ${code}, signal ${signal})`);
    const settle = () => {
      settled = true;
      clearTimeout(timer);
      child.off('exit', onExit);
    };
    const fail = (why: string) => {
      settle();
      reject(new Error(`bench: server ${why}\nstderr:\n${lines.join('\n')}\nstdout:\n${stdout}`));
    };
    const timer = setTimeout(() => fail(`did not listen within ${STARTUP_TIMEOUT_MS / 1000} s`), STARTUP_TIMEOUT_MS);
    child.stdout!.on('data', (d: Buffer) => (stdout = (stdout + d.toString()).slice(-4000)));
    child.once('exit', onExit);
    child.stderr!.on('data', (d: Buffer) => {
      if (settled) return; // keep draining the pipe, but read nothing more
      partial += d.toString();
      const parts = partial.split('\n');
      partial = parts.pop()!;
      lines.push(...parts);
      const listening = lines.find((l) => l.includes('listening on'));
      if (!listening) return;
      const at = lines.findIndex((l) => l.includes('created a demo API key'));
      const key = (at >= 0 ? lines[at + 1] : lines[1])?.trim();
      if (!key) return fail('printed no demo key (is the data dir really empty?)');
      settle();
      resolve({ key, url: /listening on (http:\/\/[^\s/]+)/.exec(listening)?.[1] });
    });
  });
}

// ---------------------------------------------------------------------------------------------
// Requests

type Encoding = 'identity' | 'gzip';

interface Fetched {
  ms: number;
  /** Bytes actually received (compressed for gzip). */
  wireBytes: number;
  body: Buffer;
  contentEncoding: string | undefined;
}

/** GET with node:http, reading the whole body; times from request to last byte, no decoding. */
function get(server: Server, pathAndQuery: string, encoding: Encoding): Promise<Fetched> {
  return new Promise((resolve, reject) => {
    const started = performance.now();
    const req = http.get(
      server.url + pathAndQuery,
      { headers: { 'X-API-Key': server.key, 'Accept-Encoding': encoding }, agent: false },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('error', reject);
        res.on('end', () => {
          const ms = performance.now() - started;
          const body = Buffer.concat(chunks);
          if (res.statusCode !== 200) {
            reject(new Error(`bench: GET ${pathAndQuery} → ${res.statusCode}: ${body.toString().slice(0, 500)}`));
            return;
          }
          resolve({ ms, wireBytes: body.length, body, contentEncoding: res.headers['content-encoding'] });
        });
      },
    );
    req.on('error', reject);
    req.setTimeout(REQUEST_TIMEOUT_MS, () => req.destroy(new Error(`bench: GET ${pathAndQuery} timed out`)));
  });
}

async function getJson<T>(server: Server, pathAndQuery: string): Promise<T> {
  return JSON.parse((await get(server, pathAndQuery, 'identity')).body.toString('utf8')) as T;
}

// ---------------------------------------------------------------------------------------------
// Server memory from /proc

function procStatusKb(pid: number | null, field: 'VmRSS' | 'VmHWM'): number | null {
  if (pid === null) return null;
  try {
    const m = new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(fs.readFileSync(`/proc/${pid}/status`, 'utf8'));
    return m ? Number(m[1]) : null;
  } catch {
    return null;
  }
}

/** Resets the kernel's peak-RSS mark (VmHWM) to the current RSS; false where not allowed. */
function resetPeakRss(pid: number | null): boolean {
  if (pid === null) return false;
  try {
    fs.writeFileSync(`/proc/${pid}/clear_refs`, '5');
    return true;
  } catch {
    return false;
  }
}

/**
 * Runs `fn` and returns the server's peak RSS (kB) meanwhile: VmHWM after resetting it
 * before, and VmRSS sampled every 50 ms (the only measure where the reset is not allowed).
 */
async function withPeakRss<T>(pid: number | null, fn: () => Promise<T>): Promise<{ result: T; peakKb: number | null }> {
  const hwmReset = resetPeakRss(pid);
  let peakKb = procStatusKb(pid, 'VmRSS');
  const sample = () => {
    const kb = procStatusKb(pid, 'VmRSS');
    if (kb !== null && (peakKb === null || kb > peakKb)) peakKb = kb;
  };
  const timer = setInterval(sample, RSS_SAMPLE_MS);
  try {
    const result = await fn();
    sample();
    const hwm = hwmReset ? procStatusKb(pid, 'VmHWM') : null;
    if (hwm !== null && (peakKb === null || hwm > peakKb)) peakKb = hwm;
    return { result, peakKb };
  } finally {
    clearInterval(timer);
  }
}

// ---------------------------------------------------------------------------------------------
// Cases

interface Case {
  name: string;
  path: string;
  large: boolean;
}

interface Timing {
  minMs: number;
  medianMs: number;
  runsMs: number[];
}

interface CaseResult {
  name: string;
  path: string;
  rows: number;
  columns: number;
  bodyBytes: number;
  gzipBytes: number;
  /** First identity request of the case (cold unless an earlier case computed the same blocks). */
  firstMs: number;
  identity: Timing;
  gzip: Timing;
  /** Server RSS when the case started, and its peak during all its requests, MB. */
  rssBeforeMb: number | null;
  peakRssMb: number | null;
  /** For large cases: JSON.stringify of the parsed body, and the ratio to the identity median. */
  stringify?: Timing & { ratio: number };
}

interface TimeseriesBody {
  time_utc: unknown[];
  columns: unknown[];
}

function timing(runsMs: number[]): Timing {
  return { minMs: round(Math.min(...runsMs)), medianMs: round(median(runsMs)), runsMs: runsMs.map((x) => round(x)) };
}

interface Timed {
  timing: Timing;
  /** The warm-up request's time: the only one that may compute rather than hit the server's block cache. */
  warmupMs: number;
  last: Fetched;
  /** Server peak RSS over the warm-up and the timed runs, kB. */
  peakKb: number | null;
}

/** One warm-up, then RUNS timed requests; the last body is returned for checks. */
async function timeRequests(server: Server, c: Case, encoding: Encoding): Promise<Timed> {
  const fetched: Fetched[] = [];
  let peakKb: number | null = null;
  for (let i = 0; i <= RUNS; i++) {
    const { result, peakKb: kb } = await withPeakRss(server.pid, () => get(server, c.path, encoding));
    fetched.push(result);
    if (kb !== null && (peakKb === null || kb > peakKb)) peakKb = kb;
  }
  const [warmup, ...runs] = fetched;
  return { timing: timing(runs.map((f) => f.ms)), warmupMs: round(warmup.ms), last: runs[runs.length - 1], peakKb };
}

/** Median time of JSON.stringify of the parsed body: what any JSON server has to pay at least. */
function stringifyFloor(parsed: unknown): Timing {
  JSON.stringify(parsed); // warm-up
  const runsMs: number[] = [];
  for (let i = 0; i < 3; i++) {
    const t0 = performance.now();
    JSON.stringify(parsed);
    runsMs.push(performance.now() - t0);
  }
  return timing(runsMs);
}

async function runCase(server: Server, c: Case): Promise<CaseResult> {
  process.stderr.write(`bench: ${c.name} …\n`);
  const rssBeforeKb = procStatusKb(server.pid, 'VmRSS');
  const id = await timeRequests(server, c, 'identity');
  const gz = await timeRequests(server, c, 'gzip');
  if (id.last.contentEncoding) throw new Error(`bench: ${c.name}: identity request came back ${id.last.contentEncoding}`);
  if (gz.last.contentEncoding === 'gzip' && gunzipSync(gz.last.body).length !== id.last.body.length) {
    throw new Error(`bench: ${c.name}: gzip body does not inflate to the identity body's length`);
  }
  const parsed = JSON.parse(id.last.body.toString('utf8')) as TimeseriesBody;
  const peaks = [id.peakKb, gz.peakKb].filter((x): x is number => x !== null);
  const result: CaseResult = {
    name: c.name,
    path: c.path,
    rows: parsed.time_utc.length,
    columns: parsed.columns.length,
    bodyBytes: id.last.wireBytes,
    gzipBytes: gz.last.contentEncoding === 'gzip' ? gz.last.wireBytes : Number.NaN,
    firstMs: id.warmupMs,
    identity: id.timing,
    gzip: gz.timing,
    rssBeforeMb: rssBeforeKb === null ? null : round(rssBeforeKb / 1024),
    peakRssMb: peaks.length ? round(Math.max(...peaks) / 1024) : null,
  };
  if (c.large) {
    const floor = stringifyFloor(parsed);
    result.stringify = { ...floor, ratio: round(id.timing.medianMs / floor.medianMs, 2) };
  }
  return result;
}

async function casesFor(server: Server): Promise<Case[]> {
  const year = 'start=2026-01-01&end=2026-12-31';
  const july = 'start=2026-07-01&end=2026-07-31';
  const plants = await getJson<{ id: number }[]>(server, '/v1/plant/ercot/wind/list');
  if (!plants.length) throw new Error('bench: /v1/plant/ercot/wind/list is empty');
  return [
    { name: 'large: ERCOT wind, all plants, 365 d', path: `/v1/plant/ercot/wind/continuous?${year}`, large: true },
    { name: 'large: ERCOT solar, all plants, 365 d', path: `/v1/plant/ercot/solar/continuous?${year}`, large: true },
    {
      name: `small: ERCOT wind, plant ${plants[0].id}, 7 d`,
      path: `/v1/plant/ercot/wind/continuous?id=${plants[0].id}&start=2026-06-01&end=2026-06-07`,
      large: false,
    },
    // The largest ISO's finest cells over a month (issue 4): ~6,000 columns × 744 hours.
    { name: 'large: MISO cells res 5, demand, 31 d', path: `/v1/cells/miso/demand/continuous?resolution=5&${july}`, large: true },
    { name: 'large: MISO cells res 5, wind, 31 d', path: `/v1/cells/miso/wind/continuous?resolution=5&${july}`, large: true },
  ];
}

// ---------------------------------------------------------------------------------------------
// Report

interface Report {
  date: string;
  commit: string | null;
  /** loadavg1 is the 1-minute load average before the server started: high means a noisy run. */
  machine: { cores: number; cpu: string; node: string; loadavg1: number };
  /**
   * idleRssMb / startupPeakRssMb: server memory after start-up, before any request (RSS, and
   * the peak start-up reached). cacheMb: GRIDCAST_CACHE_MB the server was started with.
   */
  server: { external: boolean; url: string; cacheMb: string; idleRssMb: number | null; startupPeakRssMb: number | null };
  runs: number;
  cases: CaseResult[];
  /** value: from the timed (warm) median; firstRequestValue: from the case's first request. */
  ratio: { definition: string; value: number | null; firstRequestValue: number | null; targets: typeof RATIO_TARGETS };
}

function gitCommit(): string | null {
  try {
    const sha = execFileSync('git', ['rev-parse', '--short', 'HEAD'], {
      cwd: ROOT,
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'ignore'],
    }).trim();
    let dirty = false;
    try {
      execFileSync('git', ['diff', '--quiet', 'HEAD', '--', 'src'], { cwd: ROOT, stdio: 'ignore' });
    } catch {
      dirty = true;
    }
    return dirty ? `${sha}+dirty-src` : sha;
  } catch {
    return null;
  }
}

function machine(loadavg1: number): Report['machine'] {
  const cpus = os.cpus();
  return { cores: cpus.length, cpu: cpus[0]?.model.trim() ?? 'unknown', node: process.version, loadavg1: round(loadavg1, 2) };
}

function cacheSetting(server: Server): string {
  if (server.external) return 'unknown (external server)';
  return process.env.GRIDCAST_CACHE_MB ?? '256 (default)';
}

function pad(cells: string[], widths: number[]): string {
  return cells.map((c, i) => (i === 0 ? c.padEnd(widths[i]) : c.padStart(widths[i]))).join('  ');
}

function formatTable(r: Report): string {
  const head = ['case', 'rows × cols', 'body', 'gzip', '1st ms', 'identity min/med ms', 'gzip min/med ms', 'server RSS MB before → peak'];
  const rows = r.cases.map((c) => [
    c.name,
    `${c.rows} × ${c.columns}`,
    formatBytes(c.bodyBytes),
    formatBytes(c.gzipBytes),
    String(c.firstMs),
    `${c.identity.minMs} / ${c.identity.medianMs}`,
    `${c.gzip.minMs} / ${c.gzip.medianMs}`,
    c.peakRssMb === null ? 'n/a' : `${c.rssBeforeMb} → ${c.peakRssMb}`,
  ]);
  const widths = head.map((h, i) => Math.max(h.length, ...rows.map((row) => row[i].length)));
  const lines = [pad(head, widths), widths.map((w) => '-'.repeat(w)).join('  '), ...rows.map((row) => pad(row, widths))];
  lines.push('');
  for (const c of r.cases.filter((x) => x.stringify)) {
    const s = c.stringify!;
    lines.push(`${c.name}: JSON.stringify floor min/med ${s.minMs} / ${s.medianMs} ms → ratio ${s.ratio}`);
  }
  lines.push(
    `ratio (${r.ratio.definition}) = ${r.ratio.value ?? 'n/a'}   target ≤ ${r.ratio.targets.now} now, ≤ ${r.ratio.targets.later} later`,
    `  same with the first (block cache cold) request instead of the median: ${r.ratio.firstRequestValue ?? 'n/a'}`,
    `server RSS before the first request: ${r.server.idleRssMb ?? 'n/a'} MB (start-up peak VmHWM ${r.server.startupPeakRssMb ?? 'n/a'} MB)` +
      (r.server.external ? ' (external server; set BENCH_PID for memory)' : ''),
    `server block cache GRIDCAST_CACHE_MB: ${r.server.cacheMb}`,
    `${r.runs} timed runs after 1 warm-up · ${r.date} · commit ${r.commit ?? 'n/a'} · ${r.machine.cores} cores ${r.machine.cpu} · ` +
      `load ${r.machine.loadavg1} · node ${r.machine.node}`,
  );
  return lines.join('\n');
}

const HISTORY_HEADER =
  '| date | commit | machine | load | cache MB | runs | wind 1st ms | wind identity med ms | solar identity med ms | small identity med ms | wind gzip med ms | stringify med ms | ratio | wind body MB | wind peak RSS MB | cells demand 1st ms | cells demand med ms | cells wind 1st ms | cells body MB | cells peak RSS MB |\n' +
  '| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |\n';

function historyRow(r: Report): string {
  const [wind, solar, small, cellsDemand, cellsWind] = r.cases;
  const cells = [
    r.date,
    r.commit ?? 'n/a',
    `${r.machine.cores} × ${r.machine.cpu}`,
    r.machine.loadavg1,
    r.server.cacheMb,
    r.runs,
    wind.firstMs,
    wind.identity.medianMs,
    solar.identity.medianMs,
    small.identity.medianMs,
    wind.gzip.medianMs,
    wind.stringify?.medianMs ?? 'n/a',
    r.ratio.value ?? 'n/a',
    mb(wind.bodyBytes),
    wind.peakRssMb ?? 'n/a',
    cellsDemand.firstMs,
    cellsDemand.identity.medianMs,
    cellsWind.firstMs,
    mb(cellsDemand.bodyBytes),
    Math.max(cellsDemand.peakRssMb ?? 0, cellsWind.peakRssMb ?? 0) || 'n/a',
  ];
  return `| ${cells.join(' | ')} |\n`;
}

function writeResults(r: Report): void {
  fs.mkdirSync(RESULTS_DIR, { recursive: true });
  fs.writeFileSync(path.join(RESULTS_DIR, 'latest.json'), JSON.stringify(r, null, 2) + '\n');
  const history = path.join(RESULTS_DIR, 'history.md');
  if (!fs.existsSync(history)) fs.writeFileSync(history, '# Benchmark history (npm run bench)\n\n' + HISTORY_HEADER);
  fs.appendFileSync(history, historyRow(r));
}

// ---------------------------------------------------------------------------------------------

async function bench(server: Server, loadavg1: number): Promise<Report> {
  const idleKb = procStatusKb(server.pid, 'VmRSS');
  const startupHwmKb = procStatusKb(server.pid, 'VmHWM');
  const cases = await casesFor(server);
  const results: CaseResult[] = [];
  for (const c of cases) results.push(await runCase(server, c));
  return {
    date: new Date().toISOString(),
    commit: gitCommit(),
    machine: machine(loadavg1),
    server: {
      external: server.external,
      url: server.url,
      cacheMb: cacheSetting(server),
      idleRssMb: idleKb === null ? null : round(idleKb / 1024),
      startupPeakRssMb: startupHwmKb === null ? null : round(startupHwmKb / 1024),
    },
    runs: RUNS,
    cases: results,
    ratio: {
      definition: 'large wind identity median / JSON.stringify median',
      value: results[0].stringify?.ratio ?? null,
      firstRequestValue: results[0].stringify ? round(results[0].firstMs / results[0].stringify.medianMs, 2) : null,
      targets: RATIO_TARGETS,
    },
  };
}

async function main(): Promise<void> {
  const loadavg1 = os.loadavg()[0];
  const server = externalServer() ?? (await startServer());
  const onSignal = () => void server.stop().finally(() => process.exit(130));
  process.once('SIGINT', onSignal);
  process.once('SIGTERM', onSignal);
  try {
    process.stderr.write(`bench: server ${server.url}${server.external ? ' (external)' : ` (pid ${server.pid})`}, ${RUNS} runs per case\n`);
    const report = await bench(server, loadavg1);
    process.stdout.write(formatTable(report) + '\n');
    writeResults(report);
    process.stderr.write(`bench: wrote ${path.relative(ROOT, RESULTS_DIR)}/latest.json and history.md\n`);
  } finally {
    await server.stop();
  }
}

main().catch((e: unknown) => {
  process.stderr.write(`${e instanceof Error ? (e.stack ?? e.message) : String(e)}\n`);
  process.exitCode = 1;
});
