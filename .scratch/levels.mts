process.env.GRIDCAST_CACHE_MB = '0';
const { seriesOf } = await import('../scripts/realism/sample.ts');
const { auditIso } = await import('../scripts/realism/audit.ts');
const { capacityAt } = await import('../scripts/realism/sample.ts');
const { WeatherWorld } = await import('../src/world/weather/world.ts');
const { ISOS } = await import('../src/catalog/isos.ts');
const { addDays, localDateOfHour } = await import('../src/time/zones.ts');
const world = new WeatherWorld();
const days = [] as any[];
for (let d = { year: 2023, month: 1, day: 1 }; d.year < 2026 || d.month <= 10; d = addDays(d, 1)) days.push(d);
const now = Date.parse('2026-11-20T00:00:00Z');
for (const iso of (process.argv[2] ?? 'pjm,miso,spp,ercot,caiso,nyiso,isone').split(',') as any[]) {
  const demand = seriesOf(world, iso, 'demand', days, now);
  const poptemp = seriesOf(world, iso, 'poptemp', days, now);
  const outage = seriesOf(world, iso, 'outage', days, now);
  const a = auditIso({ iso, timezone: ISOS[iso].timezone, demand, poptemp, outage, windCapacityAt: capacityAt(iso, 'wind'), demandMape: new Map() });
  const per = new Map<number, { max: number; min: number; sum: number; n: number }>();
  demand.hours.forEach((h, i) => { const y = localDateOfHour(ISOS[iso].timezone, h).year; const p = per.get(y) ?? { max: -1e9, min: 1e9, sum: 0, n: 0 }; const v = demand.values[i] / 1000; p.max = Math.max(p.max, v); p.min = Math.min(p.min, v); p.sum += v; p.n++; per.set(y, p); });
  console.log(iso.padEnd(6), [...per].map(([y, p]) => `${y}: ${p.max.toFixed(1)}/${(p.sum / p.n).toFixed(1)}/${p.min.toFixed(1)}`).join('  '));
  console.log('       ', [...a].filter(([k]) => !k.startsWith('load.yearsAbove')).map(([k, v]) => `${k.replace(`.${iso}`, '')}=${v.toFixed(2)}`).join(' '));
}
