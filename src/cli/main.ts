/**
 * The `gridcast` command:
 *   gridcast serve [--port N] [--host H] [--data DIR]
 *   gridcast keys create --name NAME --subscription ISO=LEVEL [--subscription …] [--data DIR]
 *   gridcast keys list [--data DIR]
 *   gridcast keys revoke ID [--data DIR]
 */
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { buildApp } from '../api/app.ts';
import { warmCells } from '../catalog/cellCatalog.ts';
import { buildAllRegions } from '../catalog/regions.ts';
import { DataDirBusyError } from '../store/embedded.ts';
import { formatSubscriptions, isLevel, isSubscriptionIso, LEVELS, type Subscription } from '../store/keys.ts';
import { openStore, type Store } from '../store/store.ts';
import { clockFromEnv } from '../time/clock.ts';
import { optionValue, parseArgs, UsageError, type ParsedArgs } from './args.ts';

const USAGE = `Usage:
  gridcast serve [--port N] [--host H] [--data DIR]
      Runs the HTTP service (default port 8000 or $PORT, host 127.0.0.1 or $HOST,
      data directory ./data or $GRIDCAST_DATA_DIR). GRIDCAST_NOW=<ISO instant> freezes "now".
  gridcast keys create --name NAME --subscription ISO=LEVEL [--subscription ISO=LEVEL ...] [--data DIR]
      Creates an API key; prints it alone on the last line. ISO is an ISO code or 'all';
      LEVEL is ${LEVELS.join(', ')}.
  gridcast keys list [--data DIR]
      One key per line: id, name, subscriptions, status. Never the key itself.
  gridcast keys revoke ID [--data DIR]
      Revokes a key.`;

function dataDir(args: ParsedArgs): string {
  return path.resolve(optionValue(args, 'data', process.env.GRIDCAST_DATA_DIR || './data')!);
}

async function withStore<T>(args: ParsedArgs, command: string, fn: (store: Store) => Promise<T>): Promise<T> {
  const store = await openStore({ dataDir: dataDir(args), command });
  try {
    return await fn(store);
  } finally {
    await store.close();
  }
}

function parseSubscription(text: string): Subscription {
  const [iso, level, extra] = text.split('=');
  if (extra !== undefined || !iso || !level || !isSubscriptionIso(iso) || !isLevel(level)) {
    throw new UsageError(`--subscription takes ISO=LEVEL with ISO one of all, pjm, miso, spp, ercot, caiso, nyiso, isone and LEVEL one of ${LEVELS.join(', ')} (got '${text}')`);
  }
  return { iso, level };
}

async function keysCommand(argv: string[]): Promise<void> {
  const args = parseArgs(argv, ['name', 'subscription', 'data']);
  const [sub, ...rest] = args.positionals;
  if (sub === 'create') {
    const name = optionValue(args, 'name');
    if (!name) throw new UsageError('keys create needs --name NAME');
    const subs = (args.options.get('subscription') ?? []).map(parseSubscription);
    if (subs.length === 0) throw new UsageError('keys create needs at least one --subscription ISO=LEVEL');
    const created = await withStore(args, 'gridcast keys create', (s) => s.keys.create(name, subs));
    process.stdout.write(`Created key ${created.id} '${name}' (${formatSubscriptions(subs)}). Keep the key: it is shown only now.\n${created.key}\n`);
  } else if (sub === 'list') {
    const keys = await withStore(args, 'gridcast keys list', (s) => s.keys.list());
    for (const k of keys) {
      const status = k.revokedAt ? `revoked ${k.revokedAt.toISOString()}` : 'active';
      process.stdout.write(`${k.id}\t${k.name}\t${formatSubscriptions(k.subscriptions) || '-'}\t${status}\n`);
    }
  } else if (sub === 'revoke') {
    const id = rest[0];
    if (!id) throw new UsageError('keys revoke needs the key id (see keys list)');
    const ok = await withStore(args, 'gridcast keys revoke', (s) => s.keys.revoke(id));
    if (!ok) {
      process.stderr.write(`gridcast: no key with id '${id}'\n`);
      process.exitCode = 1;
      return;
    }
    process.stdout.write(`Revoked ${id}\n`);
  } else {
    throw new UsageError(`unknown keys command '${sub ?? ''}'`);
  }
}

/** On the first start with an empty store, one all-ISO enterprise key so a new user can start at once. */
async function ensureDemoKey(store: Store): Promise<{ id: string; key: string } | null> {
  if ((await store.getMeta('demo_key_created')) !== null) return null;
  const created = (await store.keys.count()) === 0 ? await store.keys.create('demo', [{ iso: 'all', level: 'enterprise' }]) : null;
  await store.setMeta('demo_key_created', new Date().toISOString());
  return created;
}

async function serveCommand(argv: string[]): Promise<void> {
  const args = parseArgs(argv, ['port', 'host', 'data']);
  const port = Number(optionValue(args, 'port', process.env.PORT || '8000'));
  if (!Number.isInteger(port) || port < 0 || port > 65535) throw new UsageError('--port takes a port number');
  const host = optionValue(args, 'host', process.env.HOST || '127.0.0.1')!;
  const clock = clockFromEnv();
  const store = await openStore({ dataDir: dataDir(args), command: `gridcast serve (port ${port})` });
  const demo = await ensureDemoKey(store);
  if (demo) process.stdout.write(`gridcast: created a demo API key ${demo.id} (all ISOs, enterprise). It is shown only this once:\n${demo.key}\n`);
  const app = await buildApp({ store, clock, logger: process.env.GRIDCAST_LOG === 'off' ? false : true });
  let closing = false;
  const shutdown = async () => {
    if (closing) return;
    closing = true;
    await app.close(); // finishes in-flight responses
    await store.close();
  };
  process.on('SIGINT', shutdown);
  process.on('SIGTERM', shutdown);
  await app.listen({ port, host });
  // The bound port: with --port 0 the system picks one, and the message must name it.
  const bound = (app.server.address() as AddressInfo).port;
  const base = `http://${host === '0.0.0.0' ? 'localhost' : host}:${bound}`;
  if (demo) process.stdout.write(`Try: curl -H 'X-API-Key: ${demo.key}' '${base}/v1/plant/ercot/wind/list'\n`);
  process.stdout.write(`gridcast: listening on ${base} (docs at /docs, data in ${dataDir(args)})\n`);
  // Build the region catalog (population, load centres: ~0.5 s) now rather than in the first
  // request, and start computing the H3 cell geometry (~3 s, in a worker thread).
  setImmediate(() => {
    buildAllRegions();
    warmCells();
  });
}

async function main(argv: string[]): Promise<void> {
  const [command, ...rest] = argv;
  try {
    if (command === 'serve') await serveCommand(rest);
    else if (command === 'keys') await keysCommand(rest);
    else if (command === undefined || command === 'help' || command === '--help' || command === '-h') process.stdout.write(USAGE + '\n');
    else throw new UsageError(`unknown command '${command}'`);
  } catch (e) {
    if (e instanceof UsageError) {
      process.stderr.write(`gridcast: ${e.message}\n\n${USAGE}\n`);
      process.exitCode = 2;
    } else if (e instanceof DataDirBusyError || (e instanceof Error && /GRIDCAST_NOW/.test(e.message))) {
      process.stderr.write(`gridcast: ${e.message}\n`);
      process.exitCode = 1;
    } else {
      throw e;
    }
  }
}

await main(process.argv.slice(2));
