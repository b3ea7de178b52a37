/**
 * The embedded store: PGlite (PostgreSQL compiled to WebAssembly) in a data directory.
 *
 * PGlite runs inside one process and must never be opened by two processes at once, or
 * the data directory is corrupted. A lock file (`gridcast.lock`, created atomically and
 * holding the owner's pid) guards it: a second process — a `gridcast keys` command while
 * `gridcast serve` runs, or a second server — is refused with a clear error instead. A lock
 * left by a process that died is taken over.
 */
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import { PGlite } from '@electric-sql/pglite';
import type { Sql } from './sql.ts';

export class DataDirBusyError extends Error {
  constructor(
    readonly dataDir: string,
    readonly pid: number,
    readonly command: string,
  ) {
    super(
      `The data directory ${dataDir} is in use by process ${pid} (${command}). ` +
        `The embedded store allows one process at a time: stop that process first, then run this command again.`,
    );
  }
}

const LOCK_FILE = 'gridcast.lock';
/** Data directories this process holds, so a second open from within it is refused too. */
const heldHere = new Set<string>();

function processAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** Takes the data directory's lock or throws DataDirBusyError; returns the release function. */
export function lockDataDir(dataDir: string, command: string): () => void {
  fs.mkdirSync(dataDir, { recursive: true });
  const lockPath = path.join(dataDir, LOCK_FILE);
  const key = fs.realpathSync(dataDir);
  if (heldHere.has(key)) throw new DataDirBusyError(dataDir, process.pid, 'this process');
  for (let attempt = 0; attempt < 3; attempt++) {
    try {
      const fd = fs.openSync(lockPath, 'wx');
      fs.writeSync(fd, JSON.stringify({ pid: process.pid, command, startedAt: new Date().toISOString() }));
      fs.closeSync(fd);
      heldHere.add(key);
      let released = false;
      const release = () => {
        if (released) return;
        released = true;
        heldHere.delete(key);
        try {
          fs.unlinkSync(lockPath);
        } catch {
          /* already gone */
        }
        process.off('exit', release);
      };
      process.on('exit', release);
      return release;
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== 'EEXIST') throw e;
      let owner: { pid?: number; command?: string } = {};
      try {
        owner = JSON.parse(fs.readFileSync(lockPath, 'utf8'));
      } catch {
        /* a lock being written right now, or garbage: treated as stale below */
      }
      // A lock naming this very pid but not held here was left by an earlier process that
      // had the same pid (common in containers): it is stale.
      if (owner.pid && owner.pid !== process.pid && processAlive(owner.pid)) {
        throw new DataDirBusyError(dataDir, owner.pid, owner.command ?? 'gridcast');
      }
      fs.rmSync(lockPath, { force: true }); // stale: its owner is gone
    }
  }
  throw new Error(`Could not take the lock on ${dataDir}`);
}

function wrap(db: Pick<PGlite, 'query' | 'exec'>): Omit<Sql, 'transaction' | 'close'> {
  return {
    async query<T>(text: string, params?: unknown[]) {
      return (await db.query<T>(text, params)).rows;
    },
    async exec(text: string) {
      await db.exec(text);
    },
  };
}

/** The embedded database's directory inside the data directory. */
export const EMBEDDED_DB_DIR = 'pg';

/**
 * PostgreSQL's shared buffers in PGlite (its default is 128 MB, all of it resident once
 * PostgreSQL has initialised it). The embedded store holds keys, usage and own data read in
 * whole runs, and its files are in the operating system's page cache anyway: 16 MB costs no
 * measurable speed and saves ~100 MB of RSS (README, *Memory*).
 */
const SHARED_BUFFERS = '16MB';

/**
 * Creates the database cluster of a new data directory in a child process: initdb runs in
 * WebAssembly modules of its own, and a process that ran them keeps ~0.3 GB more RSS for its
 * life than one that only opens the cluster (the freed WebAssembly memory is not given back).
 */
async function initInChild(pgDir: string): Promise<void> {
  const pglite = import.meta.resolve('@electric-sql/pglite');
  const script = `const { PGlite } = await import(${JSON.stringify(pglite)}); await (await PGlite.create(${JSON.stringify(pgDir)})).close();`;
  await promisify(execFile)(process.execPath, ['--input-type=module', '-e', script]);
}

/** Opens (creating if needed) the embedded database in `dataDir`/pg. */
export async function openEmbedded(dataDir: string, command: string): Promise<Sql> {
  const release = lockDataDir(dataDir, command);
  let db: PGlite;
  try {
    const pgDir = path.join(dataDir, EMBEDDED_DB_DIR);
    if (!fs.existsSync(path.join(pgDir, 'PG_VERSION'))) await initInChild(pgDir);
    db = await PGlite.create(pgDir, { startParams: [...PGlite.defaultStartParams, '-c', `shared_buffers=${SHARED_BUFFERS}`] });
  } catch (e) {
    release();
    throw e;
  }
  return {
    ...wrap(db),
    transaction: (fn) => db.transaction((tx) => fn(inTransaction(tx))),
    async close() {
      await db.close();
      release();
    },
  };
}

/** The Sql view of an open transaction; a nested transaction joins the outer one. */
function inTransaction(tx: Pick<PGlite, 'query' | 'exec'>): Sql {
  const sql: Sql = {
    ...wrap(tx),
    transaction: (fn) => fn(sql),
    close: async () => {},
  };
  return sql;
}
