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
  function* batches() {
    for (const batch of table.batches(signal)) yield recordBatch(schema, batch);
  }
  // A table without rows still sends its schema (and the end-of-stream marker).
  const writer = RecordBatchStreamWriter.throughNode({ autoDestroy: true });
  return Readable.from(batches()).pipe(writer);
}
