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
