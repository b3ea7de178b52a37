/**
 * `gridcast ingest` and `gridcast sources`: load a file into a stored source, list and delete
 * sources. They work on the store directly (DATABASE_URL, or the embedded data directory — which
 * a running `gridcast serve` holds locked: stop it first).
 */
import fs from 'node:fs';
import path from 'node:path';
import { describeIngest, ingestCsv, IngestError } from '../ingest/ingest.ts';
import { IngestConflictError, MAX_LISTED } from '../store/sources.ts';
import type { Store } from '../store/store.ts';
import { optionValue, parseArgs, UsageError, type ParsedArgs } from './args.ts';

export const INGEST_USAGE = `  gridcast ingest FILE --source NAME --group region --iso ISO --metric METRIC [--timezone ZONE] [--unit MW|GW|kW] [--replace]
      Loads a CSV in gridcast's long layout (time_utc, id, value; with created_at: forecast runs,
      else actuals with an optional published_at) into the stored source NAME, served as
      model=NAME (and /actual?source=NAME). All or nothing; a run stored with other values is
      refused unless --replace. Exit 2 on a bad file (up to ${MAX_LISTED} bad rows listed).
  gridcast sources list | delete NAME
      The stored sources (series, runs, values, span), or delete one with everything it holds.`;

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
    ['source', 'group', 'iso', 'metric', 'timezone', 'unit', 'data'],
  );
  const file = args.positionals[0];
  if (!file || args.positionals.length > 1) throw new UsageError('ingest takes one FILE');
  if (!fs.existsSync(file)) throw new UsageError(`no file ${file}`);
  const options = {
    source: need(args, 'source'),
    group: optionValue(args, 'group', 'region')!,
    iso: need(args, 'iso'),
    metric: need(args, 'metric'),
    timezone: optionValue(args, 'timezone'),
    unit: optionValue(args, 'unit'),
    replace,
    origin: path.basename(file),
  };
  try {
    const summary = await withStore(args, 'gridcast ingest', (store) => ingestCsv(store.sources, fs.createReadStream(file), options));
    process.stdout.write(describeIngest(summary) + '\n');
  } catch (e) {
    if (e instanceof IngestError) {
      process.stderr.write(`gridcast: ${e.message}\n`);
      for (const p of e.problems) process.stderr.write(`  line ${p.line}: ${p.reason}\n`);
      if (e.totalProblems > e.problems.length) process.stderr.write(`  … and ${e.totalProblems - e.problems.length} more\n`);
      process.exitCode = 2;
    } else if (e instanceof IngestConflictError) {
      process.stderr.write(`gridcast: ${options.origin}: ${e.message}; nothing was stored\n`);
      for (const c of e.conflicts) process.stderr.write(`  ${c}\n`);
      if (e.total > e.conflicts.length) process.stderr.write(`  … and ${e.total - e.conflicts.length} more\n`);
      process.exitCode = 2;
    } else throw e;
  }
}

export async function sourcesCommand(argv: string[], withStore: WithStore): Promise<void> {
  const args = parseArgs(argv, ['data']);
  const [sub, name] = args.positionals;
  if (sub === 'list') {
    const list = await withStore(args, 'gridcast sources list', (s) => s.sources.list());
    process.stdout.write('name\tseries\truns\tforecast_values\tactuals\tlatest_run\tfirst_valid_time\tlast_valid_time\n');
    for (const s of list) {
      const series = s.series.map((k) => `${k.group}/${k.iso}/${k.metric}:${k.targets}`).join(',');
      process.stdout.write(
        `${s.name}\t${series}\t${s.runs}\t${s.forecast_values}\t${s.actuals}\t${s.latest_run ?? '-'}\t${s.first_valid_time ?? '-'}\t${s.last_valid_time ?? '-'}\n`,
      );
    }
  } else if (sub === 'delete') {
    if (!name) throw new UsageError('sources delete needs the source NAME');
    const deleted = await withStore(args, 'gridcast sources delete', (s) => s.sources.delete(name));
    if (!deleted) {
      process.stderr.write(`gridcast: no source '${name}'\n`);
      process.exitCode = 1;
      return;
    }
    process.stdout.write(`Deleted source ${name}\n`);
  } else {
    throw new UsageError(`unknown sources command '${sub ?? ''}' (list, delete NAME)`);
  }
}
