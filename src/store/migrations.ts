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
];

export async function migrate(sql: Sql): Promise<number[]> {
  await sql.exec(`CREATE TABLE IF NOT EXISTS schema_migrations (
    version    integer PRIMARY KEY,
    name       text NOT NULL,
    applied_at timestamptz NOT NULL DEFAULT now()
  )`);
  const done = new Set((await sql.query<{ version: number }>('SELECT version FROM schema_migrations')).map((r) => r.version));
  const applied: number[] = [];
  for (const m of MIGRATIONS) {
    if (done.has(m.version)) continue;
    await sql.transaction(async (tx) => {
      await tx.exec(m.sql);
      await tx.query('INSERT INTO schema_migrations (version, name) VALUES ($1, $2)', [m.version, m.name]);
    });
    applied.push(m.version);
  }
  return applied;
}
