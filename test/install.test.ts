/**
 * "Node.js 20 and npm are all you need": what `npm ci` installs must not need another Node
 * (npm prints EBADENGINE for that) and must not leave an install script for the user to
 * judge (npm warns about scripts not covered by `allowScripts`).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import semver from 'semver';
import { ROOT } from './helpers.ts';

const lock = JSON.parse(fs.readFileSync(path.join(ROOT, 'package-lock.json'), 'utf8'));
const manifest = JSON.parse(fs.readFileSync(path.join(ROOT, 'package.json'), 'utf8'));
/** Installed packages (optional ones for other platforms are in the lockfile but not on disk). */
const installed = Object.entries<any>(lock.packages).filter(([p]) => p !== '' && fs.existsSync(path.join(ROOT, p, 'package.json')));

test('every installed package supports the Node version the README promises (20.19 and later)', () => {
  const promised = manifest.engines.node as string;
  assert.equal(promised, '>=20.19');
  const refused = installed
    .filter(
      ([, meta]) =>
        typeof meta.engines?.node === 'string' &&
        !semver.subset(promised, meta.engines.node) &&
        !semver.satisfies('20.19.0', meta.engines.node),
    )
    .map(([p, meta]) => `${p} wants node ${meta.engines.node}`);
  assert.deepEqual(refused, []);
  assert.ok(semver.satisfies(process.version, promised), `running on ${process.version}`);
});

test('every install script is approved or denied in allowScripts, so npm has nothing to warn about', () => {
  const decided = new Set(Object.keys(manifest.allowScripts ?? {}).map((k) => k.replace(/@[^@/]*$/, '')));
  const undecided = installed
    .filter(([, meta]) => meta.hasInstallScript)
    .map(([p]) => p.replace(/^.*node_modules\//, ''))
    .filter((name) => !decided.has(name));
  assert.deepEqual(undecided, []);
});
