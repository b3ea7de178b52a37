/**
 * A `gridcast serve` child process for the benchmarks, from the built code (bin/gridcast.js): started on a free port with a fresh
 * data directory (or a PostgreSQL database), resolved once it prints its URL (on stderr), with
 * the demo key it printed (embedded) or a key made through the admin API (PostgreSQL).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const ADMIN_TOKEN = 'bench-admin-token';
/** What bin/gridcast.js runs. */
export const BUILT_MAIN = path.join(ROOT, 'dist', 'cli', 'main.js');

export interface BenchServer {
  url: string;
  key: string;
  pid: number;
  child: ChildProcess;
  stop(): Promise<void>;
}

export interface ServeOptions {
  /** Extra environment (GRIDCAST_NOW, GRIDCAST_WORKERS, …). */
  env?: NodeJS.ProcessEnv;
  /** A PostgreSQL database URL; without it, the embedded store in a fresh directory. */
  databaseUrl?: string;
  /** The data directory to use (and keep when the server stops) instead of a fresh one: a restart. */
  dataDir?: string;
}

/** Waits until the server's /readyz answers 200 (its compute workers are warm: compute/warmUp.ts). */
export async function untilReady(server: BenchServer, timeoutMs = 300_000): Promise<void> {
  const until = Date.now() + timeoutMs;
  while ((await fetch(`${server.url}/readyz`)).status !== 200) {
    if (Date.now() > until) throw new Error(`bench: the server was not ready within ${timeoutMs / 1000} s`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

export async function startServe(options: ServeOptions = {}): Promise<BenchServer> {
  const dataDir = options.dataDir ?? fs.mkdtempSync(path.join(os.tmpdir(), 'gridcast-bench-'));
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    GRIDCAST_ADMIN_TOKEN: ADMIN_TOKEN,
    // The benchmarks measure the service, not the budgets.
    GRIDCAST_RATE_LIMITS: 'core=none,advanced=none,enterprise=none',
    // What `npm start` sets (package.json; README, *Memory*): glibc's malloc arenas shared by the threads.
    MALLOC_ARENA_MAX: '2',
    ...options.env,
  };
  if (options.databaseUrl) env.DATABASE_URL = options.databaseUrl;
  else delete env.DATABASE_URL;
  // The built code, as `npm start` runs it (`npm run bench` builds first): under tsx, whose
  // loader runs in every thread, a server with 2 workers holds ~100 MB more.
  if (!fs.existsSync(BUILT_MAIN)) throw new Error(`bench: ${BUILT_MAIN} is missing: run \`npm run build\` first`);
  const child = spawn(process.execPath, [path.join(ROOT, 'bin', 'gridcast.js'), 'serve', '--port', '0', '--data', dataDir], {
    cwd: ROOT,
    env,
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let stderr = '';
  const url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`bench: serve did not start in 120 s: ${stderr}`)), 120_000);
    child.stderr!.on('data', (c: Buffer) => {
      stderr += c.toString();
      const m = /listening on (http:\/\/[^\s]+)/.exec(stderr);
      if (m) {
        clearTimeout(timer);
        resolve(m[1]);
      }
    });
    child.on('exit', (code) => reject(new Error(`bench: serve exited with ${code}: ${stderr}`)));
  });
  let key = /^(gc_\S+)$/m.exec(stderr)?.[1];
  if (!key) {
    const res = await fetch(`${url}/admin/keys`, {
      method: 'POST',
      headers: { authorization: `Bearer ${ADMIN_TOKEN}`, 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'bench', subscriptions: [{ iso: 'all', level: 'enterprise' }] }),
    });
    key = ((await res.json()) as { key: string }).key;
  }
  return {
    url,
    key,
    pid: child.pid!,
    child,
    async stop() {
      const exited = new Promise((r) => child.once('exit', r));
      child.kill('SIGTERM');
      await exited;
      if (!options.dataDir) fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
