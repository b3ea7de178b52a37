/**
 * The skill figure of issue 21 for `npm run bench`: a year of one target (the ISO total), the
 * default 8 lead days and every model (optimized, iso, normal: 24 continuous series and the
 * actuals), cold and warm, for a cheap metric (demand) and plant sums (regional wind: 3 models;
 * the plant group's sum over every PJM wind plant: optimized and iso). PJM, so that no block of
 * the large ERCOT wind request the bench made before is reused. Each figure also gives the
 * server's CPU time (all its threads), steadier than wall time on a shared machine.
 *
 * Alone: `node --import tsx bench/skill.ts` (one embedded server, these figures only).
 */
import fs from 'node:fs';
import os from 'node:os';
import { startServe, type BenchServer } from './serve.ts';

const SKILL_PATHS = [
  '/v1/region/pjm/demand/skill?start=2026-01-01&end=2026-11-19',
  '/v1/region/pjm/wind/skill?start=2026-01-01&end=2026-11-19',
  '/v1/plant/pjm/wind/skill?start=2026-01-01&end=2026-11-19',
] as const;
const WARM_RUNS = 3;

export interface SkillFigure {
  path: string;
  records: number;
  coldMs: number;
  warmMs: number;
  /** The server's CPU time for the cold request and the median warm one (ms; null where /proc is not readable). */
  coldCpuMs: number | null;
  warmCpuMs: number | null;
}

/** User + system CPU time of a process so far (ms), from /proc (Linux); null elsewhere. */
function cpuMsOf(pid: number): number | null {
  try {
    const fields = fs.readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
    return ((Number(fields[11]) + Number(fields[12])) * 1000) / 100;
  } catch {
    return null;
  }
}

async function timed(url: string, server: BenchServer): Promise<{ ms: number; cpuMs: number | null; records: number }> {
  const cpu = cpuMsOf(server.pid);
  const started = performance.now();
  const res = await fetch(url, { headers: { 'x-api-key': server.key } });
  const body = await res.text();
  if (res.status !== 200) throw new Error(`skill request ${url}: ${res.status} ${body.slice(0, 300)}`);
  const after = cpuMsOf(server.pid);
  const cpuMs = cpu === null || after === null ? null : Math.round(after - cpu);
  return { ms: performance.now() - started, cpuMs, records: (JSON.parse(body) as unknown[]).length };
}

export async function skillFigures(server: BenchServer): Promise<SkillFigure[]> {
  const out: SkillFigure[] = [];
  for (const path of SKILL_PATHS) {
    const cold = await timed(server.url + path, server);
    const warm: Awaited<ReturnType<typeof timed>>[] = [];
    for (let i = 0; i < WARM_RUNS; i++) warm.push(await timed(server.url + path, server));
    const median = warm.sort((a, b) => a.ms - b.ms)[Math.floor(WARM_RUNS / 2)];
    out.push({
      path,
      records: cold.records,
      coldMs: Math.round(cold.ms),
      warmMs: Math.round(median.ms),
      coldCpuMs: cold.cpuMs,
      warmCpuMs: median.cpuMs,
    });
  }
  return out;
}

export function skillLines(figures: readonly SkillFigure[]): string[] {
  // The machine is often shared: the load says how far the figures are from an idle machine's.
  const load = os
    .loadavg()
    .map((x) => x.toFixed(2))
    .join(', ');
  return figures.map(
    (f) =>
      `skill ${f.path} (${f.records} records, default models × 8 lead days): cold ${f.coldMs} ms (CPU ${f.coldCpuMs ?? '?'} ms), ` +
      `warm ${f.warmMs} ms (CPU ${f.warmCpuMs ?? '?'} ms); ` +
      `target ≤ 1000 ms cold (load average ${load} on ${os.cpus().length} cores)`,
  );
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const server = await startServe({ env: { GRIDCAST_WORKERS: process.env.GRIDCAST_WORKERS ?? '1' } });
  try {
    // Cold means the data, not the process: wait until the compute workers are warm.
    while ((await fetch(`${server.url}/readyz`)).status !== 200) await new Promise((r) => setTimeout(r, 200));
    for (const line of skillLines(await skillFigures(server))) console.log(line);
  } finally {
    await server.stop();
  }
}
