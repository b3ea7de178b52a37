/**
 * Arrow IPC records (the stream format gridcast writes, and the file format — Feather v2), read
 * by apache-arrow one record batch at a time as the bytes arrive (memory: one batch). Timestamp
 * and date columns come as instants (Date), 64-bit integers as numbers, dictionaries as their
 * strings; the schema's metadata goes to the layout. Rows are numbered from 1.
 */
import { RecordBatchReader, Type, type Field } from 'apache-arrow';
import { IngestError, type Cell, type FileRecord } from './observations.ts';

/** The cell of one value of a field's type. */
function converter(field: Field): (v: unknown) => Cell {
  const id = field.type.typeId;
  if (id === Type.Timestamp || id === Type.Date) return (v) => (v === null ? null : new Date(Number(v)));
  return (v) => (typeof v === 'bigint' ? Number(v) : v === undefined ? null : (v as Cell));
}

export async function* arrowRecords(
  input: AsyncIterable<Uint8Array>,
  origin: string,
  metadata: Record<string, string>,
): AsyncGenerator<FileRecord> {
  // An error of the input itself (a size limit, a broken upload) is not the file's fault: it goes on as it is.
  let inputError: unknown;
  async function* tracked(): AsyncGenerator<Uint8Array> {
    try {
      yield* input;
    } catch (e) {
      inputError = e;
      throw e;
    }
  }
  const problem = (e: unknown) =>
    inputError ?? new IngestError(`${origin}: not a readable Arrow IPC file or stream (${(e as Error).message})`, [], 0, undefined, 'row');
  let reader: Awaited<ReturnType<typeof RecordBatchReader.from>>;
  try {
    reader = await RecordBatchReader.from(tracked());
    await reader.open();
  } catch (e) {
    throw problem(e);
  }
  if (!reader.schema) throw new IngestError(`${origin}: the Arrow stream is empty`, [], 0, undefined, 'row');
  for (const [k, v] of reader.schema.metadata) metadata[k] = v;
  const fields = reader.schema.fields;
  const cells = fields.map(converter);
  yield { line: 0, fields: fields.map((f) => f.name) };
  let row = 0;
  const batches = reader[Symbol.asyncIterator]();
  for (;;) {
    let next;
    try {
      next = await batches.next();
    } catch (e) {
      throw problem(e);
    }
    if (next.done) break;
    const batch = next.value;
    const columns = fields.map((_, c) => batch.getChildAt(c)!);
    for (let r = 0; r < batch.numRows; r++) {
      row++;
      yield { line: row, fields: columns.map((col, c) => cells[c](col.get(r))) };
    }
  }
}
