/**
 * The dashboard at /dashboard: a static page (web/dashboard/) that calls the public API from
 * the browser with the key the user types in. The page and its libraries need no key; every
 * data call does, exactly like any other client.
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

export const DASHBOARD_PATH = '/dashboard';
export const DASHBOARD_ASSETS = `${DASHBOARD_PATH}/assets`;

/** The page's own files (works from src/api under tsx and from dist/api when built). */
const PAGE_DIR = new URL('../../web/dashboard/', import.meta.url);
const requireFromHere = createRequire(import.meta.url);

const CONTENT_TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
};

/** Asset name (as the page asks for it) → absolute file path. Nothing else is served. */
export function dashboardAssetFiles(): ReadonlyMap<string, string> {
  const own = ['dashboard.css', 'main.js', 'api.js', 'stats.js', 'sources.js', 'charts.js', 'cellmap.js'];
  return new Map<string, string>([
    ...own.map((name): [string, string] => [name, fileURLToPath(new URL(name, PAGE_DIR))]),
    ['echarts.min.js', requireFromHere.resolve('echarts/dist/echarts.min.js')],
    ['leaflet.js', requireFromHere.resolve('leaflet/dist/leaflet.js')],
    ['leaflet.css', requireFromHere.resolve('leaflet/dist/leaflet.css')],
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
