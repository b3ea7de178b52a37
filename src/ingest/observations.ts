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
  ) {
    super(message);
  }
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

/** What a layout is told and tells back while it reads. */
export interface LayoutContext {
  origin: string;
  /** Zone of times without an offset. */
  timezone?: string;
  /** A bad row: listed, and nothing will be stored. */
  bad(line: number, reason: string): void;
  /** Whether the file holds forecast runs or actuals (known from its header or options). */
  kind(kind: 'forecast' | 'actual'): void;
}
