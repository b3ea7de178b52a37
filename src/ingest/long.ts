/**
 * gridcast's own long layout in CSV (what `layout=long&format=csv` returns): `time_utc` (or
 * `time_local` with an offset, or a naive time with --timezone), `id`, `value`, and
 * - `created_at`: the run's issue time → forecast runs, one per (id, created_at);
 * - or no `created_at` → actuals, with an optional `published_at` (a revision's publication time;
 *   default: the end of the hour).
 */
import { HOUR_MS } from '../time/hours.ts';
import type { CsvBatch } from './csv.ts';
import { instantReader, parseValue } from './instants.ts';
import { IngestError, Observations, type LayoutContext } from './observations.ts';

export async function* longCsv(batches: AsyncIterable<CsvBatch>, ctx: LayoutContext): AsyncGenerator<Observations> {
  let header: string[] | null = null;
  let col = { time: -1, id: -1, value: -1, stamp: -1 };
  const timeOf = instantReader(ctx.timezone);
  const stampOf = instantReader(ctx.timezone);
  // The id of the row before, as written and trimmed (rows of a target usually follow each other).
  let lastId = '';
  let lastTarget = '';
  for await (const batch of batches) {
    const out = new Observations(batch.length);
    for (let r = 0; r < batch.length; r++) {
      const line = batch.line(r);
      if (!header) {
        header = Array.from({ length: batch.fieldCount(r) }, (_, f) => batch.field(r, f).trim());
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
      if (batch.fieldCount(r) !== header.length) {
        ctx.bad(line, `${batch.fieldCount(r)} fields where the header has ${header.length}`);
        continue;
      }
      const time = timeOf(batch.source(r, col.time), batch.fieldStart(r, col.time), batch.fieldEnd(r, col.time));
      if (typeof time === 'string') {
        ctx.bad(line, `${header[col.time]}: ${time}`);
        continue;
      }
      if (time % HOUR_MS !== 0) {
        ctx.bad(line, `${header[col.time]}: ${batch.field(r, col.time)} is not on the hour (hourly values, period-beginning)`);
        continue;
      }
      const value = parseValue(batch.source(r, col.value), batch.fieldStart(r, col.value), batch.fieldEnd(r, col.value));
      if (typeof value === 'string') {
        ctx.bad(line, `value: ${value}`);
        continue;
      }
      let stamp = time + HOUR_MS; // an actual without a publication time: known once its hour has ended
      if (col.stamp >= 0) {
        const t = stampOf(batch.source(r, col.stamp), batch.fieldStart(r, col.stamp), batch.fieldEnd(r, col.stamp));
        if (typeof t === 'string') {
          ctx.bad(line, `${header[col.stamp]}: ${t}`);
          continue;
        }
        stamp = t;
      }
      const idText = batch.source(r, col.id);
      const idStart = batch.fieldStart(r, col.id);
      const idEnd = batch.fieldEnd(r, col.id);
      if (idEnd - idStart !== lastId.length || !idText.startsWith(lastId, idStart)) {
        lastId = idText.slice(idStart, idEnd);
        lastTarget = lastId.trim();
      }
      out.push(line, lastTarget, time / HOUR_MS, stamp, value);
    }
    if (out.length) yield out;
  }
  if (!header) throw new IngestError(`${ctx.origin}: the file is empty`);
}
