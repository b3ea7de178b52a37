/**
 * Parquet: one row group per table batch (a wide table's block of rows, a long table's group of
 * series), each sent as soon as it is encoded; the footer (schema, row-group index, the table's
 * metadata as key/value pairs) comes last, so a client can only read the file once it has all of
 * it.
 *
 * The column chunks are encoded here from the batch's typed columns, one data page (v2) each:
 * numbers PLAIN, copied from their Float64Array rather than value by value; dictionary columns
 * (the long layout's local times and labels) as a dictionary page plus RLE_DICTIONARY indexes;
 * nulls as RLE definition levels. Uncompressed: the JavaScript Snappy and zlib codecs encode
 * 60–70 MB/s, slower than the whole response otherwise takes (bench/ "largest request"), and the
 * rounded doubles they would compress are most of the bytes. hyparquet-writer does the Thrift
 * encoding of page headers and the footer and the RLE/bit-packed hybrid of levels and indexes.
 */
import { ByteWriter, type SchemaElement } from 'hyparquet-writer';
import { writePageHeader } from 'hyparquet-writer/src/datapage.js';
import { writeRleBitPackedHybrid } from 'hyparquet-writer/src/encoding.js';
import { writeMetadata } from 'hyparquet-writer/src/metadata.js';
import type { ColumnChunk, RowGroup, Statistics } from 'hyparquet';
import { int64Of, isDictionary, type ColumnData, type ColumnType, type Table, type TableField, type Work } from './table.ts';

/** "PAR1", the magic number at both ends of the file. */
const MAGIC = 0x31524150;

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

const encoder = new TextEncoder();

/** The bytes written since the last call, leaving the writer's absolute offset (used in the footer) as it is. */
function drain(writer: ByteWriter): Uint8Array {
  const bytes = writer.getBytes().slice();
  writer.index = 0;
  return bytes;
}

/** A column chunk's values, ready to write: its present values' bytes, which rows are present, and statistics. */
interface EncodedValues {
  /** PLAIN (or, for a dictionary column, RLE_DICTIONARY) bytes of the present values. */
  data: Uint8Array;
  encoding: 'PLAIN' | 'RLE_DICTIONARY';
  /** Present (1) or null (0) per row, for an OPTIONAL column. */
  present?: Uint8Array;
  nulls: number;
  /** PLAIN bytes of the dictionary, for a dictionary column. */
  dictionary?: { data: Uint8Array; count: number };
  statistics: Statistics;
}

/** PLAIN byte arrays: each string's UTF-8 length (4 bytes) then its bytes. */
function plainStrings(strings: readonly string[]): Uint8Array {
  const parts = strings.map((s) => encoder.encode(s));
  const out = new Uint8Array(parts.reduce((n, p) => n + 4 + p.length, 0));
  const view = new DataView(out.buffer);
  let at = 0;
  for (const p of parts) {
    view.setUint32(at, p.length, true);
    out.set(p, at + 4);
    at += 4 + p.length;
  }
  return out;
}

/** Numbers of a Float64Array column (NaN = null) as `physical` values. */
function encodeNumbers(values: Float64Array, rows: number, physical: 'DOUBLE' | 'INT32' | 'INT64'): EncodedValues {
  const present = new Uint8Array(rows);
  let count = 0;
  let min = Infinity;
  let max = -Infinity;
  for (let r = 0; r < rows; r++) {
    const v = values[r];
    if (Number.isNaN(v)) continue;
    present[r] = 1;
    count++;
    if (v < min) min = v;
    if (v > max) max = v;
  }
  let data: Uint8Array;
  if (physical === 'INT64') {
    // Only time_utc is INT64, and it is never null.
    data = new Uint8Array(int64Of(values.subarray(0, rows)).buffer);
  } else {
    const out = physical === 'DOUBLE' ? new Float64Array(count) : new Int32Array(count);
    if (count === rows) out.set(values.subarray(0, rows));
    else for (let r = 0, i = 0; r < rows; r++) if (present[r]) out[i++] = values[r];
    data = new Uint8Array(out.buffer);
  }
  const bounds =
    count === 0 ? {} : physical === 'INT64' ? { min_value: BigInt(min), max_value: BigInt(max) } : { min_value: min, max_value: max };
  return { data, encoding: 'PLAIN', present, nulls: rows - count, statistics: { ...bounds, null_count: BigInt(rows - count) } };
}

/** Indexes (-1 = null) into a dictionary: the dictionary page and RLE_DICTIONARY indexes of the present rows. */
function encodeDictionary(dictionary: readonly string[], indexes: Int32Array, rows: number): EncodedValues {
  const present = new Uint8Array(rows);
  const kept = new Int32Array(rows);
  let count = 0;
  for (let r = 0; r < rows; r++) {
    if (indexes[r] < 0) continue;
    present[r] = 1;
    kept[count++] = indexes[r];
  }
  const bitWidth = Math.max(1, Math.ceil(Math.log2(dictionary.length + 1)));
  const page = new ByteWriter();
  page.appendUint8(bitWidth);
  writeRleBitPackedHybrid(page, kept.subarray(0, count), bitWidth);
  return {
    data: page.getBytes().slice(),
    encoding: 'RLE_DICTIONARY',
    present,
    nulls: rows - count,
    dictionary: { data: plainStrings(dictionary), count: dictionary.length },
    statistics: { null_count: BigInt(rows - count) },
  };
}

/** Strings or booleans given as a list (null = missing). */
function encodeItems(items: readonly (string | boolean | null)[], rows: number, type: ColumnType): EncodedValues {
  const present = Uint8Array.from(items.slice(0, rows), (v) => (v === null ? 0 : 1));
  const kept = items.slice(0, rows).filter((v) => v !== null);
  let data: Uint8Array;
  if (type === 'boolean') {
    data = new Uint8Array(Math.ceil(kept.length / 8));
    kept.forEach((v, i) => (data[i >> 3] |= v ? 1 << (i & 7) : 0));
  } else data = plainStrings(kept.map(String));
  return { data, encoding: 'PLAIN', present, nulls: rows - kept.length, statistics: { null_count: BigInt(rows - kept.length) } };
}

function encodeColumn(field: TableField, column: ColumnData, rows: number): EncodedValues {
  if (column instanceof Float64Array) {
    const physical = field.type === 'timestamp' ? 'INT64' : field.type === 'int' ? 'INT32' : 'DOUBLE';
    const encoded = encodeNumbers(column, rows, physical);
    // time_utc is REQUIRED: no definition levels.
    return field.type === 'timestamp' ? { ...encoded, present: undefined } : encoded;
  }
  if (isDictionary(column)) return encodeDictionary(column.dictionary, column.indexes, rows);
  return encodeItems(column as readonly (string | boolean | null)[], rows, field.type);
}

/**
 * RLE/bit-packed definition levels (bit width 1) of an OPTIONAL column: with no null, one RLE
 * run of `rows` ones (most columns: no pass over the rows); else the general hybrid encoding.
 */
function definitionLevels(present: Uint8Array, nulls: number, rows: number): Uint8Array {
  const levels = new ByteWriter();
  if (nulls === 0) {
    levels.appendVarInt(rows * 2);
    levels.appendUint8(1);
  } else writeRleBitPackedHybrid(levels, present, 1);
  return levels.getBytes();
}

/** Writes one column chunk (dictionary page, data page) and returns its footer entry. */
function writeChunk(writer: ByteWriter, element: SchemaElement, field: TableField, encoded: EncodedValues, rows: number): ColumnChunk {
  const start = writer.offset;
  let dictionaryOffset: bigint | undefined;
  let size = 0;
  if (encoded.dictionary) {
    dictionaryOffset = BigInt(writer.offset);
    const bytes = encoded.dictionary.data;
    writePageHeader(writer, {
      type: 'DICTIONARY_PAGE',
      uncompressed_page_size: bytes.length,
      compressed_page_size: bytes.length,
      dictionary_page_header: { num_values: encoded.dictionary.count, encoding: 'PLAIN' },
    });
    writer.appendBytes(bytes);
    size += writer.offset - Number(dictionaryOffset);
  }
  const levelBytes = encoded.present ? definitionLevels(encoded.present, encoded.nulls, rows) : new Uint8Array(0);
  const dataOffset = BigInt(writer.offset);
  const pageSize = levelBytes.length + encoded.data.length;
  writePageHeader(writer, {
    type: 'DATA_PAGE_V2',
    uncompressed_page_size: pageSize,
    compressed_page_size: pageSize,
    data_page_header_v2: {
      num_values: rows,
      num_nulls: encoded.nulls,
      num_rows: rows,
      encoding: encoded.encoding,
      definition_levels_byte_length: levelBytes.length,
      repetition_levels_byte_length: 0,
      is_compressed: false,
    },
  });
  writer.appendBytes(levelBytes);
  writer.appendBytes(encoded.data);
  size += writer.offset - Number(dataOffset);
  return {
    file_offset: BigInt(start),
    meta_data: {
      type: element.type!,
      encodings: encoded.dictionary ? ['PLAIN', 'RLE', 'RLE_DICTIONARY'] : ['PLAIN', 'RLE'],
      path_in_schema: [field.name],
      codec: 'UNCOMPRESSED',
      num_values: BigInt(rows),
      total_uncompressed_size: BigInt(size),
      total_compressed_size: BigInt(size),
      data_page_offset: dataOffset,
      dictionary_page_offset: dictionaryOffset,
      statistics: encoded.statistics,
    },
  };
}

export async function* parquetPieces(table: Table, work: Work = {}): AsyncGenerator<Uint8Array> {
  const writer = new ByteWriter();
  const elements = table.fields.map((f) => schemaElement(f.name, f.type));
  const rowGroups: RowGroup[] = [];
  let totalRows = 0n;
  writer.appendUint32(MAGIC);
  for await (const batch of table.batches(work)) {
    const start = writer.offset;
    const columns: ColumnChunk[] = [];
    for (let c = 0; c < table.fields.length; c++) {
      const encoded = encodeColumn(table.fields[c], batch.columns[c], batch.rows);
      columns.push(writeChunk(writer, elements[c], table.fields[c], encoded, batch.rows));
    }
    const size = BigInt(writer.offset - start);
    rowGroups.push({
      columns,
      num_rows: BigInt(batch.rows),
      total_byte_size: size,
      total_compressed_size: size,
      file_offset: BigInt(start),
    });
    totalRows += BigInt(batch.rows);
    yield drain(writer);
  }
  if (work.signal?.aborted) return;
  writeMetadata(writer, {
    version: 2,
    created_by: 'gridcast',
    schema: [{ name: 'root', num_children: table.fields.length }, ...elements],
    num_rows: totalRows,
    row_groups: rowGroups,
    key_value_metadata: Object.entries(table.metadata).map(([key, value]) => ({ key, value })),
    metadata_length: 0,
  });
  writer.appendUint32(MAGIC);
  yield drain(writer);
}
