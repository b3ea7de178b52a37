/**
 * Versioned schema migrations. Each runs once, in order, inside a transaction, and is
 * recorded in schema_migrations. Plain PostgreSQL: the same statements run on PGlite and
 * on a PostgreSQL server. Never edit a released migration; add a new one.
 */
import type { Sql } from './sql.ts';

export interface Migration {
  version: number;
  name: string;
  sql: string;
}

export const MIGRATIONS: readonly Migration[] = [
  {
    version: 1,
    name: 'api keys and subscriptions',
    sql: `
      CREATE TABLE api_keys (
        id          text PRIMARY KEY,
        name        text NOT NULL,
        -- SHA-256 of the key; the key itself is never stored
        key_hash    text NOT NULL UNIQUE,
        created_at  timestamptz NOT NULL DEFAULT now(),
        revoked_at  timestamptz
      );
      CREATE TABLE subscriptions (
        key_id  text NOT NULL REFERENCES api_keys(id) ON DELETE CASCADE,
        -- an ISO code, or 'all' for every ISO
        iso     text NOT NULL CHECK (iso IN ('all','pjm','miso','spp','ercot','caiso','nyiso','isone')),
        level   text NOT NULL CHECK (level IN ('core','advanced','enterprise')),
        PRIMARY KEY (key_id, iso)
      );
      CREATE TABLE meta (
        name   text PRIMARY KEY,
        value  text NOT NULL
      );
    `,
  },
  {
    version: 2,
    name: 'subscription expiry, rate-limit counters, usage',
    sql: `
      -- null: the subscription never expires
      ALTER TABLE subscriptions ADD COLUMN expires_at timestamptz;
      -- requests per key and window, shared by every API process on the database
      CREATE TABLE rate_counters (
        key_id        text NOT NULL REFERENCES api_keys(id) ON DELETE CASCADE,
        window_secs   integer NOT NULL,
        window_start  timestamptz NOT NULL,
        count         integer NOT NULL,
        PRIMARY KEY (key_id, window_secs, window_start)
      );
      -- requests and values served per key, UTC day and endpoint (the route's path template)
      CREATE TABLE usage_daily (
        key_id         text NOT NULL REFERENCES api_keys(id) ON DELETE CASCADE,
        day            date NOT NULL,
        endpoint       text NOT NULL,
        requests       bigint NOT NULL DEFAULT 0,
        values_served  bigint NOT NULL DEFAULT 0,
        PRIMARY KEY (key_id, day, endpoint)
      );
    `,
  },
  {
    version: 3,
    name: 'subscription ISO checked by the application',
    sql: `
      -- The list of ISOs lives in the code (catalog/isos.ts, store/keys.ts SUBSCRIPTION_ISOS),
      -- so adding an ISO needs no migration; migration 1's CHECK (named by PostgreSQL) goes.
      ALTER TABLE subscriptions DROP CONSTRAINT IF EXISTS subscriptions_iso_check;
    `,
  },
  {
    version: 4,
    name: 'ingested sources: forecast runs and actuals',
    sql: `
      -- A source users ingest (a vendor, their own model, ISO publications), served as model=<name>.
      CREATE TABLE sources (
        name        text PRIMARY KEY,
        created_at  timestamptz NOT NULL DEFAULT now()
      );
      -- One series per target of a source: (group, iso, metric, target id).
      CREATE TABLE source_series (
        id      serial PRIMARY KEY,
        source  text NOT NULL REFERENCES sources(name) ON DELETE CASCADE,
        grp     text NOT NULL,
        iso     text NOT NULL,
        metric  text NOT NULL,
        target  text NOT NULL,
        UNIQUE (source, grp, iso, metric, target)
      );
      -- One row per run and series: the run's hourly values packed as float64 little-endian
      -- (NaN = no value) from first_hour (epoch hour, period-beginning). README "Own data" has
      -- the measurements behind this layout (vs one row per value).
      CREATE TABLE source_runs (
        series_id    integer NOT NULL REFERENCES source_series(id) ON DELETE CASCADE,
        issued_at    timestamptz NOT NULL,
        first_hour   integer NOT NULL,
        vals         bytea NOT NULL,
        -- how often a later ingest replaced this run (--replace)
        revisions    integer NOT NULL DEFAULT 0,
        ingested_at  timestamptz NOT NULL DEFAULT now(),
        PRIMARY KEY (series_id, issued_at)
      );
      -- Actuals with their revisions: a value as published at published_at; as_of reads the latest
      -- published at or before it.
      CREATE TABLE source_actuals (
        series_id     integer NOT NULL REFERENCES source_series(id) ON DELETE CASCADE,
        valid_hour    integer NOT NULL,
        published_at  timestamptz NOT NULL,
        value         double precision NOT NULL,
        PRIMARY KEY (series_id, valid_hour, published_at)
      );
      -- What each ingest did (replacements are logged here).
      CREATE TABLE source_ingests (
        id           serial PRIMARY KEY,
        source       text NOT NULL REFERENCES sources(name) ON DELETE CASCADE,
        ingested_at  timestamptz NOT NULL DEFAULT now(),
        summary      text NOT NULL
      );
    `,
  },
  {
    version: 5,
    name: 'own targets of ingested sources: name, capacity, coordinates',
    sql: `
      -- The catalog entries a source brings for its own targets (plants, price nodes), from
      -- \`gridcast ingest --catalog FILE\`; deleted with the source. A target without an entry
      -- is described by the synthetic catalog when it is one of its ids, else by its id alone.
      CREATE TABLE source_targets (
        source       text NOT NULL REFERENCES sources(name) ON DELETE CASCADE,
        grp          text NOT NULL,
        iso          text NOT NULL,
        target       text NOT NULL,
        name         text NOT NULL,
        capacity_mw  double precision,
        latitude     double precision,
        longitude    double precision,
        PRIMARY KEY (source, grp, iso, target)
      );
    `,
  },
  {
    version: 6,
    name: 'quantile forecasts of ingested runs',
    sql: `
      -- The quantiles a stored run holds besides its point forecast (ascending probabilities; empty:
      -- none). vals then holds 1 + cardinality(quantiles) blocks of the run's length, point forecast
      -- first, each quantile's after it in this order: a run stays one row, read and replaced whole.
      ALTER TABLE source_runs ADD COLUMN quantiles double precision[] NOT NULL DEFAULT '{}';
    `,
  },
  {
    version: 7,
    name: 'values held by each ingested run',
    sql: `
      -- How many values a run holds: its slots that are not empty (NaN, written as JavaScript's
      -- NaN: 00 00 00 00 00 00 f8 7f little-endian). A gas run keeps one value a day in hourly
      -- slots, a run may skip hours or hold quantiles only: its slots are not its values.
      -- /v1/status and the sources list add these up (forecast_values).
      ALTER TABLE source_runs ADD COLUMN n_values integer;
      UPDATE source_runs SET n_values = (
        SELECT count(*)::int FROM generate_series(0, octet_length(vals) / 8 - 1) AS i
         WHERE substring(vals FROM i * 8 + 1 FOR 8) <> '\\x000000000000f87f'::bytea);
      ALTER TABLE source_runs ALTER COLUMN n_values SET NOT NULL;
    `,
  },
];

/** Advisory lock id serialising migrations of processes that start together on one database. */
const MIGRATION_LOCK = 7_254_001;

/**
 * Applies the migrations not yet applied, all in one transaction that first takes an advisory
 * lock: API processes starting at the same time on one PostgreSQL server migrate one after the
 * other, and the later ones find nothing left to do.
 */
export async function migrate(sql: Sql): Promise<number[]> {
  return sql.transaction(async (tx) => {
    await tx.query('SELECT pg_advisory_xact_lock($1)', [MIGRATION_LOCK]);
    await tx.exec(`CREATE TABLE IF NOT EXISTS schema_migrations (
      version    integer PRIMARY KEY,
      name       text NOT NULL,
      applied_at timestamptz NOT NULL DEFAULT now()
    )`);
    const done = new Set((await tx.query<{ version: number }>('SELECT version FROM schema_migrations')).map((r) => r.version));
    const applied: number[] = [];
    for (const m of MIGRATIONS) {
      if (done.has(m.version)) continue;
      await tx.exec(m.sql);
      await tx.query('INSERT INTO schema_migrations (version, name) VALUES ($1, $2)', [m.version, m.name]);
      applied.push(m.version);
    }
    return applied;
  });
}
