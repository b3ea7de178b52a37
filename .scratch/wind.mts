process.env.GRIDCAST_CACHE_MB ??= '0';
const { regionQueries } = await import('../src/query/regions.ts');
const { WeatherWorld } = await import('../src/world/weather/world.ts');
const { plantsOf, plantFirstHour } = await import('../src/catalog/plants.ts');
const { ISOS } = await import('../src/catalog/isos.ts');
const { localDateOfHour } = await import('../src/time/zones.ts');
const world = new WeatherWorld();
const isos = (process.argv[2] ?? 'ercot,nyiso,caiso,spp,miso,pjm,isone').split(',');
const years = (process.argv[3] ?? '2024,2025').split(',').map(Number);
for (const iso of isos) {
  const plants = [...plantsOf(iso as any, 'wind')];
  const capAt = (h: number) => plants.reduce((s, p) => s + (plantFirstHour(p) <= h ? p.capacity_mw : 0), 0);
  const monthly = new Array(12).fill(0).map(() => ({ s: 0, n: 0 }));
  let over80 = 0, n = 0;
  for (const y of years) for (let m = 1; m <= 12; m++) {
    const start = { epochMs: Date.UTC(y, m - 1, 1), dateOnly: true, raw: '' };
    const end = { epochMs: Date.UTC(y, m - 1, 28), dateOnly: true, raw: '' };
    const f = regionQueries.actual(world, { iso, metric: 'wind', id: `${iso}_total`, start, end, nowMs: Date.parse('2026-12-31T00:00:00Z') } as any);
    const col = f.columns.find((c: any) => c.label[0] === `${iso}_total`)!;
    const v = new Float64Array(f.hours.length); col.fill(v);
    const cap = capAt(f.hours[0]);
    for (let i = 0; i < v.length; i++) { const cf = v[i] / cap; monthly[m - 1].s += cf; monthly[m - 1].n++; n++; if (cf > 0.8) over80++; }
  }
  const cfs = monthly.map((x) => (100 * x.s) / x.n);
  const yr = cfs.reduce((a, b) => a + b) / 12;
  console.log(iso.padEnd(6), 'year', yr.toFixed(1), 'DJF', ((cfs[11] + cfs[0] + cfs[1]) / 3).toFixed(1), '>80%h/yr', (over80 / years.length * 365 / 336).toFixed(0), 'months', cfs.map((c) => c.toFixed(0)).join(' '));
}
