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

export interface Observation {
  /** Where in the file (line of a CSV, row of a binary table), for messages. */
  line: number;
  target: string;
  /** Valid hour, epoch hours, period-beginning. */
  hour: number;
  /** Forecasts: the run's issue time; actuals: the publication time (ms). */
  stamp: number;
  /** In the file's unit; NaN = no value. */
  value: number;
}

/** A value in a file's unit into the metric's: `v * scale + offset`. */
export interface Scale {
  scale: number;
  offset: number;
}

/** What a layout is told and tells back while it reads. */
export interface LayoutContext {
  origin: string;
  iso: string;
  metric: string;
  /** The targets (ids) values may be for. */
  targets: ReadonlySet<string>;
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
}
