/**
 * Arrow IPC stream format through the Apache Arrow JS package: the schema message (with the
 * table's metadata), then one record batch per table batch, each encoded only when the previous
 * piece has been taken, then the end-of-stream marker. The schema message is the header and the
 * end-of-stream marker the close, so a wide table's record batches can be written in parts by
 * two workers and joined.
 *
 * Numbers go from the batch's Float64Arrays into Arrow buffers as they are (with a validity
 * bitmap where there are nulls), not value by value; dictionary columns (the long layout's local
 * times and labels) are Arrow dictionaries, sent once per stream, so a repeated id costs 4 bytes.
 */
import {
  AsyncByteQueue,
  Bool,
  Dictionary,
  Field,
  Float64,
  Int32,
  makeData,
  RecordBatch,
  RecordBatchStreamWriter,
  Schema,
  Struct,
  TimestampMillisecond,
  Utf8,
  vectorFromArray,
  type Data,
  type DataType,
  type Vector,
} from 'apache-arrow';
import { WHOLE_BODY } from '../writer.ts';
import { int64Of, isDictionary, type ColumnData, type ColumnType, type Table, type TableBatch, type Work } from './table.ts';

function arrowType(type: ColumnType): DataType {
  switch (type) {
    case 'timestamp':
      return new TimestampMillisecond('UTC');
    case 'string':
      return new Utf8();
    case 'double':
      return new Float64();
    case 'int':
      return new Int32();
    case 'boolean':
      return new Bool();
  }
}

/** Validity bitmap (bit set = present) of rows whose test says present, and how many are null. */
function validity(rows: number, present: (r: number) => boolean): { nullBitmap?: Uint8Array; nullCount: number } {
  // Most columns have no null: no bitmap to build.
  let r = 0;
  while (r < rows && present(r)) r++;
  if (r === rows) return { nullCount: 0 };
  const bitmap = new Uint8Array(Math.ceil(rows / 8));
  let nullCount = 0;
  for (let r = 0; r < rows; r++) {
    if (present(r)) bitmap[r >> 3] |= 1 << (r & 7);
    else nullCount++;
  }
  return nullCount === 0 ? { nullCount } : { nullBitmap: bitmap, nullCount };
}

/** Arrow's data for one batch column of a field. */
function columnData(type: DataType, column: ColumnData, rows: number, dictionaries: Map<readonly string[], Vector>): Data {
  if (column instanceof Float64Array) {
    const nulls = validity(rows, (r) => !Number.isNaN(column[r]));
    if (type instanceof TimestampMillisecond) return makeData({ type, length: rows, data: int64Of(column), ...nulls });
    if (type instanceof Int32) return makeData({ type, length: rows, data: Int32Array.from(column), ...nulls });
    return makeData({ type: type as Float64, length: rows, data: column, ...nulls });
  }
  if (isDictionary(column)) {
    // The same Vector for every batch: the stream writer sends a dictionary it has seen only once.
    let dictionary = dictionaries.get(column.dictionary);
    if (!dictionary) dictionaries.set(column.dictionary, (dictionary = vectorFromArray(column.dictionary as string[], new Utf8())));
    const nulls = validity(rows, (r) => column.indexes[r] >= 0);
    const indexes = nulls.nullCount === 0 ? column.indexes : column.indexes.map((i) => Math.max(0, i));
    return makeData({ type: type as Dictionary<Utf8, Int32>, length: rows, data: indexes, dictionary, ...nulls });
  }
  return vectorFromArray(column as unknown[], type).data[0];
}

/**
 * The stream's schema: a string field whose first batch comes as a dictionary column is an
 * Arrow dictionary (the layout decides, the same for every batch of a table).
 */
function schemaOf(table: Table, first: TableBatch): Schema {
  return new Schema(
    table.fields.map((f, c) => {
      // The dictionary's id is its field's position, not a process-wide counter: the same request gives the same bytes.
      const type = isDictionary(first.columns[c]) ? new Dictionary(new Utf8(), new Int32(), c) : arrowType(f.type);
      return new Field(f.name, type, f.type !== 'timestamp');
    }),
    new Map(Object.entries(table.metadata)),
  );
}

/**
 * A record batch of `schema` over `data`, made as RecordBatch's constructor would leave it. The
 * constructor first reconciles the schema with the lengths of the data's children
 * (Schema.assign, which looks each field up by name among all the others: quadratic in the
 * fields, ~0.3 s a batch of 6,000 columns); these children are made from the schema with the
 * batch's length, so there is nothing to reconcile.
 */
function recordBatch(schema: Schema, data: Data<Struct>): RecordBatch {
  return Object.assign(Object.create(RecordBatch.prototype) as RecordBatch, { schema, data, _metadata: new Map<string, string>() });
}

/**
 * The writer's output, taken as it is written: the stream writer writes into an AsyncByteQueue,
 * and this one keeps each message's pieces to be joined into one piece per message group.
 */
class Collected extends AsyncByteQueue {
  private chunks: Uint8Array[] = [];

  override write(value: Uint8Array): void {
    if (value.byteLength > 0) this.chunks.push(value);
  }

  /** The bytes written since the last call, in one array of their own. */
  take(): Uint8Array {
    const out = new Uint8Array(this.chunks.reduce((n, c) => n + c.byteLength, 0));
    let at = 0;
    for (const chunk of this.chunks) {
      out.set(chunk, at);
      at += chunk.byteLength;
    }
    this.chunks = [];
    return out;
  }
}

/** The table as an Arrow IPC stream (or the `work.part` of it): one piece with the schema, one per record batch, one with the end. */
export async function* arrowPieces(table: Table, work: Work = {}): AsyncGenerator<Uint8Array> {
  const part = work.part ?? WHOLE_BODY;
  const sink = new Collected();
  const writer = new RecordBatchStreamWriter();
  const dictionaries = new Map<readonly string[], Vector>();
  let schema: Schema | undefined;
  for await (const batch of table.batches(work)) {
    if (!schema) {
      schema = schemaOf(table, batch);
      // Writes the schema message.
      writer.reset(sink, schema);
      const header = sink.take();
      if (part.header) yield header;
    }
    const children = schema.fields.map((field, c) => columnData(field.type, batch.columns[c], batch.rows, dictionaries));
    writer.write(recordBatch(schema, makeData({ type: new Struct(schema.fields), length: batch.rows, nullCount: 0, children })));
    yield sink.take();
  }
  if (work.signal?.aborted) return;
  // Writes the end-of-stream marker.
  writer.close();
  const close = sink.take();
  if (part.close) yield close;
}
