/**
 * `npm run fuzz`: a long run of the API fuzzer (test/fuzzer.ts) on each store — the embedded
 * PGlite store, and PostgreSQL when GRIDCAST_TEST_DATABASE_URL is set (scripts/ci-postgres.sh
 * prints one) — printing the requests sent and their outcomes. Exits 1 on any 5xx, any error
 * body outside the documented shapes, or a key in the log.
 *
 * Options: --requests N (per store, default 20000), --seed N, --concurrency N,
 * --isos ercot,pjm (whose ids valid requests use; default all).
 */
import { parseArgs } from 'node:util';
import { describeFailures, fuzz } from '../test/fuzzer.ts';
import { createTestDatabase, openTestStore } from '../test/helpers.ts';
import { ISO_CODES } from '../src/catalog/isos.ts';

const { values } = parseArgs({
  options: {
    requests: { type: 'string', default: '20000' },
    seed: { type: 'string' },
    concurrency: { type: 'string', default: '4' },
    isos: { type: 'string', default: ISO_CODES.join(',') },
  },
});

const stores: { name: string; databaseUrl?: () => Promise<{ url: string; drop(): Promise<void> }> }[] = [{ name: 'embedded' }];
if (process.env.GRIDCAST_TEST_DATABASE_URL) stores.push({ name: 'postgres', databaseUrl: createTestDatabase });
else console.log('fuzz: GRIDCAST_TEST_DATABASE_URL is not set: PostgreSQL skipped');

let failed = false;
for (const { name } of stores) {
  process.env.GRIDCAST_TEST_BACKEND = name;
  const ts = await openTestStore();
  try {
    const report = await fuzz({
      store: ts.store,
      requests: Number(values.requests),
      seed: values.seed === undefined ? undefined : Number(values.seed),
      concurrency: Number(values.concurrency),
      isos: values.isos!.split(','),
      log: (line) => console.log(`[${name}] ${line}`),
    });
    const statuses = Object.entries(report.byStatus)
      .sort(([a], [b]) => Number(a) - Number(b))
      .map(([s, n]) => `${s}: ${n}`)
      .join(', ');
    const fivexx = Object.entries(report.byStatus)
      .filter(([s]) => Number(s) >= 500 && s !== '503')
      .reduce((n, [, c]) => n + c, 0);
    console.log(
      `[${name}] seed ${report.seed}: ${report.requests} requests in ${report.seconds.toFixed(0)} s over ${Object.keys(report.byOperation).length} operations`,
    );
    console.log(`[${name}] outcomes: ${statuses}`);
    console.log(
      `[${name}] 5xx (other than the documented busy 503): ${fivexx}; shape failures: ${report.failures.length}; key in the log: ${report.keyInLog ? 'YES' : 'no'}`,
    );
    if (report.failures.length) console.log(describeFailures(report, 20));
    if (report.keyInLog) console.log(`[${name}] log line with a key: ${report.keyInLog}`);
    failed ||= report.failures.length > 0 || report.keyInLog !== null || fivexx > 0;
  } finally {
    await ts.close();
  }
}
process.exit(failed ? 1 : 0);
