/**
 * The world's version: a digest of everything that determines a computed value, so that a block
 * kept on disk (diskBlocks.ts) is served only by the code and seed that computed it.
 *
 * Every number is a pure function of (seed, target, metric, model, run, valid time) and of the
 * code that computes it (DESIGN.md, Determinism). Rather than a constant someone must remember
 * to bump when the world changes, the version hashes that code itself: the modules of the layers
 * that compute values (catalog, models, query, sources, time, util, world — compiled or not,
 * whichever is running), the data files they read (assets/), the pinned versions of the packages
 * whose data shape the catalogs (package.json), the seed and the byte order. Any change there —
 * a deliberate change of the world that regenerates the golden digests, but also a harmless
 * comment — gives a new version, and blocks of the old one are never read again (they age out
 * of the disk budget). The HTTP layer (api/) and the store are left out: they do not change values.
 */
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/** The layers under src/ (or dist/) whose code determines values. */
const VALUE_LAYERS = ['catalog', 'models', 'query', 'sources', 'time', 'util', 'world'];
/** Bumped when the disk cache's file format changes (diskBlocks.ts). */
export const DISK_FORMAT = 1;

const CODE_ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const PROJECT_ROOT = path.resolve(CODE_ROOT, '..');

/** Every file under `dir`, depth first in name order (the order must not depend on the file system). */
function filesUnder(dir: string): string[] {
  if (!fs.existsSync(dir)) return [];
  return fs
    .readdirSync(dir, { withFileTypes: true })
    .sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0))
    .flatMap((entry) => {
      const full = path.join(dir, entry.name);
      return entry.isDirectory() ? filesUnder(full) : entry.isFile() ? [full] : [];
    });
}

const versions = new Map<number, string>();

/** The version of the world with this seed: 32 hex digits (computed once per process and seed, ~5 ms). */
export function worldVersion(seed: number): string {
  const known = versions.get(seed);
  if (known) return known;
  const hash = createHash('sha256');
  hash.update(`gridcast disk blocks ${DISK_FORMAT}\0seed ${seed}\0${os.endianness()}\0`);
  const files = [
    ...VALUE_LAYERS.flatMap((layer) => filesUnder(path.join(CODE_ROOT, layer))),
    ...filesUnder(path.join(PROJECT_ROOT, 'assets')),
  ];
  for (const file of files) {
    hash.update(`${path.relative(PROJECT_ROOT, file)}\0`);
    hash.update(fs.readFileSync(file));
  }
  const pkg = JSON.parse(fs.readFileSync(path.join(PROJECT_ROOT, 'package.json'), 'utf8')) as { dependencies?: Record<string, string> };
  hash.update(JSON.stringify(pkg.dependencies ?? {}));
  const version = hash.digest('hex').slice(0, 32);
  versions.set(seed, version);
  return version;
}
