/**
 * The admin HTTP API under /admin, for operators: keys, their per-ISO subscriptions (with
 * optional expiry) and usage. Protected by a separate token, GRIDCAST_ADMIN_TOKEN, sent as
 * `Authorization: Bearer <token>`; without a configured token the admin API is disabled (403).
 * Errors use the public service's shapes; bodies are validated like FastAPI/pydantic would
 * (422 with `loc` ["body", …]).
 *
 *   GET    /admin/keys                                   list keys
 *   POST   /admin/keys                                   create {name, subscriptions: [{iso, level, expires_at?}]}
 *   GET    /admin/keys/{key_id}                          one key
 *   DELETE /admin/keys/{key_id}                          revoke
 *   PUT    /admin/keys/{key_id}/subscriptions/{iso}      set or change {level, expires_at?}
 *   DELETE /admin/keys/{key_id}/subscriptions/{iso}      remove
 *   POST   /admin/keys/{key_id}/subscriptions/{iso}/expire   end it now
 *   GET    /admin/usage?key_id=&from=&to=&endpoint=      usage per key, UTC day and endpoint
 */
import crypto from 'node:crypto';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { isLevel, isSubscriptionIso, LEVELS, SUBSCRIPTION_ISOS, type KeyInfo, type Subscription, type SubscriptionIso } from '../store/keys.ts';
import type { Store } from '../store/store.ts';
import { HttpError, serviceError, validationError } from './errors.ts';
import { errorItem, validateValue, type ParamSpec, type ParsedDateTime, type ValidationErrorItem } from './params.ts';

const ISO_SPEC: ParamSpec = { name: 'iso', in: 'path', kind: 'enum', values: SUBSCRIPTION_ISOS };
const LEVEL_SPEC: ParamSpec = { name: 'level', in: 'query', kind: 'enum', values: LEVELS };
const DATETIME_SPEC: ParamSpec = { name: 'expires_at', in: 'query', kind: 'datetime' };
const DAY_PATTERN = /^\d{4}-\d{2}-\d{2}$/;

/** The admin view of a key (never the secret). */
export function keyRecord(k: KeyInfo, nowMs = Date.now()): Record<string, unknown> {
  return {
    id: k.id,
    name: k.name,
    created_at: k.createdAt.toISOString(),
    revoked_at: k.revokedAt?.toISOString() ?? null,
    status: k.revokedAt ? 'revoked' : 'active',
    subscriptions: k.subscriptions.map((s) => ({
      iso: s.iso,
      level: s.level,
      expires_at: s.expiresAt?.toISOString() ?? null,
      active: !s.expiresAt || s.expiresAt.getTime() > nowMs,
    })),
  };
}

function sameSecret(a: string, b: string): boolean {
  const h = (s: string) => crypto.createHash('sha256').update(s, 'utf8').digest();
  return crypto.timingSafeEqual(h(a), h(b));
}

function checkToken(token: string | undefined, req: FastifyRequest): void {
  if (!token) throw serviceError(403, 'The admin API is disabled: start the service with GRIDCAST_ADMIN_TOKEN set.');
  const header = req.headers.authorization;
  const m = typeof header === 'string' ? /^Bearer\s+(.+)$/i.exec(header.trim()) : null;
  if (!m) throw serviceError(401, 'Missing admin token: send Authorization: Bearer <GRIDCAST_ADMIN_TOKEN>.', { 'www-authenticate': 'Bearer' });
  if (!sameSecret(m[1], token)) throw serviceError(401, 'Invalid admin token.', { 'www-authenticate': 'Bearer' });
}

/** Validates a field of a JSON object body against a spec; strings only (as JSON carries them). */
function field(body: Record<string, unknown>, spec: ParamSpec, loc: (string | number)[], errors: ValidationErrorItem[], required: boolean): unknown {
  const value = body[spec.name];
  if (value === undefined || (value === null && !required)) {
    if (required) errors.push(errorItem('missing', loc, 'Field required', body));
    return undefined;
  }
  if (typeof value !== 'string') {
    errors.push(errorItem('string_type', loc, 'Input should be a valid string', value));
    return undefined;
  }
  const outcome = validateValue(spec, value, loc);
  if (!outcome.ok) {
    errors.push(outcome.error);
    return undefined;
  }
  return outcome.value;
}

function objectBody(body: unknown, loc: (string | number)[], errors: ValidationErrorItem[]): Record<string, unknown> | null {
  if (body !== null && typeof body === 'object' && !Array.isArray(body)) return body as Record<string, unknown>;
  errors.push(errorItem(body === undefined ? 'missing' : 'model_attributes_type', loc, body === undefined ? 'Field required' : 'Input should be a valid dictionary or object to extract fields from', body ?? null));
  return null;
}

function expiresOf(value: unknown): Date | null {
  return value === undefined ? null : new Date((value as ParsedDateTime).epochMs);
}

/** {level, expires_at?} at `loc`, with the iso given or read from the body. */
function subscriptionOf(body: Record<string, unknown>, loc: (string | number)[], errors: ValidationErrorItem[], iso?: string): Subscription | null {
  const isoValue = iso ?? field(body, { ...ISO_SPEC, in: 'query' }, [...loc, 'iso'], errors, true);
  const level = field(body, LEVEL_SPEC, [...loc, 'level'], errors, true);
  const expires = field(body, DATETIME_SPEC, [...loc, 'expires_at'], errors, false);
  if (typeof isoValue !== 'string' || !isSubscriptionIso(isoValue) || typeof level !== 'string' || !isLevel(level)) return null;
  return { iso: isoValue, level, expiresAt: expiresOf(expires) };
}

function pathIso(raw: string): string {
  const outcome = validateValue(ISO_SPEC, raw, ['path', 'iso']);
  if (!outcome.ok) throw validationError([outcome.error]);
  return raw;
}

function noKey(id: string): HttpError {
  return serviceError(404, `No key with id '${id}'.`);
}

export interface AdminOptions {
  store: Store;
  token: string | undefined;
}

/** Registers the /admin routes. */
export function registerAdmin(app: FastifyInstance, { store, token }: AdminOptions): void {
  const send = (reply: FastifyReply, status: number, body: unknown) =>
    reply.code(status).header('content-type', 'application/json').send(Buffer.from(JSON.stringify(body), 'utf8'));
  const keyOr404 = async (id: string) => {
    const k = await store.keys.get(id);
    if (!k) throw noKey(id);
    return k;
  };
  const guarded =
    (handler: (req: FastifyRequest<{ Params: Record<string, string>; Querystring: Record<string, string> }>, reply: FastifyReply) => Promise<unknown>) =>
    async (req: FastifyRequest, reply: FastifyReply) => {
      checkToken(token, req);
      return handler(req as never, reply);
    };
  const hide = { schema: { hide: true } as never };

  app.get('/admin/keys', hide, guarded(async (_req, reply) => send(reply, 200, (await store.keys.list()).map((k) => keyRecord(k)))));

  app.post(
    '/admin/keys',
    hide,
    guarded(async (req, reply) => {
      const errors: ValidationErrorItem[] = [];
      const body = objectBody(req.body, ['body'], errors);
      let name: string | undefined;
      const subs: Subscription[] = [];
      if (body) {
        name = field(body, { name: 'name', in: 'query', kind: 'string', minLength: 1 }, ['body', 'name'], errors, true) as string | undefined;
        const list = body.subscriptions;
        if (list === undefined) errors.push(errorItem('missing', ['body', 'subscriptions'], 'Field required', body));
        else if (!Array.isArray(list)) errors.push(errorItem('list_type', ['body', 'subscriptions'], 'Input should be a valid list', list));
        else
          list.forEach((item, i) => {
            const obj = objectBody(item, ['body', 'subscriptions', i], errors);
            const s = obj && subscriptionOf(obj, ['body', 'subscriptions', i], errors);
            if (s) subs.push(s);
          });
      }
      if (errors.length) throw validationError(errors);
      const created = await store.keys.create(name!, subs);
      return send(reply, 201, { ...keyRecord(await keyOr404(created.id)), key: created.key });
    }),
  );

  app.get('/admin/keys/:key_id', hide, guarded(async (req, reply) => send(reply, 200, keyRecord(await keyOr404(req.params.key_id)))));

  app.delete(
    '/admin/keys/:key_id',
    hide,
    guarded(async (req, reply) => {
      if (!(await store.keys.revoke(req.params.key_id))) throw noKey(req.params.key_id);
      return send(reply, 200, keyRecord(await keyOr404(req.params.key_id)));
    }),
  );

  app.put(
    '/admin/keys/:key_id/subscriptions/:iso',
    hide,
    guarded(async (req, reply) => {
      const iso = pathIso(req.params.iso);
      const errors: ValidationErrorItem[] = [];
      const body = objectBody(req.body, ['body'], errors);
      const s = body && subscriptionOf(body, ['body'], errors, iso);
      if (errors.length || !s) throw validationError(errors);
      if (!(await store.keys.subscribe(req.params.key_id, s))) throw noKey(req.params.key_id);
      return send(reply, 200, keyRecord(await keyOr404(req.params.key_id)));
    }),
  );

  // Ending and removing a subscription differ only in the store call.
  for (const [method, url, change] of [
    ['POST', '/admin/keys/:key_id/subscriptions/:iso/expire', (id: string, iso: SubscriptionIso) => store.keys.expire(id, iso)],
    ['DELETE', '/admin/keys/:key_id/subscriptions/:iso', (id: string, iso: SubscriptionIso) => store.keys.unsubscribe(id, iso)],
  ] as const) {
    app.route({
      method,
      url,
      ...hide,
      handler: guarded(async (req, reply) => {
        const iso = pathIso(req.params.iso) as SubscriptionIso;
        const k = await keyOr404(req.params.key_id);
        if (!(await change(k.id, iso))) throw serviceError(404, `Key '${k.id}' has no subscription for '${iso}'.`);
        return send(reply, 200, keyRecord(await keyOr404(k.id)));
      }),
    });
  }

  app.get(
    '/admin/usage',
    hide,
    guarded(async (req, reply) => {
      const q = req.query;
      const errors: ValidationErrorItem[] = [];
      for (const name of ['from', 'to'] as const) {
        if (q[name] !== undefined && !DAY_PATTERN.test(q[name])) {
          errors.push(errorItem('date_from_datetime_parsing', ['query', name], 'Input should be a valid date in the format YYYY-MM-DD', q[name]));
        }
      }
      if (errors.length) throw validationError(errors);
      const rows = await store.usage.query({ keyId: q.key_id, from: q.from, to: q.to, endpoint: q.endpoint });
      return send(reply, 200, rows);
    }),
  );
}

/** The admin operations for the OpenAPI document (tag "admin", bearer security). */
export function adminOpenApiPaths(): Record<string, Record<string, unknown>> {
  const security = [{ AdminBearer: [] }];
  const json = (schema: object) => ({ content: { 'application/json': { schema } } });
  const keyRef = { $ref: '#/components/schemas/AdminKey' };
  const op = (summary: string, operationId: string, extra: object = {}) => ({
    tags: ['admin'],
    summary,
    operationId,
    security,
    responses: { '200': { description: 'OK', ...json(keyRef) }, '401': { description: 'Missing or invalid admin token' }, '404': { description: 'No such key' } },
    ...extra,
  });
  const keyId = { name: 'key_id', in: 'path', required: true, schema: { type: 'string' } };
  const iso = { name: 'iso', in: 'path', required: true, schema: { type: 'string', enum: [...SUBSCRIPTION_ISOS] } };
  const subscriptionBody = {
    type: 'object',
    required: ['level'],
    properties: { level: { type: 'string', enum: [...LEVELS] }, expires_at: { anyOf: [{ type: 'string', format: 'date-time' }, { type: 'null' }] } },
  };
  return {
    '/admin/keys': {
      get: op('List Keys', 'admin_list_keys', { responses: { '200': { description: 'OK', ...json({ type: 'array', items: keyRef }) } } }),
      post: op('Create Key', 'admin_create_key', {
        requestBody: {
          required: true,
          ...json({
            type: 'object',
            required: ['name', 'subscriptions'],
            properties: {
              name: { type: 'string', minLength: 1 },
              subscriptions: { type: 'array', items: { ...subscriptionBody, required: ['iso', 'level'], properties: { iso: iso.schema, ...subscriptionBody.properties } } },
            },
          }),
        },
        responses: { '201': { description: 'Created: the record plus `key`, the secret, shown only this once', ...json(keyRef) } },
      }),
    },
    '/admin/keys/{key_id}': {
      get: op('Get Key', 'admin_get_key', { parameters: [keyId] }),
      delete: op('Revoke Key', 'admin_revoke_key', { parameters: [keyId] }),
    },
    '/admin/keys/{key_id}/subscriptions/{iso}': {
      put: op('Set Subscription', 'admin_set_subscription', { parameters: [keyId, iso], requestBody: { required: true, ...json(subscriptionBody) } }),
      delete: op('Remove Subscription', 'admin_remove_subscription', { parameters: [keyId, iso] }),
    },
    '/admin/keys/{key_id}/subscriptions/{iso}/expire': {
      post: op('Expire Subscription', 'admin_expire_subscription', { parameters: [keyId, iso] }),
    },
    '/admin/usage': {
      get: op('Get Usage', 'admin_get_usage', {
        parameters: [
          { name: 'key_id', in: 'query', schema: { type: 'string' } },
          { name: 'from', in: 'query', schema: { type: 'string', format: 'date' } },
          { name: 'to', in: 'query', schema: { type: 'string', format: 'date' } },
          { name: 'endpoint', in: 'query', schema: { type: 'string' } },
        ],
        responses: { '200': { description: 'Requests and values served per key, UTC day and endpoint', ...json({ type: 'array', items: { $ref: '#/components/schemas/UsageRow' } }) } },
      }),
    },
  };
}

export const ADMIN_SCHEMAS: Record<string, object> = {
  AdminKey: {
    type: 'object',
    properties: {
      id: { type: 'string' },
      name: { type: 'string' },
      created_at: { type: 'string', format: 'date-time' },
      revoked_at: { anyOf: [{ type: 'string', format: 'date-time' }, { type: 'null' }] },
      status: { type: 'string', enum: ['active', 'revoked'] },
      subscriptions: {
        type: 'array',
        items: {
          type: 'object',
          properties: {
            iso: { type: 'string' },
            level: { type: 'string', enum: [...LEVELS] },
            expires_at: { anyOf: [{ type: 'string', format: 'date-time' }, { type: 'null' }] },
            active: { type: 'boolean' },
          },
        },
      },
      key: { type: 'string', description: 'Only in the response that creates the key' },
    },
  },
  UsageRow: {
    type: 'object',
    properties: {
      key_id: { type: 'string' },
      day: { type: 'string', format: 'date' },
      endpoint: { type: 'string' },
      requests: { type: 'integer' },
      values_served: { type: 'integer' },
    },
  },
};
