/**
 * What a compute runner does before it says it is warm (readiness, pool.ts): it builds the
 * catalogs and runs a few requests of the kinds users send, through the same runner and writers
 * as a real request, and throws their bodies away. Then the pool sends a few large ones through
 * itself (RUNNER_REQUESTS are small bodies sent whole; POOL_REQUESTS are streamed, shared out
 * between two workers, with flow control: code on both sides of the pool that the small ones
 * never reach). A process that has just started has built
 * nothing and optimised nothing: the first request of each kind would pay for the plant and
 * region catalogs (~1–2 s of CPU), the weather world's tables and V8's compilation of the hot
 * loops. Paying here, before /readyz says ready, means the first user's request is as fast as
 * the tenth.
 *
 * The requests are ordinary API URLs, validated as the HTTP thread validates them, so they
 * cannot drift from the routes.
 */
import { ISO_CODES } from '../../catalog/isos.ts';
import { FORECAST_HISTORY_START } from '../../query/kinds.ts';
import { epochHourOf, HOUR_MS } from '../../time/hours.ts';
import { localDayStartHour } from '../../time/zones.ts';
import type { ExtremeCatalogue } from '../../world/weather/extremes.ts';
import type { KeyInfo } from '../../store/keys.ts';
import { validateParams } from '../params.ts';
import type { RouteDef } from '../route.ts';
import { ROUTES } from '../routes/index.ts';
import { chooseOutput } from '../writers/registry.ts';
import type { Job } from './protocol.ts';

/** The key the warm-up requests run as: every ISO, every level (nothing is metered or sent). */
export const WARM_UP_KEY: KeyInfo = {
  id: 'warm-up',
  name: 'warm-up',
  createdAt: new Date(0),
  revokedAt: null,
  subscriptions: [{ iso: 'all', level: 'enterprise' }],
};

/**
 * Requests (API paths without the /v1 prefix) a runner serves before it is warm: the plants
 * of every ISO (each ISO's plants have tables of their own, built on first use, and V8 only
 * settles on its optimised code once it has seen them all), streamed JSON bodies (the large
 * path: weather fields, plant physics, the column writer), small bodies of each kind of target
 * (region, prices, gas, cells) and one tabular format. `{from}` and `{to}` are the two days
 * before now.
 */
const RUNNER_REQUESTS: readonly string[] = [
  ...ISO_CODES.flatMap((iso) => [
    `/plant/${iso}/wind/continuous?start={from}&end={to}`,
    `/plant/${iso}/solar/continuous?start={from}&end={to}`,
    `/region/${iso}/demand/forecast?id=${iso}_total`,
  ]),
  // Days an extreme event touches ({extreme}: see extremeDay): the per-point extreme code in the
  // weather batch, which the days before now may not reach.
  '/plant/ercot/wind/continuous?start={extreme}&end={extreme}',
  '/plant/ercot/solar/continuous?start={extreme}&end={extreme}',
  '/region/miso/wind/continuous?id=miso_total&start={from}&end={to}&format=csv',
  '/lmp/ercot/dalmp/forecast',
  '/gas/forecast',
  '/cells/isone/wind/list?resolution=2',
];

/** Streamed bodies (over STREAM_ABOVE_VALUES values) the pool sends through itself once every runner is warm; `{week}`: a week before now. */
const POOL_REQUESTS: readonly string[] = [
  '/plant/ercot/wind/continuous?start={week}&end={to}',
  '/plant/miso/solar/continuous?start={week}&end={to}',
  '/plant/spp/wind/continuous?start={week}&end={to}&format=csv',
];

/**
 * Long streamed bodies the pool sends through itself around its collection of the warm-up's
 * garbage (see below), before POOL_REQUESTS; `{history}`: the start of the forecast history, at most
 * LONG_WINDOW_DAYS before now. Every ISO-NE and NYISO wind plant over up to ~11 months (76
 * plants, ~600 k values, ~0.4 s of CPU cold): a body whose columns are thousands of hours long
 * runs code that week-long ones never make hot — V8 compiles the long loops of the row
 * stitching, the column writer and the time axis (on-stack replacement) and the time-zone
 * arithmetic of a long axis only once they have run that long. Without them the first long
 * request after ready (or after a restart, from the disk cache) had V8's helper threads compile
 * ~280 ms of TurboFan code (`stitchRows`, the value writer (`writeValues`), the time axis,
 * `cachedBlocks`, the time-zone functions); ~5 ms with them (issue 23; `--trace-opt`, README
 * *Start-up*). The pool serves them before it collects the warm-up's garbage, so that their
 * garbage (the cold computation's scratch) is not held by the idle process, and again after it,
 * from the blocks they left: the collection throws their optimised code away too (pool.ts).
 */
const LONG_POOL_REQUESTS: readonly string[] = [
  '/plant/isone/wind/continuous?start={history}&end={to}',
  '/plant/nyiso/wind/continuous?start={history}&end={to}',
];

/**
 * A skill request (a small body) the pool sends to every runner last, after its last collection:
 * every lead day's continuous series of every model side by side (query/kinds.ts's union of
 * rows, the shared time bases, the lead-day merging, the alignment and the scores) is code no
 * other request runs, and the first skill request after ready compiled it (issue 21: PJM's
 * demand year cold 2.9–3.0 s of server CPU without, 2.4–2.6 s with, alternating at load 28–33).
 * A week of one region's demand: with two days V8 had not yet optimised the region computer and
 * the weather batch for it, and the first year-long skill request compiled ~620 ms of TurboFan
 * code on the helper threads; ~400 ms with a week (0.90 against 0.99 s cold, quiet machine).
 * After the collection, not with RUNNER_REQUESTS: the collection throws the optimised code away
 * again (measured: a collection after it lost the gain). A week of SPP's regional and plant-sum
 * wind skill too: the plants' weather over the leads' union of rows (a run's creation hour on
 * every row) and the plant sums are code the demand skill never runs, and the first PJM wind
 * skill year after ready compiled ~530 ms of TurboFan code for it (1.68 → 1.47 s cold; idle RSS
 * +15 MB, 474 MB).
 */
const SKILL_POOL_REQUESTS: readonly string[] = [
  '/region/miso/demand/skill?start={week}&end={to}',
  '/region/spp/wind/skill?start={week}&end={to}',
  '/plant/spp/wind/skill?start={week}&end={to}',
];

/**
 * Streamed bodies the pool sends through itself after its last collection (pool.ts): the plant
 * path over a week not computed before, so that the code the collection deoptimised is optimised
 * again with little garbage left. The first week of the history (`{history}`: January, when now
 * is late in the year), whose cold nights take the plant path's cold-row branches: after a
 * November week, the first winter request after ready compiled them (~130 ms of TurboFan).
 */
const FINAL_POOL_REQUESTS: readonly string[] = [
  '/plant/miso/wind/continuous?start={history}&end={historyWeekEnd}',
  '/plant/ercot/solar/continuous?start={history}&end={historyWeekEnd}',
];

/** The long warm-up window's most days (it starts at the forecast history's start, or this many days before now). */
const LONG_WINDOW_DAYS = 330;

const DAY_MS = 86_400_000;
const dateOf = (ms: number) => new Date(ms).toISOString().slice(0, 10);

/** `def`'s path parameters if `path` matches its template, else null. */
function matchPath(def: RouteDef, path: string): Record<string, string> | null {
  const names: string[] = [];
  const pattern = def.path.replace(/\{(\w+)\}/g, (_m, name: string) => (names.push(name), '([^/]+)'));
  const m = new RegExp(`^${pattern}$`).exec(path);
  return m ? Object.fromEntries(names.map((n, i) => [n, m[i + 1]])) : null;
}

/**
 * A day of the forecast history, before the warm-up's days, that an extreme event of the world
 * touches (the first one's plateau), or null if none does yet. The history starts at
 * FORECAST_HISTORY_START: a day before it has no forecasts (a 422, which would end the warm-up).
 */
export function extremeDay(extremes: ExtremeCatalogue, nowMs: number): string | null {
  const first = localDayStartHour('UTC', FORECAST_HISTORY_START);
  const last = epochHourOf(nowMs) - 4 * 24;
  const event = extremes.eventsStarting(first, last).sort((a, b) => a.onset - b.onset)[0];
  return event ? dateOf(Math.min(event.onset + event.buildHours, last) * HOUR_MS) : null;
}

/** A runner's warm-up requests as jobs at `nowMs`, in the world whose extreme events are `extremes`. */
export function runnerWarmUpJobs(nowMs: number, extremes: ExtremeCatalogue): Omit<Job, 'id'>[] {
  const extreme = extremeDay(extremes, nowMs);
  const requests = RUNNER_REQUESTS.filter((r) => extreme !== null || !r.includes('{extreme}'));
  return jobsOf(
    requests.map((r) => r.replaceAll('{extreme}', extreme ?? '')),
    nowMs,
  );
}

/** Which of the pool's warm-up requests: see LONG_POOL_REQUESTS, POOL_REQUESTS and SKILL_POOL_REQUESTS. */
export type PoolWarmUp = 'long' | 'streamed' | 'skill' | 'final';

const POOL_WARM_UP: Record<PoolWarmUp, readonly string[]> = {
  long: LONG_POOL_REQUESTS,
  streamed: POOL_REQUESTS,
  skill: SKILL_POOL_REQUESTS,
  final: FINAL_POOL_REQUESTS,
};

/** The pool's warm-up requests of one kind as jobs at `nowMs`. */
export function poolWarmUpJobs(nowMs: number, kind: PoolWarmUp): Omit<Job, 'id'>[] {
  return jobsOf(POOL_WARM_UP[kind], nowMs);
}

/** Requests as jobs at `nowMs` (a request that no longer validates is a bug: it throws). */
function jobsOf(requests: readonly string[], nowMs: number): Omit<Job, 'id'>[] {
  const week = dateOf(nowMs - 8 * DAY_MS);
  const from = dateOf(nowMs - 3 * DAY_MS);
  const to = dateOf(nowMs - DAY_MS);
  const historyMs = localDayStartHour('UTC', FORECAST_HISTORY_START) * HOUR_MS;
  const historyStartMs = Math.min(Math.max(historyMs, nowMs - LONG_WINDOW_DAYS * DAY_MS), nowMs - 8 * DAY_MS);
  const history = dateOf(historyStartMs);
  const historyWeekEnd = dateOf(Math.min(historyStartMs + 6 * DAY_MS, nowMs - 2 * DAY_MS));
  return requests.map((request) => {
    const dated = request
      .replace('{week}', week)
      .replace('{from}', from)
      .replace('{to}', to)
      .replace('{history}', history)
      .replace('{historyWeekEnd}', historyWeekEnd);
    const url = new URL(dated, 'http://warm-up');
    const raw = Object.fromEntries(url.searchParams);
    for (const def of ROUTES) {
      const path = matchPath(def, url.pathname);
      if (!path) continue;
      const { values, errors } = validateParams(def.params, { path, query: raw });
      if (errors.length > 0) throw new Error(`warm-up request ${request}: ${JSON.stringify(errors)}`);
      const output = chooseOutput(def, values, undefined);
      return { path: def.path, params: values, raw, key: WARM_UP_KEY, nowMs, head: false, output: output.options };
    }
    throw new Error(`warm-up request ${request}: no such route`);
  });
}
