/**
 * The `gridcast` command (see USAGE). The store is the PostgreSQL server at DATABASE_URL when
 * it is set, else the embedded database in the data directory.
 */
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { buildApp } from '../api/app.ts';
import { DataDirBusyError } from '../store/embedded.ts';
import { formatSubscriptions, isLevel, isSubscriptionIso, LEVELS, SUBSCRIPTION_ISOS, type Subscription } from '../store/keys.ts';
import { openStore, type Store } from '../store/store.ts';
import { databaseUrlWithoutPassword } from '../store/postgres.ts';
import { parseRateLimits } from '../api/rateLimits.ts';
import { MAX_NAME_LENGTH } from '../api/admin.ts';
import { parseDateTimeLikePydantic, validateValue, type ParsedDate } from '../api/params.ts';
import { clockFromEnv } from '../time/clock.ts';
import { HelpRequested, isHelpFlag, optionValue, parseArgs, UsageError, type ParsedArgs } from './args.ts';
import { GET_USAGE, getCommand } from './get.ts';
import { INGEST_USAGE, ingestCommand, SOURCES_USAGE, sourcesCommand } from './ingest.ts';

/** How long a shutdown waits for in-flight responses before exiting anyway. */
const SHUTDOWN_GRACE_MS = 30_000;
const SUBSCRIPTION_ISO_TEXT = SUBSCRIPTION_ISOS.join(', ');

/** Messages for the person at the terminal go to stderr: stdout carries the JSON request log (serve) or the command's output. */
function say(text: string): void {
  process.stderr.write(text + '\n');
}

const STORE_NOTE = `Every command but get takes --data DIR; with DATABASE_URL=postgres://… set, they use that
PostgreSQL server instead (several serve processes may share it).`;

const SERVE_USAGE = `  gridcast serve [--port N] [--host H] [--data DIR]
      Runs the HTTP service (default port 8000 or $PORT, host 127.0.0.1 or $HOST,
      data directory ./data or $GRIDCAST_DATA_DIR). GRIDCAST_NOW=<ISO instant> freezes "now".`;

const KEYS_USAGE = `  gridcast keys create --name NAME --subscription ISO=LEVEL[@EXPIRES] [--subscription ...]
      Creates an API key; prints it alone on the last line. ISO is one of ${SUBSCRIPTION_ISO_TEXT};
      LEVEL is ${LEVELS.join(', ')}; EXPIRES an optional ISO 8601 instant.
  gridcast keys list
      One key per line: id, name, subscriptions (with expiry; ended ones marked expired), status.
      Never the key itself.
  gridcast keys revoke ID
      Revokes a key.
  gridcast keys subscribe ID ISO=LEVEL[@EXPIRES]
      Sets or changes one subscription of a key.
  gridcast keys unsubscribe ID ISO
      Removes one subscription of a key.
  gridcast keys expire ID ISO
      Ends one subscription of a key now.`;

const USAGE_USAGE = `  gridcast usage [--key ID] [--from YYYY-MM-DD] [--to YYYY-MM-DD]
      Requests and values served per UTC day, key and endpoint.`;

/** Each command's usage, as `gridcast COMMAND --help` prints it. */
const COMMAND_USAGE: Record<string, string> = {
  serve: `Usage:\n${SERVE_USAGE}\n${STORE_NOTE}`,
  keys: `Usage:\n${KEYS_USAGE}\n${STORE_NOTE}`,
  usage: `Usage:\n${USAGE_USAGE}\n${STORE_NOTE}`,
  get: `Usage:\n${GET_USAGE}`,
  ingest: `Usage:\n${INGEST_USAGE}\n${STORE_NOTE}`,
  sources: `Usage:\n${SOURCES_USAGE}\n${STORE_NOTE}`,
};

const USAGE = `Usage:
${SERVE_USAGE}
${KEYS_USAGE}
${USAGE_USAGE}
${GET_USAGE}
${INGEST_USAGE}
${SOURCES_USAGE}
${STORE_NOTE}
Every command prints its own usage with --help (gridcast get --help).`;

function dataDir(args: ParsedArgs): string {
  return path.resolve(optionValue(args, 'data', process.env.GRIDCAST_DATA_DIR || './data')!);
}

/** Where the store is, for messages (the database URL without its password). */
function storeLocation(args: ParsedArgs): string {
  return process.env.DATABASE_URL ? `database ${databaseUrlWithoutPassword(process.env.DATABASE_URL)}` : `data in ${dataDir(args)}`;
}

function openCliStore(args: ParsedArgs, command: string): Promise<Store> {
  return openStore({ databaseUrl: process.env.DATABASE_URL || undefined, dataDir: dataDir(args), command });
}

async function withStore<T>(args: ParsedArgs, command: string, fn: (store: Store) => Promise<T>): Promise<T> {
  const store = await openCliStore(args, command);
  try {
    return await fn(store);
  } finally {
    await store.close();
  }
}

function parseSubscription(text: string): Subscription {
  const [pair, expires, more] = text.split('@');
  const [iso, level, extra] = pair.split('=');
  if (more !== undefined || extra !== undefined || !iso || !level || !isSubscriptionIso(iso) || !isLevel(level)) {
    throw new UsageError(
      `a subscription is ISO=LEVEL[@EXPIRES] with ISO one of ${SUBSCRIPTION_ISO_TEXT} and LEVEL one of ${LEVELS.join(', ')} (got '${text}')`,
    );
  }
  if (expires === undefined) return { iso, level, expiresAt: null };
  // The same rules as the admin API's expires_at (a datetime without an offset is UTC).
  const parsed = parseDateTimeLikePydantic(expires);
  if (!parsed.ok) throw new UsageError(`EXPIRES must be an ISO 8601 date or instant: ${parsed.error} (got '${expires}')`);
  return { iso, level, expiresAt: new Date(parsed.value.epochMs) };
}

function needKeyId(id: string | undefined, command: string): string {
  if (!id) throw new UsageError(`keys ${command} needs the key id (see keys list)`);
  return id;
}

function noSuchKey(id: string): void {
  process.stderr.write(`gridcast: no key with id '${id}'\n`);
  process.exitCode = 1;
}

async function keysCommand(argv: string[]): Promise<void> {
  const args = parseArgs(argv, ['name', 'subscription', 'data']);
  const [sub, ...rest] = args.positionals;
  if (sub === 'create') {
    const name = optionValue(args, 'name');
    if (!name) throw new UsageError('keys create needs --name NAME');
    if ([...name].length > MAX_NAME_LENGTH) throw new UsageError(`--name takes at most ${MAX_NAME_LENGTH} characters`);
    const subs = (args.options.get('subscription') ?? []).map(parseSubscription);
    if (subs.length === 0) throw new UsageError('keys create needs at least one --subscription ISO=LEVEL');
    const created = await withStore(args, 'gridcast keys create', (s) => s.keys.create(name, subs));
    process.stdout.write(
      `Created key ${created.id} '${name}' (${formatSubscriptions(subs)}). Keep the key: it is shown only now.\n${created.key}\n`,
    );
  } else if (sub === 'list') {
    const keys = await withStore(args, 'gridcast keys list', (s) => s.keys.list());
    const now = Date.now();
    for (const k of keys) {
      const status = k.revokedAt ? `revoked ${k.revokedAt.toISOString()}` : 'active';
      process.stdout.write(`${k.id}\t${k.name}\t${formatSubscriptions(k.subscriptions, now) || '-'}\t${status}\n`);
    }
  } else if (sub === 'revoke') {
    const id = needKeyId(rest[0], 'revoke');
    const ok = await withStore(args, 'gridcast keys revoke', (s) => s.keys.revoke(id));
    if (!ok) return noSuchKey(id);
    process.stdout.write(`Revoked ${id}\n`);
  } else if (sub === 'subscribe') {
    const id = needKeyId(rest[0], 'subscribe');
    if (!rest[1]) throw new UsageError('keys subscribe needs ISO=LEVEL[@EXPIRES]');
    const subscription = parseSubscription(rest[1]);
    if (!(await withStore(args, 'gridcast keys subscribe', (s) => s.keys.subscribe(id, subscription)))) return noSuchKey(id);
    process.stdout.write(`Key ${id}: ${formatSubscriptions([subscription])}\n`);
  } else if (sub === 'unsubscribe' || sub === 'expire') {
    const id = needKeyId(rest[0], sub);
    const iso = rest[1];
    if (!iso || !isSubscriptionIso(iso)) throw new UsageError(`keys ${sub} needs one of ${SUBSCRIPTION_ISO_TEXT} after the key id`);
    const done = await withStore(args, `gridcast keys ${sub}`, (s) =>
      sub === 'unsubscribe' ? s.keys.unsubscribe(id, iso) : s.keys.expire(id, iso),
    );
    if (!done) {
      process.stderr.write(`gridcast: key '${id}' has no subscription for '${iso}'\n`);
      process.exitCode = 1;
      return;
    }
    process.stdout.write(sub === 'unsubscribe' ? `Key ${id}: removed ${iso}\n` : `Key ${id}: ${iso} expired now\n`);
  } else {
    throw new UsageError(`unknown keys command '${sub ?? ''}'`);
  }
}

async function usageCommand(argv: string[]): Promise<void> {
  const args = parseArgs(argv, ['key', 'from', 'to', 'data']);
  const day = (name: 'from' | 'to'): string | undefined => {
    const v = optionValue(args, name);
    if (v === undefined) return undefined;
    const outcome = validateValue({ name, in: 'query', kind: 'date' }, v, [name]);
    if (!outcome.ok) throw new UsageError(`--${name} takes a date YYYY-MM-DD: ${outcome.error.msg} (got '${v}')`);
    return (outcome.value as ParsedDate).iso;
  };
  const filter = { keyId: optionValue(args, 'key'), from: day('from'), to: day('to') };
  const rows = await withStore(args, 'gridcast usage', (s) => s.usage.query(filter));
  process.stdout.write('day\tkey\tendpoint\trequests\tvalues\n');
  for (const r of rows) process.stdout.write(`${r.day}\t${r.key_id}\t${r.endpoint}\t${r.requests}\t${r.values_served}\n`);
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
  const rateLimits = parseRateLimits(process.env.GRIDCAST_RATE_LIMITS); // a bad setting stops the start, not a request
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

const COMMANDS: Record<string, (argv: string[]) => Promise<void>> = {
  serve: serveCommand,
  keys: keysCommand,
  usage: usageCommand,
  get: getCommand,
  ingest: (argv) => ingestCommand(argv, (args, cmd, fn) => withStore(args, cmd, fn)),
  sources: (argv) => sourcesCommand(argv, (args, cmd, fn) => withStore(args, cmd, fn)),
};

async function main(argv: string[]): Promise<void> {
  const [command, ...rest] = argv;
  const run = command === undefined ? undefined : COMMANDS[command];
  try {
    if (run) await run(rest);
    else if (command === undefined || command === 'help' || isHelpFlag(command)) process.stdout.write(USAGE + '\n');
    else throw new UsageError(`unknown command '${command}' (one of ${Object.keys(COMMANDS).join(', ')})`);
  } catch (e) {
    if (e instanceof HelpRequested) {
      process.stdout.write(COMMAND_USAGE[command!] + '\n');
    } else if (e instanceof UsageError) {
      // One line for the mistake and where the right form is, not every command's usage.
      process.stderr.write(`gridcast: ${e.message}\nsee gridcast ${run ? `${command} ` : ''}--help\n`);
      process.exitCode = 2;
    } else if (e instanceof Error) {
      // Any other failure (a busy data directory, a bad setting, an unreachable database or
      // service) is one clear line; the stack is for GRIDCAST_DEBUG=1.
      process.stderr.write(`gridcast: ${e.message}\n`);
      if (process.env.GRIDCAST_DEBUG === '1' && !(e instanceof DataDirBusyError)) process.stderr.write(`${e.stack}\n`);
      process.exitCode = 1;
    } else {
      throw e;
    }
  }
}

await main(process.argv.slice(2));
