/**
 * The file layouts an ingest reads, registered once, told apart by the file's column names:
 * EIA-930 balancing-authority data (`Balancing Authority`, `UTC Time at End of Hour`),
 * gridstatus-style wide columns (`Interval Start`), and gridcast's own long layout (`id`,
 * `value`, … — also the layout a header that is none of them is reported against).
 */
import { eia930Layout, isEia930Header } from './eia930.ts';
import { isLongHeader, longLayout } from './long.ts';
import { IngestError, optionError, type FileRecord, type LayoutContext, type Observation } from './observations.ts';
import { isWideHeader, wideLayout } from './wide.ts';

interface Layout {
  name: string;
  matches(names: readonly string[], ctx: LayoutContext): boolean;
  read(records: AsyncIterable<FileRecord>, ctx: LayoutContext): AsyncGenerator<Observation>;
}

export const LAYOUTS: readonly Layout[] = [
  { name: 'eia930', matches: isEia930Header, read: eia930Layout },
  { name: 'gridstatus', matches: isWideHeader, read: wideLayout },
  { name: 'long', matches: isLongHeader, read: longLayout },
];

/** --column options (NAME=TARGET, or NAME= to leave a column out) as a map. */
export function checkColumnOptions(columns: readonly string[]): Map<string, string> {
  const map = new Map<string, string>();
  for (const c of columns) {
    const at = c.lastIndexOf('=');
    if (at <= 0)
      throw optionError('column', `--column must be NAME=TARGET, a file column and a target id, or NAME= to leave it out (got '${c}')`);
    map.set(c.slice(0, at).trim(), c.slice(at + 1).trim());
  }
  return map;
}

/** The header again, then the rest of the records. */
async function* withHeader(header: FileRecord, rest: AsyncIterator<FileRecord>): AsyncGenerator<FileRecord> {
  yield header;
  for (;;) {
    const next = await rest.next();
    if (next.done) return;
    yield next.value;
  }
}

/** The observations of a file's records, in the layout its header names. */
export async function* observations(records: AsyncIterable<FileRecord>, ctx: LayoutContext): AsyncGenerator<Observation> {
  const iterator = records[Symbol.asyncIterator]();
  const first = await iterator.next();
  if (first.done) throw new IngestError(`${ctx.origin}: the file is empty`);
  const names = first.value.fields.map((f) => String(f ?? '').trim());
  const layout = LAYOUTS.find((l) => l.matches(names, ctx)) ?? LAYOUTS.find((l) => l.name === 'long')!;
  yield* layout.read(withHeader(first.value, iterator), ctx);
}
