/**
 * Per-key counters kept in the database, so that every API process sharing it sees the same
 * numbers: rate-limit windows (requests per key and fixed window, by the database clock) and
 * usage (requests and values served per key, UTC day and endpoint). Both are single atomic
 * upserts, safe under any number of concurrent processes.
 */
import type { Sql } from './sql.ts';

export interface WindowCount {
  windowSecs: number;
  count: number;
  /** Seconds until the window ends. */
  resetSecs: number;
}

export interface UsageRow {
  key_id: string;
  /** UTC day, YYYY-MM-DD. */
  day: string;
  endpoint: string;
  requests: number;
  values_served: number;
}

export interface UsageFilter {
  keyId?: string;
  /** Inclusive UTC days, YYYY-MM-DD. */
  from?: string;
  to?: string;
  endpoint?: string;
}

export class UsageStore {
  constructor(private readonly sql: Sql) {}

  /** Counts one request of `keyId` in each window (seconds) and returns the counts so far. */
  async hit(keyId: string, windowSecs: readonly number[]): Promise<WindowCount[]> {
    if (windowSecs.length === 0) return [];
    const rows = await this.sql.query<{ window_secs: number; count: number; reset_secs: number }>(
      `INSERT INTO rate_counters (key_id, window_secs, window_start, count)
       SELECT $1, w, to_timestamp(floor(extract(epoch FROM now()) / w) * w), 1 FROM unnest($2::int[]) AS w
       ON CONFLICT (key_id, window_secs, window_start) DO UPDATE SET count = rate_counters.count + 1
       RETURNING window_secs, count,
         extract(epoch FROM rate_counters.window_start + make_interval(secs => rate_counters.window_secs) - now())::float8 AS reset_secs`,
      [keyId, windowSecs],
    );
    return rows.map((r) => ({ windowSecs: r.window_secs, count: r.count, resetSecs: Math.max(0, r.reset_secs) }));
  }

  /** Drops rate windows that ended more than a day ago. */
  async pruneWindows(): Promise<void> {
    await this.sql.query(`DELETE FROM rate_counters WHERE window_start + make_interval(secs => window_secs) < now() - interval '1 day'`);
  }

  /** Adds one request and `values` values to today's (UTC) usage of a key at an endpoint. */
  async record(keyId: string, endpoint: string, values: number): Promise<void> {
    await this.sql.query(
      `INSERT INTO usage_daily (key_id, day, endpoint, requests, values_served)
       VALUES ($1, (now() AT TIME ZONE 'UTC')::date, $2, 1, $3)
       ON CONFLICT (key_id, day, endpoint) DO UPDATE
         SET requests = usage_daily.requests + 1, values_served = usage_daily.values_served + EXCLUDED.values_served`,
      [keyId, endpoint, values],
    );
  }

  /** Usage rows, by day, key and endpoint. */
  async query(filter: UsageFilter = {}): Promise<UsageRow[]> {
    const where: string[] = [];
    const params: unknown[] = [];
    const add = (clause: string, value: unknown) => {
      params.push(value);
      where.push(clause.replace('?', `$${params.length}`));
    };
    if (filter.keyId !== undefined) add('key_id = ?', filter.keyId);
    if (filter.from !== undefined) add('day >= ?::date', filter.from);
    if (filter.to !== undefined) add('day <= ?::date', filter.to);
    if (filter.endpoint !== undefined) add('endpoint = ?', filter.endpoint);
    return this.sql.query<UsageRow>(
      `SELECT key_id, to_char(day, 'YYYY-MM-DD') AS day, endpoint, requests::float8 AS requests, values_served::float8 AS values_served
       FROM usage_daily ${where.length ? 'WHERE ' + where.join(' AND ') : ''}
       ORDER BY day, key_id, endpoint`,
      params,
    );
  }
}
