/** Opens the service's store (PostgreSQL server or embedded PGlite): migrations applied, key store ready. */
import { openEmbedded } from './embedded.ts';
import { openPostgres } from './postgres.ts';
import { KeyStore } from './keys.ts';
import { UsageStore } from './usage.ts';
import { SourceStore } from './sources.ts';
import { migrate } from './migrations.ts';
import type { Sql } from './sql.ts';

export interface Store {
  sql: Sql;
  keys: KeyStore;
  usage: UsageStore;
  /** Ingested sources: forecast runs and actuals users bring. */
  sources: SourceStore;
  /** 'postgres' on a PostgreSQL server, 'embedded' on PGlite. */
  kind: 'postgres' | 'embedded';
  /** Reads and writes small named flags (e.g. that the demo key was made). */
  getMeta(name: string): Promise<string | null>;
  setMeta(name: string, value: string): Promise<void>;
  close(): Promise<void>;
}

export interface StoreOptions {
  /** A PostgreSQL server (postgres://…); without it the embedded PGlite database in dataDir. */
  databaseUrl?: string;
  dataDir: string;
  /** Names the process in the data directory's lock (shown to a process refused the lock). */
  command: string;
}

export async function openStore(options: StoreOptions): Promise<Store> {
  const sql = options.databaseUrl ? await openPostgres(options.databaseUrl) : await openEmbedded(options.dataDir, options.command);
  try {
    await migrate(sql);
  } catch (e) {
    await sql.close();
    throw e;
  }
  return storeOn(sql, options.databaseUrl ? 'postgres' : 'embedded');
}

export function storeOn(sql: Sql, kind: Store['kind'] = 'embedded'): Store {
  return {
    sql,
    kind,
    keys: new KeyStore(sql),
    usage: new UsageStore(sql),
    sources: new SourceStore(sql),
    async getMeta(name) {
      const rows = await sql.query<{ value: string }>('SELECT value FROM meta WHERE name = $1', [name]);
      return rows.length ? rows[0].value : null;
    },
    async setMeta(name, value) {
      await sql.query('INSERT INTO meta (name, value) VALUES ($1, $2) ON CONFLICT (name) DO UPDATE SET value = EXCLUDED.value', [
        name,
        value,
      ]);
    },
    close: () => sql.close(),
  };
}
