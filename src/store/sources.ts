/**
 * Ingested sources in the database (migration 4): forecast runs packed one row per run and
 * series, actuals one row per value and revision. Plain SQL, the same on PGlite and PostgreSQL.
 *
 * Writing is one transaction per ingest, fed in batches as the file is read: a file is stored
 * whole or not at all, and memory does not grow with the file. Reading answers
 * the questions of a stored source (src/sources/stored.ts): which runs exist, their values,
 * actuals as known at an instant.
 */
import os from 'node:os';
import type { Sql } from './sql.ts';

/** What a series is: a target of a group in an ISO, for one metric. */
export interface SeriesKey {
  group: string;
  iso: string;
  metric: string;
}

/**
 * A forecast run of one target: values of consecutive valid hours from `first` (epoch hour) — the
 * point forecast's, and as many of each quantile's (NaN: no value).
 */
export interface RunInput {
  target: string;
  issuedMs: number;
  first: number;
  values: Float64Array;
  /** Ascending probabilities. */
  quantiles: readonly number[];
  /** Per quantile, its values over the same hours as `values`. */
  quantileValues: readonly Float64Array[];
}

/** One actual value of a target as published at `publishedMs`. */
export interface ActualInput {
  target: string;
  validHour: number;
  publishedMs: number;
  value: number;
}

/** Where an ingest writes: a source's series of one (group, iso, metric). */
export interface IngestTarget extends SeriesKey {
  source: string;
  /** Replace runs (and actual revisions) that exist with other values, instead of refusing. */
  replace: boolean;
  /** A line for the ingest log (the file's name). */
  origin: string;
  /** Catalog entries of the source's own targets (--catalog), stored with the data. */
  catalog?: readonly CatalogEntry[];
}

/** What a source says about one of its own targets (a plant, a price node): `--catalog FILE`. */
export interface CatalogEntry {
  target: string;
  name: string;
  capacity_mw: number | null;
  latitude: number | null;
  longitude: number | null;
}

export interface IngestOutcome {
  runsAdded: number;
  runsReplaced: number;
  runsUnchanged: number;
  actualsAdded: number;
  actualsReplaced: number;
  actualsUnchanged: number;
  /** Catalog entries added or changed (only with --catalog). */
  catalogEntries?: number;
}

/** Runs (or actuals) that exist with other values; nothing was stored. */
export class IngestConflictError extends Error {
  constructor(
    /** The first MAX_LISTED conflicts, described. */
    readonly conflicts: string[],
    readonly total = conflicts.length,
  ) {
    super(`${total} run(s) or actual(s) already stored with other values`);
  }
}

/**
 * The writes of one ingest, inside its transaction: batches of complete runs and of actuals as the
 * file is read, each compared with what is stored (added, unchanged, replaced or a conflict).
 */
export class IngestWriter {
  readonly outcome: IngestOutcome = {
    runsAdded: 0,
    runsReplaced: 0,
    runsUnchanged: 0,
    actualsAdded: 0,
    actualsReplaced: 0,
    actualsUnchanged: 0,
  };
  readonly conflicts: string[] = [];
  totalConflicts = 0;
  private readonly ids = new Map<string, number>();
  /** Series this ingest created: no run was stored for them before it (and a file's run comes once). */
  private readonly created = new Set<number>();

  constructor(
    private readonly tx: Sql,
    readonly target: IngestTarget,
  ) {}

  private conflict(message: string): void {
    this.totalConflicts++;
    if (this.conflicts.length < MAX_LISTED) this.conflicts.push(message);
  }

  /** Series ids of `targets`, created on first sight. */
  private async seriesIds(targets: Iterable<string>): Promise<Map<string, number>> {
    const missing = [...new Set(targets)].filter((t) => !this.ids.has(t));
    if (missing.length > 0) {
      const k = this.target;
      const created = await this.tx.query<{ id: number }>(
        `INSERT INTO source_series (source, grp, iso, metric, target) SELECT $1, $2, $3, $4, t FROM unnest($5::text[]) AS t
          ON CONFLICT (source, grp, iso, metric, target) DO NOTHING RETURNING id`,
        [k.source, k.group, k.iso, k.metric, missing],
      );
      for (const r of created) this.created.add(r.id);
      const rows = await this.tx.query<{ id: number; target: string }>(
        'SELECT id, target FROM source_series WHERE source = $1 AND grp = $2 AND iso = $3 AND metric = $4 AND target = ANY($5::text[])',
        [k.source, k.group, k.iso, k.metric, missing],
      );
      for (const r of rows) this.ids.set(r.target, r.id);
    }
    return this.ids;
  }

  /** Complete runs (every value the file has for each). */
  async runs(runs: RunInput[]): Promise<void> {
    if (runs.length === 0) return;
    const ids = await this.seriesIds(runs.map((r) => r.target));
    const seriesIds = [...new Set(runs.map((r) => ids.get(r.target)!))].filter((id) => !this.created.has(id));
    let minMs = Infinity;
    let maxMs = -Infinity;
    for (const r of runs) {
      minMs = Math.min(minMs, r.issuedMs);
      maxMs = Math.max(maxMs, r.issuedMs);
    }
    const existing = new Map<string, { first: number; hex: string; quantiles: string }>();
    const rows =
      seriesIds.length === 0
        ? []
        : await this.tx.query<{ series_id: number; issued_ms: number; first_hour: number; hex: string; quantiles: number[] }>(
            `SELECT series_id, extract(epoch FROM issued_at)::float8 * 1000 AS issued_ms, first_hour, encode(vals, 'hex') AS hex, quantiles
         FROM source_runs
        WHERE series_id = ANY($1::int[]) AND issued_at BETWEEN to_timestamp($2::float8 / 1000) AND to_timestamp($3::float8 / 1000)`,
            [seriesIds, minMs, maxMs],
          );
    for (const r of rows) {
      existing.set(`${r.series_id}@${Math.round(r.issued_ms)}`, { first: r.first_hour, hex: r.hex, quantiles: quantileArray(r.quantiles) });
    }
    const added: Columns = { series: [], ms: [], first: [], vals: [], quantiles: [], counts: [] };
    for (const run of runs) {
      const id = ids.get(run.target)!;
      const vals = packRun(run);
      const quantiles = quantileArray(run.quantiles);
      const old = existing.get(`${id}@${run.issuedMs}`);
      if (!old) {
        added.series.push(id);
        added.ms.push(run.issuedMs);
        added.first.push(run.first);
        added.vals.push(vals);
        added.quantiles.push(quantiles);
        added.counts.push(valuesIn(vals));
        this.outcome.runsAdded++;
        continue;
      }
      const hex = hexOf(vals);
      if (old.first === run.first && old.hex === hex && old.quantiles === quantiles) {
        this.outcome.runsUnchanged++;
      } else if (this.target.replace) {
        await this.tx.query(
          `UPDATE source_runs SET first_hour = $3, vals = decode($4, 'hex'), quantiles = $5::float8[], n_values = $6,
                  revisions = revisions + 1, ingested_at = now()
            WHERE series_id = $1 AND issued_at = to_timestamp($2::float8 / 1000)`,
          [id, run.issuedMs, run.first, hex, quantiles, valuesIn(vals)],
        );
        this.outcome.runsReplaced++;
      } else {
        this.conflict(`run of ${run.target} issued ${iso(run.issuedMs)} is stored with other values (use --replace)`);
      }
    }
    if (added.series.length === 0) return;
    await insertRuns(this.tx, added);
  }

  /** Actual values, each as published at its instant. */
  async actuals(actuals: ActualInput[]): Promise<void> {
    if (actuals.length === 0) return;
    const ids = await this.seriesIds(actuals.map((a) => a.target));
    const seriesIds = [...new Set(actuals.map((a) => ids.get(a.target)!))];
    let minHour = Infinity;
    let maxHour = -Infinity;
    for (const a of actuals) {
      minHour = Math.min(minHour, a.validHour);
      maxHour = Math.max(maxHour, a.validHour);
    }
    const rows = await this.tx.query<{ series_id: number; valid_hour: number; published_ms: number; value: number }>(
      `SELECT series_id, valid_hour, extract(epoch FROM published_at)::float8 * 1000 AS published_ms, value FROM source_actuals
        WHERE series_id = ANY($1::int[]) AND valid_hour BETWEEN $2 AND $3`,
      [seriesIds, minHour, maxHour],
    );
    const existing = new Map(rows.map((r) => [`${r.series_id}@${r.valid_hour}@${Math.round(r.published_ms)}`, r.value]));
    const added = { series: [] as number[], hour: [] as number[], ms: [] as number[], value: [] as number[] };
    for (const a of actuals) {
      const id = ids.get(a.target)!;
      const old = existing.get(`${id}@${a.validHour}@${a.publishedMs}`);
      if (old === undefined) {
        added.series.push(id);
        added.hour.push(a.validHour);
        added.ms.push(a.publishedMs);
        added.value.push(a.value);
        this.outcome.actualsAdded++;
      } else if (Object.is(old, a.value)) {
        this.outcome.actualsUnchanged++;
      } else if (this.target.replace) {
        await this.tx.query(
          'UPDATE source_actuals SET value = $4 WHERE series_id = $1 AND valid_hour = $2 AND published_at = to_timestamp($3::float8)',
          [id, a.validHour, a.publishedMs / 1000, a.value],
        );
        this.outcome.actualsReplaced++;
      } else {
        this.conflict(
          `actual of ${a.target} at ${iso(a.validHour * HOUR_MS)} published ${iso(a.publishedMs)} is stored with another value ` +
            '(a correction needs a later publish time, or use --replace)',
        );
      }
    }
    if (added.series.length === 0) return;
    await this.tx.query(
      `INSERT INTO source_actuals (series_id, valid_hour, published_at, value)
       SELECT s, h, to_timestamp(ms / 1000), v FROM unnest($1::int[], $2::int[], $3::float8[], $4::float8[]) AS u(s, h, ms, v)`,
      [added.series, added.hour, added.ms, added.value],
    );
  }
}

export interface StoredRunRow {
  seriesId: number;
  /** Issue time, epoch hours (fractional within an hour). */
  issued: number;
  first: number;
  length: number;
  revisions: number;
  /** The quantiles the run holds besides its point forecast (ascending; empty: none). */
  quantiles: number[];
}

/** A stored source in /v1/status: per ISO it holds, what was issued and published by now. */
export interface SourceStatus {
  /** null for gas (not tied to an ISO). */
  iso: string | null;
  model: string;
  last_run: string | null;
  next_run: null;
  last_actual_hour: string | null;
  source: 'stored';
  runs: number;
  forecast_values: number;
  actuals: number;
  actual_revisions: number;
  first_valid_time: string | null;
  last_valid_time: string | null;
}

/** What a source holds (in one ISO, or in all): see SourceStore.holdings. */
interface Holdings {
  source: string;
  iso: string | null;
  runs: number;
  forecast_values: number;
  actuals: number;
  actual_revisions: number;
  latest_run: string | null;
  latest_actual: string | null;
  first_valid_time: string | null;
  last_valid_time: string | null;
}

export type SourceSummary = {
  name: string;
  created_at: string;
  /** iso null for gas (not tied to an ISO). */
  series: { group: string; iso: string | null; metric: string; targets: number }[];
} & Omit<Holdings, 'source' | 'iso'>;

const HOUR_MS = 3_600_000;
/** Conflicts listed in an error (the rest are counted). */
export const MAX_LISTED = 20;

/** Whether this machine's float64 bytes are the stored order already (then packing is a view or a copy). */
const LITTLE_ENDIAN = os.endianness() === 'LE';

/** The values as stored: float64 little-endian. */
export function packValues(values: Float64Array): Uint8Array {
  if (LITTLE_ENDIAN) return new Uint8Array(values.buffer, values.byteOffset, values.byteLength);
  const bytes = new Uint8Array(values.length * 8);
  const view = new DataView(bytes.buffer);
  for (let i = 0; i < values.length; i++) view.setFloat64(i * 8, values[i], true);
  return bytes;
}

export function unpackValues(bytes: Uint8Array): Float64Array {
  // A copy of the bytes is aligned for a Float64Array (the bytes of a Buffer may not be).
  if (LITTLE_ENDIAN) return new Float64Array(bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength));
  const out = new Float64Array(bytes.byteLength / 8);
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  for (let i = 0; i < out.length; i++) out[i] = view.getFloat64(i * 8, true);
  return out;
}

/** Runs to insert, by column. */
interface Columns {
  series: number[];
  ms: number[];
  first: number[];
  vals: Uint8Array[];
  /** Array literals (`{0.1,0.9}`): an array of arrays does not travel as one parameter. */
  quantiles: string[];
  /** The values each run holds (its slots that are not empty). */
  counts: number[];
}

/** The values packed bytes hold: their float64s that are not NaN (an empty slot). */
function valuesIn(packed: Uint8Array): number {
  const values =
    LITTLE_ENDIAN && packed.byteOffset % 8 === 0
      ? new Float64Array(packed.buffer, packed.byteOffset, packed.byteLength / 8)
      : unpackValues(packed);
  let n = 0;
  for (let i = 0; i < values.length; i++) if (values[i] === values[i]) n++;
  return n;
}

/**
 * One statement for a batch of runs, its columns as array parameters. The values travel as one
 * binary bytea that the database cuts into the runs (PostgreSQL), or as hex text per run that it
 * decodes (PGlite): each driver's fastest way (Sql.binaryBytea).
 */
async function insertRuns(tx: Sql, added: Columns): Promise<void> {
  if (tx.binaryBytea) {
    const offsets: number[] = [];
    const lengths: number[] = [];
    let at = 1; // substring counts from 1
    for (const v of added.vals) {
      offsets.push(at);
      lengths.push(v.byteLength);
      at += v.byteLength;
    }
    const all = Buffer.concat(added.vals);
    await tx.query(
      `INSERT INTO source_runs (series_id, issued_at, first_hour, vals, quantiles, n_values)
       SELECT s, to_timestamp(ms / 1000), f, substring($6::bytea FROM o FOR n), q::float8[], c
         FROM unnest($1::int[], $2::float8[], $3::int[], $4::int[], $5::int[], $7::text[], $8::int[]) AS u(s, ms, f, o, n, q, c)`,
      [added.series, added.ms, added.first, offsets, lengths, all, added.quantiles, added.counts],
    );
    return;
  }
  await tx.query(
    `INSERT INTO source_runs (series_id, issued_at, first_hour, vals, quantiles, n_values)
     SELECT s, to_timestamp(ms / 1000), f, decode(h, 'hex'), q::float8[], c
       FROM unnest($1::int[], $2::float8[], $3::int[], $4::text[], $5::text[], $6::int[]) AS u(s, ms, f, h, q, c)`,
    [added.series, added.ms, added.first, added.vals.map(hexOf), added.quantiles, added.counts],
  );
}

/** The quantiles as a PostgreSQL array literal (also how stored and new runs' quantiles are compared). */
function quantileArray(quantiles: readonly number[]): string {
  return `{${quantiles.join(',')}}`;
}

/** A run's stored bytes: the point forecast's values, then each quantile's (migration 6). */
export function packRun(run: Pick<RunInput, 'values' | 'quantileValues'>): Uint8Array {
  if (run.quantileValues.length === 0) return packValues(run.values);
  const all = new Float64Array(run.values.length * (1 + run.quantileValues.length));
  all.set(run.values);
  run.quantileValues.forEach((q, i) => all.set(q, (i + 1) * run.values.length));
  return packValues(all);
}

/**
 * Packed values as hex text, the form they travel to and from the database in: both drivers pass
 * text as is, and Node encodes and decodes hex natively (PGlite's own bytea conversion goes a
 * byte at a time in JavaScript).
 */
export function hexOf(bytes: Uint8Array): string {
  return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('hex');
}

export function bytesOfHex(hex: string): Uint8Array {
  return Buffer.from(hex, 'hex');
}

/** The hours a stored run holds (its bytes hold a block of them per quantile besides the point forecast's). */
const runLength = (table: string) => `(octet_length(${table}.vals) / 8 / (1 + cardinality(${table}.quantiles)))`;

const iso = (ms: number) => new Date(Math.round(ms)).toISOString().replace('.000Z', 'Z');

/** Gas series are stored with the ISO '' (not tied to one): shown as null. */
const shownIso = (stored: string) => (stored === '' ? null : stored);

/** Catalog entries written per INSERT statement. */
const INSERT_ROWS = 1000;

/**
 * Adds or updates the source's catalog entries (a later catalog file corrects an earlier one);
 * returns how many were added or changed.
 */
async function writeCatalog(tx: Sql, k: Pick<IngestTarget, 'source' | 'group' | 'iso'>, entries: readonly CatalogEntry[]): Promise<number> {
  let changed = 0;
  for (let i = 0; i < entries.length; i += INSERT_ROWS) {
    const params: unknown[] = [k.source, k.group, k.iso];
    const tuples = entries.slice(i, i + INSERT_ROWS).map((e) => {
      params.push(e.target, e.name, e.capacity_mw, e.latitude, e.longitude);
      const n = params.length;
      return `($1, $2, $3, $${n - 4}, $${n - 3}, $${n - 2}::float8, $${n - 1}::float8, $${n}::float8)`;
    });
    const rows = await tx.query(
      `INSERT INTO source_targets (source, grp, iso, target, name, capacity_mw, latitude, longitude) VALUES ${tuples.join(',')}
         ON CONFLICT (source, grp, iso, target) DO UPDATE
           SET name = EXCLUDED.name, capacity_mw = EXCLUDED.capacity_mw, latitude = EXCLUDED.latitude, longitude = EXCLUDED.longitude
         WHERE (source_targets.name, source_targets.capacity_mw, source_targets.latitude, source_targets.longitude)
               IS DISTINCT FROM (EXCLUDED.name, EXCLUDED.capacity_mw, EXCLUDED.latitude, EXCLUDED.longitude)
         RETURNING target`,
      params,
    );
    changed += rows.length;
  }
  return changed;
}

export class SourceStore {
  constructor(private readonly sql: Sql) {}

  /**
   * One ingest in one transaction: `write` streams the file's runs and actuals into the writer;
   * when it throws, or any run or actual conflicts with what is stored, nothing is kept.
   */
  async ingest<T>(target: IngestTarget, write: (writer: IngestWriter) => Promise<T>): Promise<{ result: T; outcome: IngestOutcome }> {
    return this.sql.transaction(async (tx) => {
      await tx.query('INSERT INTO sources (name) VALUES ($1) ON CONFLICT (name) DO NOTHING', [target.source]);
      const writer = new IngestWriter(tx, target);
      if (target.catalog) writer.outcome.catalogEntries = await writeCatalog(tx, target, target.catalog);
      const result = await write(writer);
      if (writer.totalConflicts > 0) throw new IngestConflictError(writer.conflicts, writer.totalConflicts);
      const o = writer.outcome;
      if (o.runsAdded + o.runsReplaced + o.actualsAdded + o.actualsReplaced + (o.catalogEntries ?? 0) > 0) {
        await tx.query('INSERT INTO source_ingests (source, summary) VALUES ($1, $2)', [
          target.source,
          `${target.origin}: ${target.group} ${target.iso} ${target.metric}: runs +${o.runsAdded} replaced ${o.runsReplaced} ` +
            `unchanged ${o.runsUnchanged}; actuals +${o.actualsAdded} replaced ${o.actualsReplaced} unchanged ${o.actualsUnchanged}` +
            (o.catalogEntries === undefined ? '' : `; catalog entries added or changed ${o.catalogEntries}`),
        ]);
      }
      return { result, outcome: { ...o } };
    });
  }

  /**
   * A catalog on its own (`POST /admin/catalog`): the source's entries for its own targets of a
   * group in an ISO, added or updated in one transaction (the source is created if new). Returns
   * how many were added or changed.
   */
  async describe(k: { source: string; group: string; iso: string; origin: string }, entries: readonly CatalogEntry[]): Promise<number> {
    return this.sql.transaction(async (tx) => {
      await tx.query('INSERT INTO sources (name) VALUES ($1) ON CONFLICT (name) DO NOTHING', [k.source]);
      const changed = await writeCatalog(tx, k, entries);
      if (changed > 0) {
        await tx.query('INSERT INTO source_ingests (source, summary) VALUES ($1, $2)', [
          k.source,
          `${k.origin}: ${k.group} ${k.iso} catalog: entries added or changed ${changed}`,
        ]);
      }
      return changed;
    });
  }

  /**
   * A stamp that differs after every committed change of what sources hold: each ingest or catalog
   * write that changes anything logs a row in source_ingests (in its transaction), and a deletion
   * removes the source's rows. Ids are never reused, so (count, max id, sum of ids) does not come
   * back to an earlier value: an ingest committed in order raises the max, a deletion alone lowers
   * the count; two ingests committing out of their ids' order while a deletion commits between two
   * requests would have to remove and add ids of the same count and sum to go unseen.
   */
  async changeStamp(): Promise<string> {
    const [r] = await this.sql.query<{ n: number; m: number; s: number }>(
      'SELECT count(*)::int AS n, coalesce(max(id), 0) AS m, coalesce(sum(id), 0)::float8 AS s FROM source_ingests',
    );
    return `${r.n}:${r.m}:${r.s}`;
  }

  /** The names of the stored sources, sorted. */
  async names(): Promise<string[]> {
    return (await this.sql.query<{ name: string }>('SELECT name FROM sources ORDER BY name')).map((r) => r.name);
  }

  /** The sources holding forecasts of (group, iso, metric) — a run issued by `nowMs` — sorted: one query for every source. */
  async forecastSources(key: SeriesKey, nowMs: number): Promise<string[]> {
    const rows = await this.sql.query<{ source: string }>(
      `SELECT DISTINCT s.source FROM source_series s
        WHERE s.grp = $1 AND s.iso = $2 AND s.metric = $3
          AND EXISTS (SELECT 1 FROM source_runs r WHERE r.series_id = s.id AND r.issued_at <= to_timestamp($4::float8 / 1000))
        ORDER BY 1`,
      [key.group, key.iso, key.metric, nowMs],
    );
    return rows.map((r) => r.source);
  }

  /** The (group, iso, metric) series kinds a source holds, for messages naming what exists. */
  async kindsOf(source: string): Promise<SeriesKey[]> {
    return this.sql.query<SeriesKey>('SELECT DISTINCT grp AS "group", iso, metric FROM source_series WHERE source = $1 ORDER BY 1, 2, 3', [
      source,
    ]);
  }

  /** The series of a source for (group, iso, metric): target id → series id. */
  async series(source: string, key: SeriesKey): Promise<{ id: number; target: string }[]> {
    return this.sql.query<{ id: number; target: string }>(
      'SELECT id, target FROM source_series WHERE source = $1 AND grp = $2 AND iso = $3 AND metric = $4 ORDER BY target',
      [source, key.group, key.iso, key.metric],
    );
  }

  /** The catalog entries a source brought for its own targets of a group in an ISO (--catalog). */
  async catalog(source: string, group: string, iso: string): Promise<CatalogEntry[]> {
    return this.sql.query<CatalogEntry>(
      'SELECT target, name, capacity_mw, latitude, longitude FROM source_targets WHERE source = $1 AND grp = $2 AND iso = $3 ORDER BY target',
      [source, group, iso],
    );
  }

  /**
   * Runs of the given series issued at or before `nowMs`, oldest first. Read as one row of arrays:
   * a year of runs is thousands of rows, and a row costs more to receive than its values (PGlite
   * converts each row in JavaScript).
   */
  async runs(seriesIds: number[], nowMs: number): Promise<StoredRunRow[]> {
    const [r] = await this.sql.query<{
      series: number[] | null;
      issued_ms: number[] | null;
      first: number[] | null;
      length: number[] | null;
      revisions: number[] | null;
      quantiles: string[] | null;
    }>(
      `SELECT array_agg(series_id ORDER BY issued_at) AS series,
              array_agg(extract(epoch FROM issued_at)::float8 * 1000 ORDER BY issued_at) AS issued_ms,
              array_agg(first_hour ORDER BY issued_at) AS first,
              array_agg(${runLength('source_runs')} ORDER BY issued_at) AS length,
              array_agg(revisions ORDER BY issued_at) AS revisions,
              array_agg(array_to_string(quantiles, ' ') ORDER BY issued_at) AS quantiles
         FROM source_runs
        WHERE series_id = ANY($1::int[]) AND issued_at <= to_timestamp($2::float8 / 1000)`,
      [seriesIds, nowMs],
    );
    if (!r.series) return [];
    return r.series.map((seriesId, i) => ({
      seriesId,
      issued: Math.round(r.issued_ms![i]) / HOUR_MS,
      first: r.first![i],
      length: Number(r.length![i]),
      revisions: r.revisions![i],
      quantiles: r.quantiles![i] === '' ? [] : r.quantiles![i].split(' ').map(Number),
    }));
  }

  /**
   * The packed values of the given runs (series id, issue time in epoch hours), read as one row:
   * the runs' hex joined, decoded at once, and cut by their lengths.
   */
  async runValues(seriesIds: number[], issued: number[]): Promise<{ seriesId: number; issued: number; vals: Uint8Array }[]> {
    if (seriesIds.length === 0 || issued.length === 0) return [];
    const [r] = await this.sql.query<{ series: number[] | null; issued_ms: number[] | null; bytes: number[] | null; hex: string | null }>(
      `SELECT array_agg(series_id ORDER BY series_id, issued_at) AS series,
              array_agg(extract(epoch FROM issued_at)::float8 * 1000 ORDER BY series_id, issued_at) AS issued_ms,
              array_agg(octet_length(vals) ORDER BY series_id, issued_at) AS bytes,
              string_agg(encode(vals, 'hex'), '' ORDER BY series_id, issued_at) AS hex
         FROM source_runs
        WHERE series_id = ANY($1::int[]) AND issued_at = ANY(SELECT to_timestamp(x / 1000) FROM unnest($2::float8[]) AS x)`,
      [seriesIds, issued.map((h) => Math.round(h * HOUR_MS))],
    );
    if (!r.series) return [];
    const all = bytesOfHex(r.hex!);
    let at = 0;
    return r.series.map((seriesId, i) => {
      const vals = all.subarray(at, (at += r.bytes![i]));
      return { seriesId, issued: Math.round(r.issued_ms![i]) / HOUR_MS, vals };
    });
  }

  /** For each series and valid hour in [fromHour, toHour], the value last published at or before `asOfMs`. */
  async actuals(seriesIds: number[], fromHour: number, toHour: number, asOfMs: number) {
    return this.sql.query<{ series_id: number; valid_hour: number; value: number }>(
      `SELECT DISTINCT ON (series_id, valid_hour) series_id, valid_hour, value FROM source_actuals
        WHERE series_id = ANY($1::int[]) AND valid_hour BETWEEN $2 AND $3 AND published_at <= to_timestamp($4::float8 / 1000)
        ORDER BY series_id, valid_hour, published_at DESC`,
      [seriesIds, fromHour, toHour, asOfMs],
    );
  }

  /** The valid hours the actuals of the series span (as published by `asOfMs`), or null without any. */
  async actualSpan(seriesIds: number[], asOfMs: number): Promise<{ first: number; last: number } | null> {
    const [r] = await this.sql.query<{ first: number | null; last: number | null }>(
      `SELECT min(valid_hour) AS first, max(valid_hour) AS last FROM source_actuals
        WHERE series_id = ANY($1::int[]) AND published_at <= to_timestamp($2::float8 / 1000)`,
      [seriesIds, asOfMs],
    );
    return r.first === null || r.last === null ? null : { first: r.first, last: r.last };
  }

  /**
   * What the sources hold as published by `nowMs` (runs issued, actuals published by then), per
   * source and ISO or per source: the one definition /v1/status and the sources list share.
   * `runs`: stored runs; `forecast_values`: their stored values; `actuals`: (target, valid hour)
   * values with an actual; `actual_revisions`: publications of such a value after its first
   * (corrections), so a source's stored actual rows are `actuals + actual_revisions`.
   */
  private async holdings(nowMs: number, perIso: boolean): Promise<Holdings[]> {
    const keys = perIso ? 's.source, s.iso' : 's.source';
    const rows = await this.sql.query<{
      source: string;
      iso: string | null;
      runs: number;
      vals: number | null;
      latest: number | null;
      rfirst: number | null;
      rlast: number | null;
      actuals: number;
      publications: number;
      afirst: number | null;
      alast: number | null;
    }>(
      `WITH r AS (
         SELECT ${keys}, count(*)::int AS runs, sum(r.n_values)::float8 AS vals,
                extract(epoch FROM max(r.issued_at))::float8 * 1000 AS latest,
                min(r.first_hour) AS rfirst, max(r.first_hour + ${runLength('r')} - 1) AS rlast
           FROM source_series s JOIN source_runs r ON r.series_id = s.id
          WHERE r.issued_at <= to_timestamp($1::float8 / 1000) GROUP BY ${keys}),
       a AS (
         SELECT ${keys}, count(DISTINCT (a.series_id, a.valid_hour))::int AS actuals, count(*)::int AS publications,
                min(a.valid_hour) AS afirst, max(a.valid_hour) AS alast
           FROM source_series s JOIN source_actuals a ON a.series_id = s.id
          WHERE a.published_at <= to_timestamp($1::float8 / 1000) GROUP BY ${keys}),
       k AS (${perIso ? 'SELECT DISTINCT source, iso FROM source_series' : 'SELECT name AS source, NULL AS iso FROM sources'})
       SELECT k.source, k.iso, coalesce(r.runs, 0) AS runs, r.vals, r.latest, r.rfirst, r.rlast,
              coalesce(a.actuals, 0) AS actuals, coalesce(a.publications, 0) AS publications, a.afirst, a.alast
         FROM k LEFT JOIN r USING (${perIso ? 'source, iso' : 'source'}) LEFT JOIN a USING (${perIso ? 'source, iso' : 'source'})
        ORDER BY k.source, k.iso`,
      [nowMs],
    );
    return rows.map((r) => {
      const firsts = [r.rfirst, r.afirst].filter((x): x is number => x !== null);
      const lasts = [r.rlast, r.alast].filter((x): x is number => x !== null);
      return {
        source: r.source,
        iso: r.iso,
        runs: r.runs,
        forecast_values: r.vals ?? 0,
        actuals: r.actuals,
        actual_revisions: r.publications - r.actuals,
        latest_run: r.latest === null ? null : iso(r.latest),
        latest_actual: r.alast === null ? null : iso(r.alast * HOUR_MS),
        first_valid_time: firsts.length ? iso(Math.min(...firsts) * HOUR_MS) : null,
        last_valid_time: lasts.length ? iso(Math.max(...lasts) * HOUR_MS) : null,
      };
    });
  }

  /** Per source and ISO, what it holds as published by `nowMs` (for /v1/status). */
  async status(nowMs: number): Promise<SourceStatus[]> {
    return (await this.holdings(nowMs, true)).map((h) => ({
      iso: shownIso(h.iso!),
      model: h.source,
      last_run: h.latest_run,
      next_run: null,
      last_actual_hour: h.latest_actual,
      source: 'stored',
      runs: h.runs,
      forecast_values: h.forecast_values,
      actuals: h.actuals,
      actual_revisions: h.actual_revisions,
      first_valid_time: h.first_valid_time,
      last_valid_time: h.last_valid_time,
    }));
  }

  /** Every source with its series and what it holds as published by `nowMs` (the same counts as status, over its ISOs). */
  async list(nowMs: number): Promise<SourceSummary[]> {
    const sources = await this.sql.query<{ name: string; created_ms: number }>(
      'SELECT name, extract(epoch FROM created_at)::float8 * 1000 AS created_ms FROM sources ORDER BY name',
    );
    const holdings = new Map((await this.holdings(nowMs, false)).map((h) => [h.source, h]));
    const out: SourceSummary[] = [];
    for (const s of sources) {
      const series = await this.sql.query<{ group: string; iso: string; metric: string; targets: number }>(
        `SELECT grp AS "group", iso, metric, count(*)::int AS targets FROM source_series WHERE source = $1 GROUP BY 1, 2, 3 ORDER BY 1, 2, 3`,
        [s.name],
      );
      const { source: _, iso: __, ...held } = holdings.get(s.name)!;
      out.push({ name: s.name, created_at: iso(s.created_ms), series: series.map((k) => ({ ...k, iso: shownIso(k.iso) })), ...held });
    }
    return out;
  }

  /** Deletes a source and everything it holds, in one statement (atomic); false when there is none. */
  async delete(name: string): Promise<boolean> {
    const rows = await this.sql.query('DELETE FROM sources WHERE name = $1 RETURNING name', [name]);
    return rows.length > 0;
  }
}
