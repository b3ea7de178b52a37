/**
 * The skill figure of issue 21 for `npm run bench`: a year of one target (the ISO total), the
 * default 8 lead days and every model (optimized, iso, normal: 24 continuous series and the
 * actuals), cold and warm, for a cheap metric (demand) and a plant-sum metric (wind). PJM, so
 * that no block of the large ERCOT wind request the bench made before is reused.
 */
import os from 'node:os';
import type { BenchServer } from './serve.ts';

const SKILL_PATHS = [
  '/v1/region/pjm/demand/skill?start=2026-01-01&end=2026-11-19',
  '/v1/region/pjm/wind/skill?start=2026-01-01&end=2026-11-19',
] as const;
const WARM_RUNS = 3;

export interface SkillFigure {
  path: string;
  records: number;
  coldMs: number;
  warmMs: number;
}

async function timed(url: string, key: string): Promise<{ ms: number; records: number }> {
  const started = performance.now();
  const res = await fetch(url, { headers: { 'x-api-key': key } });
  const body = await res.text();
  if (res.status !== 200) throw new Error(`skill request ${url}: ${res.status} ${body.slice(0, 300)}`);
  return { ms: performance.now() - started, records: (JSON.parse(body) as unknown[]).length };
}

export async function skillFigures(server: BenchServer): Promise<SkillFigure[]> {
  const out: SkillFigure[] = [];
  for (const path of SKILL_PATHS) {
    const cold = await timed(server.url + path, server.key);
    const warm: number[] = [];
    for (let i = 0; i < WARM_RUNS; i++) warm.push((await timed(server.url + path, server.key)).ms);
    warm.sort((a, b) => a - b);
    out.push({ path, records: cold.records, coldMs: Math.round(cold.ms), warmMs: Math.round(warm[Math.floor(WARM_RUNS / 2)]) });
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
      `skill ${f.path} (${f.records} records, 3 models × 8 lead days): cold ${f.coldMs} ms, warm ${f.warmMs} ms; ` +
      `target ≤ 1000 ms cold (load average ${load} on ${os.cpus().length} cores)`,
  );
}
