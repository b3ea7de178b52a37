/**
 * Own data at scale (issue 20, "Storage and scale"), part of `npm run bench`:
 *
 * 1. Ingest speed: a generated year of hourly runs (4 a day, 192 hours ahead, 10 MISO regions ≈
 *    2.8 M values, bench/runsFile.ts) loaded by `gridcast ingest` (a child process of the built
 *    code, bin/gridcast.js, as a user runs it; `npm run build` first) into a fresh embedded store
 *    and, with GRIDCAST_TEST_DATABASE_URL, a fresh PostgreSQL
 *    database: values/s from the command's own summary (the ingest, without process start-up),
 *    and the process's peak RSS.
 * 2. Storage on PostgreSQL: bytes per value of source_runs (pg_total_relation_size: table, TOAST
 *    and index), against the same values one row per value (with its primary key): size, the time
 *    to insert them, and the time to read one target's daily runs for the year from each layout.
 * 3. Serving: a year of continuous hourly values of one target from the stored source over HTTP,
 *    cold (the first such request once the server is ready) and warm, next to the same request on
 *    the synthetic model, on the same server.
 * 4. Memory flat in file size: peak RSS of `gridcast ingest` on a larger generated file
 *    (BENCH_INGEST_BIG_DAYS days of runs, default 6 years ≈ 1 GB; 0 skips it) next to the year's.
 *
 *   node --import tsx bench/ingest.ts   (this section alone; results in bench/results/ingest-latest.json)
 */
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { csvBatches } from '../src/ingest/csv.ts';
import { longCsv } from '../src/ingest/long.ts';
import type { LayoutContext } from '../src/ingest/observations.ts';
import { HOUR_MS } from '../src/time/hours.ts';
import { valuesOf, writeRunsFile, YEAR_OF_RUNS, type RunsFileSpec } from './runsFile.ts';
import { BUILT_MAIN, ROOT, startServe, untilReady, type BenchServer } from './serve.ts';

const SOURCE = 'bench';
const TARGET = 'miso_lrz1';
/** A year of continuous values: the stored runs cover 2026 and 8 days into 2027 (the synthetic world begins in 2026). */
const CONTINUOUS = `/v1/region/miso/demand/continuous?id=${TARGET}&start=2026-01-02&end=2026-12-31`;
const NOW = '2027-01-15T00:00:00Z';
const WARM_UP = 3;
const WARM_RUNS = 9;
const BIG_DAYS = Number(process.env.BENCH_INGEST_BIG_DAYS ?? 365 * 6);

const round = (x: number, digits = 1) => Math.round(x * 10 ** digits) / 10 ** digits;
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const say = (line: string) => process.stderr.write(`bench: ${line}\n`);

function rssMb(pid: number): number {
  try {
    return Number(/VmRSS:\s+(\d+)/.exec(fs.readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1] ?? 0) / 1024;
  } catch {
    return 0; // the process has just ended
  }
}

interface CliIngest {
  values: number;
  /** The ingest as the command reports it (file read to commit). */
  seconds: number;
  valuesPerSec: number;
  peakRssMb: number;
}

/** `gridcast ingest FILE` in a child process (embedded store in dataDir, or databaseUrl). */
function cliIngest(file: string, store: { dataDir?: string; databaseUrl?: string }): Promise<CliIngest> {
  const env: NodeJS.ProcessEnv = { ...process.env };
  if (store.databaseUrl) env.DATABASE_URL = store.databaseUrl;
  else delete env.DATABASE_URL;
  // The built code (what the installed `gridcast` runs): under tsx, the parse worker's start
  // alone costs ~1 CPU-second (its own loader, its modules compiled), and so do the CLI's modules.
  if (!fs.existsSync(BUILT_MAIN)) throw new Error(`bench: ${BUILT_MAIN} is missing: run \`npm run build\` first`);
  const args = [path.join(ROOT, 'bin', 'gridcast.js'), 'ingest', file];
  args.push('--source', SOURCE, '--group', 'region', '--iso', 'miso', '--metric', 'demand');
  if (store.dataDir) args.push('--data', store.dataDir);
  const child = spawn(process.execPath, args, { cwd: ROOT, env, stdio: ['ignore', 'pipe', 'pipe'] });
  let peak = 0;
  const sampler = setInterval(() => (peak = Math.max(peak, rssMb(child.pid!))), 100);
  let out = '';
  let err = '';
  child.stdout.on('data', (c: Buffer) => (out += c.toString()));
  child.stderr.on('data', (c: Buffer) => (err += c.toString()));
  return new Promise((resolve, reject) => {
    child.on('exit', (code) => {
      clearInterval(sampler);
      const m = /(\d+) value\(s\).*; ([\d.]+) s$/m.exec(out);
      if (code !== 0 || !m) return reject(new Error(`gridcast ingest exited ${code}: ${out}${err}`));
      const values = Number(m[1]);
      const seconds = Number(m[2]);
      resolve({ values, seconds, valuesPerSec: Math.round(values / seconds), peakRssMb: Math.round(peak) });
    });
  });
}

/** One GET to the body's last byte. */
function timedGet(url: string, key: string): Promise<{ status: number; body: string; ms: number }> {
  const started = performance.now();
  return new Promise((resolve, reject) => {
    http
      .get(url, { headers: { 'x-api-key': key, 'accept-encoding': 'identity' } }, (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => resolve({ status: res.statusCode!, body: Buffer.concat(chunks).toString(), ms: performance.now() - started }));
        res.on('error', reject);
      })
      .on('error', reject);
  });
}

interface Served {
  values: number;
  coldMs: number;
  warmMs: number;
}

async function served(server: BenchServer, model: string): Promise<Served> {
  const url = `${server.url}${CONTINUOUS}&model=${model}`;
  const cold = await timedGet(url, server.key);
  if (cold.status !== 200) throw new Error(`${url}: ${cold.status} ${cold.body.slice(0, 300)}`);
  // Warm: the median of WARM_RUNS after WARM_UP untimed requests (the workers' code compiled).
  for (let i = 0; i < WARM_UP; i++) await timedGet(url, server.key);
  const warm: number[] = [];
  for (let i = 0; i < WARM_RUNS; i++) warm.push((await timedGet(url, server.key)).ms);
  const body = JSON.parse(cold.body) as { values: (number | null)[][] | Record<string, (number | null)[]> };
  const columns = Array.isArray(body.values) ? body.values : Object.values(body.values);
  const values = columns.reduce((n, c) => n + c.filter((v) => v !== null).length, 0);
  return { values, coldMs: round(cold.ms), warmMs: round(median(warm)) };
}

/** The continuous year on the stored source and on the synthetic model, on one server. */
async function servingFigures(store: { dataDir?: string; databaseUrl?: string }) {
  const server = await startServe({ env: { GRIDCAST_NOW: NOW }, ...store });
  try {
    // Cold is the first request a user sends once the server says it is ready; before that, a
    // request shares the cores with the warm-up (it measured 5–7 s, against 0.33 s for the
    // synthetic request timed after it).
    await untilReady(server);
    return { stored: await served(server, SOURCE), synthetic: await served(server, 'iso') };
  } finally {
    await server.stop();
  }
}

/** A fresh database on the server at GRIDCAST_TEST_DATABASE_URL. */
async function freshDatabase(admin: string) {
  const name = `gridcast_bench_ingest_${process.pid}`;
  const client = new pg.Client({ connectionString: admin });
  await client.connect();
  await client.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
  await client.query(`CREATE DATABASE ${name}`);
  const url = new URL(admin);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    async drop() {
      await client.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await client.end();
    },
  };
}

/**
 * The same values one row per value (series, issue time, valid hour, value; primary key on the
 * first three), beside the packed runs: size, insert time, and reading one target's daily runs.
 */
async function layoutComparison(db: pg.Client, file: string, values: number) {
  const size = async (table: string) =>
    Number((await db.query(`SELECT pg_total_relation_size('${table}')::float8 AS b`)).rows[0].b as number);
  const packedBytes = await size('source_runs');
  await db.query(`CREATE TABLE bench_value_rows (
    series_id integer NOT NULL, issued_at timestamptz NOT NULL, valid_hour integer NOT NULL, value double precision NOT NULL,
    PRIMARY KEY (series_id, issued_at, valid_hour))`);
  const ids = new Map(
    (await db.query<{ id: number; target: string }>('SELECT id, target FROM source_series WHERE source = $1', [SOURCE])).rows.map((r) => [
      r.target,
      r.id,
    ]),
  );
  const started = performance.now();
  await db.query('BEGIN');
  // The file is in MW, the metric's unit, in the long layout: the reader alone, nothing checked or converted.
  const ctx: LayoutContext = {
    origin: file,
    iso: 'miso',
    metric: 'demand',
    targets: new Set(),
    refuse: () => null,
    columns: new Map(),
    metadata: {},
    scale: () => ({ scale: 1, offset: 0 }),
    bad: () => {},
    kind: () => {},
    knownAt: (timeMs) => timeMs + HOUR_MS,
  };
  let cols = { s: [] as number[], ms: [] as number[], h: [] as number[], v: [] as number[] };
  const flush = async () => {
    await db.query(
      `INSERT INTO bench_value_rows SELECT s, to_timestamp(ms / 1000), h, v FROM unnest($1::int[], $2::float8[], $3::int[], $4::float8[]) AS u(s, ms, h, v)`,
      [cols.s, cols.ms, cols.h, cols.v],
    );
    cols = { s: [], ms: [], h: [], v: [] };
  };
  for await (const batch of longCsv(csvBatches(fs.createReadStream(file, { highWaterMark: 1 << 20 })), ctx)) {
    for (let i = 0; i < batch.length; i++) {
      cols.s.push(ids.get(batch.target[i])!);
      cols.ms.push(batch.stamp[i]);
      cols.h.push(batch.hour[i]);
      cols.v.push(batch.value[i]);
    }
    if (cols.s.length >= 200_000) await flush();
  }
  await flush();
  await db.query('COMMIT');
  const rowsSeconds = (performance.now() - started) / 1000;
  await db.query('ANALYZE bench_value_rows');
  await db.query('ANALYZE source_runs');
  const rowsBytes = await size('bench_value_rows');
  // One target's runs issued at 00:00 UTC, a year of them: what a continuous year reads.
  const series = ids.get(TARGET)!;
  const issued = Array.from({ length: 365 }, (_, d) => Date.parse(YEAR_OF_RUNS.start) + d * 24 * HOUR_MS);
  const timed = async (read: () => Promise<number>) => {
    const ms: number[] = [];
    let n = 0;
    for (let i = 0; i < 5; i++) {
      const t = performance.now();
      n = await read();
      ms.push(performance.now() - t);
    }
    return { values: n, ms: round(median(ms.slice(1))) };
  };
  const packedRead = await timed(async () => {
    const rows = await db.query<{ hex: string }>(
      `SELECT encode(vals, 'hex') AS hex FROM source_runs
        WHERE series_id = $1 AND issued_at = ANY(SELECT to_timestamp(x / 1000) FROM unnest($2::float8[]) AS x)`,
      [series, issued],
    );
    let n = 0;
    for (const r of rows.rows) {
      const bytes = Buffer.from(r.hex, 'hex');
      const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
      for (let k = 0; k < bytes.byteLength; k += 8) if (!Number.isNaN(view.getFloat64(k, true))) n++;
    }
    return n;
  });
  const rowsRead = await timed(async () => {
    const rows = await db.query(
      `SELECT issued_at, valid_hour, value FROM bench_value_rows
        WHERE series_id = $1 AND issued_at = ANY(SELECT to_timestamp(x / 1000) FROM unnest($2::float8[]) AS x)`,
      [series, issued],
    );
    return rows.rows.length;
  });
  await db.query('DROP TABLE bench_value_rows');
  return {
    packed: { bytesPerValue: round(packedBytes / values, 2), readMs: packedRead.ms, readValues: packedRead.values },
    rowPerValue: {
      bytesPerValue: round(rowsBytes / values, 2),
      insertValuesPerSec: Math.round(values / rowsSeconds),
      readMs: rowsRead.ms,
      readValues: rowsRead.values,
    },
  };
}

export async function ingestFigures() {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'gridcast-bench-ingest-'));
  const loadBefore = os.loadavg()[0];
  try {
    const yearFile = path.join(dir, 'year.csv');
    say('ingest: generating a year of runs …');
    const yearBytes = await writeRunsFile(yearFile, YEAR_OF_RUNS);
    const expected = valuesOf(YEAR_OF_RUNS);

    say(`ingest: ${expected} values (${round(yearBytes / 1e6)} MB) into the embedded store …`);
    const dataDir = path.join(dir, 'data');
    const embedded = await cliIngest(yearFile, { dataDir });
    say('ingest: a year of continuous values over HTTP, embedded …');
    const embeddedServing = await servingFigures({ dataDir });

    let postgres = null;
    const admin = process.env.GRIDCAST_TEST_DATABASE_URL;
    if (admin) {
      const db = await freshDatabase(admin);
      try {
        say('ingest: the same into PostgreSQL …');
        const ingest = await cliIngest(yearFile, { databaseUrl: db.url });
        say('ingest: storage, packed runs against one row per value …');
        const client = new pg.Client({ connectionString: db.url });
        await client.connect();
        const layouts = await layoutComparison(client, yearFile, ingest.values).finally(() => client.end());
        say('ingest: a year of continuous values over HTTP, PostgreSQL …');
        const serving = await servingFigures({ databaseUrl: db.url });
        postgres = { ingest, layouts, serving };
      } finally {
        await db.drop();
      }
    }

    let big = null;
    if (BIG_DAYS > 0) {
      const spec: RunsFileSpec = { ...YEAR_OF_RUNS, days: BIG_DAYS };
      const bigFile = path.join(dir, 'big.csv');
      say(`ingest: generating ${BIG_DAYS} days of runs …`);
      const bytes = await writeRunsFile(bigFile, spec);
      fs.rmSync(yearFile);
      say(`ingest: ${round(bytes / 1e9, 2)} GB file, peak RSS …`);
      const where = admin ? 'postgres' : 'embedded';
      let result: CliIngest;
      if (admin) {
        const db = await freshDatabase(admin);
        result = await cliIngest(bigFile, { databaseUrl: db.url }).finally(() => db.drop());
      } else {
        result = await cliIngest(bigFile, { dataDir: path.join(dir, 'big-data') });
      }
      big = { store: where, bytes, ...result };
    }
    return {
      file: { values: expected, bytes: yearBytes, spec: '365 days × 4 runs × 192 h × 10 MISO regions, long CSV' },
      loadBefore: round(loadBefore, 2),
      embedded: { ingest: embedded, serving: embeddedServing },
      postgres,
      big,
    };
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

export function ingestLines(r: Awaited<ReturnType<typeof ingestFigures>>): string[] {
  const ingest = (i: CliIngest) => `${i.values} values in ${i.seconds} s = ${i.valuesPerSec} values/s, peak RSS ${i.peakRssMb} MB`;
  const serve = (s: { stored: Served; synthetic: Served }) =>
    `stored ${s.stored.values} values cold ${s.stored.coldMs} ms warm ${s.stored.warmMs} ms; ` +
    `synthetic ${s.synthetic.values} values cold ${s.synthetic.coldMs} ms warm ${s.synthetic.warmMs} ms`;
  const lines = [
    `ingest, embedded (load before ${r.loadBefore}): ${ingest(r.embedded.ingest)} (target ≥ 200000/s)`,
    `continuous year of ${TARGET}, embedded: ${serve(r.embedded.serving)} (target ≤ 100 ms warm)`,
  ];
  if (r.postgres) {
    const { ingest: i, layouts: l, serving } = r.postgres;
    lines.push(
      `ingest, postgres: ${ingest(i)} (target ≥ 1000000/s)`,
      `storage, postgres: packed runs ${l.packed.bytesPerValue} B/value (target ≤ 16), a year of one target's daily runs read in ${l.packed.readMs} ms; ` +
        `one row per value ${l.rowPerValue.bytesPerValue} B/value, inserted at ${l.rowPerValue.insertValuesPerSec} values/s, read in ${l.rowPerValue.readMs} ms`,
      `continuous year of ${TARGET}, postgres: ${serve(serving)}`,
    );
  } else lines.push('ingest, postgres: skipped (set GRIDCAST_TEST_DATABASE_URL)');
  if (r.big) lines.push(`ingest of a ${round(r.big.bytes / 1e9, 2)} GB file (${r.big.store}): ${ingest(r.big)}`);
  return lines;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const report = { when: new Date().toISOString(), ...(await ingestFigures()) };
  const lines = ingestLines(report);
  fs.mkdirSync(path.join(ROOT, 'bench', 'results'), { recursive: true });
  fs.writeFileSync(path.join(ROOT, 'bench', 'results', 'ingest-latest.json'), JSON.stringify(report, null, 2) + '\n');
  process.stdout.write(lines.join('\n') + '\n');
}
