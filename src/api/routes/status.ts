/** `/status`: when each model's runs come out and how far actuals are published. */
import { serviceStatus } from '../../query/status.ts';
import type { SourceReader } from '../../sources/reader.ts';
import type { SeriesKey } from '../../store/sources.ts';
import type { RouteDef } from '../route.ts';
import { worldServed } from '../worldSwitch.ts';

export const statusRoute: RouteDef = {
  path: '/status',
  name: 'status',
  summary: 'Get Data Status',
  description:
    'Per ISO and model (optimized, iso, normal, euro_ens, euro_ec46, euro_seas5): the created_at of the last run issued by ' +
    'now (last_run) and of the next one (next_run), and the last hour whose actual is published (last_actual_hour, ' +
    'period-beginning; an hour is published 15 minutes after it ends). A client can poll this (cheaply: it sends ETag and ' +
    'Cache-Control like every data response) to know when a new run is out. Every stored source (ingested data) is listed too, ' +
    'per ISO it holds: its latest run issued by now (last_run; next_run is null), latest actual hour, row counts and the span ' +
    'of valid times it holds, and the series it holds there (series: group and metric; for LMPs the metric is the market ' +
    'type). With GRIDCAST_WORLD=off only the stored sources are listed.',
  tag: 'status',
  catalog: true,
  readsStore: true,
  level: 'core',
  params: [],
  response: { kind: 'records', schema: 'ModelStatus' },
  handle: async ({ nowMs, sources }) => [
    ...(worldServed() ? serviceStatus(nowMs) : []),
    ...(sources ? await storedStatus(sources, nowMs) : []),
  ],
};

/** Each stored source per ISO, with the series kinds it holds there (what a client, e.g. the dashboard, may ask it for). */
async function storedStatus(sources: SourceReader, nowMs: number) {
  const rows = await sources.status(nowMs);
  const kinds = new Map<string, SeriesKey[]>();
  for (const name of new Set(rows.map((r) => r.model))) kinds.set(name, await sources.kindsOf(name));
  return rows.map((r) => ({
    ...r,
    // Gas series are stored with the ISO '' and listed with iso null.
    series: kinds
      .get(r.model)!
      .filter((k) => (k.iso || null) === r.iso)
      .map((k) => ({ group: k.group, metric: k.metric })),
  }));
}
