/**
 * A TimeseriesResponse as the API sends it — columnar: one time axis (`time_utc`,
 * `time_local`) and one series of values per column label — with helpers to read it by
 * column or as rows. Times stay strings until asked for as Dates.
 */
import type { TimeseriesBody } from './operations.ts';

/** One row of `toRows()`: the times, and one field per column (named by `labelKey`). */
export interface TimeseriesRow {
  time_utc: Date;
  /** The local time with its UTC offset, as the server wrote it (a Date would lose the offset). */
  time_local: string;
  [column: string]: number | null | Date | string;
}

const SEPARATOR = '|';

/**
 * The field name of a column label: its levels joined with '|', a '|' or '\' inside a level
 * escaped with '\' so that different labels never share a name. A single-level label such
 * as ['56001'] is just '56001'; ['ercot_total', 'demand', 'forecast'] is
 * 'ercot_total|demand|forecast'.
 */
export function labelKey(label: readonly string[]): string {
  return label.map((level) => level.replace(/[\\|]/g, (c) => `\\${c}`)).join(SEPARATOR);
}

export class TimeseriesResponse implements TimeseriesBody {
  readonly model: string | null;
  readonly created_at: string | null;
  readonly units: string;
  readonly timezone: string;
  readonly time_utc: string[];
  readonly time_local: string[];
  readonly columns: string[][];
  readonly values: (number | null)[][];
  private timesCache?: Date[];
  private keysCache?: Map<string, number>;

  constructor(body: TimeseriesBody) {
    this.model = body.model;
    this.created_at = body.created_at;
    this.units = body.units;
    this.timezone = body.timezone;
    this.time_utc = body.time_utc;
    this.time_local = body.time_local;
    this.columns = body.columns;
    this.values = body.values;
  }

  /** Number of rows. */
  get length(): number {
    return this.time_utc.length;
  }

  /** `time_utc` as Dates (parsed once, on first use). */
  timesUtc(): Date[] {
    this.timesCache ??= this.time_utc.map((t) => new Date(t));
    return this.timesCache;
  }

  /** `created_at` as a Date; null for continuous series and actuals. */
  createdAt(): Date | null {
    return this.created_at === null ? null : new Date(this.created_at);
  }

  /** The field name (`labelKey`) of every column, in order. */
  columnKeys(): string[] {
    return this.columns.map(labelKey);
  }

  private columnIndex(): Map<string, number> {
    if (!this.keysCache) {
      const index = new Map<string, number>();
      this.columns.forEach((label, i) => {
        const key = labelKey(label);
        if (key === 'time_utc' || key === 'time_local')
          throw new Error(`a column is labelled '${key}', which clashes with the time fields of a row`);
        if (index.has(key)) throw new Error(`two columns are labelled '${key}'`);
        index.set(key, i);
      });
      this.keysCache = index;
    }
    return this.keysCache;
  }

  /**
   * The series of one column, by its label (`['56001']`), its field name (`'56001'`,
   * `'ercot_total|demand|forecast'`) or a plant's numeric id as `listPlants()` gives it (`56001`).
   */
  column(label: string | number | readonly string[]): (number | null)[] {
    const key = typeof label === 'object' ? labelKey(label) : String(label);
    const i = this.columnIndex().get(key);
    if (i === undefined)
      throw new RangeError(
        `no column '${key}' (columns: ${this.columnKeys().slice(0, 10).join(', ')}${this.columns.length > 10 ? ', …' : ''})`,
      );
    return this.values[i];
  }

  /** One object per row: `time_utc` (Date), `time_local` (string) and one field per column, named by `labelKey`. */
  toRows(): TimeseriesRow[] {
    const keys = [...this.columnIndex().keys()];
    const times = this.timesUtc();
    return times.map((time, r) => {
      const row: TimeseriesRow = { time_utc: time, time_local: this.time_local[r] };
      keys.forEach((key, c) => (row[key] = this.values[c][r]));
      return row;
    });
  }

  /** The rows strictly after `instantMs` (the rest of a chunk that overlaps what came before). */
  rowsAfter(instantMs: number): TimeseriesResponse {
    const times = this.timesUtc();
    let first = 0;
    while (first < times.length && times[first].getTime() <= instantMs) first++;
    if (first === 0) return this;
    return new TimeseriesResponse({
      ...this.toJSON(),
      time_utc: this.time_utc.slice(first),
      time_local: this.time_local.slice(first),
      values: this.values.map((v) => v.slice(first)),
    });
  }

  /**
   * Responses one after another in time joined into one: the rows in order, the union of
   * their columns (in order of first appearance; null where a part lacks a column).
   * `model`/`created_at` are kept when every part agrees, else null.
   */
  static concat(parts: readonly TimeseriesResponse[]): TimeseriesResponse {
    if (parts.length === 0) throw new RangeError('nothing to join');
    if (parts.length === 1) return parts[0];
    const index = new Map<string, number>();
    const columns: string[][] = [];
    for (const part of parts) {
      for (const label of part.columns) {
        const key = labelKey(label);
        if (!index.has(key)) {
          index.set(key, columns.length);
          columns.push(label);
        }
      }
    }
    const values: (number | null)[][] = columns.map(() => []);
    for (const part of parts) {
      const present = new Set<number>();
      part.columns.forEach((label, c) => {
        const i = index.get(labelKey(label))!;
        present.add(i);
        for (const v of part.values[c]) values[i].push(v);
      });
      for (let i = 0; i < columns.length; i++) if (!present.has(i)) for (let r = 0; r < part.length; r++) values[i].push(null);
    }
    const same = <K extends 'model' | 'created_at'>(field: K) =>
      parts.every((p) => p[field] === parts[0][field]) ? parts[0][field] : null;
    return new TimeseriesResponse({
      model: same('model'),
      created_at: same('created_at'),
      units: parts[0].units,
      timezone: parts[0].timezone,
      time_utc: parts.flatMap((p) => p.time_utc),
      time_local: parts.flatMap((p) => p.time_local),
      columns,
      values,
    });
  }

  /** The plain body (what JSON.stringify writes). */
  toJSON(): TimeseriesBody {
    const { model, created_at, units, timezone, time_utc, time_local, columns, values } = this;
    return { model, created_at, units, timezone, time_utc, time_local, columns, values };
  }
}
