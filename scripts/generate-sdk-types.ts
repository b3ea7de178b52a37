/**
 * Generates src/client/openapi.generated.ts, the TypeScript SDK's types, from the
 * OpenAPI document the app serves at /v1/openapi.json, built in-process from the route
 * declarations. Only the public API is kept: should the document carry operations under
 * /admin (the operators' API, which has its own document), they and the schemas only they
 * use are left out.
 *
 *   npm run sdk:generate
 *
 * test/sdk.test.ts regenerates the file from the live server's document and fails when the
 * committed file differs.
 */
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import openapiTS, { astToString, COMMENT_HEADER, type OpenAPI3 } from 'openapi-typescript';
import * as prettier from 'prettier';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
export const SDK_TYPES_FILE = path.join(ROOT, 'src', 'client', 'openapi.generated.ts');

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };
/** The parts of an OpenAPI document the filter reads; the rest passes through. */
interface Operation {
  tags?: string[];
  security?: Record<string, string[]>[];
}
interface Document {
  paths?: Record<string, Record<string, Operation>>;
  components?: { schemas?: Record<string, Json>; securitySchemes?: Record<string, Json> };
  tags?: { name: string }[];
  [key: string]: unknown;
}

/** Every `#/components/schemas/NAME` referenced anywhere inside `node`. */
function schemaRefs(node: Json | undefined, out: Set<string>): Set<string> {
  if (Array.isArray(node)) for (const x of node) schemaRefs(x, out);
  else if (node && typeof node === 'object') {
    for (const [key, value] of Object.entries(node)) {
      if (key === '$ref' && typeof value === 'string' && value.startsWith('#/components/schemas/'))
        out.add(value.slice('#/components/schemas/'.length));
      else schemaRefs(value, out);
    }
  }
  return out;
}

/**
 * The public part of an OpenAPI document: paths not under /admin, the schemas they reach
 * (transitively), the security schemes they name, and the tags they use.
 */
export function publicOpenApi(document: Document): Document {
  const paths = Object.fromEntries(Object.entries(document.paths ?? {}).filter(([p]) => p !== '/admin' && !p.startsWith('/admin/')));
  const schemas = document.components?.schemas ?? {};
  const reached = schemaRefs(paths as Json, new Set());
  for (const pending = [...reached]; pending.length > 0;) {
    for (const name of schemaRefs(schemas[pending.pop()!], new Set())) {
      if (!reached.has(name)) {
        reached.add(name);
        pending.push(name);
      }
    }
  }
  const operations = Object.values(paths).flatMap((item) => Object.values(item));
  const schemeNames = new Set(operations.flatMap((op) => (op.security ?? []).flatMap((s) => Object.keys(s))));
  const tagNames = new Set(operations.flatMap((op) => op.tags ?? []));
  const securitySchemes = document.components?.securitySchemes ?? {};
  return {
    ...document,
    ...(document.tags ? { tags: document.tags.filter((t) => tagNames.has(t.name)) } : {}),
    paths,
    components: {
      ...document.components,
      schemas: Object.fromEntries(Object.entries(schemas).filter(([name]) => reached.has(name))),
      securitySchemes: Object.fromEntries(Object.entries(securitySchemes).filter(([name]) => schemeNames.has(name))),
    },
  };
}

/** The text of openapi.generated.ts for a (full) document as the app serves it, in the repository's Prettier style. */
export async function sdkTypesSource(document: Document): Promise<string> {
  const ast = await openapiTS(publicOpenApi(document) as unknown as OpenAPI3, { silent: true });
  const text = COMMENT_HEADER + '// Source: GET /v1/openapi.json without /admin (npm run sdk:generate).\n\n' + astToString(ast);
  const style = await prettier.resolveConfig(SDK_TYPES_FILE);
  return prettier.format(text, { ...style, filepath: SDK_TYPES_FILE });
}

async function main(): Promise<void> {
  // Imported here, not at the top, so that the test can use the functions above without
  // loading the whole application twice.
  const { ROUTES } = await import('../src/api/app.ts');
  const { buildOpenApi } = await import('../src/api/openapi.ts');
  const { version } = JSON.parse(fs.readFileSync(path.join(ROOT, 'package.json'), 'utf8')) as { version: string };
  const source = await sdkTypesSource(buildOpenApi(ROUTES, version));
  fs.writeFileSync(SDK_TYPES_FILE, source);
  console.log(`wrote ${path.relative(ROOT, SDK_TYPES_FILE)} (${source.length} bytes)`);
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) await main();
