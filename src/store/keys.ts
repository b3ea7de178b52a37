/**
 * API keys and their per-ISO subscriptions.
 *
 * A key is `gc_` + 32 URL-safe characters from 24 random bytes. Only its SHA-256 is
 * stored: keys are long random secrets (not passwords), so a fast unsalted hash is the
 * right tool — it cannot be brute-forced and lets a request find its key by index.
 * Keys also have a short public id (`key_` + 8 hex) used to list and revoke them.
 */
import crypto from 'node:crypto';
import { ISO_CODES, type IsoCode } from '../catalog/isos.ts';
import type { Sql } from './sql.ts';

export const LEVELS = ['core', 'advanced', 'enterprise'] as const;
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

export function formatSubscriptions(subscriptions: readonly Subscription[]): string {
  return subscriptions.map((s) => `${s.iso}=${s.level}${s.expiresAt ? `@${s.expiresAt.toISOString()}` : ''}`).join(',');
}

async function setSubscription(sql: Sql, keyId: string, s: Subscription): Promise<void> {
  await sql.query(
    `INSERT INTO subscriptions (key_id, iso, level, expires_at) VALUES ($1, $2, $3, $4)
     ON CONFLICT (key_id, iso) DO UPDATE SET level = EXCLUDED.level, expires_at = EXCLUDED.expires_at`,
    [keyId, s.iso, s.level, s.expiresAt ?? null],
  );
}

interface KeyRow {
  id: string;
  name: string;
  created_at: Date;
  revoked_at: Date | null;
}

export class KeyStore {
  constructor(private readonly sql: Sql) {}

  /** Creates a key and returns its id and the secret, which is shown this once only. */
  async create(name: string, subscriptions: readonly Subscription[]): Promise<{ id: string; key: string }> {
    const key = 'gc_' + crypto.randomBytes(24).toString('base64url');
    const id = 'key_' + crypto.randomBytes(4).toString('hex');
    await this.sql.transaction(async (tx) => {
      await tx.query('INSERT INTO api_keys (id, name, key_hash) VALUES ($1, $2, $3)', [id, name, hashKey(key)]);
      for (const s of subscriptions) await setSubscription(tx, id, s);
    });
    return { id, key };
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
    const rows = await this.sql.query('UPDATE subscriptions SET expires_at = now() WHERE key_id = $1 AND iso = $2 RETURNING key_id', [keyId, iso]);
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
    const keys = await this.sql.query<KeyRow>(`SELECT id, name, created_at, revoked_at FROM api_keys ${filter} ORDER BY created_at, id`, params);
    const subs = await this.sql.query<{ key_id: string; iso: SubscriptionIso; level: Level; expires_at: Date | null }>(
      `SELECT key_id, iso, level, expires_at FROM subscriptions ${id === undefined ? '' : 'WHERE key_id = $1'} ORDER BY key_id, iso`,
      params,
    );
    return keys.map((k) => ({
      id: k.id,
      name: k.name,
      createdAt: new Date(k.created_at),
      revokedAt: k.revoked_at ? new Date(k.revoked_at) : null,
      subscriptions: subs
        .filter((s) => s.key_id === k.id)
        .map((s) => ({ iso: s.iso, level: s.level, expiresAt: s.expires_at ? new Date(s.expires_at) : null })),
    }));
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
    const rows = await this.sql.query<KeyRow>(
      'SELECT id, name, created_at, revoked_at FROM api_keys WHERE key_hash = $1 AND revoked_at IS NULL',
      [hashKey(key)],
    );
    if (rows.length === 0) return null;
    const k = rows[0];
    // Expired subscriptions grant nothing.
    const subs = await this.sql.query<{ iso: SubscriptionIso; level: Level; expires_at: Date | null }>(
      'SELECT iso, level, expires_at FROM subscriptions WHERE key_id = $1 AND (expires_at IS NULL OR expires_at > now()) ORDER BY iso',
      [k.id],
    );
    return {
      id: k.id,
      name: k.name,
      createdAt: new Date(k.created_at),
      revokedAt: null,
      subscriptions: subs.map((s) => ({ iso: s.iso, level: s.level, expiresAt: s.expires_at ? new Date(s.expires_at) : null })),
    };
  }

  async count(): Promise<number> {
    const rows = await this.sql.query<{ n: number }>('SELECT count(*)::int AS n FROM api_keys');
    return rows[0].n;
  }
}
