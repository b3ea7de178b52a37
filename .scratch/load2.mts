process.env.GRIDCAST_CACHE_MB = '0';
const { demandMape, seriesOf } = await import('../scripts/realism/sample.ts');
const { WeatherWorld } = await import('../src/world/weather/world.ts');
const { addDays } = await import('../src/time/zones.ts');
const world = new WeatherWorld();
const days = [] as any[];
for (let d = { year: 2026, month: 1, day: 2 }; d.year === 2026 && d.month <= 10; d = addDays(d, Number(process.argv[3] ?? 2))) days.push(d);
const now = Date.parse('2026-11-20T00:00:00Z');
for (const iso of (process.argv[2] ?? 'pjm,miso,spp,ercot,caiso,nyiso,isone').split(',')) {
  const m = demandMape(world, iso as any, days, seriesOf(world, iso as any, 'demand', days, now), now);
  const o = m.get('optimized')!;
  console.log(iso.padEnd(6), 'd1', o.get(1)!.toFixed(2), 'd7', o.get(7)!.toFixed(2), 'd10-14', ((o.get(10)! + o.get(14)!) / 2).toFixed(2), 'normal', m.get('normal')!.get(1)!.toFixed(2));
}
