/**
 * Per-key counters kept in the database, so that every API process sharing it sees the same
 * numbers: rate-limit windows (requests per key and fixed window) and usage (requests and
 * values served per key, UTC day and endpoint). Requests never wait for these: each process
 * counts in memory (store/meter.ts) and adds its counts here in batches, each batch one
 * atomic upsert per table, safe under any number of concurrent processes.
 */
import type { Sql } from './sql.ts';

export interface UsageRow {
  key_id: string;
  /** UTC day, YYYY-MM-DD. */
  day: string;
  endpoint: string;
  requests: number;
  values_served: number;
}

/** Requests a process counted in one rate-limit window since its last flush. */
export interface WindowDelta {
  keyId: string;
  windowSecs: number;
  /** Start of the window, epoch seconds (a multiple of windowSecs). */
  windowStart: number;
  count: number;
}

/** Usage a process counted since its last flush. */
export interface UsageDelta {
  keyId: string;
  /** UTC day, YYYY-MM-DD. */
  day: string;
  endpoint: string;
  requests: number;
  values: number;
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

  /**
   * Adds each process's window counts to the shared ones and returns the totals of those
   * windows, counted by every process on the database.
   */
  async addWindowCounts(deltas: readonly WindowDelta[]): Promise<WindowDelta[]> {
    if (deltas.length === 0) return [];
    const rows = await this.sql.query<{ key_id: string; window_secs: number; window_start: number; count: number }>(
      `INSERT INTO rate_counters (key_id, window_secs, window_start, count)
       SELECT k, w, to_timestamp(s), c FROM unnest($1::text[], $2::int[], $3::float8[], $4::int[]) AS d(k, w, s, c)
       ON CONFLICT (key_id, window_secs, window_start) DO UPDATE SET count = rate_counters.count + EXCLUDED.count
       RETURNING key_id, window_secs, extract(epoch FROM window_start)::float8 AS window_start, count`,
      [deltas.map((d) => d.keyId), deltas.map((d) => d.windowSecs), deltas.map((d) => d.windowStart), deltas.map((d) => d.count)],
    );
    return rows.map((r) => ({ keyId: r.key_id, windowSecs: r.window_secs, windowStart: r.window_start, count: r.count }));
  }

  /** Adds each process's usage counts to the shared ones. */
  async addUsage(deltas: readonly UsageDelta[]): Promise<void> {
    if (deltas.length === 0) return;
    await this.sql.query(
      `INSERT INTO usage_daily (key_id, day, endpoint, requests, values_served)
       SELECT * FROM unnest($1::text[], $2::date[], $3::text[], $4::bigint[], $5::bigint[])
       ON CONFLICT (key_id, day, endpoint) DO UPDATE
         SET requests = usage_daily.requests + EXCLUDED.requests, values_served = usage_daily.values_served + EXCLUDED.values_served`,
      [
        deltas.map((d) => d.keyId),
        deltas.map((d) => d.day),
        deltas.map((d) => d.endpoint),
        deltas.map((d) => d.requests),
        deltas.map((d) => d.values),
      ],
    );
  }

  /** Drops rate windows that ended more than a day ago. */
  async pruneWindows(): Promise<void> {
    await this.sql.query(`DELETE FROM rate_counters WHERE window_start + make_interval(secs => window_secs) < now() - interval '1 day'`);
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
