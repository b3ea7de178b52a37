/**
 * EIA-930 hourly balancing-authority data (the EIA's "Balance" files, EIA930_BALANCE_*.csv): one
 * row per balancing authority and hour, with `Balancing Authority`, `UTC Time at End of Hour`,
 * `Demand (MW)`, `Net Generation (MW) from Wind`, `… from Solar` and other columns. Actuals only.
 *
 * - The ISO's own balancing authority (ERCO for ercot, SWPP for spp, …) is its total
 *   (`<iso>_total`); rows of the other authorities in the file are skipped.
 * - The metric reads its column: demand → `Demand (MW)`, wind → `Net Generation (MW) from Wind`,
 *   solar → `Net Generation (MW) from Solar`; --value names another (`Demand (MW) (Adjusted)`).
 *   Other fuels (coal, gas, nuclear, …) have no gridcast metric.
 * - Times are UTC hour ends (ISO 8601, `1/1/2024 6:00:00 AM` or `2024-01-01T06`); the value is
 *   the hour before. Numbers may have thousands separators (`45,123`), as EIA writes them.
 */
import { HOUR_MS } from '../time/hours.ts';
import { cellInstantReader, cellValue } from './instants.ts';
import { IngestError, type Cell, inBatches, type FileRecord, type LayoutContext, type Observations, type Scale } from './observations.ts';
import { convert } from './units.ts';
import { normalName } from './wide.ts';

/** The EIA-930 code of each ISO's balancing authority. */
const BALANCING_AUTHORITIES: Record<string, string> = {
  ercot: 'ERCO',
  pjm: 'PJM',
  miso: 'MISO',
  spp: 'SWPP',
  caiso: 'CISO',
  nyiso: 'NYIS',
  isone: 'ISNE',
};

/** The column each metric reads by default. */
const METRIC_COLUMNS: Record<string, string> = {
  demand: 'Demand (MW)',
  wind: 'Net Generation (MW) from Wind',
  solar: 'Net Generation (MW) from Solar',
};

const BA = 'balancing_authority';
const TIME = 'utc_time_at_end_of_hour';

export function isEia930Header(names: readonly string[]): boolean {
  const normal = names.map(normalName);
  return normal.includes(BA) && normal.includes(TIME);
}

const US_TIME = /^(\d{1,2})\/(\d{1,2})\/(\d{4})\s+(\d{1,2})(?::(\d{2}))?(?::(\d{2}))?\s*([AaPp]\.?[Mm]\.?)?$/;
const API_HOUR = /^(\d{4}-\d{2}-\d{2})T(\d{2})$/;

/** An EIA UTC time: ISO 8601 (naive = UTC), `M/D/YYYY h:mm:ss AM`, or the API's `YYYY-MM-DDTHH`. */
function eiaInstant(read: (cell: Cell) => number | string): (cell: Cell) => number | string {
  return (cell) => {
    if (typeof cell !== 'string') return read(cell);
    const text = cell.trim();
    const api = API_HOUR.exec(text);
    if (api) return read(`${api[1]}T${api[2]}:00Z`);
    const us = US_TIME.exec(text);
    if (!us) return read(text);
    const [, mo, d, y, h, mi, s, ampm] = us;
    let hour = +h;
    if (ampm) {
      if (hour < 1 || hour > 12) return `'${text}' is not a valid date and time`;
      hour = (hour % 12) + (/^p/i.test(ampm) ? 12 : 0);
    }
    const pad = (n: string | number) => String(n).padStart(2, '0');
    return read(`${y}-${pad(mo)}-${pad(d)}T${pad(hour)}:${mi ?? '00'}:${s ?? '00'}Z`);
  };
}

const THOUSANDS = /^-?\d{1,3}(,\d{3})+(\.\d+)?$/;

export async function* eia930Layout(records: AsyncIterable<FileRecord>, ctx: LayoutContext): AsyncGenerator<Observations> {
  const ba = BALANCING_AUTHORITIES[ctx.iso];
  const target = `${ctx.iso}_total`;
  if (!ba || !ctx.targets.has(target))
    throw new IngestError(`${ctx.origin}: EIA-930 data hold balancing authorities' totals: ${ctx.iso} has none here`);
  let header: string[] | null = null;
  let col = { ba: -1, time: -1, value: -1 };
  let scale: Scale = { scale: 1, offset: 0 };
  const timeOf = eiaInstant(cellInstantReader(undefined));
  const others = new Map<string, number>();
  let own = 0;
  yield* inBatches(records, ({ line, fields }, out) => {
    if (!header) {
      header = fields.map((f) => String(f ?? '').trim());
      const normal = header.map(normalName);
      const column = ctx.value ?? METRIC_COLUMNS[ctx.metric];
      if (column === undefined) {
        throw new IngestError(
          `${ctx.origin}: EIA-930 has no column for ${ctx.metric} (it has ${Object.keys(METRIC_COLUMNS).join(', ')}): name one with --value`,
        );
      }
      col = { ba: normal.indexOf(BA), time: normal.indexOf(TIME), value: header.indexOf(column) };
      if (col.value < 0) throw new IngestError(`${ctx.origin}: no column '${column}' in the header`);
      // EIA gives the unit in the first brackets: `Demand (MW) (Adjusted)`, `Net Generation (MW) from Wind`.
      const stated = ctx.scale(/\(([^)]+)\)/.exec(column)?.[1]);
      if (typeof stated === 'string') throw new IngestError(`${ctx.origin}: column ${column}: ${stated}`);
      scale = stated;
      ctx.kind('actual');
      return;
    }
    if (fields.length !== header.length) {
      ctx.bad(line, `${fields.length} fields where the header has ${header.length}`);
      return;
    }
    const authority = String(fields[col.ba] ?? '').trim();
    if (authority !== ba) {
      others.set(authority, (others.get(authority) ?? 0) + 1);
      return;
    }
    own++;
    const end = timeOf(fields[col.time]);
    if (typeof end === 'string') {
      ctx.bad(line, `${header[col.time]}: ${end}`);
      return;
    }
    if (end % HOUR_MS !== 0) {
      ctx.bad(line, `${header[col.time]}: ${String(fields[col.time])} is not on the hour`);
      return;
    }
    const cell = fields[col.value];
    const value = cellValue(typeof cell === 'string' && THOUSANDS.test(cell.trim()) ? cell.replace(/,/g, '') : cell);
    if (typeof value === 'string') {
      ctx.bad(line, `${header[col.value]}: ${value}`);
      return;
    }
    out.push(line, target, end / HOUR_MS - 1, end, convert(value, scale));
  });
  if (header && own === 0) {
    const seen = [...others.keys()].slice(0, 20).join(', ');
    throw new IngestError(`${ctx.origin}: no rows of ${ba} (${ctx.iso}); the file has ${seen || 'no rows'}`);
  }
}
