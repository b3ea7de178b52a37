// The suites of `npm test` (after the type check and the lint): every suite on the embedded
// store, then the store and API suites on PostgreSQL (test-postgres.mjs), both on one compiled
// copy of the code (compile-tests.mjs: no TypeScript loader in any test process), removed at
// the end. Exits with the first failing phase's code.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { compileTests } from './compile-tests.mjs';

const here = path.dirname(fileURLToPath(import.meta.url));
// Ctrl-C ends the test processes; this one outlives them to remove the compiled tree.
process.on('SIGINT', () => {});
const tree = compileTests();
let status;
try {
  const testDir = path.join(tree, 'test');
  const files = fs
    .readdirSync(testDir)
    .filter((f) => f.endsWith('.test.js'))
    .sort()
    .map((f) => path.join(testDir, f));
  status = spawnSync(process.execPath, ['--test', '--test-concurrency=2', ...files], { stdio: 'inherit' }).status ?? 1;
  if (status === 0)
    status =
      spawnSync(process.execPath, [path.join(here, 'test-postgres.mjs')], {
        stdio: 'inherit',
        env: { ...process.env, GRIDCAST_TEST_TREE: tree },
      }).status ?? 1;
} finally {
  fs.rmSync(tree, { recursive: true, force: true });
}
process.exit(status);
