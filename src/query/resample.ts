/**
 * Resampling a Frame into local calendar buckets, and the time zone its local times are written
 * in. A bucket holds the rows whose period begins within it: a local day in the request's zone
 * (23 hours on the spring-forward day, 25 on the fall-back day), a local week (Monday to Sunday,
 * ISO 8601) or a local month. A bucket is labelled by its first hour (local midnight; for a zone
 * whose offset is not a whole number of hours, the first whole UTC hour after it) and its value
 * aggregates the present (non-null) values of the response's rows in it; a bucket without any is
 * null. Buckets at the edges of a window hold only the window's rows.
 */
import { addDays, localDateOfHour, localDayStartHour, type CivilDate } from '../time/zones.ts';
import { queryValueError } from './errors.ts';
import type { Frame } from './frame.ts';

export const RESAMPLE_PERIODS = ['1h', '1d', '1w', '1mo'] as const;
export type ResamplePeriod = (typeof RESAMPLE_PERIODS)[number];
export const AGGREGATIONS = ['mean', 'sum', 'min', 'max'] as const;
export type Aggregation = (typeof AGGREGATIONS)[number];

/** The canonical IANA name of `tz` (any case; `utc` is UTC), or a 422 naming the parameter. */
export function timeZoneOf(tz: string): string {
  if (tz.toLowerCase() === 'utc') return 'UTC';
  try {
    return new Intl.DateTimeFormat('en-US', { timeZone: tz }).resolvedOptions().timeZone;
  } catch {
    throw queryValueError('tz', tz, 'tz must be an IANA time zone name such as America/Chicago, or utc');
  }
}

/** The first local day of the bucket holding local day `d`. */
function bucketStart(period: ResamplePeriod, d: CivilDate): CivilDate {
  if (period === '1mo') return { year: d.year, month: d.month, day: 1 };
  if (period === '1w') {
    const weekday = (new Date(Date.UTC(d.year, d.month - 1, d.day)).getUTCDay() + 6) % 7; // Monday 0
    return addDays(d, -weekday);
  }
  return d;
}

const AGGREGATE: Record<Aggregation, (values: number[]) => number> = {
  mean: (v) => v.reduce((a, b) => a + b, 0) / v.length,
  sum: (v) => v.reduce((a, b) => a + b, 0),
  min: (v) => Math.min(...v),
  max: (v) => Math.max(...v),
};

export interface ResampleOptions {
  /** Bucket length; undefined (or 1h) keeps the rows. */
  period?: ResamplePeriod;
  agg: Aggregation;
  /** Canonical zone for time_local and bucket boundaries (default: the frame's). */
  timezone?: string;
}

/** The frame with its time_local in another zone (its slices too). */
function inZone(frame: Frame, timezone: string): Frame {
  const slice = frame.slice;
  return { ...frame, timezone, slice: slice && ((from, to) => inZone(slice(from, to), timezone)) };
}

export function resampleFrame(frame: Frame, o: ResampleOptions): Frame {
  const timezone = o.timezone ?? frame.timezone;
  if (o.period === undefined || o.period === '1h') return inZone(frame, timezone);
  const period = o.period;
  // Consecutive rows in one bucket form a group; rows are in time order.
  const starts: number[] = [];
  const groupOf = new Int32Array(frame.hours.length);
  let lastKey = '';
  for (let i = 0; i < frame.hours.length; i++) {
    const first = bucketStart(period, localDateOfHour(timezone, frame.hours[i]));
    const key = `${first.year}-${first.month}-${first.day}`;
    if (key !== lastKey) {
      starts.push(Math.ceil(localDayStartHour(timezone, first)));
      lastKey = key;
    }
    groupOf[i] = starts.length - 1;
  }
  const aggregate = AGGREGATE[o.agg];
  return {
    ...frame,
    timezone,
    hours: starts,
    slice: undefined,
    columns: frame.columns.map((column) => ({
      ...column,
      fill(out: Float64Array) {
        const rows = new Float64Array(frame.hours.length).fill(Number.NaN);
        column.fill(rows);
        const present: number[][] = starts.map(() => []);
        rows.forEach((v, i) => {
          if (Number.isFinite(v)) present[groupOf[i]].push(v);
        });
        present.forEach((values, g) => (out[g] = values.length > 0 ? aggregate(values) : Number.NaN));
      },
    })),
  };
}
