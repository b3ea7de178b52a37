/**
 * What a file layout reads out of a file: observations (one value of a target at a valid hour,
 * stamped with its run's issue time or its publication time), and the bad rows it finds.
 */

/** Options or file contents that cannot be ingested; nothing was stored. */
export class IngestError extends Error {
  constructor(
    message: string,
    /** Bad rows: line number (or row number in a binary file) and reason (at most MAX_LISTED). */
    readonly problems: { line: number; reason: string }[] = [],
    readonly totalProblems = problems.length,
    /** The option at fault, when it is an option (not the file). */
    readonly option?: string,
    /** What the problems' numbers count: lines of a text file, or records of Parquet, Arrow and JSON (from 1). */
    readonly position: Position = 'line',
  ) {
    super(message);
  }
}

export type Position = 'line' | 'row';

/**
 * One cell of a file: text (CSV, JSON strings), a number or boolean (JSON, Parquet, Arrow), an
 * instant (a Parquet or Arrow timestamp column) or null (a missing value).
 */
export type Cell = string | number | boolean | Date | null;

/**
 * A record of a file as a format reads it: its position (line, or row) and its cells. A format
 * gives the column names first (position 0 for the binary ones), then the rows.
 */
export interface FileRecord {
  line: number;
  fields: Cell[];
}

/** An option that cannot be ingested with (its name without dashes: source, iso, …). */
export function optionError(option: string, message: string): IngestError {
  return new IngestError(message, [], 0, option);
}

/** --column options (NAME=TARGET, or NAME= to leave a column out) as a map. */
export function checkColumnOptions(columns: readonly string[]): Map<string, string> {
  const map = new Map<string, string>();
  for (const c of columns) {
    const at = c.lastIndexOf('=');
    if (at <= 0)
      throw optionError('column', `--column must be NAME=TARGET, a file column and a target id, or NAME= to leave it out (got '${c}')`);
    map.set(c.slice(0, at).trim(), c.slice(at + 1).trim());
  }
  return map;
}

/**
 * Observations read from a part of a file, by column (no object per value): each is one value of
 * a target at a valid hour, stamped with its run's issue time or its publication time.
 */
export class Observations {
  length = 0;
  /** Where in the file (line of a CSV, row of a binary table), for messages. */
  line: Float64Array;
  target: string[];
  /** Valid hour, epoch hours, period-beginning. */
  hour: Float64Array;
  /** Forecasts: the run's issue time; actuals: the publication time (ms). */
  stamp: Float64Array;
  /** In the metric's unit (the layout converts the file's); NaN = no value. */
  value: Float64Array;
  /** The quantile a value is (a probability in (0, 1)), or NaN for the point forecast. */
  quantile: Float64Array;

  /** `capacity`: how many are expected (more are taken; the columns grow). */
  constructor(capacity = 1024) {
    this.line = new Float64Array(capacity);
    this.target = new Array<string>(capacity);
    this.hour = new Float64Array(capacity);
    this.stamp = new Float64Array(capacity);
    this.value = new Float64Array(capacity);
    this.quantile = new Float64Array(capacity);
  }

  /** Empties the columns for the next batch, keeping their memory (a reader that reuses one object per file). */
  clear(): void {
    this.length = 0;
  }

  push(line: number, target: string, hour: number, stamp: number, value: number, quantile = Number.NaN): void {
    const i = this.length++;
    if (i === this.line.length) {
      const grown = (column: Float64Array) => {
        const g = new Float64Array(2 * column.length || 1024);
        g.set(column);
        return g;
      };
      this.line = grown(this.line);
      this.hour = grown(this.hour);
      this.stamp = grown(this.stamp);
      this.value = grown(this.value);
      this.quantile = grown(this.quantile);
      this.target.length = this.line.length;
    }
    this.line[i] = line;
    this.target[i] = target;
    this.hour[i] = hour;
    this.stamp[i] = stamp;
    this.value[i] = value;
    this.quantile[i] = quantile;
  }
}

/** A value in a file's unit into the metric's: `v * scale + offset`. */
export interface Scale {
  scale: number;
  offset: number;
}

/** Rows per batch of a layout that reads a record at a time. */
const BATCH_ROWS = 4096;

/**
 * The observations of records read one at a time, in batches: `read` pushes a record's
 * observations (none for a header or a bad row) onto `out`.
 */
export async function* inBatches<T>(records: AsyncIterable<T>, read: (record: T, out: Observations) => void): AsyncGenerator<Observations> {
  let out = new Observations(BATCH_ROWS);
  for await (const record of records) {
    read(record, out);
    if (out.length >= BATCH_ROWS) {
      yield out;
      out = new Observations(BATCH_ROWS);
    }
  }
  if (out.length) yield out;
}

/** What a layout is told and tells back while it reads. */
export interface LayoutContext {
  origin: string;
  iso: string;
  metric: string;
  /**
   * The group's fixed target ids (the ISO's regions) that a wide file's columns may be named by;
   * empty for groups of open-ended ids (own plants, nodes, hubs), whose columns are mapped with --column.
   */
  targets: ReadonlySet<string>;
  /** Why `id` is not a target of the group (groups.ts), or null when it is. */
  refuse(id: string): string | null;
  /** Zone of times without an offset. */
  timezone?: string;
  /** --column NAME=TARGET: file columns holding a target's values (wide layouts). */
  columns: ReadonlyMap<string, string>;
  /** --value NAME: the column holding the values. */
  value?: string;
  /** --created-at: the issue time of a file that holds one run and no issue-time column. */
  createdAt?: string;
  /** Key/value metadata of the file (Parquet and Arrow), filled in by the format before the first record. */
  metadata: Record<string, string>;
  /**
   * The conversion of values in `unit` (as the file states it; undefined: the file does not
   * say) into the metric's unit, or the reason there is none (a price in MW, a clash with --unit).
   */
  scale(unit: string | undefined): Scale | string;
  /** A bad row: listed, and nothing will be stored. */
  bad(line: number, reason: string): void;
  /** Whether the file holds forecast runs or actuals (known from its header or options). */
  kind(kind: 'forecast' | 'actual'): void;
  /**
   * When an actual at `timeMs` without a publication time became known (ms): once its hour has
   * ended, or its day for a daily metric (groups.ts).
   */
  knownAt(timeMs: number): number;
}
