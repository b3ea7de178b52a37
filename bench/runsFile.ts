/**
 * Generated files of forecast runs in gridcast's long CSV layout (`time_utc,id,value,created_at`),
 * for the ingest bench (bench/ingest.ts) and the kill -9 test (test/owndata-durability.test.ts):
 * runs issued every 24/runsPerDay hours from `start`, each covering `horizon` hours from its issue
 * hour for every target, with deterministic values (a daily shape per target plus a drift per run)
 * written with one decimal, as vendors' files usually are. Written as a stream in chunks of rows.
 */
import fs from 'node:fs';
import { once } from 'node:events';
import { HOUR_MS, formatUtcInstant } from '../src/time/hours.ts';

export interface RunsFileSpec {
  /** First issue time (ISO 8601, on the hour). */
  start: string;
  days: number;
  runsPerDay: number;
  /** Hours each run covers, from its issue hour. */
  horizon: number;
  targets: readonly string[];
}

/** The year of hourly runs of the ingest targets: 4 runs a day, 8 days ahead, 10 MISO regions ≈ 2.8 M values. */
export const YEAR_OF_RUNS: RunsFileSpec = {
  start: '2026-01-01T00:00:00Z',
  days: 365,
  runsPerDay: 4,
  horizon: 192,
  targets: [
    'miso_total',
    'miso_lrz1',
    'miso_lrz2',
    'miso_lrz3',
    'miso_lrz4',
    'miso_lrz5',
    'miso_lrz6',
    'miso_lrz7',
    'miso_lrz8',
    'miso_lrz9',
  ],
};

export const valuesOf = (s: RunsFileSpec) => s.days * s.runsPerDay * s.horizon * s.targets.length;

/** The file's text, a run at a time. */
export function* runsCsv(s: RunsFileSpec): Generator<string> {
  yield 'time_utc,id,value,created_at\n';
  const first = Date.parse(s.start);
  const step = (24 / s.runsPerDay) * HOUR_MS;
  const times = new Map<number, string>();
  const timeText = (ms: number) => {
    let t = times.get(ms);
    if (t === undefined) times.set(ms, (t = formatUtcInstant(ms)));
    return t;
  };
  for (let r = 0; r < s.days * s.runsPerDay; r++) {
    const issued = first + r * step;
    const created = timeText(issued);
    const rows: string[] = [];
    for (let k = 0; k < s.targets.length; k++) {
      const base = 5000 + 1500 * k;
      for (let h = 0; h < s.horizon; h++) {
        const valid = issued + h * HOUR_MS;
        const hourOfDay = (valid / HOUR_MS) % 24;
        const value = base * (1 + 0.25 * Math.sin(((hourOfDay - 9) / 24) * 2 * Math.PI)) + ((r * 37 + h * 11) % 97) - 48;
        rows.push(`${timeText(valid)},${s.targets[k]},${value.toFixed(1)},${created}\n`);
      }
    }
    // Hours before the next issue time are not written again.
    for (let t = issued; t < issued + step; t += HOUR_MS) times.delete(t);
    yield rows.join('');
  }
}

/** Writes the file; returns its size in bytes. */
export async function writeRunsFile(file: string, s: RunsFileSpec): Promise<number> {
  const out = fs.createWriteStream(file);
  for (const chunk of runsCsv(s)) if (!out.write(chunk)) await once(out, 'drain');
  out.end();
  await once(out, 'finish');
  return fs.statSync(file).size;
}
