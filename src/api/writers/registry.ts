/**
 * The output writers, registered once: each has a name (the `format` parameter), a content type
 * (for `Accept` negotiation and the OpenAPI document), a file extension, and a function from a
 * response's content (a Frame, or a list of records) to the body in pieces. The pieces are
 * computed as they are pulled and stop when the request's signal aborts; they depend on nothing
 * but their arguments, so the same writers can run wherever the content is computed.
 *
 * `json` is the public service's TimeseriesResponse / record list, byte for byte as before.
 */
import { createHash } from 'node:crypto';
import type { Frame } from '../../query/frame.ts';
import { formatUtcInstant } from '../../time/hours.ts';
import { AGGREGATIONS, RESAMPLE_PERIODS, resampleFrame, timeZoneOf, type Aggregation, type ResamplePeriod } from '../../query/resample.ts';
import type { ParamSpec, ParamValue } from '../params.ts';
import type { RouteDef } from '../route.ts';
import { frameJsonPieces, valueTextWriter } from '../writer.ts';
import { arrowPieces } from './arrow.ts';
import { csvPieces } from './csv.ts';
import { parquetPieces } from './parquet.ts';
import {
  cellValue,
  frameTable,
  isDictionary,
  linePieces,
  recordsTable,
  type ColumnData,
  type Layout,
  type Table,
  type TableField,
  type Work,
} from './table.ts';

export type Content = Frame | readonly unknown[];
type Pieces = Iterable<string | Uint8Array> | AsyncIterable<string | Uint8Array>;

export interface WriteOptions extends Work {
  /** Wide (one column per series) or long (one row per hour and series); lists have one layout. */
  layout: Layout;
}

/**
 * A response body: its pieces, computed as they are pulled, and how many parts it can be written
 * in apart and joined (WriteOptions.part): a JSON body's columns, a wide table's blocks; 1 when
 * it cannot be shared out.
 */
export interface Body {
  pieces: Pieces;
  parts: number;
}

export interface OutputWriter {
  name: string;
  contentType: string;
  extension: string;
  body(content: Content, options: WriteOptions): Body;
}

export function isFrame(content: Content): content is Frame {
  return !Array.isArray(content);
}

function tableOf(content: Content, layout: Layout): Table {
  return isFrame(content) ? frameTable(content, layout) : recordsTable(content);
}

/** A writer of the tabular formats: the content as a table, then the format's encoding of it. */
function tabular(name: string, contentType: string, extension: string, encode: (table: Table, work: Work) => Pieces): OutputWriter {
  return {
    name,
    contentType,
    extension,
    body: (content, { layout, ...work }) => {
      const table = tableOf(content, layout);
      return { pieces: encode(table, work), parts: table.parts };
    },
  };
}

const JSON_WRITER: OutputWriter = {
  name: 'json',
  contentType: 'application/json',
  extension: 'json',
  body: (content, { layout, ...work }) => {
    if (!isFrame(content)) return { pieces: [JSON.stringify(content)], parts: 1 };
    // The long layout has no JSON form of its own: as JSON it is the table's rows as records.
    if (layout === 'long') return { pieces: longJsonPieces(frameTable(content, 'long'), work), parts: 1 };
    return { pieces: frameJsonPieces(content, work.signal, work.part), parts: content.columns.length };
  },
};

/** The JSON text of each row of a batch column, as a function of the row. */
function jsonTexts(field: TableField, column: ColumnData): (r: number) => string {
  if (column instanceof Float64Array) {
    const text =
      field.type === 'timestamp'
        ? (ms: number) => JSON.stringify(formatUtcInstant(ms))
        : field.decimals === undefined
          ? String
          : valueTextWriter(field.decimals);
    return (r) => (Number.isNaN(column[r]) ? 'null' : text(column[r]));
  }
  if (isDictionary(column)) {
    const texts = column.dictionary.map((s) => JSON.stringify(s));
    return (r) => (column.indexes[r] < 0 ? 'null' : texts[column.indexes[r]]);
  }
  return (r) => JSON.stringify(cellValue(column, r));
}

/** The long layout as a JSON array of row objects (time_utc as in the TimeseriesResponse). */
async function* longJsonPieces(table: Table, work: Work): AsyncGenerator<string> {
  let first = true;
  const names = table.fields.map((f) => JSON.stringify(f.name) + ':');
  yield '[';
  for await (const batch of table.batches(work)) {
    if (batch.rows === 0) continue;
    const texts = batch.columns.map((column, c) => jsonTexts(table.fields[c], column));
    const cells = new Array<string>(texts.length);
    const row = (r: number) => {
      for (let c = 0; c < texts.length; c++) cells[c] = names[c] + texts[c](r);
      return '{' + cells.join(',') + '}';
    };
    for (const piece of linePieces(batch.rows, row, ',')) {
      yield (first ? '' : ',') + piece;
      first = false;
    }
  }
  yield ']';
}

export const OUTPUT_WRITERS: readonly OutputWriter[] = [
  JSON_WRITER,
  tabular('csv', 'text/csv; charset=utf-8', 'csv', csvPieces),
  tabular('parquet', 'application/vnd.apache.parquet', 'parquet', parquetPieces),
  tabular('arrow', 'application/vnd.apache.arrow.stream', 'arrows', arrowPieces),
];

const mediaType = (contentType: string) => contentType.split(';')[0].trim().toLowerCase();

export const FORMAT_PARAM: ParamSpec = {
  name: 'format',
  in: 'query',
  kind: 'enum',
  values: OUTPUT_WRITERS.map((w) => w.name),
  description:
    'Output format: json (the TimeseriesResponse or record list), csv, parquet or arrow (Arrow IPC stream). ' +
    `Default: negotiated from the Accept header (${OUTPUT_WRITERS.map((w) => mediaType(w.contentType)).join(', ')}), ` +
    'else json; format wins over Accept.',
};

export const LAYOUT_PARAM: ParamSpec = {
  name: 'layout',
  in: 'query',
  kind: 'enum',
  values: ['wide', 'long'],
  default: 'wide',
  description:
    'Table layout. wide: time_utc, time_local, then one column per series, named by its label levels joined with "|" ' +
    '(a "\\" or "|" inside a level is escaped with "\\"); for json the TimeseriesResponse. long: one row per hour and ' +
    'series: time_utc, time_local, id, label_1, … (the label levels), value; for json an array of such rows.',
};

export const RESAMPLE_PARAM: ParamSpec = {
  name: 'resample',
  in: 'query',
  kind: 'enum',
  values: RESAMPLE_PERIODS,
  description:
    'Aggregate the rows into buckets of local time (in tz): 1h (the rows as they are), 1d (local days: 23 hours on the ' +
    'spring-forward day, 25 on the fall-back day), 1w (local weeks, Monday to Sunday) or 1mo (local calendar months). A ' +
    "bucket holds the response's rows that begin in it (edge buckets of a window can be partial), is labelled by its " +
    'first hour (local midnight) and is null when none of its values is present. Default: no resampling.',
};

export const AGG_PARAM: ParamSpec = {
  name: 'agg',
  in: 'query',
  kind: 'enum',
  values: AGGREGATIONS,
  default: 'mean',
  description: 'How resample combines the present values of a bucket: mean, sum, min or max.',
};

export const TZ_PARAM: ParamSpec = {
  name: 'tz',
  in: 'query',
  kind: 'string',
  description:
    "Time zone of time_local, of the response's timezone field and of resample's bucket boundaries: an IANA name " +
    "(e.g. America/New_York, any case) or utc. Default: the ISO's (the target's) own zone.",
};

/** The route with the output parameters after its own (layout, resampling and tz only where the answer is a time series). */
export function withOutputParams(def: RouteDef): RouteDef {
  const extra = def.response.kind === 'timeseries' ? [FORMAT_PARAM, LAYOUT_PARAM, RESAMPLE_PARAM, AGG_PARAM, TZ_PARAM] : [FORMAT_PARAM];
  return { ...def, params: [...def.params, ...extra] };
}

/**
 * The writer an `Accept` header asks for: the supported media type with the highest q (the
 * first listed on a tie); json when it names none of them (as the public service, which
 * ignores Accept, would answer).
 */
export function writerForAccept(accept: string | undefined): OutputWriter {
  let best: { writer: OutputWriter; q: number } | undefined;
  for (const part of (accept ?? '').split(',')) {
    const [type, ...params] = part.split(';').map((s) => s.trim().toLowerCase());
    const q = params.map((p) => /^q=([0-9.]+)$/.exec(p)).find(Boolean);
    const weight = q ? Number(q[1]) : 1;
    const writer = OUTPUT_WRITERS.find((w) => mediaType(w.contentType) === type);
    if (writer && weight > 0 && (!best || weight > best.q)) best = { writer, q: weight };
  }
  return best?.writer ?? JSON_WRITER;
}

/**
 * What a request asks of its output, as plain data (it can be posted to a worker thread with the
 * query): the format (from `format=`, else negotiated from Accept), the layout, and how the frame
 * is reshaped (resampling, time zone) before it is written.
 */
export interface OutputOptions {
  format: string;
  layout: Layout;
  resample?: ResamplePeriod;
  agg: Aggregation;
  /** Canonical IANA zone for time_local and buckets, when the request names one. */
  timezone?: string;
}

export interface Output {
  options: OutputOptions;
  headers: Record<string, string>;
}

/** Longest download name, extension included: well within every file system's 255 bytes. */
const MAX_FILE_NAME = 200;

/** A parameter's value as it goes into a file name: dates as written, instants in UTC, the rest as given. */
function fileNameValue(value: ParamValue): string {
  if (typeof value !== 'object') return String(value);
  if ('iso' in value) return value.iso;
  if (value.dateOnly) return `${value.year}-${String(value.month).padStart(2, '0')}-${String(value.day).padStart(2, '0')}`;
  return formatUtcInstant(value.epochMs).replace(/:/g, '');
}

/**
 * The download name: the route's path with its path parameters filled in, then every query
 * parameter that differs from its default as `name-value`, in declaration order (`format` is the
 * extension), e.g. `region_ercot_demand_continuous_start-2026-01-01_end-2026-02-01.csv`. So two
 * requests for different data get different names and the same request always the same one.
 * Anything but letters, digits, `_`, `.` and `-` becomes `-`; a name over MAX_FILE_NAME keeps
 * its beginning and ends with a hash of the whole, so it stays distinct.
 */
function fileName(def: RouteDef, params: Record<string, ParamValue>, extension: string): string {
  const safe = (text: string) => text.replace(/[^\w.-]+/g, '-');
  const path = def.path.replace(/\{(\w+)\}/g, (_, name: string) => safe(String(params[name]))).replace(/^\//, '');
  const query = def.params
    .filter((spec) => spec.in === 'query' && spec !== FORMAT_PARAM)
    .filter((spec) => params[spec.name] !== undefined && params[spec.name] !== ('default' in spec ? spec.default : undefined))
    .map((spec) => `${spec.name}-${safe(fileNameValue(params[spec.name]))}`);
  const stem = [...path.split('/').map(safe), ...query].join('_');
  const room = MAX_FILE_NAME - extension.length - 1;
  if (stem.length <= room) return `${stem}.${extension}`;
  const digest = createHash('sha256').update(stem).digest('hex').slice(0, 12);
  return `${stem.slice(0, room - digest.length - 1)}-${digest}.${extension}`;
}

const writerNamed = (name: string) => OUTPUT_WRITERS.find((w) => w.name === name) ?? JSON_WRITER;

/**
 * What the validated parameters and the Accept header ask for, and the headers that say so. An
 * unknown tz is a 422 here, before anything is computed.
 */
export function chooseOutput(def: RouteDef, params: Record<string, ParamValue>, accept: string | undefined): Output {
  const writer = params.format === undefined ? writerForAccept(accept) : writerNamed(params.format as string);
  const options: OutputOptions = {
    format: writer.name,
    layout: (params.layout as Layout | undefined) ?? 'wide',
    resample: params.resample as ResamplePeriod | undefined,
    agg: (params.agg as Aggregation | undefined) ?? 'mean',
    timezone: typeof params.tz === 'string' ? timeZoneOf(params.tz) : undefined,
  };
  const headers: Record<string, string> = { 'content-type': writer.contentType };
  if (writer !== JSON_WRITER) headers['content-disposition'] = `attachment; filename="${fileName(def, params, writer.extension)}"`;
  return { options, headers };
}

/** The frame as asked for: resampled and in the requested time zone (the same frame without those options). */
function reshape(frame: Frame, o: OutputOptions): Frame {
  if (o.resample === undefined && o.timezone === undefined) return frame;
  return resampleFrame(frame, { period: o.resample, agg: o.agg, timezone: o.timezone });
}

/**
 * The body (or the `work.part` of it), computed as it is pulled, stopping when `work.signal`
 * aborts: a pure function of the content and the options, for whichever thread computes the content.
 */
export function outputBody(content: Content, options: OutputOptions, work: Work = {}): Body {
  const shaped = isFrame(content) ? reshape(content, options) : content;
  return writerNamed(options.format).body(shaped, { layout: options.layout, ...work });
}

/** The whole body in pieces. */
export function outputPieces(content: Content, options: OutputOptions): Pieces {
  return outputBody(content, options).pieces;
}

/** Plain JSON (the TimeseriesResponse, wide, not reshaped): a small one is written whole, in one piece. */
export function isPlainJson(options: OutputOptions): boolean {
  return (
    options.format === JSON_WRITER.name && options.layout === 'wide' && options.resample === undefined && options.timezone === undefined
  );
}

/** The OpenAPI `content` of a 200 response: the JSON schema, and every other format as a file. */
export function openApiContent(jsonSchema: object): Record<string, { schema: object }> {
  return Object.fromEntries(
    OUTPUT_WRITERS.map((w) => [
      mediaType(w.contentType),
      { schema: w === JSON_WRITER ? jsonSchema : w.name === 'csv' ? { type: 'string' } : { type: 'string', format: 'binary' } },
    ]),
  );
}
