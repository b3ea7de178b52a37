/**
 * `gridcast get`: downloads any public endpoint into a file, through the TypeScript SDK
 * (src/client):
 *
 *   gridcast get region ercot demand continuous --start 2026-01-01 --end 2026-06-30 --format parquet -o ercot.parquet
 *
 * - The positionals name the operation as its path does: the group, the path parameters in
 *   path order, then the kind (`gas forecast`, `county ercot continuous`, `lmp pjm dalmp list`).
 * - Every other query parameter is an option (`--latest-hour 10`, `--id ercot_total`). They are
 *   checked with the service's own validation before any request, so a bad one is a clear
 *   message and exit code 2.
 * - A window longer than the API's 365 days is fetched in chunks. Each chunk is saved in
 *   `FILE.parts/`, and running the same command again after a failure fetches only what is
 *   missing. The file is written at the end, by the service's own writers (csv, parquet,
 *   arrow, json), and the parts are removed. A failure that running again cannot mend (a 4xx
 *   other than 408 and 429) removes them too.
 * - A progress bar goes to stderr when it is a terminal, and is erased at the end; piped, the
 *   command prints nothing but errors. With -o -, a reader that stops early (`| head`) ends the
 *   command quietly.
 */
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { validateParams, type ParamSpec } from '../api/params.ts';
import { API_PREFIX, ROUTE_BY_PATH } from '../api/routes/index.ts';
import { withStoredModels } from '../api/storedSources.ts';
import { OUTPUT_WRITERS, outputPieces, type OutputOptions } from '../api/writers/registry.ts';
import {
  GridcastClient,
  GridcastError,
  joinsWindowChunks,
  OPERATIONS,
  planWindows,
  TimeseriesResponse,
  type ChunkWindow,
  type OperationName,
} from '../client/index.ts';
import type { Frame } from '../query/frame.ts';
import { SOURCE_NAME } from '../sources/names.ts';
import { HOUR_MS } from '../time/hours.ts';
import { HelpRequested, isHelpFlag, UsageError } from './args.ts';

/** Client errors that may pass by themselves (a time-out, a rate limit): the parts are kept for a resume. */
const RESUMABLE_4XX: ReadonlySet<number> = new Set([408, 429]);

/** The CLI's own options; every other --name is a query parameter of the operation. */
const OWN_OPTIONS = ['format', 'output', 'o', 'key', 'url', 'layout', 'timeout'];

interface GetArgs {
  positionals: string[];
  options: Map<string, string>;
}

function parseGetArgs(argv: readonly string[]): GetArgs {
  const positionals: string[] = [];
  const options = new Map<string, string>();
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i];
    if (isHelpFlag(arg)) throw new HelpRequested();
    if (arg === '-o') {
      if (i + 1 >= argv.length) throw new UsageError('-o needs a file name (or - for stdout)');
      options.set('output', argv[++i]);
    } else if (arg.startsWith('--')) {
      const eq = arg.indexOf('=');
      const name = arg.slice(2, eq < 0 ? undefined : eq).replace(/-/g, '_');
      const value = eq >= 0 ? arg.slice(eq + 1) : argv[++i];
      if (value === undefined) throw new UsageError(`--${name} needs a value`);
      options.set(name, value);
    } else positionals.push(arg);
  }
  return { positionals, options };
}

/** The operation the positionals name, with its path parameters. */
function operationOf(positionals: readonly string[]): { method: OperationName; path: string; pathParams: string[] } {
  const [group, ...rest] = positionals;
  const kind = rest[rest.length - 1];
  const candidates = Object.entries(OPERATIONS).filter(([, p]) => p.split('/')[1] === group);
  if (!group || candidates.length === 0) {
    const groups = [...new Set(Object.values(OPERATIONS).map((p) => p.split('/')[1]))].join(', ');
    throw new UsageError(`the first word names the group: one of ${groups}${group ? ` (got '${group}')` : ''}`);
  }
  const match = candidates.find(([, p]) => {
    const segments = p.split('/').slice(2);
    return segments.length === rest.length && segments[segments.length - 1] === kind;
  });
  if (!match) {
    const forms = candidates.map(
      ([, p]) =>
        `${group} ${p
          .split('/')
          .slice(2)
          .join(' ')
          .replace(/\{(\w+)\}/g, (_, name: string) => name.toUpperCase())}`,
    );
    throw new UsageError(`'${positionals.join(' ')}' is no operation; the ${group} operations are: ${forms.join(', ')}`);
  }
  return { method: match[0] as OperationName, path: match[1], pathParams: rest.slice(0, -1) };
}

/** The service's own validation of the path and query parameters: every problem in one message. */
function checkParams(path: string, pathParams: readonly string[], query: Record<string, string>): void {
  const def = ROUTE_BY_PATH.get(path);
  if (!def) throw new UsageError(`no route ${path}`);
  const names = [...path.matchAll(/\{(\w+)\}/g)].map((m) => m[1]);
  const known = new Set(def.params.filter((p: ParamSpec) => p.in === 'query').map((p) => p.name));
  const unknown = Object.keys(query).filter((name) => !known.has(name));
  if (unknown.length > 0) {
    throw new UsageError(
      `unknown option ${unknown.map((n) => `--${n.replace(/_/g, '-')}`).join(', ')}; this operation takes ${[...known].map((n) => `--${n.replace(/_/g, '-')}`).join(', ')}`,
    );
  }
  // `model` may also name a stored source, which only the service knows: a source's name passes here
  // (the service checks that it exists, and answers a 422 listing the models and sources if not).
  const model = query.model;
  const params =
    def.storedModels && model !== undefined && SOURCE_NAME.test(model) ? withStoredModels(def.params, new Set([model])) : def.params;
  const { errors } = validateParams(params, { path: Object.fromEntries(names.map((n, i) => [n, pathParams[i]])), query });
  if (errors.length > 0)
    throw new UsageError(errors.map((e) => `${e.loc[e.loc.length - 1]}: ${e.msg} (got ${JSON.stringify(e.input)})`).join('; '));
}

/** A TimeseriesResponse as a Frame, for the service's writers (its values are written as they came). */
function frameOf(body: TimeseriesResponse): Frame {
  const hours = body.time_utc.map((t) => Date.parse(t) / HOUR_MS);
  return {
    model: body.model,
    createdAtHour: body.created_at === null ? null : Date.parse(body.created_at) / HOUR_MS,
    units: body.units,
    timezone: body.timezone,
    hours,
    // The values were rounded by the service already; more places write them unchanged.
    decimals: 6,
    columns: body.columns.map((label, c) => ({
      label,
      fill: (out: Float64Array) => body.values[c].forEach((v, i) => (out[i] = v ?? Number.NaN)),
    })),
  };
}

/** Back to the line's start and erase it (a shorter line must not leave the end of a longer one). */
const CLEAR_LINE = '\r\x1b[K';

/** A progress line redrawn in place on a terminal and erased at the end; nothing when stderr is not one. */
function progress(total: number): { step(done: number, note: string): void; end(): void } {
  const tty = process.stderr.isTTY === true;
  const started = Date.now();
  return {
    step(done, note) {
      if (!tty) return;
      const width = 30;
      const filled = Math.round((done / Math.max(1, total)) * width);
      const secs = ((Date.now() - started) / 1000).toFixed(0);
      process.stderr.write(`${CLEAR_LINE}[${'#'.repeat(filled)}${'.'.repeat(width - filled)}] ${done}/${total} ${note} ${secs} s`);
    },
    end() {
      if (tty) process.stderr.write(CLEAR_LINE);
    },
  };
}

/**
 * Writes the pieces to stdout, waiting when the reader is slower. A reader that closes the
 * pipe (`| head -c 300`) has all it wants: the write stops quietly (EPIPE is no error here).
 */
async function writeToStdout(pieces: AsyncIterable<string | Uint8Array> | Iterable<string | Uint8Array>): Promise<void> {
  try {
    await pipeline(Readable.from(pieces), process.stdout, { end: false });
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code !== 'EPIPE') throw e;
  }
}

async function writeAtomically(file: string, pieces: AsyncIterable<string | Uint8Array> | Iterable<string | Uint8Array>): Promise<void> {
  if (file === '-') return writeToStdout(pieces);
  const tmp = `${file}.tmp-${process.pid}`;
  const out = fs.createWriteStream(tmp);
  try {
    for await (const p of pieces) if (!out.write(p)) await new Promise<void>((r) => out.once('drain', () => r()));
    await new Promise<void>((resolve, reject) => out.end((err?: Error | null) => (err ? reject(err) : resolve())));
    fs.renameSync(tmp, file);
  } catch (e) {
    out.destroy();
    fs.rmSync(tmp, { force: true });
    throw e;
  }
}

export async function getCommand(argv: readonly string[]): Promise<void> {
  const { positionals, options } = parseGetArgs(argv);
  const { method, path: opPath, pathParams } = operationOf(positionals);
  const query = Object.fromEntries([...options].filter(([name]) => !OWN_OPTIONS.includes(name)));
  checkParams(opPath, pathParams, query);
  const format = options.get('format') ?? 'json';
  if (!OUTPUT_WRITERS.some((w) => w.name === format))
    throw new UsageError(`--format is one of ${OUTPUT_WRITERS.map((w) => w.name).join(', ')} (got '${format}')`);
  const layout = options.get('layout') ?? 'wide';
  if (layout !== 'wide' && layout !== 'long') throw new UsageError(`--layout is wide or long (got '${layout}')`);
  const file = options.get('output');
  if (!file) throw new UsageError('get needs -o FILE (or -o - for stdout)');
  const apiKey = options.get('key') ?? process.env.GRIDCAST_API_KEY;
  if (!apiKey) throw new UsageError('get needs an API key: --key KEY or GRIDCAST_API_KEY');
  const baseUrl = options.get('url') ?? process.env.GRIDCAST_URL ?? `http://127.0.0.1:8000${API_PREFIX}`;
  const timeout = options.get('timeout');
  const timeoutMs = timeout === undefined ? undefined : Number(timeout) * 1000;
  if (timeoutMs !== undefined && !(timeoutMs > 0 && Number.isFinite(timeoutMs)))
    throw new UsageError(`--timeout takes a number of seconds (got '${timeout}')`);

  const client = new GridcastClient({ apiKey, baseUrl, timeoutMs });
  // Dynamic dispatch over the SDK's typed methods: the operation was resolved from OPERATIONS.
  const call = (client as unknown as Record<string, (...args: unknown[]) => Promise<unknown>>)[method].bind(client);
  const windows: (ChunkWindow | null)[] =
    query.start && query.end && joinsWindowChunks(method) ? (planWindows(query.start, query.end) ?? [null]) : [null];
  // Chunks are saved as they arrive; a different request's parts are never mixed in.
  const partsDir = file === '-' ? null : `${file}.parts`;
  const fingerprint = crypto
    .createHash('sha256')
    .update(JSON.stringify([baseUrl, opPath, pathParams, query]))
    .digest('hex')
    .slice(0, 16);
  if (partsDir) {
    const manifest = path.join(partsDir, 'request.txt');
    if (fs.existsSync(partsDir) && (!fs.existsSync(manifest) || fs.readFileSync(manifest, 'utf8') !== fingerprint)) {
      throw new UsageError(`${partsDir} holds the parts of another download: remove it, or run that download again`);
    }
    fs.mkdirSync(partsDir, { recursive: true });
    fs.writeFileSync(manifest, fingerprint);
  }
  const bar = progress(windows.length);
  const parts: unknown[] = [];
  for (const [i, window] of windows.entries()) {
    const partFile = partsDir && path.join(partsDir, `${String(i).padStart(4, '0')}.json`);
    bar.step(i, window ? `${window.start} … ${window.end}` : '');
    if (partFile && fs.existsSync(partFile)) {
      parts.push(JSON.parse(fs.readFileSync(partFile, 'utf8')));
      continue;
    }
    let body: unknown;
    try {
      const result = await call(...pathParams, { ...query, ...(window ?? {}) });
      body = result instanceof TimeseriesResponse ? result.toJSON() : result;
    } catch (e) {
      // One chunk of several before history begins (or after it ends) is no data, not a failure.
      if (windows.length > 1 && e instanceof GridcastError && e.status === 422) body = null;
      else {
        bar.end();
        const saved = partsDir ? fs.readdirSync(partsDir).filter((f) => f.endsWith('.json')).length : 0;
        const where = window && windows.length > 1 ? ` (chunk ${i + 1}/${windows.length}, ${window.start} … ${window.end})` : '';
        // Only a failure that may pass (the network, the server, a rate limit) is worth resuming.
        const resumable = saved > 0 && !(e instanceof GridcastError && e.status < 500 && !RESUMABLE_4XX.has(e.status));
        if (partsDir && !resumable) fs.rmSync(partsDir, { recursive: true, force: true });
        const resume = resumable ? ` ${saved} chunk(s) are saved in ${partsDir}: run the same command again to fetch the rest.` : '';
        throw new Error(`${e instanceof Error ? e.message : String(e)}${where}.${resume}`);
      }
    }
    if (partFile) {
      fs.writeFileSync(`${partFile}.tmp`, JSON.stringify(body));
      fs.renameSync(`${partFile}.tmp`, partFile);
    }
    parts.push(body);
  }
  bar.step(windows.length, 'writing');
  const present = parts.filter((p) => p !== null);
  if (present.length === 0) {
    if (partsDir) fs.rmSync(partsDir, { recursive: true, force: true });
    throw new Error('the service has no data for any part of this window');
  }
  const output: OutputOptions = { format, layout, agg: 'mean' };
  let content: Frame | unknown[];
  if (Array.isArray(present[0])) content = present.flat();
  else {
    // Chunks of instants share their boundary hour: each part keeps only the rows after the last one.
    let last = -Infinity;
    const series = present.map((p) => {
      const part = new TimeseriesResponse(p as ConstructorParameters<typeof TimeseriesResponse>[0]).rowsAfter(last);
      if (part.length > 0) last = Date.parse(part.time_utc[part.length - 1]);
      return part;
    });
    content = frameOf(TimeseriesResponse.concat(series));
  }
  await writeAtomically(file, outputPieces(content, output));
  bar.end();
  if (partsDir) fs.rmSync(partsDir, { recursive: true, force: true });
}
