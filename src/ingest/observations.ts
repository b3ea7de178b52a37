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
  /** In the file's unit; NaN = no value. */
  value: Float64Array;

  /** `capacity`: how many are expected (more are taken; the columns grow). */
  constructor(capacity = 1024) {
    this.line = new Float64Array(capacity);
    this.target = new Array<string>(capacity);
    this.hour = new Float64Array(capacity);
    this.stamp = new Float64Array(capacity);
    this.value = new Float64Array(capacity);
  }

  push(line: number, target: string, hour: number, stamp: number, value: number): void {
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
      this.target.length = this.line.length;
    }
    this.line[i] = line;
    this.target[i] = target;
    this.hour[i] = hour;
    this.stamp[i] = stamp;
    this.value[i] = value;
  }
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
