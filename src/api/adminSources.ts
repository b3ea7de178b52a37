/**
 * Stored sources over the admin API (admin token, as the rest of /admin):
 *
 *   POST   /admin/ingest?source=&group=&iso=&metric=[&type=&timezone=&unit=&replace=true&format=
 *          &column=NAME=TARGET&value=&created_at=&filename=]
 *          the request body is the file (streamed, at most GRIDCAST_INGEST_MAX_BYTES) in any input
 *          format (told by format, the filename's extension, the content type or the first
 *          bytes); the same options as `gridcast ingest`. 200 with the summary; 422 listing bad rows (or the option
 *          at fault); 409 when runs exist with other values (nothing stored); 413 when too large.
 *   POST   /admin/catalog?source=&group=&iso=
 *          the request body is a catalog file (--catalog: id,name,capacity_mw,latitude,longitude) of
 *          the source's own plants or price nodes; 200 {"catalogEntries": N added or changed}.
 *   GET    /admin/sources           every stored source with what it holds
 *   DELETE /admin/sources/{name}    deletes one, atomically
 *
 * The file is read as it arrives and written in batches inside one transaction (ingest.ts), so
 * nothing is half-written, whatever happens to the connection.
 */
import { Transform, type Readable } from 'node:stream';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { readCatalog } from '../ingest/catalog.ts';
import { rulesOf } from '../ingest/groups.ts';
import { checkOptions, ingestFile, IngestError, type IngestOptions } from '../ingest/ingest.ts';
import { IngestConflictError } from '../store/sources.ts';
import type { Store } from '../store/store.ts';
import type { Clock } from '../time/clock.ts';
import { checkToken } from './admin.ts';
import { HttpError, serviceError, validationError } from './errors.ts';
import { sendJson } from './protocol.ts';
import { errorItem, type ValidationErrorItem } from './params.ts';

/** Largest file POST /admin/ingest takes by default (GRIDCAST_INGEST_MAX_BYTES). */
export const DEFAULT_INGEST_MAX_BYTES = 4 * 1024 ** 3;

export interface AdminSourcesOptions {
  store: Store;
  /** The service's clock: the sources list counts what is published by now, as /v1/status does. */
  clock: Clock;
  token: string | undefined;
  maxBytes: number;
  /** Told after an ingest or a deletion (names cached for validation change). */
  changed(): void;
}

type Query = Record<string, string | string[] | undefined>;

const last = (v: string | string[] | undefined) => (Array.isArray(v) ? v[v.length - 1] : v);

/** The ingest options from the query string, or a 422 naming each missing one. */
function ingestOptions(query: Query, contentType: string | undefined): IngestOptions {
  const errors: ValidationErrorItem[] = [];
  const required = (name: string) => {
    const v = last(query[name]);
    if (v === undefined) errors.push(errorItem('missing', ['query', name], 'Field required', null));
    return v ?? '';
  };
  const group = last(query.group) ?? 'region';
  const rules = rulesOf(group);
  const o: IngestOptions = {
    source: required('source'),
    group,
    // Gas hubs are not tied to an ISO.
    iso: rules?.noIso ? (last(query.iso) ?? '') : required('iso'),
    // LMP series are named by their market type (`type`), as in the API's /lmp/{iso}/{type}/ paths; gas has one metric.
    metric: last(query.metric) ?? last(query.type) ?? rules?.defaultMetric ?? required('metric'),
    timezone: last(query.timezone),
    unit: last(query.unit),
    replace: false,
    origin: last(query.filename) ?? 'upload',
    format: last(query.format),
    contentType,
    columns: query.column === undefined ? [] : ([] as string[]).concat(query.column),
    value: last(query.value),
    createdAt: last(query.created_at),
  };
  const replace = last(query.replace);
  if (replace !== undefined) {
    if (!['true', 'false', '1', '0'].includes(replace)) {
      errors.push(errorItem('bool_parsing', ['query', 'replace'], 'Input should be a valid boolean, unable to interpret input', replace));
    }
    o.replace = replace === 'true' || replace === '1';
  }
  if (errors.length) throw validationError(errors);
  return o;
}

/** The options of POST /admin/catalog, or a 422 naming each missing one. */
function catalogOptions(query: Query): { source: string; group: string; iso: string; origin: string } {
  const isoFree = rulesOf(last(query.group) ?? '')?.noIso === true;
  const missing = ['source', 'group', ...(isoFree ? [] : ['iso'])].filter((name) => last(query[name]) === undefined);
  if (missing.length) throw validationError(missing.map((name) => errorItem('missing', ['query', name], 'Field required', null)));
  return { source: last(query.source)!, group: last(query.group)!, iso: last(query.iso) ?? '', origin: last(query.filename) ?? 'catalog' };
}

/** Counts the body's bytes; past `max` it fails with a 413 (and the ingest rolls back). */
function limited(body: Readable, max: number): Readable {
  let seen = 0;
  const counter = new Transform({
    transform(chunk: Buffer, _enc, done) {
      seen += chunk.length;
      if (seen > max) done(serviceError(413, `The file is larger than ${max} bytes (GRIDCAST_INGEST_MAX_BYTES).`));
      else done(null, chunk);
    },
  });
  body.on('error', (e) => counter.destroy(e));
  // The reader still meets the 413 (a stream keeps its error for whoever reads it); a reader that
  // has stopped reading (a format read whole, an ingest already refused) must not turn it into an
  // uncaught exception of the server.
  counter.on('error', () => {});
  return body.pipe(counter);
}

/** An ingest's refusal as the public error shapes. */
function ingestHttpError(e: IngestError | IngestConflictError): HttpError {
  if (e instanceof IngestConflictError) {
    const more = e.total > e.conflicts.length ? [{ type: 'conflict', msg: `… and ${e.total - e.conflicts.length} more` }] : [];
    return new HttpError(409, {
      detail: [
        { type: 'error', msg: `${e.message}; nothing was stored` },
        ...e.conflicts.map((msg) => ({ type: 'conflict', msg })),
        ...more,
      ],
    });
  }
  if (e.option)
    return validationError([errorItem('value_error', ['query', e.option], `Value error, ${e.message.replace(/^--/, '')}`, null)]);
  if (e.problems.length === 0) return validationError([errorItem('value_error', ['body'], `Value error, ${e.message}`, null)]);
  const items = e.problems.map((p) => errorItem('value_error', ['body', e.position, p.line], `Value error, ${p.reason}`, null));
  if (e.totalProblems > e.problems.length) {
    items.push(errorItem('value_error', ['body'], `Value error, … and ${e.totalProblems - e.problems.length} more bad row(s)`, null));
  }
  return validationError(items);
}

export async function registerAdminSources(app: FastifyInstance, o: AdminSourcesOptions): Promise<void> {
  await app.register(async (scope) => {
    // The body is the file: handed to the handler as the request's stream, read as it arrives.
    scope.removeAllContentTypeParsers();
    scope.addContentTypeParser('*', (_req, payload, done) => done(null, payload));
    scope.addHook('onRequest', async (req) => checkToken(o.token, req));
    const hide = { schema: { hide: true } as never };

    scope.post('/admin/ingest', hide, async (req: FastifyRequest<{ Querystring: Query }>, reply) => {
      try {
        const options = ingestOptions(req.query, req.headers['content-type']);
        const declared = Number(req.headers['content-length']);
        if (declared > o.maxBytes) throw serviceError(413, `The file is larger than ${o.maxBytes} bytes (GRIDCAST_INGEST_MAX_BYTES).`);
        const body = (req.body as Readable | undefined) ?? req.raw;
        const summary = await ingestFile(o.store.sources, limited(body, o.maxBytes), options);
        o.changed();
        req.log.info({ ingest: summary }, 'ingested');
        return sendJson(reply, 200, summary);
      } catch (e) {
        // The rest of a refused upload is not read: the connection closes after the answer.
        const error = e instanceof IngestError || e instanceof IngestConflictError ? ingestHttpError(e) : e;
        if (error instanceof HttpError) throw new HttpError(error.status, error.body, { ...error.headers, connection: 'close' });
        throw error;
      }
    });

    scope.post('/admin/catalog', hide, async (req: FastifyRequest<{ Querystring: Query }>, reply) => {
      try {
        const { source, group, iso, origin } = catalogOptions(req.query);
        const body = (req.body as Readable | undefined) ?? req.raw;
        // The ISO and group are checked as an ingest's would be; any metric of the group will do.
        const metric = rulesOf(group)?.metrics[0] ?? '';
        const { refuse } = checkOptions({ source, group, iso, metric, replace: false, origin, catalog: [] });
        const entries = await readCatalog(limited(body, o.maxBytes), origin, refuse);
        const changed = await o.store.sources.describe({ source, group, iso, origin }, entries);
        o.changed();
        return sendJson(reply, 200, { source, catalogEntries: changed });
      } catch (e) {
        const error = e instanceof IngestError ? ingestHttpError(e) : e;
        if (error instanceof HttpError) throw new HttpError(error.status, error.body, { ...error.headers, connection: 'close' });
        throw error;
      }
    });

    scope.get('/admin/sources', hide, async (_req, reply) => sendJson(reply, 200, await o.store.sources.list(o.clock.now())));

    scope.delete('/admin/sources/:name', hide, async (req: FastifyRequest<{ Params: { name: string } }>, reply) => {
      if (!(await o.store.sources.delete(req.params.name))) throw serviceError(404, `No source '${req.params.name}'.`);
      o.changed();
      return sendJson(reply, 200, { deleted: req.params.name });
    });
  });
}
