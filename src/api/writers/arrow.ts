/**
 * Arrow IPC stream format through the Apache Arrow JS package: the schema message (with the
 * table's metadata), then one record batch per table batch, each encoded only when the client
 * has taken the previous bytes (Node stream back-pressure), then the end-of-stream marker.
 *
 * Numbers go from the batch's Float64Arrays into Arrow buffers as they are (with a validity
 * bitmap where there are nulls), not value by value; dictionary columns (the long layout's local
 * times and labels) are Arrow dictionaries, sent once per stream, so a repeated id costs 4 bytes.
 */
import { Readable } from 'node:stream';
import {
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

export function arrowStream(table: Table, work?: Work): Readable {
  const batches = table.batches(work);
  const writer = new RecordBatchStreamWriter();
  const dictionaries = new Map<readonly string[], Vector>();
  let schema: Schema | undefined;
  const recordBatch = (batch: TableBatch) => {
    schema ??= schemaOf(table, batch);
    const children = schema.fields.map((field, c) => columnData(field.type, batch.columns[c], batch.rows, dictionaries));
    return new RecordBatch(schema, makeData({ type: new Struct(schema.fields), length: batch.rows, nullCount: 0, children }));
  };
  // A batch is encoded only when the response asks for more bytes (back-pressure): the writer
  // queues the encoded messages, and a loop moves them to the response as they come.
  let pulling = false;
  const out = new Readable({
    highWaterMark: 1,
    read() {
      if (pulling) return;
      pulling = true;
      batches.next().then(
        (next) => {
          pulling = false;
          if (next.done) writer.close();
          else writer.write(recordBatch(next.value));
        },
        (e: Error) => out.destroy(e),
      );
    },
    destroy(err, callback) {
      void batches.return(undefined);
      writer.abort();
      callback(err);
    },
  });
  void (async () => {
    for await (const chunk of writer) out.push(chunk);
    out.push(null);
  })().catch((e: Error) => out.destroy(e));
  return out;
}
