/**
 * Parquet through hyparquet-writer: one row group per table batch, each sent as soon as it is
 * encoded (a wide frame is computed whole first, a long one a group of series at a time); the
 * footer (schema, row-group index, the table's metadata as key/value pairs) comes last, so a
 * client can only read the file once it has all of it. Snappy-compressed, as is customary.
 */
import { ByteWriter, ParquetWriter, type SchemaElement } from 'hyparquet-writer';
import type { ColumnType, Table } from './table.ts';

function schemaElement(name: string, type: ColumnType): SchemaElement {
  switch (type) {
    case 'timestamp':
      return {
        name,
        type: 'INT64',
        repetition_type: 'REQUIRED',
        converted_type: 'TIMESTAMP_MILLIS',
        logical_type: { type: 'TIMESTAMP', isAdjustedToUTC: true, unit: 'MILLIS' },
      };
    case 'string':
      return { name, type: 'BYTE_ARRAY', converted_type: 'UTF8', repetition_type: 'OPTIONAL' };
    case 'double':
      return { name, type: 'DOUBLE', repetition_type: 'OPTIONAL' };
    case 'int':
      return { name, type: 'INT32', repetition_type: 'OPTIONAL' };
    case 'boolean':
      return { name, type: 'BOOLEAN', repetition_type: 'OPTIONAL' };
  }
}

/** The bytes written since the last call, leaving the writer's absolute offset (used in the footer) as it is. */
function drain(writer: ByteWriter): Uint8Array {
  const bytes = writer.getBytes().slice();
  writer.index = 0;
  return bytes;
}

export async function* parquetPieces(table: Table, signal?: AbortSignal): AsyncGenerator<Uint8Array> {
  const writer = new ByteWriter();
  const parquet = new ParquetWriter({
    writer,
    schema: [{ name: 'root', num_children: table.fields.length }, ...table.fields.map((f) => schemaElement(f.name, f.type))],
    kvMetadata: Object.entries(table.metadata).map(([key, value]) => ({ key, value })),
    createdBy: 'gridcast',
  });
  for await (const batch of table.batches(signal)) {
    void parquet.write({
      columnData: table.fields.map((f, c) => ({
        name: f.name,
        data: f.type === 'timestamp' ? batch.columns[c].map((ms) => new Date(ms as number)) : [...batch.columns[c]],
      })),
      rowGroupSize: Math.max(1, batch.rows),
    });
    yield drain(writer);
  }
  if (signal?.aborted) return;
  void parquet.finish();
  yield drain(writer);
}
