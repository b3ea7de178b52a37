/** `gridcast serve`: the HTTP service on the CLI's store, with a graceful shutdown. */
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { configuredActualSources } from '../api/actualTruth.ts';
import { buildApp } from '../api/app.ts';
import { parseRateLimits } from '../api/rateLimits.ts';
import type { Store } from '../store/store.ts';
import { clockFromEnv } from '../time/clock.ts';
import { optionValue, parseArgs, UsageError } from './args.ts';
import { dataDir, openCliStore, storeLocation } from './storeAccess.ts';

/** How long a shutdown waits for in-flight responses before exiting anyway. */
const SHUTDOWN_GRACE_MS = 30_000;

/** Messages for the person at the terminal go to stderr: stdout carries the JSON request log. */
function say(text: string): void {
  process.stderr.write(text + '\n');
}

/** On the first start with an empty store, one all-ISO enterprise key so a new user can start at once. */
async function ensureDemoKey(store: Store): Promise<{ id: string; key: string } | null> {
  if ((await store.getMeta('demo_key_created')) !== null) return null;
  const created = (await store.keys.count()) === 0 ? await store.keys.create('demo', [{ iso: 'all', level: 'enterprise' }]) : null;
  await store.setMeta('demo_key_created', new Date().toISOString());
  return created;
}

export async function serveCommand(argv: string[]): Promise<void> {
  const args = parseArgs(argv, ['port', 'host', 'data']);
  const port = Number(optionValue(args, 'port', process.env.PORT || '8000'));
  if (!Number.isInteger(port) || port < 0 || port > 65535) throw new UsageError('--port takes a port number');
  const host = optionValue(args, 'host', process.env.HOST || '127.0.0.1')!;
  const clock = clockFromEnv();
  const rateLimits = parseRateLimits(process.env.GRIDCAST_RATE_LIMITS); // a bad setting stops the start, not a request
  configuredActualSources(); // so does a malformed GRIDCAST_ACTUAL_SOURCE
  const store = await openCliStore(args, `gridcast serve (port ${port})`);
  const demo = await ensureDemoKey(store);
  // The key is shown once, to the person at the terminal (stderr), never on the log stream.
  if (demo) say(`gridcast: created a demo API key ${demo.id} (all ISOs, enterprise). It is shown only this once:\n${demo.key}`);
  const app = await buildApp({
    store,
    clock,
    rateLimits,
    logger: process.env.GRIDCAST_LOG === 'off' ? false : true,
    warm: true,
    // Computed blocks persist here across restarts, shared by the processes using this directory.
    blockCacheDir: path.join(dataDir(args), 'block-cache'),
  });
  let closing = false;
  // Graceful shutdown: stop accepting, let in-flight responses finish (and usage be written),
  // then close the store. A response still running after the grace period is cut off.
  const shutdown = async (signal: string) => {
    if (closing) return;
    closing = true;
    app.log.info({ signal }, 'shutting down: finishing in-flight requests');
    const grace = setTimeout(() => {
      app.log.error('shutdown grace period over; exiting');
      process.exit(1);
    }, SHUTDOWN_GRACE_MS);
    grace.unref();
    await app.close();
    await store.close();
    say('gridcast: stopped');
  };
  process.on('SIGINT', () => void shutdown('SIGINT'));
  process.on('SIGTERM', () => void shutdown('SIGTERM'));
  await app.listen({ port, host });
  // The bound port: with --port 0 the system picks one, and the message must name it.
  const bound = (app.server.address() as AddressInfo).port;
  const base = `http://${host === '0.0.0.0' ? 'localhost' : host}:${bound}`;
  if (demo) say(`Try: KEY=<the key above>; curl -H "X-API-Key: $KEY" '${base}/v1/plant/ercot/wind/list'`);
  say(`gridcast: listening on ${base} (docs at /docs, ${storeLocation(args)})`);
}
