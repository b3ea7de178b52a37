/**
 * Arrow IPC stream format through the Apache Arrow JS package: the schema message (with the
 * table's metadata), then one record batch per table batch, each encoded only when the client
 * has taken the previous bytes (Node stream back-pressure), then the end-of-stream marker.
 */
import { Readable } from 'node:stream';
import {
  Bool,
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
  type DataType,
} from 'apache-arrow';
import type { ColumnType, Table, TableBatch } from './table.ts';

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

function recordBatch(schema: Schema, batch: TableBatch): RecordBatch {
  const children = schema.fields.map((field, c) => vectorFromArray(batch.columns[c] as unknown[], field.type).data[0]);
  return new RecordBatch(schema, makeData({ type: new Struct(schema.fields), length: batch.rows, nullCount: 0, children }));
}

export function arrowStream(table: Table, signal?: AbortSignal): Readable {
  const schema = new Schema(
    table.fields.map((f) => new Field(f.name, arrowType(f.type), f.type !== 'timestamp')),
    new Map(Object.entries(table.metadata)),
  );
  const batches = table.batches(signal);
  const writer = new RecordBatchStreamWriter();
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
          else writer.write(recordBatch(schema, next.value));
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
