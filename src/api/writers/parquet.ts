/**
 * Parquet: one row group per table batch (a wide table's block of rows, a long table's group of
 * series), each sent as soon as it is encoded; the footer (schema, row-group index, the table's
 * metadata as key/value pairs) comes last, so a client can only read the file once it has all of
 * it. A wide table shared out between two workers is written in two parts: the first (the magic
 * number and its row groups) returns where its row groups lie (PartIndex), and the second writes
 * its row groups, then, given the first part's index, the footer of the whole file.
 *
 * The column chunks are encoded here from the batch's typed columns, one data page (v2) each:
 * numbers PLAIN, copied from their Float64Array rather than value by value; dictionary columns
 * (the long layout's local times and labels) as a dictionary page plus RLE_DICTIONARY indexes;
 * nulls as RLE definition levels. Uncompressed: the JavaScript Snappy and zlib codecs encode
 * 60–70 MB/s, slower than the whole response otherwise takes (bench/ "largest request"), and the
 * rounded doubles they would compress are most of the bytes. hyparquet-writer does the Thrift
 * encoding of page headers and the RLE/bit-packed hybrid of levels and indexes; the footer is
 * encoded from the numbers kept per column chunk (parquetFooter.ts).
 */
import { ByteWriter, type SchemaElement } from 'hyparquet-writer';
import { writePageHeader } from 'hyparquet-writer/src/datapage.js';
import { writeRleBitPackedHybrid } from 'hyparquet-writer/src/encoding.js';
import { WHOLE_BODY } from '../writer.ts';
import { CHUNK_FIELDS, writeFooter, type RowGroupIndex } from './parquetFooter.ts';
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

/** A column chunk's values, ready to write: its present values' bytes, its definition levels, and statistics. */
interface EncodedValues {
  /** PLAIN (or, for a dictionary column, RLE_DICTIONARY) bytes of the present values. */
  data: Uint8Array;
  encoding: 'PLAIN' | 'RLE_DICTIONARY';
  /** RLE/bit-packed definition levels (present or null per row), for an OPTIONAL column. */
  levels?: Uint8Array;
  nulls: number;
  /** PLAIN bytes of the dictionary, for a dictionary column. */
  dictionary?: { data: Uint8Array; count: number };
  /** Smallest and largest present value of a number column (NaN: none, or not a number column). */
  min: number;
  max: number;
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

/** Definition levels of `rows` rows without a null: one RLE run of ones (the same bytes for every such column of a batch). */
const allPresent = new Map<number, Uint8Array>();

/** RLE/bit-packed definition levels (bit width 1) of an OPTIONAL column, from its present (1) or null (0) flags. */
function definitionLevels(rows: number, present?: Uint8Array): Uint8Array {
  if (!present) {
    const cached = allPresent.get(rows);
    if (cached) return cached;
  }
  const levels = new ByteWriter(16);
  if (!present) {
    levels.appendVarInt(rows * 2);
    levels.appendUint8(1);
    if (allPresent.size > 64) allPresent.clear();
    allPresent.set(rows, levels.getBytes().slice());
    return allPresent.get(rows)!;
  }
  writeRleBitPackedHybrid(levels, present, 1);
  return levels.getBytes();
}

/** Numbers of a Float64Array column (NaN = null) as `physical` values; `optional`: with definition levels. */
function encodeNumbers(values: Float64Array, rows: number, physical: 'DOUBLE' | 'INT32' | 'INT64', optional: boolean): EncodedValues {
  let count = 0;
  let min = Infinity;
  let max = -Infinity;
  for (let r = 0; r < rows; r++) {
    const v = values[r];
    if (Number.isNaN(v)) continue;
    count++;
    if (v < min) min = v;
    if (v > max) max = v;
  }
  // Most columns have no null: their values are written as they are, with no pass to pick them out.
  let present: Uint8Array | undefined;
  if (count < rows) {
    present = new Uint8Array(rows);
    for (let r = 0; r < rows; r++) present[r] = Number.isNaN(values[r]) ? 0 : 1;
  }
  let data: Uint8Array;
  if (physical === 'INT64') {
    // Only time_utc is INT64, and it is never null.
    data = new Uint8Array(int64Of(values.subarray(0, rows)).buffer);
  } else if (physical === 'DOUBLE' && !present) {
    data = new Uint8Array(values.buffer, values.byteOffset, rows * 8);
  } else {
    const out = physical === 'DOUBLE' ? new Float64Array(count) : new Int32Array(count);
    if (!present) out.set(values.subarray(0, rows));
    else for (let r = 0, i = 0; r < rows; r++) if (present[r]) out[i++] = values[r];
    data = new Uint8Array(out.buffer);
  }
  return {
    data,
    encoding: 'PLAIN',
    levels: optional ? definitionLevels(rows, present) : undefined,
    nulls: rows - count,
    min: count === 0 ? Number.NaN : min,
    max: count === 0 ? Number.NaN : max,
  };
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
    levels: definitionLevels(rows, count < rows ? present : undefined),
    nulls: rows - count,
    dictionary: { data: plainStrings(dictionary), count: dictionary.length },
    min: Number.NaN,
    max: Number.NaN,
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
  const nulls = rows - kept.length;
  return {
    data,
    encoding: 'PLAIN',
    levels: definitionLevels(rows, nulls > 0 ? present : undefined),
    nulls,
    min: Number.NaN,
    max: Number.NaN,
  };
}

function encodeColumn(field: TableField, column: ColumnData, rows: number): EncodedValues {
  if (column instanceof Float64Array) {
    const physical = field.type === 'timestamp' ? 'INT64' : field.type === 'int' ? 'INT32' : 'DOUBLE';
    // time_utc is REQUIRED: no definition levels.
    return encodeNumbers(column, rows, physical, field.type !== 'timestamp');
  }
  if (isDictionary(column)) return encodeDictionary(column.dictionary, column.indexes, rows);
  return encodeItems(column as readonly (string | boolean | null)[], rows, field.type);
}

/**
 * The header of a data page: the same bytes for every column chunk of a batch with the same
 * sizes (a wide batch's value columns), so each is encoded once.
 */
function dataPageHeader(encoded: EncodedValues, rows: number): Uint8Array {
  const levels = encoded.levels?.length ?? 0;
  const key = `${encoded.encoding} ${rows} ${encoded.nulls} ${levels} ${encoded.data.length}`;
  let bytes = pageHeaders.get(key);
  if (!bytes) {
    const writer = new ByteWriter(64);
    const pageSize = levels + encoded.data.length;
    writePageHeader(writer, {
      type: 'DATA_PAGE_V2',
      uncompressed_page_size: pageSize,
      compressed_page_size: pageSize,
      data_page_header_v2: {
        num_values: rows,
        num_nulls: encoded.nulls,
        num_rows: rows,
        encoding: encoded.encoding,
        definition_levels_byte_length: levels,
        repetition_levels_byte_length: 0,
        is_compressed: false,
      },
    });
    bytes = writer.getBytes().slice();
    if (pageHeaders.size > 1024) pageHeaders.clear();
    pageHeaders.set(key, bytes);
  }
  return bytes;
}
const pageHeaders = new Map<string, Uint8Array>();

/** What the part before the last one returns (Work.earlier): its size and where its row groups lie (offsets from its first byte). */
export interface PartIndex {
  bytes: number;
  groups: RowGroupIndex[];
}

/** Writes one column chunk (dictionary page, data page) and its numbers at `chunks[at…]`. */
function writeChunk(writer: ByteWriter, encoded: EncodedValues, rows: number, chunks: Float64Array, at: number): void {
  const start = writer.offset;
  let dictionaryOffset = -1;
  if (encoded.dictionary) {
    dictionaryOffset = writer.offset;
    const bytes = encoded.dictionary.data;
    writePageHeader(writer, {
      type: 'DICTIONARY_PAGE',
      uncompressed_page_size: bytes.length,
      compressed_page_size: bytes.length,
      dictionary_page_header: { num_values: encoded.dictionary.count, encoding: 'PLAIN' },
    });
    writer.appendBytes(bytes);
  }
  const dataOffset = writer.offset;
  writer.appendBytes(dataPageHeader(encoded, rows));
  if (encoded.levels) writer.appendBytes(encoded.levels);
  writer.appendBytes(encoded.data);
  chunks.set([start, dictionaryOffset, dataOffset, writer.offset - start, encoded.nulls, encoded.min, encoded.max], at * CHUNK_FIELDS);
}

/**
 * The table as a Parquet file (or the `work.part` of it): the magic number is the header; the
 * footer and the closing magic number are the close. A part that does not close returns its
 * PartIndex; the closing part of a file written in parts awaits the earlier part's (Work.earlier).
 */
export async function* parquetPieces(table: Table, work: Work = {}): AsyncGenerator<Uint8Array, PartIndex | undefined> {
  const part = work.part ?? WHOLE_BODY;
  const writer = new ByteWriter();
  const elements = table.fields.map((f) => schemaElement(f.name, f.type));
  const groups: RowGroupIndex[] = [];
  if (part.header) writer.appendUint32(MAGIC);
  for await (const batch of table.batches(work)) {
    const start = writer.offset;
    const chunks = new Float64Array(table.fields.length * CHUNK_FIELDS);
    for (let c = 0; c < table.fields.length; c++) {
      writeChunk(writer, encodeColumn(table.fields[c], batch.columns[c], batch.rows), batch.rows, chunks, c);
    }
    groups.push({ rows: batch.rows, start, size: writer.offset - start, chunks });
    yield drain(writer);
  }
  if (work.signal?.aborted) return;
  if (!part.close) return { bytes: writer.offset, groups };
  // A part that does not begin the file: its offsets are from its own first byte, after the earlier part's.
  const earlier = part.from > 0 && work.earlier ? ((await work.earlier()) as PartIndex) : { bytes: 0, groups: [] };
  writeFooter(writer, {
    schema: [{ name: 'root', num_children: table.fields.length }, ...elements],
    groups: [...earlier.groups.map((group) => ({ group, shift: 0 })), ...groups.map((group) => ({ group, shift: earlier.bytes }))],
    metadata: table.metadata,
    createdBy: 'gridcast',
  });
  writer.appendUint32(MAGIC);
  yield drain(writer);
}
