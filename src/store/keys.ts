/**
 * API keys and their per-ISO subscriptions.
 *
 * A key is `gc_` + 32 URL-safe characters from 24 random bytes. Only its SHA-256 is
 * stored: keys are long random secrets (not passwords), so a fast unsalted hash is the
 * right tool — it cannot be brute-forced and lets a request find its key by index.
 * Keys also have a public id (`key_` + 24 hex, 96 random bits: no collision in any number of
 * keys a service will ever hold; keys made before had 8 hex) used to list and revoke them.
 *
 * Instants are read as epoch milliseconds computed by the database, not as the drivers' Date
 * objects: a driver parsing a timestamp text of year 0001 can read it as 2001.
 */
import crypto from 'node:crypto';
import { ISO_CODES, type IsoCode } from '../catalog/isos.ts';
import { formatUtcSecond } from '../time/hours.ts';
import type { Sql } from './sql.ts';

export const LEVELS = ['core', 'advanced', 'enterprise'] as const;
/** A key's public id: `key_` and hex digits (8 for keys made before ids grew to 24). */
export const KEY_ID_PATTERN = /^key_[0-9a-f]{8,32}$/;
const KEY_ID_BYTES = 12;
/** PostgreSQL's unique_violation. */
const UNIQUE_VIOLATION = '23505';
export type Level = (typeof LEVELS)[number];
export type SubscriptionIso = IsoCode | 'all';

export interface Subscription {
  iso: SubscriptionIso;
  level: Level;
  /** When the subscription ends (null or absent: never). */
  expiresAt?: Date | null;
}

export interface KeyInfo {
  id: string;
  name: string;
  createdAt: Date;
  revokedAt: Date | null;
  subscriptions: Subscription[];
}

export function levelRank(level: Level): number {
  return LEVELS.indexOf(level);
}

export function hashKey(key: string): string {
  return crypto.createHash('sha256').update(key, 'utf8').digest('hex');
}

/** What a subscription may name: 'all', then every ISO code. */
export const SUBSCRIPTION_ISOS: readonly SubscriptionIso[] = ['all', ...ISO_CODES];

export function isSubscriptionIso(s: string): s is SubscriptionIso {
  return (SUBSCRIPTION_ISOS as readonly string[]).includes(s);
}

export function isLevel(s: string): s is Level {
  return (LEVELS as readonly string[]).includes(s);
}

/** The level a key's subscriptions grant for an ISO: the best of its own and 'all'. */
export function levelFor(subscriptions: readonly Subscription[], iso: IsoCode): Level | null {
  let best: Level | null = null;
  for (const s of subscriptions) {
    if ((s.iso === iso || s.iso === 'all') && (best === null || levelRank(s.level) > levelRank(best))) best = s.level;
  }
  return best;
}

/**
 * `ercot=core@2027-01-01T00:00:00Z,all=advanced`; with `nowMs`, a subscription that has ended is
 * marked ` (expired)`.
 */
export function formatSubscriptions(subscriptions: readonly Subscription[], nowMs?: number): string {
  return subscriptions
    .map((s) => {
      const expiry = s.expiresAt ? `@${formatUtcSecond(s.expiresAt.getTime())}` : '';
      const expired = nowMs !== undefined && s.expiresAt && s.expiresAt.getTime() <= nowMs ? ' (expired)' : '';
      return `${s.iso}=${s.level}${expiry}${expired}`;
    })
    .join(',');
}

async function setSubscription(sql: Sql, keyId: string, s: Subscription): Promise<void> {
  await sql.query(
    `INSERT INTO subscriptions (key_id, iso, level, expires_at) VALUES ($1, $2, $3, $4)
     ON CONFLICT (key_id, iso) DO UPDATE SET level = EXCLUDED.level, expires_at = EXCLUDED.expires_at`,
    [keyId, s.iso, s.level, s.expiresAt ? s.expiresAt.toISOString() : null],
  );
}

interface KeyRow {
  id: string;
  name: string;
  created_ms: number;
  revoked_ms: number | null;
}

interface SubscriptionRow {
  key_id: string;
  iso: SubscriptionIso;
  level: Level;
  expires_ms: number | null;
}

const epochMs = (column: string, as: string) => `(extract(epoch FROM ${column}) * 1000)::float8 AS ${as}`;
const KEY_COLUMNS = `id, name, ${epochMs('created_at', 'created_ms')}, ${epochMs('revoked_at', 'revoked_ms')}`;
const SUBSCRIPTION_COLUMNS = `key_id, iso, level, ${epochMs('expires_at', 'expires_ms')}`;

function subscriptionOf(row: SubscriptionRow): Subscription {
  return { iso: row.iso, level: row.level, expiresAt: row.expires_ms === null ? null : new Date(row.expires_ms) };
}

function keyInfoOf(row: KeyRow, subscriptions: Subscription[]): KeyInfo {
  return {
    id: row.id,
    name: row.name,
    createdAt: new Date(row.created_ms),
    revokedAt: row.revoked_ms === null ? null : new Date(row.revoked_ms),
    subscriptions,
  };
}

export class KeyStore {
  constructor(
    private readonly sql: Sql,
    /** The source of random bytes for keys and ids (replaceable to test a collision). */
    private readonly randomBytes: (size: number) => Buffer = crypto.randomBytes,
  ) {}

  /** Creates a key and returns its id and the secret, which is shown this once only. */
  async create(name: string, subscriptions: readonly Subscription[]): Promise<{ id: string; key: string }> {
    // A collision of 96 random bits (id) or 192 (key) will not happen; if one ever did, the
    // transaction rolls back and the next attempt draws new ones.
    for (let attempt = 1; ; attempt++) {
      const key = 'gc_' + this.randomBytes(24).toString('base64url');
      const id = 'key_' + this.randomBytes(KEY_ID_BYTES).toString('hex');
      try {
        await this.sql.transaction(async (tx) => {
          await tx.query('INSERT INTO api_keys (id, name, key_hash) VALUES ($1, $2, $3)', [id, name, hashKey(key)]);
          for (const s of subscriptions) await setSubscription(tx, id, s);
        });
        return { id, key };
      } catch (e) {
        if (attempt >= 3 || (e as { code?: string }).code !== UNIQUE_VIOLATION) throw e;
      }
    }
  }

  /** Sets (adds or changes) a key's subscription for one ISO; false when there is no such key. */
  async subscribe(keyId: string, subscription: Subscription): Promise<boolean> {
    return this.sql.transaction(async (tx) => {
      const rows = await tx.query('SELECT 1 FROM api_keys WHERE id = $1 FOR UPDATE', [keyId]);
      if (rows.length === 0) return false;
      await setSubscription(tx, keyId, subscription);
      return true;
    });
  }

  /** Ends a key's subscription for one ISO now (kept, inactive); false when it had none. */
  async expire(keyId: string, iso: SubscriptionIso): Promise<boolean> {
    const rows = await this.sql.query('UPDATE subscriptions SET expires_at = now() WHERE key_id = $1 AND iso = $2 RETURNING key_id', [
      keyId,
      iso,
    ]);
    return rows.length > 0;
  }

  /** Removes a key's subscription for one ISO; false when it had none. */
  async unsubscribe(keyId: string, iso: SubscriptionIso): Promise<boolean> {
    const rows = await this.sql.query('DELETE FROM subscriptions WHERE key_id = $1 AND iso = $2 RETURNING key_id', [keyId, iso]);
    return rows.length > 0;
  }

  /** One key (revoked or not) with all its subscriptions, expired ones included. */
  async get(id: string): Promise<KeyInfo | null> {
    return (await this.list(id))[0] ?? null;
  }

  /** Every key (or the one with `id`), oldest first, with all subscriptions including expired ones. */
  async list(id?: string): Promise<KeyInfo[]> {
    const filter = id === undefined ? '' : 'WHERE id = $1';
    const params = id === undefined ? [] : [id];
    const keys = await this.sql.query<KeyRow>(`SELECT ${KEY_COLUMNS} FROM api_keys ${filter} ORDER BY created_at, id`, params);
    const subs = await this.sql.query<SubscriptionRow>(
      `SELECT ${SUBSCRIPTION_COLUMNS} FROM subscriptions ${id === undefined ? '' : 'WHERE key_id = $1'} ORDER BY key_id, iso`,
      params,
    );
    return keys.map((k) => keyInfoOf(k, subs.filter((s) => s.key_id === k.id).map(subscriptionOf)));
  }

  /** Revokes a key; false when there is no such key. Revoking twice keeps the first time. */
  async revoke(id: string): Promise<boolean> {
    const rows = await this.sql.query<{ id: string }>(
      'UPDATE api_keys SET revoked_at = COALESCE(revoked_at, now()) WHERE id = $1 RETURNING id',
      [id],
    );
    return rows.length > 0;
  }

  /** The active key with this secret, or null for an unknown or revoked key. */
  async authenticate(key: string): Promise<KeyInfo | null> {
    const rows = await this.sql.query<KeyRow>(`SELECT ${KEY_COLUMNS} FROM api_keys WHERE key_hash = $1 AND revoked_at IS NULL`, [
      hashKey(key),
    ]);
    if (rows.length === 0) return null;
    const k = rows[0];
    // Expired subscriptions grant nothing.
    const subs = await this.sql.query<SubscriptionRow>(
      `SELECT ${SUBSCRIPTION_COLUMNS} FROM subscriptions WHERE key_id = $1 AND (expires_at IS NULL OR expires_at > now()) ORDER BY iso`,
      [k.id],
    );
    return keyInfoOf(k, subs.map(subscriptionOf));
  }

  async count(): Promise<number> {
    const rows = await this.sql.query<{ n: number }>('SELECT count(*)::int AS n FROM api_keys');
    return rows[0].n;
  }
}
