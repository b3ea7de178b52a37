/**
 * The vendor forecast file several own-data tests ingest as `vendor_a` (ERCOT demand), and what
 * /v1/status then says of it: one definition, shared.
 */

/** Two runs (00:00 and 06:00 UTC on 2026-06-01) of two ERCOT regions' demand, 48 hours each; `offset` shifts every value. */
export function vendorCsv(offset = 0): string {
  const lines = ['time_utc,id,value,created_at'];
  for (const issued of ['2026-06-01T00:00:00Z', '2026-06-01T06:00:00Z']) {
    const start = Date.parse(issued);
    for (const id of ['ercot_total', 'ercot_coast']) {
      for (let h = 0; h < 48; h++) {
        const t = new Date(start + h * 3_600_000).toISOString().replace('.000Z', 'Z');
        lines.push(`${t},${id},${(id === 'ercot_total' ? 50000 : 10000) + h + offset},${issued}`);
      }
    }
  }
  return lines.join('\n') + '\n';
}

/** vendor_a's /v1/status record once vendorCsv() is ingested as ERCOT demand (and nothing else). */
export const VENDOR_A_STATUS = {
  iso: 'ercot',
  model: 'vendor_a',
  last_run: '2026-06-01T06:00:00Z',
  next_run: null,
  last_actual_hour: null,
  source: 'stored',
  runs: 4,
  forecast_values: 192,
  actuals: 0,
  actual_revisions: 0,
  first_valid_time: '2026-06-01T00:00:00Z',
  last_valid_time: '2026-06-03T05:00:00Z',
  series: [{ group: 'region', metric: 'demand' }],
};
