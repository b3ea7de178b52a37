/** Where the CLI's store is: the PostgreSQL server at DATABASE_URL when it is set, else the embedded database in the data directory. */
import path from 'node:path';
import { openStore, type Store } from '../store/store.ts';
import { databaseUrlWithoutPassword } from '../store/postgres.ts';
import { optionValue, type ParsedArgs } from './args.ts';

export function dataDir(args: ParsedArgs): string {
  return path.resolve(optionValue(args, 'data', process.env.GRIDCAST_DATA_DIR || './data')!);
}

/** Where the store is, for messages (the database URL without its password). */
export function storeLocation(args: ParsedArgs): string {
  return process.env.DATABASE_URL ? `database ${databaseUrlWithoutPassword(process.env.DATABASE_URL)}` : `data in ${dataDir(args)}`;
}

export function openCliStore(args: ParsedArgs, command: string): Promise<Store> {
  return openStore({ databaseUrl: process.env.DATABASE_URL || undefined, dataDir: dataDir(args), command });
}

export async function withStore<T>(args: ParsedArgs, command: string, fn: (store: Store) => Promise<T>): Promise<T> {
  const store = await openCliStore(args, command);
  try {
    return await fn(store);
  } finally {
    await store.close();
  }
}
