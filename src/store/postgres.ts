/**
 * The store on a PostgreSQL server (DATABASE_URL), through a node-postgres pool: the same
 * Sql interface and the same migrations as the embedded PGlite store. Any number of API
 * processes (and the CLI) may share one database: nothing is cached across requests except
 * key lookups (api/auth.ts, a few seconds), and counters are updated atomically in SQL.
 */
import pg from 'pg';
import type { Sql } from './sql.ts';

// int8 (count(*), sums) arrives as a string by default; our counts fit in a double.
pg.types.setTypeParser(pg.types.builtins.INT8, (v) => Number(v));

/** Pool size per process: requests make a few short queries each. */
const POOL_SIZE = 10;

function onClient(client: pg.PoolClient): Sql {
  const sql: Sql = {
    async query<T>(text: string, params?: unknown[]) {
      return (await client.query(text, params)).rows as T[];
    },
    async exec(text: string) {
      await client.query(text);
    },
    // A nested transaction joins the outer one (as on PGlite).
    transaction: (fn) => fn(sql),
    close: async () => {},
    binaryBytea: true,
  };
  return sql;
}

export async function openPostgres(url: string): Promise<Sql> {
  const pool = new pg.Pool({ connectionString: url, max: POOL_SIZE, application_name: 'gridcast' });
  // An idle client that loses its connection (server restart) must not crash the process.
  pool.on('error', () => {});
  // Fail fast with a clear error when the server is unreachable or the URL is wrong.
  const probe = await pool.connect().catch(async (e: Error) => {
    await pool.end();
    throw new Error(`cannot connect to PostgreSQL at ${databaseUrlWithoutPassword(url)}: ${e.message}`);
  });
  probe.release();
  return {
    async query<T>(text: string, params?: unknown[]) {
      return (await pool.query(text, params)).rows as T[];
    },
    async exec(text: string) {
      await pool.query(text);
    },
    async transaction(fn) {
      const client = await pool.connect();
      try {
        await client.query('BEGIN');
        const result = await fn(onClient(client));
        await client.query('COMMIT');
        return result;
      } catch (e) {
        await client.query('ROLLBACK').catch(() => {});
        throw e;
      } finally {
        client.release();
      }
    },
    close: () => pool.end(),
    binaryBytea: true,
  };
}

/** The URL without its password, for messages. */
export function databaseUrlWithoutPassword(url: string): string {
  return url.replace(/(\/\/[^:/@]+:)[^@]*@/, '$1***@');
}
