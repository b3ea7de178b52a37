/**
 * `node --expose-gc --import tsx bench/restartPath.ts [DATA_DIR]`: the large request of `npm run
 * bench` (every ERCOT wind plant, 2026-01-01 to 11-19) read from the disk tier as after a restart
 * — the memory cache emptied and a new disk tier made before each run, on one thread whose code is
 * already optimised — in CPU time against JSON.stringify of its own body, and the same request
 * warm right after. Without DATA_DIR a temporary one is filled first (the request computed once).
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { validateParams } from '../src/api/params.ts';
import { ROUTE_BY_PATH } from '../src/api/routes/index.ts';
import { WARM_UP_KEY } from '../src/api/compute/warmUp.ts';
import { frameJsonPieces } from '../src/api/writer.ts';
import { blockCache } from '../src/query/blockCache.ts';
import { DiskBlocks } from '../src/query/diskBlocks.ts';
import type { Frame } from '../src/query/frame.ts';
import { worldVersion } from '../src/query/worldVersion.ts';
import { DEFAULT_WORLD_SEED, WeatherWorld } from '../src/world/weather/world.ts';

const RUNS = 9;
const NOW = Date.parse('2026-11-20T18:00:00Z');
const dataDir = process.argv[2] ?? fs.mkdtempSync(path.join(os.tmpdir(), 'gridcast-restart-path-'));
const def = ROUTE_BY_PATH.get('/plant/{iso}/{metric}/continuous')!;
const raw = { start: '2026-01-01', end: '2026-11-19' };
const { values: params } = validateParams(def.params, { path: { iso: 'ercot', metric: 'wind' }, query: raw });
const world = new WeatherWorld(DEFAULT_WORLD_SEED);
const version = worldVersion(DEFAULT_WORLD_SEED);

/** As a restarted process: nothing in memory, a disk tier that has read nothing yet. */
function restarted(): void {
  blockCache.clear();
  blockCache.useDisk(new DiskBlocks({ root: path.join(dataDir, 'block-cache'), budgetBytes: 1 << 30, version }));
}

async function body(): Promise<Buffer> {
  const frame = (await def.handle({ params, raw, key: WARM_UP_KEY, nowMs: NOW, world })) as Frame;
  return Buffer.concat([...frameJsonPieces(frame)]);
}

const cpuMs = (from: NodeJS.CpuUsage) => {
  const used = process.cpuUsage(from);
  return (used.user + used.system) / 1000;
};
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

restarted();
const expected = await body();
await blockCache.diskTier!.settle();
// Once from disk before measuring, so that the reading code is optimised as a warmed server's is.
restarted();
await body();
const parsed: unknown = JSON.parse(expected.toString());
const fromDisk: number[] = [];
const warm: number[] = [];
const floor: number[] = [];
for (let i = 0; i < RUNS; i++) {
  restarted();
  (globalThis as { gc?: () => void }).gc?.();
  let from = process.cpuUsage();
  const again = await body();
  fromDisk.push(cpuMs(from));
  if (!again.equals(expected)) throw new Error('the body read from disk differs');
  from = process.cpuUsage();
  await body();
  warm.push(cpuMs(from));
  from = process.cpuUsage();
  JSON.stringify(parsed);
  floor.push(cpuMs(from));
}
const f = median(floor);
const show = (name: string, xs: number[]) =>
  console.log(`${name}: median ${median(xs).toFixed(1)} ms CPU → ${(median(xs) / f).toFixed(2)}×, least ${Math.min(...xs).toFixed(1)} ms`);
console.log(`${expected.length} bytes, ${blockCache.diskTier!.stats.reads} segment reads; JSON.stringify median ${f.toFixed(1)} ms CPU`);
show('from disk (as after a restart)', fromDisk);
show('warm (the same again)', warm);
if (!process.argv[2]) fs.rmSync(dataDir, { recursive: true, force: true });
