/**
 * `node --import tsx bench/warmPath.ts`: the path under the response cache for the large request
 * of `npm run bench` (every ERCOT wind plant, 2026-01-01 to 11-19) on one thread, with every block
 * already in memory — in CPU time against JSON.stringify of its own body: (a) gathering the
 * frame (the route's query, then every column's warm blocks into the writer's buffers), (b) writing
 * the JSON body from those columns (the time-axis header, the values' bytes), and both as the
 * compute runner does them (frameJsonPieces).
 */
import { validateParams } from '../src/api/params.ts';
import { ROUTE_BY_PATH } from '../src/api/routes/index.ts';
import { WARM_UP_KEY } from '../src/api/compute/warmUp.ts';
import { frameJsonPieces } from '../src/api/writer.ts';
import type { Frame } from '../src/query/frame.ts';
import { DEFAULT_WORLD_SEED, WeatherWorld } from '../src/world/weather/world.ts';

const NOW = Date.parse('2026-11-20T18:00:00Z');
const def = ROUTE_BY_PATH.get('/plant/{iso}/{metric}/continuous')!;
const raw = { start: '2026-01-01', end: '2026-11-19' };
const { values: params } = validateParams(def.params, { path: { iso: 'ercot', metric: 'wind' }, query: raw });
const world = new WeatherWorld(DEFAULT_WORLD_SEED);
const frameOf = async () => (await def.handle({ params, raw, key: WARM_UP_KEY, nowMs: NOW, world })) as Frame;

const cpuMs = (from: NodeJS.CpuUsage) => {
  const used = process.cpuUsage(from);
  return (used.user + used.system) / 1000;
};
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

function bodyOf(frame: Frame): Buffer {
  return Buffer.concat([...frameJsonPieces(frame)].map((p) => (typeof p === 'string' ? Buffer.from(p, 'latin1') : p)));
}

// Computes every block once (cold), then once more warm so the code paths are optimised.
const body = bodyOf(await frameOf());
bodyOf(await frameOf());
const parsed: unknown = JSON.parse(body.toString());

const gather: number[] = [];
const write: number[] = [];
const whole: number[] = [];
const floor: number[] = [];
for (let i = 0; i < 15; i++) {
  let from = process.cpuUsage();
  const frame = await frameOf();
  const columns = frame.columns.map((c) => {
    const out = new Float64Array(frame.hours.length).fill(Number.NaN);
    c.fill(out);
    return out;
  });
  gather.push(cpuMs(from));
  // The same frame over the gathered columns: writing only.
  const gathered: Frame = { ...frame, columns: frame.columns.map((c, k) => ({ ...c, fill: (out) => out.set(columns[k]) })) };
  from = process.cpuUsage();
  let bytes = 0;
  for (const p of frameJsonPieces(gathered)) bytes += p.length;
  write.push(cpuMs(from));
  from = process.cpuUsage();
  const again = bodyOf(await frameOf());
  whole.push(cpuMs(from));
  if (bytes !== body.length || !again.equals(body)) throw new Error('bodies differ');
  from = process.cpuUsage();
  JSON.stringify(parsed);
  floor.push(cpuMs(from));
}
const f = median(floor);
// The least of the runs too: on a shared machine, the one least disturbed by other processes.
const least = (xs: number[]) => Math.min(...xs);
const show = (name: string, xs: number[]) =>
  console.log(
    `${name}: median ${median(xs).toFixed(1)} ms CPU → ${(median(xs) / f).toFixed(2)}×, least ${least(xs).toFixed(1)} → ${(least(xs) / least(floor)).toFixed(2)}× the least JSON.stringify`,
  );
console.log(`${body.length} bytes; JSON.stringify median ${f.toFixed(1)} ms CPU`);
show('(a) gather', gather);
show('(b) write', write);
show('frameJsonPieces + concat', whole);
