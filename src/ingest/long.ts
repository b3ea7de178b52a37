/**
 * gridcast's own long layout in CSV (what `layout=long&format=csv` returns): `time_utc` (or
 * `time_local` with an offset, or a naive time with --timezone), `id`, `value`, and
 * - `created_at`: the run's issue time → forecast runs, one per (id, created_at);
 * - or no `created_at` → actuals, with an optional `published_at` (a revision's publication time;
 *   default: the end of the hour).
 */
import { HOUR_MS } from '../time/hours.ts';
import type { CsvRecord } from './csv.ts';
import { instantReader, parseValue } from './instants.ts';
import { IngestError, type LayoutContext, type Observation } from './observations.ts';

export async function* longCsv(records: AsyncIterable<CsvRecord>, ctx: LayoutContext): AsyncGenerator<Observation> {
  let header: string[] | null = null;
  let col = { time: -1, id: -1, value: -1, stamp: -1 };
  const timeOf = instantReader(ctx.timezone);
  const stampOf = instantReader(ctx.timezone);
  for await (const { line, fields } of records) {
    if (!header) {
      header = fields.map((f) => f.trim());
      const at = (name: string) => header!.indexOf(name);
      const created = at('created_at');
      const published = at('published_at');
      col = {
        time: at('time_utc') >= 0 ? at('time_utc') : at('time_local'),
        id: at('id'),
        value: at('value'),
        stamp: Math.max(created, published),
      };
      const missing = [col.time < 0 ? 'time_utc' : '', col.id < 0 ? 'id' : '', col.value < 0 ? 'value' : ''].filter(Boolean);
      if (missing.length) {
        throw new IngestError(
          `${ctx.origin}: the header lacks ${missing.join(', ')}: the long layout has time_utc (or time_local), id, value and, for forecasts, created_at`,
        );
      }
      if (created >= 0 && published >= 0)
        throw new IngestError(`${ctx.origin}: a file has created_at (forecasts) or published_at (actuals), not both`);
      ctx.kind(created >= 0 ? 'forecast' : 'actual');
      continue;
    }
    if (fields.length !== header.length) {
      ctx.bad(line, `${fields.length} fields where the header has ${header.length}`);
      continue;
    }
    const time = timeOf(fields[col.time]);
    if (typeof time === 'string') {
      ctx.bad(line, `${header[col.time]}: ${time}`);
      continue;
    }
    if (time % HOUR_MS !== 0) {
      ctx.bad(line, `${header[col.time]}: ${fields[col.time]} is not on the hour (hourly values, period-beginning)`);
      continue;
    }
    const value = parseValue(fields[col.value]);
    if (typeof value === 'string') {
      ctx.bad(line, `value: ${value}`);
      continue;
    }
    let stamp = time + HOUR_MS; // an actual without a publication time: known once its hour has ended
    if (col.stamp >= 0) {
      const t = stampOf(fields[col.stamp]);
      if (typeof t === 'string') {
        ctx.bad(line, `${header[col.stamp]}: ${t}`);
        continue;
      }
      stamp = t;
    }
    yield { line, target: fields[col.id].trim(), hour: time / HOUR_MS, stamp, value };
  }
  if (!header) throw new IngestError(`${ctx.origin}: the file is empty`);
}
