/**
 * `gridcast ingest` and `gridcast sources`: load a file into a stored source, list and delete
 * sources. They work on the store directly (DATABASE_URL, or the embedded data directory — which
 * a running `gridcast serve` holds locked), or with `--server URL` on a running server through its
 * admin API (POST /admin/ingest, GET/DELETE /admin/sources; admin token from --token or
 * GRIDCAST_ADMIN_TOKEN).
 */
import { clockFromEnv } from '../time/clock.ts';
import fs from 'node:fs';
import path from 'node:path';
import { Readable, Transform } from 'node:stream';
import { readCatalog } from '../ingest/catalog.ts';
import { rulesOf } from '../ingest/groups.ts';
import { checkOptions, describeIngest, ingestFile, IngestError, type IngestOptions, type IngestSummary } from '../ingest/ingest.ts';
import { DataDirBusyError } from '../store/embedded.ts';
import { IngestConflictError, type SourceSummary } from '../store/sources.ts';
import type { Store } from '../store/store.ts';
import { optionValue, parseArgs, UsageError, type ParsedArgs } from './args.ts';

/** The admin API of a running server, for --server. */
interface Remote {
  url: string;
  token: string;
}

function remoteOf(args: ParsedArgs): Remote | undefined {
  const url = optionValue(args, 'server');
  if (url === undefined) return undefined;
  const token = optionValue(args, 'token') ?? process.env.GRIDCAST_ADMIN_TOKEN;
  if (!token) throw new UsageError('--server needs the admin token: --token TOKEN or GRIDCAST_ADMIN_TOKEN');
  return { url: url.replace(/\/+$/, ''), token };
}

/** A failure the server answered: its messages, one a line, and the exit code. */
class RemoteError extends Error {
  constructor(
    message: string,
    readonly lines: string[],
    readonly exitCode: number,
  ) {
    super(message);
  }
}

async function callServer(remote: Remote, method: string, pathAndQuery: string, body?: Readable): Promise<unknown> {
  let res: Response;
  try {
    res = await fetch(`${remote.url}${pathAndQuery}`, {
      method,
      // The server tells the format from the file name (passed as a parameter) and the first bytes.
      headers: { authorization: `Bearer ${remote.token}`, 'content-type': 'application/octet-stream' },
      ...(body ? { body: Readable.toWeb(body) as ReadableStream, duplex: 'half' } : {}),
    } as RequestInit);
  } catch (e) {
    throw new Error(`cannot reach ${remote.url}: ${(e as Error & { cause?: Error }).cause?.message ?? (e as Error).message}`);
  }
  const text = await res.text();
  let parsed: unknown = text;
  try {
    parsed = JSON.parse(text);
  } catch {
    // not JSON: reported as text below
  }
  if (res.ok) return parsed;
  const detail = (parsed as { detail?: unknown })?.detail;
  const items = Array.isArray(detail) ? (detail as { msg: string; loc?: (string | number)[] }[]) : [{ msg: String(detail ?? text) }];
  const lines = items.map(
    (i) => (i.loc?.[1] === 'line' || i.loc?.[1] === 'row' ? `${i.loc[1]} ${i.loc[2]}: ` : '') + i.msg.replace(/^Value error, /, ''),
  );
  // A refused file or option is exit 2, as without --server; the server or its token failing is 1.
  const exitCode = [409, 413, 422].includes(res.status) ? 2 : 1;
  throw new RemoteError(`${remote.url} answered ${res.status}`, lines, exitCode);
}

/** The file as a stream; on a terminal, a progress line on stderr as it is read. */
function fileStream(file: string): Readable {
  const stream = fs.createReadStream(file, { highWaterMark: 1024 * 1024 });
  if (!process.stderr.isTTY) return stream;
  const total = fs.statSync(file).size;
  let read = 0;
  let shown = -1;
  const progress = new Transform({
    transform(chunk: Buffer, _enc, done) {
      read += chunk.length;
      const percent = total ? Math.floor((read / total) * 100) : 100;
      if (percent !== shown) {
        shown = percent;
        const bar = '#'.repeat(Math.floor(percent / 5)).padEnd(20, '.');
        process.stderr.write(`\r  [${bar}] ${percent}% of ${(total / 1e6).toFixed(1)} MB`);
      }
      done(null, chunk);
    },
    flush(done) {
      process.stderr.write('\n');
      done();
    },
  });
  stream.on('error', (e) => progress.destroy(e));
  return stream.pipe(progress);
}

type WithStore = <T>(args: ParsedArgs, command: string, fn: (store: Store) => Promise<T>) => Promise<T>;

function need(args: ParsedArgs, name: string): string {
  const v = optionValue(args, name);
  if (v === undefined) throw new UsageError(`ingest needs --${name}`);
  return v;
}

export async function ingestCommand(argv: string[], withStore: WithStore): Promise<void> {
  const replace = argv.includes('--replace');
  const args = parseArgs(
    argv.filter((a) => a !== '--replace'),
    [
      'source',
      'group',
      'iso',
      'metric',
      'type',
      'catalog',
      'timezone',
      'unit',
      'format',
      'column',
      'value',
      'created-at',
      'data',
      'server',
      'token',
    ],
  );
  const file = args.positionals[0];
  if (!file || args.positionals.length > 1) throw new UsageError('ingest takes one FILE');
  if (!fs.existsSync(file)) throw new UsageError(`no file ${file}`);
  const group = optionValue(args, 'group', 'region')!;
  const rules = rulesOf(group);
  const options: IngestOptions = {
    source: need(args, 'source'),
    group,
    // Gas hubs are not tied to an ISO.
    iso: rules?.noIso ? (optionValue(args, 'iso') ?? '') : need(args, 'iso'),
    // LMP series are named by their market type, as in the API's /lmp/{iso}/{type}/ paths; gas has one metric.
    metric: optionValue(args, 'metric') ?? optionValue(args, 'type') ?? rules?.defaultMetric ?? need(args, 'metric'),
    timezone: optionValue(args, 'timezone'),
    unit: optionValue(args, 'unit'),
    replace,
    origin: path.basename(file),
    format: optionValue(args, 'format'),
    columns: args.options.get('column') ?? [],
    value: optionValue(args, 'value'),
    createdAt: optionValue(args, 'created-at'),
  };
  const remote = remoteOf(args);
  const catalogFile = optionValue(args, 'catalog');
  if (catalogFile !== undefined && !fs.existsSync(catalogFile)) throw new UsageError(`no catalog file ${catalogFile}`);
  try {
    if (catalogFile !== undefined) {
      // Checked with the options first, so a catalog for the wrong group is refused as an option.
      const { refuse } = checkOptions({ ...options, catalog: [] });
      options.catalog = await readCatalog(fs.createReadStream(catalogFile), path.basename(catalogFile), refuse);
    }
    let summary: IngestSummary;
    if (remote) {
      if (options.catalog) {
        const query = new URLSearchParams({
          source: options.source,
          group: options.group,
          iso: options.iso,
          filename: path.basename(catalogFile!),
        });
        await callServer(remote, 'POST', `/admin/catalog?${query}`, fs.createReadStream(catalogFile!));
      }
      const query = new URLSearchParams({ ...definedOnly(options), replace: String(replace), filename: options.origin });
      query.delete('origin');
      query.delete('createdAt');
      if (options.createdAt !== undefined) query.set('created_at', options.createdAt);
      for (const column of options.columns ?? []) query.append('column', column);
      summary = (await callServer(remote, 'POST', `/admin/ingest?${query}`, fileStream(file))) as IngestSummary;
    } else {
      summary = await withStore(args, 'gridcast ingest', (store) => ingestFile(store.sources, fileStream(file), options));
    }
    process.stdout.write(describeIngest(summary) + '\n');
  } catch (e) {
    if (e instanceof IngestError) {
      process.stderr.write(`gridcast: ${e.message}\n`);
      for (const p of e.problems) process.stderr.write(`  ${e.position} ${p.line}: ${p.reason}\n`);
      if (e.totalProblems > e.problems.length) process.stderr.write(`  … and ${e.totalProblems - e.problems.length} more\n`);
      process.exitCode = 2;
    } else if (e instanceof IngestConflictError) {
      process.stderr.write(`gridcast: ${options.origin}: ${e.message}; nothing was stored\n`);
      for (const c of e.conflicts) process.stderr.write(`  ${c}\n`);
      if (e.total > e.conflicts.length) process.stderr.write(`  … and ${e.total - e.conflicts.length} more\n`);
      process.exitCode = 2;
    } else if (e instanceof RemoteError) {
      reportRemote(e, options.origin);
    } else if (e instanceof DataDirBusyError) {
      throw new Error(
        `${e.message} To load the file into the running server: gridcast ingest ${file} … --server http://HOST:PORT (admin token).`,
      );
    } else throw e;
  }
}

/** The options that travel as query parameters (the catalog is sent on its own, to /admin/catalog). */
function definedOnly(o: IngestOptions): Record<string, string> {
  return Object.fromEntries(Object.entries(o).filter(([, v]) => typeof v === 'string')) as Record<string, string>;
}

function reportRemote(e: RemoteError, what: string): void {
  process.stderr.write(`gridcast: ${what}: ${e.message}${e.exitCode === 2 ? '; nothing was stored' : ''}\n`);
  for (const line of e.lines) process.stderr.write(`  ${line}\n`);
  process.exitCode = e.exitCode;
}

export async function sourcesCommand(argv: string[], withStore: WithStore): Promise<void> {
  const args = parseArgs(argv, ['data', 'server', 'token']);
  const [sub, name] = args.positionals;
  const remote = remoteOf(args);
  try {
    if (sub === 'list') {
      const list = remote
        ? ((await callServer(remote, 'GET', '/admin/sources')) as SourceSummary[])
        : await withStore(args, 'gridcast sources list', (s) => s.sources.list(clockFromEnv().now()));
      process.stdout.write(
        'name\tseries\truns\tforecast_values\tactuals\tactual_revisions\tlatest_run\tlatest_actual\tfirst_valid_time\tlast_valid_time\n',
      );
      for (const s of list) {
        const series = s.series.map((k) => `${[k.group, k.iso, k.metric].filter(Boolean).join('/')}:${k.targets}`).join(',');
        process.stdout.write(
          `${s.name}\t${series}\t${s.runs}\t${s.forecast_values}\t${s.actuals}\t${s.actual_revisions}\t${s.latest_run ?? '-'}\t${s.latest_actual ?? '-'}\t` +
            `${s.first_valid_time ?? '-'}\t${s.last_valid_time ?? '-'}\n`,
        );
      }
    } else if (sub === 'delete') {
      if (!name) throw new UsageError('sources delete needs the source NAME');
      const deleted = remote
        ? await callServer(remote, 'DELETE', `/admin/sources/${encodeURIComponent(name)}`).then(
            () => true,
            (e: unknown) => (e instanceof RemoteError && e.message.endsWith(' 404') ? false : Promise.reject(e)),
          )
        : await withStore(args, 'gridcast sources delete', (s) => s.sources.delete(name));
      if (!deleted) {
        process.stderr.write(`gridcast: no source '${name}'\n`);
        process.exitCode = 1;
        return;
      }
      process.stdout.write(`Deleted source ${name}\n`);
    } else {
      throw new UsageError(`unknown sources command '${sub ?? ''}' (list, delete NAME)`);
    }
  } catch (e) {
    if (e instanceof RemoteError) reportRemote(e, `sources ${sub}`);
    else throw e;
  }
}
