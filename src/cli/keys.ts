/** `gridcast keys` and `gridcast usage`: API keys and the usage meter, on the store directly. */
import { MAX_NAME_LENGTH } from '../api/admin.ts';
import { parseDateTimeLikePydantic, validateValue, type ParsedDate } from '../api/params.ts';
import { formatSubscriptions, isLevel, isSubscriptionIso, LEVELS, type Subscription } from '../store/keys.ts';
import { optionValue, parseArgs, UsageError } from './args.ts';
import { withStore } from './storeAccess.ts';
import { SUBSCRIPTION_ISO_TEXT } from './usage.ts';

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

export async function keysCommand(argv: string[]): Promise<void> {
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

export async function usageCommand(argv: string[]): Promise<void> {
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
