/**
 * `node --import tsx bench/coldPath.ts [cold|disk]`: the large request of `npm run bench` (every
 * ERCOT wind plant, 2026-01-01 to 11-19) on one thread, through a compute runner as a worker runs
 * it, after the runner's warm-up — in CPU time, which a loaded machine disturbs far less than wall
 * time, against the CPU time of JSON.stringify of its own body. `cold`: computed, then five warm
 * requests; `disk`: the first request of a new process over the disk tier in DISK_DIR (run `cold`
 * with the same DISK_DIR first). Prints the microsecond window of the first request (process.hrtime),
 * to cut a `node --cpu-prof` profile down to it.
 */
import { JobRunner, warmRunner } from '../src/api/compute/runner.ts';
import { WARM_UP_KEY } from '../src/api/compute/warmUp.ts';
import type { FromWorker, Job } from '../src/api/compute/protocol.ts';
import { validateParams } from '../src/api/params.ts';
import { ROUTE_BY_PATH } from '../src/api/routes/index.ts';
import { chooseOutput } from '../src/api/writers/registry.ts';
import { blockCache } from '../src/query/blockCache.ts';
import { DiskBlocks } from '../src/query/diskBlocks.ts';
import { worldVersion } from '../src/query/worldVersion.ts';
import type { KeyInfo } from '../src/store/keys.ts';
import { DEFAULT_WORLD_SEED } from '../src/world/weather/world.ts';

const NOW = Date.parse('2026-11-20T18:00:00Z');
const mode = process.argv[2] ?? 'cold';
const dir = process.env.DISK_DIR;
if (dir) blockCache.useDisk(new DiskBlocks({ root: dir, version: worldVersion(DEFAULT_WORLD_SEED), budgetBytes: 1 << 30 }));

let finish: (() => void) | null = null;
let chunks: Uint8Array[] = [];
const runner = new JobRunner(DEFAULT_WORLD_SEED, (event: FromWorker) => {
  if (event.type === 'chunk') {
    chunks.push(event.data);
    runner.handle({ type: 'credit', id: event.id, n: 1 });
  } else if (event.type === 'error') throw new Error(JSON.stringify(event.error));
  else if (event.type === 'end') finish?.();
});
await warmRunner(runner, NOW);

const def = ROUTE_BY_PATH.get('/plant/{iso}/{metric}/continuous')!;
const raw = { start: '2026-01-01', end: '2026-11-19' };
const { values } = validateParams(def.params, { path: { iso: 'ercot', metric: 'wind' }, query: raw });
// Every ISO, every level: the key the server's own warm-up requests run as.
const key: KeyInfo = WARM_UP_KEY;
const job: Omit<Job, 'id'> = {
  path: def.path,
  params: values,
  raw,
  key,
  nowMs: NOW,
  head: false,
  output: chooseOutput(def, values, undefined).options,
};
let nextId = 1;
const cpuMs = (from: NodeJS.CpuUsage) => {
  const used = process.cpuUsage(from);
  return (used.user + used.system) / 1000;
};

/** One request: CPU milliseconds, and the body in `chunks`. */
async function once(): Promise<number> {
  chunks = [];
  const from = process.cpuUsage();
  await new Promise<void>((resolve) => {
    finish = resolve;
    runner.handle({ type: 'run', job: { ...job, id: nextId++ } });
  });
  return cpuMs(from);
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const windowFrom = process.hrtime.bigint() / 1000n;
const first = await once();
console.log(`first request window (µs): ${windowFrom} ${process.hrtime.bigint() / 1000n}`);
const parsed: unknown = JSON.parse(Buffer.concat(chunks).toString());
const floors: number[] = [];
for (let i = 0; i < 5; i++) {
  const from = process.cpuUsage();
  JSON.stringify(parsed);
  floors.push(cpuMs(from));
}
const floor = median(floors.slice(1));
console.log(`${mode}: first request ${Math.round(first)} ms CPU, JSON.stringify ${Math.round(floor)} ms → ${(first / floor).toFixed(2)}×`);
if (mode === 'cold') {
  const warm: number[] = [];
  for (let i = 0; i < 5; i++) warm.push(await once());
  console.log(`warm: ${warm.map(Math.round).join(' ')} ms CPU, median → ${(median(warm) / floor).toFixed(2)}×`);
}
await blockCache.diskTier?.settle();
