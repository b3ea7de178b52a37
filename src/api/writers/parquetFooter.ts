/**
 * The footer of a Parquet file (its FileMetaData, Thrift compact protocol), encoded straight from
 * the numbers parquet.ts keeps per column chunk. A wide table's footer indexes every column
 * chunk of every row group (6,000 columns × 23 row groups: 138,000 entries); a generic Thrift
 * writer given an object per entry takes seconds for it, this a small part of that.
 *
 * The bytes are those hyparquet-writer's writeMetadata writes for the same file (its field
 * order, its choice of types: whole numbers as i32, an empty list with element type 0), so that
 * a file is the same whichever writes it. Enum values are parquet.thrift's.
 */
import { ByteWriter, type SchemaElement } from 'hyparquet-writer';

// Thrift compact protocol types.
const TRUE = 1;
const FALSE = 2;
const I32 = 5;
const I64 = 6;
const BINARY = 8;
const LIST = 9;
const STRUCT = 12;

/** parquet.thrift enums: Type, FieldRepetitionType, ConvertedType, Encoding. */
const PHYSICAL_TYPES = ['BOOLEAN', 'INT32', 'INT64', 'INT96', 'FLOAT', 'DOUBLE', 'BYTE_ARRAY', 'FIXED_LEN_BYTE_ARRAY'];
const REPETITIONS = ['REQUIRED', 'OPTIONAL', 'REPEATED'];
const CONVERTED_TYPES: Record<string, number> = { UTF8: 0, TIMESTAMP_MILLIS: 9 };
const PLAIN = 0;
const RLE = 3;
const RLE_DICTIONARY = 8;

const encoder = new TextEncoder();

/** Writes Thrift compact protocol: fields by id within nested structs. */
class Compact {
  /** The last field id of each open struct. */
  private readonly last: number[] = [0];

  constructor(readonly out: ByteWriter) {}

  /** A varint of a non-negative whole number (up to 2^53: offsets and sizes of any file). */
  private varint(value: number): void {
    while (value >= 0x80) {
      this.out.appendUint8((value % 0x80) | 0x80);
      value = Math.floor(value / 0x80);
    }
    this.out.appendUint8(value);
  }

  private field(id: number, type: number): void {
    const delta = id - this.last[this.last.length - 1];
    if (delta > 0 && delta <= 15) this.out.appendUint8((delta << 4) | type);
    else {
      this.out.appendUint8(type);
      this.varint(id * 2);
    }
    this.last[this.last.length - 1] = id;
  }

  /** An i32 field of a non-negative value (zigzag: twice it). */
  i32(id: number, value: number): void {
    this.field(id, I32);
    this.varint(value * 2);
  }

  /** An i64 field of a non-negative value. */
  i64(id: number, value: number): void {
    this.field(id, I64);
    this.varint(value * 2);
  }

  bool(id: number, value: boolean): void {
    this.field(id, value ? TRUE : FALSE);
  }

  binary(id: number, bytes: Uint8Array): void {
    this.field(id, BINARY);
    this.bytes(bytes);
  }

  /** Length-prefixed bytes (a binary field's value or list element). */
  bytes(bytes: Uint8Array): void {
    this.varint(bytes.length);
    this.out.appendBytes(bytes);
  }

  /** A list field's header; its `size` elements follow. An empty list has element type 0. */
  list(id: number, type: number, size: number): void {
    this.field(id, LIST);
    const elements = size === 0 ? 0 : type;
    if (size < 15) this.out.appendUint8((size << 4) | elements);
    else {
      this.out.appendUint8(0xf0 | elements);
      this.varint(size);
    }
  }

  /** A struct field (id), or a struct element of a list (no id); `end()` closes it. */
  struct(id?: number): void {
    if (id !== undefined) this.field(id, STRUCT);
    this.last.push(0);
  }

  end(): void {
    this.out.appendUint8(0);
    this.last.pop();
  }
}

/** Column chunk numbers, as parquet.ts keeps them: start, dictionary page offset (-1: none), data page offset, size, nulls, min, max (NaN: none). */
export const CHUNK_FIELDS = 7;

/** A row group: its rows, start and size, and CHUNK_FIELDS numbers per column chunk. */
export interface RowGroupIndex {
  rows: number;
  start: number;
  size: number;
  chunks: Float64Array;
}

/** A statistic's value: PLAIN bytes of the column's physical type. */
function plainBound(type: string | undefined, value: number): Uint8Array {
  const bytes = new Uint8Array(type === 'INT32' ? 4 : 8);
  const view = new DataView(bytes.buffer);
  if (type === 'INT32') view.setInt32(0, value, true);
  else if (type === 'INT64') view.setBigInt64(0, BigInt(value), true);
  else view.setFloat64(0, value, true);
  return bytes;
}

function writeSchemaElement(t: Compact, element: SchemaElement): void {
  t.struct();
  if (element.type) t.i32(1, PHYSICAL_TYPES.indexOf(element.type));
  if (element.repetition_type) t.i32(3, REPETITIONS.indexOf(element.repetition_type));
  t.binary(4, encoder.encode(element.name));
  if (element.num_children !== undefined) t.i32(5, element.num_children);
  if (element.converted_type) t.i32(6, CONVERTED_TYPES[element.converted_type]);
  const logical = element.logical_type;
  if (logical?.type === 'TIMESTAMP') {
    // LogicalType.TIMESTAMP { isAdjustedToUTC, unit: TimeUnit.MILLIS {} }
    t.struct(10);
    t.struct(8);
    t.bool(1, logical.isAdjustedToUTC);
    t.struct(2);
    t.struct(1);
    t.end();
    t.end();
    t.end();
    t.end();
  }
  t.end();
}

function writeColumnChunk(
  t: Compact,
  element: SchemaElement,
  name: Uint8Array,
  chunks: Float64Array,
  c: number,
  rows: number,
  shift: number,
): void {
  const at = c * CHUNK_FIELDS;
  const [start, dictionaryOffset, dataOffset, size, nulls, min, max] = chunks.subarray(at, at + CHUNK_FIELDS);
  t.struct();
  t.i64(2, start + shift);
  t.struct(3); // ColumnMetaData
  t.i32(1, PHYSICAL_TYPES.indexOf(element.type!));
  const encodings = dictionaryOffset >= 0 ? [PLAIN, RLE, RLE_DICTIONARY] : [PLAIN, RLE];
  t.list(2, I32, encodings.length);
  for (const e of encodings) t.out.appendUint8(e * 2);
  t.list(3, BINARY, 1);
  t.bytes(name);
  t.i32(4, 0); // UNCOMPRESSED
  t.i64(5, rows);
  t.i64(6, size);
  t.i64(7, size);
  t.i64(9, dataOffset + shift);
  if (dictionaryOffset >= 0) t.i64(11, dictionaryOffset + shift);
  t.struct(12); // Statistics
  t.i64(3, nulls);
  if (!Number.isNaN(min)) {
    t.binary(5, plainBound(element.type, max));
    t.binary(6, plainBound(element.type, min));
  }
  t.end();
  t.end();
  t.end();
}

export interface Footer {
  /** The schema: its root, then one element per column. */
  schema: SchemaElement[];
  /** Row groups, each `shift` bytes further into the file than its numbers say. */
  groups: { group: RowGroupIndex; shift: number }[];
  metadata: Record<string, string>;
  createdBy: string;
}

/** Writes the FileMetaData and its length (the closing magic number is the caller's). */
export function writeFooter(out: ByteWriter, footer: Footer): void {
  const t = new Compact(out);
  const start = out.offset;
  const columns = footer.schema.slice(1);
  const names = columns.map((element) => encoder.encode(element.name));
  t.i32(1, 2); // version
  t.list(2, STRUCT, footer.schema.length);
  for (const element of footer.schema) writeSchemaElement(t, element);
  t.i64(
    3,
    footer.groups.reduce((rows, { group }) => rows + group.rows, 0),
  );
  t.list(4, STRUCT, footer.groups.length);
  for (const { group, shift } of footer.groups) {
    t.struct();
    t.list(1, STRUCT, columns.length);
    for (let c = 0; c < columns.length; c++) writeColumnChunk(t, columns[c], names[c], group.chunks, c, group.rows, shift);
    t.i64(2, group.size);
    t.i64(3, group.rows);
    t.i64(5, group.start + shift);
    t.i64(6, group.size);
    t.end();
  }
  const entries = Object.entries(footer.metadata);
  t.list(5, STRUCT, entries.length);
  for (const [key, value] of entries) {
    t.struct();
    t.binary(1, encoder.encode(key));
    t.binary(2, encoder.encode(value));
    t.end();
  }
  t.binary(6, encoder.encode(footer.createdBy));
  // column_orders: TYPE_DEFINED_ORDER for every column.
  t.list(7, STRUCT, columns.length);
  for (let c = 0; c < columns.length; c++) {
    t.struct();
    t.struct(1);
    t.end();
    t.end();
  }
  t.end();
  out.appendUint32(out.offset - start);
}
