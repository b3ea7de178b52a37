// The store and API tests again, on a PostgreSQL server (part of `npm test`).
// GRIDCAST_TEST_DATABASE_URL names a role that may create databases (scripts/ci-postgres.sh
// starts a local server and prints one; .ci/run sets it). Without it the run is skipped with
// a notice, except in CI, where that is an error. A suite of these files that uses the embedded
// store on either backend leaves itself out here (EMBEDDED_STORE_ONLY in test/helpers.ts), and
// so does one whose answers the store does not decide (SAME_ON_EVERY_STORE: validation errors).
import { spawnSync } from 'node:child_process';
import path from 'node:path';

const FILES = [
  'test/api-errors.test.ts',
  'test/regions-api.test.ts',
  'test/county-api.test.ts',
  'test/operations.test.ts',
  'test/replicas.test.ts',
  'test/hardening.test.ts',
  'test/fuzz.test.ts',
  'test/meter.test.ts',
  'test/owndata.test.ts',
  'test/owndata-durability.test.ts',
  'test/owndata-groups.test.ts',
  'test/owndata-serving.test.ts',
  'test/owndata-quantiles.test.ts',
  'test/owndata-daily.test.ts',
  'test/owndata-truth.test.ts',
  'test/owndata-listcache.test.ts',
  'test/ingest-parallel.test.ts',
];

if (!process.env.GRIDCAST_TEST_DATABASE_URL) {
  if (process.env.CI === 'true') {
    console.error('test:postgres: GRIDCAST_TEST_DATABASE_URL is not set (run scripts/ci-postgres.sh first, as .ci/run does)');
    process.exit(1);
  }
  console.log(
    'test:postgres: skipped — set GRIDCAST_TEST_DATABASE_URL to also run the store and API tests on PostgreSQL (scripts/ci-postgres.sh prints one)',
  );
  process.exit(0);
}
console.log(`test:postgres: ${FILES.length} files on PostgreSQL`);
// In `npm test` (scripts/test.mjs) the files run from its compiled tree; alone, under tsx.
const tree = process.env.GRIDCAST_TEST_TREE;
const args = tree ? FILES.map((f) => path.join(tree, f.replace(/\.ts$/, '.js'))) : ['--import', 'tsx', ...FILES];
const run = spawnSync(process.execPath, ['--test', '--test-concurrency=2', ...args], {
  stdio: 'inherit',
  env: { ...process.env, GRIDCAST_TEST_BACKEND: 'postgres' },
});
process.exit(run.status ?? 1);
