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
 *   GET    /admin/openapi.json                           this API's own OpenAPI document (no token)
 */
import crypto from 'node:crypto';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import {
  isLevel,
  isSubscriptionIso,
  KEY_ID_PATTERN,
  LEVELS,
  SUBSCRIPTION_ISOS,
  type KeyInfo,
  type Subscription,
  type SubscriptionIso,
} from '../store/keys.ts';
import type { Store } from '../store/store.ts';
import { formatUtcSecond } from '../time/hours.ts';
import { HttpError, serviceError, validationError } from './errors.ts';
import { ERROR_SCHEMAS, errorResponse } from './openapi.ts';
import { sendJson } from './protocol.ts';
import {
  errorItem,
  singleQueryValue,
  validateValue,
  type ParamSpec,
  type ParsedDate,
  type ParsedDateTime,
  type ValidationErrorItem,
} from './params.ts';

const ISO_SPEC: ParamSpec = { name: 'iso', in: 'path', kind: 'enum', values: SUBSCRIPTION_ISOS };
const LEVEL_SPEC: ParamSpec = { name: 'level', in: 'query', kind: 'enum', values: LEVELS };
const DATETIME_SPEC: ParamSpec = { name: 'expires_at', in: 'query', kind: 'datetime' };
/** A key's name: shown in lists and logs of operators, so short and printable. */
export const MAX_NAME_LENGTH = 200;
const NAME_SPEC: ParamSpec = { name: 'name', in: 'query', kind: 'string', minLength: 1, maxLength: MAX_NAME_LENGTH, noNul: true };
/** One subscription per ISO and one for 'all' at the most. */
export const MAX_SUBSCRIPTIONS = SUBSCRIPTION_ISOS.length;
/** Admin request bodies are a few hundred bytes; anything much larger is refused (413). */
const BODY_LIMIT_BYTES = 16 * 1024;
const USAGE_PARAMS: readonly ParamSpec[] = [
  { name: 'key_id', in: 'query', kind: 'string', noNul: true },
  { name: 'from', in: 'query', kind: 'date' },
  { name: 'to', in: 'query', kind: 'date' },
  { name: 'endpoint', in: 'query', kind: 'string', noNul: true },
];

/** The admin view of a key (never the secret); instants to the second, as the data API writes them. */
export function keyRecord(k: KeyInfo, nowMs = Date.now()): Record<string, unknown> {
  return {
    id: k.id,
    name: k.name,
    created_at: formatUtcSecond(k.createdAt.getTime()),
    revoked_at: k.revokedAt ? formatUtcSecond(k.revokedAt.getTime()) : null,
    status: k.revokedAt ? 'revoked' : 'active',
    subscriptions: k.subscriptions.map((s) => ({
      iso: s.iso,
      level: s.level,
      expires_at: s.expiresAt ? formatUtcSecond(s.expiresAt.getTime()) : null,
      active: !s.expiresAt || s.expiresAt.getTime() > nowMs,
    })),
  };
}

function sameSecret(a: string, b: string): boolean {
  const h = (s: string) => crypto.createHash('sha256').update(s, 'utf8').digest();
  return crypto.timingSafeEqual(h(a), h(b));
}

export function checkToken(token: string | undefined, req: FastifyRequest): void {
  if (!token) throw serviceError(403, 'The admin API is disabled: start the service with GRIDCAST_ADMIN_TOKEN set.');
  const header = req.headers.authorization;
  const m = typeof header === 'string' ? /^Bearer\s+(.+)$/i.exec(header.trim()) : null;
  if (!m)
    throw serviceError(401, 'Missing admin token: send Authorization: Bearer <GRIDCAST_ADMIN_TOKEN>.', { 'www-authenticate': 'Bearer' });
  if (!sameSecret(m[1], token)) throw serviceError(401, 'Invalid admin token.', { 'www-authenticate': 'Bearer' });
}

/** Validates a field of a JSON object body against a spec; strings only (as JSON carries them). */
function field(
  body: Record<string, unknown>,
  spec: ParamSpec,
  loc: (string | number)[],
  errors: ValidationErrorItem[],
  required: boolean,
): unknown {
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
  errors.push(
    errorItem(
      body === undefined ? 'missing' : 'model_attributes_type',
      loc,
      body === undefined ? 'Field required' : 'Input should be a valid dictionary or object to extract fields from',
      body ?? null,
    ),
  );
  return null;
}

function expiresOf(value: unknown): Date | null {
  return value === undefined ? null : new Date((value as ParsedDateTime).epochMs);
}

/** {level, expires_at?} at `loc`, with the iso given or read from the body. */
function subscriptionOf(
  body: Record<string, unknown>,
  loc: (string | number)[],
  errors: ValidationErrorItem[],
  iso?: string,
): Subscription | null {
  const isoValue = iso ?? field(body, { ...ISO_SPEC, in: 'query' }, [...loc, 'iso'], errors, true);
  const level = field(body, LEVEL_SPEC, [...loc, 'level'], errors, true);
  const expires = field(body, DATETIME_SPEC, [...loc, 'expires_at'], errors, false);
  if (typeof isoValue !== 'string' || !isSubscriptionIso(isoValue) || typeof level !== 'string' || !isLevel(level)) return null;
  return { iso: isoValue, level, expiresAt: expiresOf(expires) };
}

/** The `subscriptions` list of a create body: at most one per ISO, each validated. */
function subscriptionList(body: Record<string, unknown>, errors: ValidationErrorItem[]): Subscription[] {
  const loc = ['body', 'subscriptions'];
  const list = body.subscriptions;
  if (list === undefined) {
    errors.push(errorItem('missing', loc, 'Field required', body));
    return [];
  }
  if (!Array.isArray(list)) {
    errors.push(errorItem('list_type', loc, 'Input should be a valid list', list));
    return [];
  }
  if (list.length > MAX_SUBSCRIPTIONS) {
    const msg = `List should have at most ${MAX_SUBSCRIPTIONS} items after validation, not ${list.length}`;
    errors.push(errorItem('too_long', loc, msg, list, { field_type: 'List', max_length: MAX_SUBSCRIPTIONS, actual_length: list.length }));
    return [];
  }
  const subs: Subscription[] = [];
  list.forEach((item, i) => {
    const obj = objectBody(item, [...loc, i], errors);
    const s = obj && subscriptionOf(obj, [...loc, i], errors);
    if (!s) return;
    if (subs.some((t) => t.iso === s.iso)) {
      errors.push(
        errorItem('value_error', [...loc, i, 'iso'], `Value error, '${s.iso}' has more than one subscription in this list`, s.iso),
      );
    } else subs.push(s);
  });
  return subs;
}

function pathIso(raw: string): string {
  const outcome = validateValue(ISO_SPEC, raw, ['path', 'iso']);
  if (!outcome.ok) throw validationError([outcome.error]);
  return raw;
}

function noKey(id: string): HttpError {
  return serviceError(404, `No key with id '${id}'.`);
}

/** The usage filter from the query, validated like query parameters (422 with every error). */
function usageFilter(query: Record<string, string | string[] | undefined>) {
  const errors: ValidationErrorItem[] = [];
  const values: Record<string, unknown> = {};
  for (const spec of USAGE_PARAMS) {
    const single = singleQueryValue(spec.name, query[spec.name]);
    if (!single.ok) {
      errors.push(single.error);
      continue;
    }
    if (single.value === undefined) continue;
    const outcome = validateValue(spec, single.value, ['query', spec.name]);
    if (outcome.ok) values[spec.name] = outcome.value;
    else errors.push(outcome.error);
  }
  if (errors.length) throw validationError(errors);
  return {
    keyId: values.key_id as string | undefined,
    from: (values.from as ParsedDate | undefined)?.iso,
    to: (values.to as ParsedDate | undefined)?.iso,
    endpoint: values.endpoint as string | undefined,
  };
}

/**
 * A JSON body as FastAPI reads one: an empty body is no body (a bodiless POST or DELETE sent
 * with `Content-Type: application/json` is fine), anything else must parse as JSON whatever
 * its content type says.
 */
function parseJsonBody(_req: FastifyRequest, text: string, done: (err: Error | null, body?: unknown) => void): void {
  if (text.trim() === '') return done(null, undefined);
  try {
    done(null, JSON.parse(text));
  } catch (e) {
    done(
      new HttpError(422, {
        detail: [{ type: 'json_invalid', loc: ['body'], msg: 'JSON decode error', input: {}, ctx: { error: (e as Error).message } }],
      }),
    );
  }
}

export interface AdminOptions {
  store: Store;
  token: string | undefined;
  version: string;
}

type AdminRequest = FastifyRequest<{ Params: Record<string, string>; Querystring: Record<string, string | string[] | undefined> }>;

/** Registers the /admin routes and their OpenAPI document (/admin/openapi.json). */
export async function registerAdmin(app: FastifyInstance, { store, token, version }: AdminOptions): Promise<void> {
  const document = buildAdminOpenApi(version);
  app.get('/admin/openapi.json', { schema: { hide: true } as never }, (_req, reply) => sendJson(reply, 200, document));

  await app.register(async (scope) => {
    // The token is checked before the body is read, so that without it nothing about the
    // body (its size, its syntax) is answered: 401, or 403 with the admin API disabled.
    scope.addHook('onRequest', async (req) => checkToken(token, req));
    scope.removeAllContentTypeParsers();
    scope.addContentTypeParser('*', { parseAs: 'string', bodyLimit: BODY_LIMIT_BYTES }, parseJsonBody);

    /** A key id of the right shape (else 404 without a database round trip), and its key. */
    const keyOr404 = async (id: string) => {
      const k = KEY_ID_PATTERN.test(id) ? await store.keys.get(id) : null;
      if (!k) throw noKey(id);
      return k;
    };
    const route = (
      method: 'GET' | 'POST' | 'PUT' | 'DELETE',
      url: string,
      handler: (req: AdminRequest, reply: FastifyReply) => Promise<unknown>,
    ) => scope.route({ method, url, schema: { hide: true } as never, handler: handler as never });

    route('GET', '/admin/keys', async (_req, reply) =>
      sendJson(
        reply,
        200,
        (await store.keys.list()).map((k) => keyRecord(k)),
      ),
    );

    route('POST', '/admin/keys', async (req, reply) => {
      const errors: ValidationErrorItem[] = [];
      const body = objectBody(req.body, ['body'], errors);
      let name: string | undefined;
      let subs: Subscription[] = [];
      if (body) {
        name = field(body, NAME_SPEC, ['body', 'name'], errors, true) as string | undefined;
        subs = subscriptionList(body, errors);
      }
      if (errors.length) throw validationError(errors);
      const created = await store.keys.create(name!, subs);
      return sendJson(reply, 201, { ...keyRecord(await keyOr404(created.id)), key: created.key });
    });

    route('GET', '/admin/keys/:key_id', async (req, reply) => sendJson(reply, 200, keyRecord(await keyOr404(req.params.key_id))));

    route('DELETE', '/admin/keys/:key_id', async (req, reply) => {
      const k = await keyOr404(req.params.key_id);
      await store.keys.revoke(k.id);
      return sendJson(reply, 200, keyRecord(await keyOr404(k.id)));
    });

    route('PUT', '/admin/keys/:key_id/subscriptions/:iso', async (req, reply) => {
      const iso = pathIso(req.params.iso);
      const k = await keyOr404(req.params.key_id);
      const errors: ValidationErrorItem[] = [];
      const body = objectBody(req.body, ['body'], errors);
      const s = body && subscriptionOf(body, ['body'], errors, iso);
      if (errors.length || !s) throw validationError(errors);
      if (!(await store.keys.subscribe(k.id, s))) throw noKey(k.id);
      return sendJson(reply, 200, keyRecord(await keyOr404(k.id)));
    });

    // Ending and removing a subscription differ only in the store call.
    for (const [method, url, change] of [
      ['POST', '/admin/keys/:key_id/subscriptions/:iso/expire', (id: string, iso: SubscriptionIso) => store.keys.expire(id, iso)],
      ['DELETE', '/admin/keys/:key_id/subscriptions/:iso', (id: string, iso: SubscriptionIso) => store.keys.unsubscribe(id, iso)],
    ] as const) {
      route(method, url, async (req, reply) => {
        const iso = pathIso(req.params.iso) as SubscriptionIso;
        const k = await keyOr404(req.params.key_id);
        if (!(await change(k.id, iso))) throw serviceError(404, `Key '${k.id}' has no subscription for '${iso}'.`);
        return sendJson(reply, 200, keyRecord(await keyOr404(k.id)));
      });
    }

    route('GET', '/admin/usage', async (req, reply) => sendJson(reply, 200, await store.usage.query(usageFilter(req.query))));
  });
}

/** The admin operations (tag "admin", bearer security). */
function adminOpenApiPaths(): Record<string, Record<string, unknown>> {
  const security = [{ AdminBearer: [] }];
  const json = (schema: object) => ({ content: { 'application/json': { schema } } });
  const keyRef = { $ref: '#/components/schemas/AdminKey' };
  const op = (summary: string, operationId: string, extra: object = {}) => ({
    tags: ['admin'],
    summary,
    operationId,
    security,
    responses: {
      '200': { description: 'OK', ...json(keyRef) },
      '401': errorResponse('Missing or invalid admin token'),
      '403': errorResponse('The admin API is disabled (no GRIDCAST_ADMIN_TOKEN)'),
      '404': errorResponse('No such key'),
      '422': errorResponse('Validation Error', 'HTTPValidationError'),
    },
    ...extra,
  });
  const keyId = { name: 'key_id', in: 'path', required: true, schema: { type: 'string' } };
  const iso = { name: 'iso', in: 'path', required: true, schema: { type: 'string', enum: [...SUBSCRIPTION_ISOS] } };
  const subscriptionBody = {
    type: 'object',
    required: ['level'],
    properties: {
      level: { type: 'string', enum: [...LEVELS] },
      expires_at: { anyOf: [{ type: 'string', format: 'date-time' }, { type: 'null' }] },
    },
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
              name: { type: 'string', minLength: 1, maxLength: MAX_NAME_LENGTH },
              subscriptions: {
                type: 'array',
                maxItems: MAX_SUBSCRIPTIONS,
                items: { ...subscriptionBody, required: ['iso', 'level'], properties: { iso: iso.schema, ...subscriptionBody.properties } },
              },
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
      put: op('Set Subscription', 'admin_set_subscription', {
        parameters: [keyId, iso],
        requestBody: { required: true, ...json(subscriptionBody) },
      }),
      delete: op('Remove Subscription', 'admin_remove_subscription', { parameters: [keyId, iso] }),
    },
    '/admin/keys/{key_id}/subscriptions/{iso}/expire': {
      post: op('Expire Subscription', 'admin_expire_subscription', { parameters: [keyId, iso] }),
    },
    '/admin/usage': {
      get: op('Get Usage', 'admin_get_usage', {
        parameters: [
          ...USAGE_PARAMS.map((p) => ({
            name: p.name,
            in: p.in,
            schema: { type: 'string', ...(p.kind === 'date' ? { format: 'date' } : {}) },
          })),
        ],
        responses: {
          '200': {
            description: 'Requests and values served per key, UTC day and endpoint',
            ...json({ type: 'array', items: { $ref: '#/components/schemas/UsageRow' } }),
          },
        },
      }),
    },
  };
}

const ADMIN_SCHEMAS: Record<string, object> = {
  ...ERROR_SCHEMAS,
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

/**
 * The admin API's own OpenAPI document, served at /admin/openapi.json. It is kept out of
 * /v1/openapi.json so that clients generated from the public document never get methods
 * for operations that do not exist under /v1.
 */
export function buildAdminOpenApi(version: string): Record<string, unknown> {
  return {
    openapi: '3.1.0',
    info: {
      title: 'gridcast admin',
      version,
      description: 'For operators: API keys, their subscriptions and usage. Authorization: Bearer GRIDCAST_ADMIN_TOKEN.',
    },
    servers: [{ url: '/' }],
    tags: [{ name: 'admin', description: 'Keys, subscriptions and usage.' }],
    paths: adminOpenApiPaths(),
    components: {
      schemas: ADMIN_SCHEMAS,
      securitySchemes: { AdminBearer: { type: 'http', scheme: 'bearer', description: 'GRIDCAST_ADMIN_TOKEN.' } },
    },
  };
}
