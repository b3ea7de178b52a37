/**
 * The dashboard at /dashboard: a static page (web/dashboard/) that calls the public API from
 * the browser with the key the user types in. The page and its libraries need no key; every
 * data call does, exactly like any other client.
 *
 * Also the service's front door: `/` (links a browser follows, or the JSON index an API client
 * reads) and the icon (`/favicon.ico`, `/favicon.svg`).
 *
 * Files are served from an explicit allow-list only — the page's own files and the built
 * files of the charting (Apache ECharts) and map (Leaflet) libraries in node_modules — so no
 * request path ever reaches the file system, and nothing is fetched from a CDN.
 */
import fs from 'node:fs/promises';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import type { FastifyInstance, FastifyReply } from 'fastify';
import { NOT_FOUND } from './errors.ts';
import { FAVICON_ICO, FAVICON_SVG } from './favicon.ts';
import { sendJson } from './protocol.ts';

export const DASHBOARD_PATH = '/dashboard';
export const DASHBOARD_ASSETS = `${DASHBOARD_PATH}/assets`;

/** The page's own files (works from src/api under tsx and from dist/api when built). */
const PAGE_DIR = new URL('../../web/dashboard/', import.meta.url);
const requireFromHere = createRequire(import.meta.url);

const CONTENT_TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json',
};

/** Asset name (as the page asks for it) → absolute file path. Nothing else is served. */
export function dashboardAssetFiles(): ReadonlyMap<string, string> {
  const own = ['dashboard.css', 'main.js', 'api.js', 'stats.js', 'sources.js', 'charts.js', 'cellmap.js'];
  return new Map<string, string>([
    ...own.map((name): [string, string] => [name, fileURLToPath(new URL(name, PAGE_DIR))]),
    ['echarts.min.js', requireFromHere.resolve('echarts/dist/echarts.min.js')],
    ['leaflet.js', requireFromHere.resolve('leaflet/dist/leaflet.js')],
    ['leaflet.css', requireFromHere.resolve('leaflet/dist/leaflet.css')],
    // The map's state outlines and county names: us-atlas's counties file (it holds the states
    // too), read in the browser by topojson-client, so the server computes nothing for it.
    ['topojson-client.min.js', requireFromHere.resolve('topojson-client/dist/topojson-client.min.js')],
    ['us-counties.json', requireFromHere.resolve('us-atlas/counties-10m.json')],
  ]);
}

/**
 * The page may load only its own origin's scripts and styles and talk only to its own origin,
 * so the key typed into it cannot be sent anywhere else. ECharts and Leaflet set inline styles
 * from script, hence 'unsafe-inline' for styles only.
 */
const SECURITY_HEADERS = {
  'content-security-policy':
    "default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data: blob:; " +
    "connect-src 'self'; object-src 'none'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'",
  'referrer-policy': 'no-referrer',
  'x-content-type-options': 'nosniff',
};

function contentType(file: string): string {
  const ext = file.slice(file.lastIndexOf('.'));
  const type = CONTENT_TYPES[ext];
  if (!type) throw new Error(`dashboard: no content type for ${file}`);
  return type;
}

export function registerDashboard(app: FastifyInstance): void {
  const files = dashboardAssetFiles();
  // Static files, read once per process: a few MB at most.
  const cache = new Map<string, Promise<Buffer>>();
  const read = (file: string) => {
    let body = cache.get(file);
    if (!body) {
      body = fs.readFile(file);
      body.catch(() => cache.delete(file));
      cache.set(file, body);
    }
    return body;
  };
  const send = async (reply: FastifyReply, file: string, cacheControl: string) =>
    reply
      .code(200)
      .headers(SECURITY_HEADERS)
      .header('content-type', contentType(file))
      .header('cache-control', cacheControl)
      .send(await read(file));

  const hidden = { schema: { hide: true } as never };
  const page = fileURLToPath(new URL('index.html', PAGE_DIR));
  app.get(DASHBOARD_PATH, hidden, (_req, reply) => send(reply, page, 'no-cache'));
  app.get(`${DASHBOARD_PATH}/`, hidden, (_req, reply) => reply.code(308).header('location', DASHBOARD_PATH).send());
  app.get<{ Params: { name: string } }>(`${DASHBOARD_ASSETS}/:name`, hidden, (req, reply) => {
    const file = files.get(req.params.name);
    if (!file)
      return reply
        .code(404)
        .header('content-type', 'application/json')
        .send(Buffer.from(JSON.stringify(NOT_FOUND)));
    // Revalidated on every load (cheap, and a new version of the service shows at once).
    return send(reply, file, 'no-cache');
  });
}

/** What `/` points to; the JSON index is this object as it is. */
export interface HomeIndex {
  service: string;
  version: string;
  docs: string;
  openapi: string;
  admin_openapi: string;
}

const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

/** The front page a browser gets: the same links as the JSON index, as links. */
function homePage(index: HomeIndex): string {
  const links: [string, string, string][] = [
    [DASHBOARD_PATH, 'Dashboard', 'charts and a map of the forecasts, with your API key'],
    [index.docs, 'API documentation', 'every endpoint, with a form to try it'],
    [index.openapi, 'OpenAPI document', 'for client generators'],
    [index.admin_openapi, 'Admin API document', 'keys, subscriptions and usage (admin token)'],
  ];
  const items = links
    .map(([href, text, what]) => `<li><a href="${escapeHtml(href)}">${escapeHtml(text)}</a> — ${escapeHtml(what)}</li>`)
    .join('\n      ');
  return `<!doctype html>
<html lang="en">
  <head>
    <meta charset="utf-8" />
    <meta name="viewport" content="width=device-width, initial-scale=1" />
    <title>${escapeHtml(index.service)} ${escapeHtml(index.version)}</title>
    <link rel="icon" href="/favicon.svg" type="image/svg+xml" />
    <style>body{font:16px/1.5 system-ui,sans-serif;max-width:40rem;margin:3rem auto;padding:0 1rem;color:#1d1d1f}a{color:#2563c9}</style>
  </head>
  <body>
    <h1>${escapeHtml(index.service)} <small>${escapeHtml(index.version)}</small></h1>
    <p>Forecast data for North American electricity markets. API clients: GET this page with <code>Accept: application/json</code> for its index.</p>
    <ul>
      ${items}
    </ul>
  </body>
</html>
`;
}

/** A browser asks for HTML; API clients (curl's *\/*, application/json, nothing) keep the JSON index. */
function wantsHtml(accept: string | undefined): boolean {
  return (accept ?? '').split(',').some((part) => {
    const [type, ...params] = part.split(';').map((p) => p.trim().toLowerCase());
    return type === 'text/html' && !params.includes('q=0');
  });
}

/** `/` (HTML for a browser, JSON for an API client) and the icon. */
export function registerHome(app: FastifyInstance, index: HomeIndex): void {
  const hidden = { schema: { hide: true } as never };
  const page = homePage(index);
  app.get('/', hidden, (req, reply) => {
    void reply.code(200).header('vary', 'Accept');
    if (wantsHtml(req.headers.accept)) return reply.headers(SECURITY_HEADERS).header('content-type', CONTENT_TYPES['.html']).send(page);
    return sendJson(reply, 200, index);
  });
  const icon = (type: string, body: string | Buffer) => (_req: unknown, reply: FastifyReply) =>
    reply.code(200).header('content-type', type).header('cache-control', 'public, max-age=86400').send(body);
  app.get('/favicon.ico', hidden, icon('image/x-icon', FAVICON_ICO));
  app.get('/favicon.svg', hidden, icon('image/svg+xml', FAVICON_SVG));
}
