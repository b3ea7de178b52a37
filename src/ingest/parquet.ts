/**
 * Parquet records, read by hyparquet one row group at a time (memory: one row group, never the
 * file). A Parquet file's index is its footer, at the end: the upload is first written to a
 * temporary file (removed afterwards), then read from there. Codecs: uncompressed, Snappy
 * (hyparquet's own), GZIP and Brotli (node:zlib); others (ZSTD, LZ4) are refused by name.
 *
 * Timestamps come as instants (Date), 64-bit integers as numbers; the file's key/value metadata
 * (gridcast writes `units`, `timezone`, `model`, `created_at`) goes to the layout. Rows are
 * numbered from 1.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';
import { Readable } from 'node:stream';
import zlib from 'node:zlib';
import { asyncBufferFromFile, parquetMetadataAsync, parquetRead, parquetSchema, type FileMetaData } from 'hyparquet';
import { IngestError, type Cell, type FileRecord } from './observations.ts';

const COMPRESSORS = {
  GZIP: (input: Uint8Array) => new Uint8Array(zlib.gunzipSync(input)),
  BROTLI: (input: Uint8Array) => new Uint8Array(zlib.brotliDecompressSync(input)),
};

function cellOf(v: unknown): Cell {
  if (typeof v === 'bigint') return Number(v);
  if (v === undefined) return null;
  if (v instanceof Uint8Array) return Buffer.from(v).toString('utf8');
  return v as Cell;
}

/** hyparquet's reasons, as a user reads them. */
function problem(origin: string, e: unknown): IngestError {
  const reason = (e as Error).message.replace(/^parquet /, '');
  return new IngestError(`${origin}: not a readable Parquet file (${reason})`, [], 0, undefined, 'row');
}

export async function* parquetRecords(
  input: AsyncIterable<Uint8Array>,
  origin: string,
  metadata: Record<string, string>,
): AsyncGenerator<FileRecord> {
  const dir = await fs.promises.mkdtemp(path.join(os.tmpdir(), 'gridcast-ingest-'));
  try {
    const file = path.join(dir, 'upload.parquet');
    await pipeline(Readable.from(input), fs.createWriteStream(file));
    const buffer = await asyncBufferFromFile(file);
    let meta: FileMetaData;
    let names: string[];
    try {
      meta = await parquetMetadataAsync(buffer);
      const columns = parquetSchema(meta).children;
      const nested = columns.find((c) => c.children.length > 0);
      if (nested) throw new Error(`column ${nested.element.name} is nested; a flat table is expected`);
      names = columns.map((c) => c.element.name);
    } catch (e) {
      throw problem(origin, e);
    }
    for (const { key, value } of meta.key_value_metadata ?? []) if (value !== undefined) metadata[key] = value;
    yield { line: 0, fields: names };
    let rowStart = 0;
    for (const group of meta.row_groups) {
      const rowEnd = rowStart + Number(group.num_rows);
      let rows: unknown[][] = [];
      try {
        await parquetRead({ file: buffer, metadata: meta, rowStart, rowEnd, compressors: COMPRESSORS, onComplete: (r) => (rows = r) });
      } catch (e) {
        throw problem(origin, e);
      }
      for (let r = 0; r < rows.length; r++) yield { line: rowStart + r + 1, fields: rows[r].map(cellOf) };
      rowStart = rowEnd;
    }
  } finally {
    await fs.promises.rm(dir, { recursive: true, force: true });
  }
}
