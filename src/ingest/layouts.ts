/**
 * The file layouts an ingest reads, registered once, told apart by the file's column names:
 * EIA-930 balancing-authority data (`Balancing Authority`, `UTC Time at End of Hour`),
 * gridstatus-style wide columns (`Interval Start`), and gridcast's own long layout (`id`,
 * `value`, … — also the layout a header that is none of them is reported against).
 *
 * A CSV in the long layout, the common case, is read in place from the CSV reader's batches
 * (long.ts longCsv); every other file is read as records of cells by its layout's reader.
 */
import { recordsOf, type CsvBatch } from './csv.ts';
import { eia930Layout, isEia930Header } from './eia930.ts';
import type { FileContent } from './formats.ts';
import { isLongHeader, longCsv, longLayout } from './long.ts';
import { IngestError, type FileRecord, type LayoutContext, type Observations } from './observations.ts';

export { checkColumnOptions } from './observations.ts';
import { isWideHeader, wideLayout } from './wide.ts';

interface Layout {
  name: string;
  matches(names: readonly string[], ctx: LayoutContext): boolean;
  read(records: AsyncIterable<FileRecord>, ctx: LayoutContext): AsyncGenerator<Observations>;
}

export const LAYOUTS: readonly Layout[] = [
  { name: 'eia930', matches: isEia930Header, read: eia930Layout },
  { name: 'gridstatus', matches: isWideHeader, read: wideLayout },
  { name: 'long', matches: isLongHeader, read: longLayout },
];

/** The first item again, then the rest. */
async function* withFirst<T>(first: T, rest: AsyncIterator<T>): AsyncGenerator<T> {
  yield first;
  for (;;) {
    const next = await rest.next();
    if (next.done) return;
    yield next.value;
  }
}

/** The layout a header names (the long layout when it names none, to report what it lacks). */
export function layoutOf(names: readonly string[], ctx: LayoutContext): Layout {
  return LAYOUTS.find((l) => l.matches(names, ctx)) ?? LAYOUTS.find((l) => l.name === 'long')!;
}

/** The observations of records of cells, in the layout their header names. */
async function* recordObservations(records: AsyncIterable<FileRecord>, ctx: LayoutContext): AsyncGenerator<Observations> {
  const iterator = records[Symbol.asyncIterator]();
  const first = await iterator.next();
  if (first.done) throw new IngestError(`${ctx.origin}: the file is empty`);
  const names = first.value.fields.map((f) => String(f ?? '').trim());
  yield* layoutOf(names, ctx).read(withFirst(first.value, iterator), ctx);
}

/** The observations of a CSV: the long layout read in place, any other as records. */
async function* csvObservations(batches: AsyncIterable<CsvBatch>, ctx: LayoutContext): AsyncGenerator<Observations> {
  const iterator = batches[Symbol.asyncIterator]();
  const first = await iterator.next();
  if (first.done) throw new IngestError(`${ctx.origin}: the file is empty`);
  const header = first.value;
  const names = Array.from({ length: header.fieldCount(0) }, (_, f) => header.field(0, f).trim());
  const all = withFirst(header, iterator);
  if (layoutOf(names, ctx).name === 'long') yield* longCsv(all, ctx);
  else yield* recordObservations(recordsOf(all), ctx);
}

/** The observations of a file's content, in the layout its header names. */
export function observations(content: FileContent, ctx: LayoutContext): AsyncGenerator<Observations> {
  return content.batches ? csvObservations(content.batches, ctx) : recordObservations(content.records, ctx);
}
