process.env.GRIDCAST_CACHE_MB = '0';
const { seriesOf } = await import('../scripts/realism/sample.ts');
const { WeatherWorld } = await import('../src/world/weather/world.ts');
const { addDays } = await import('../src/time/zones.ts');
const world = new WeatherWorld();
const days = [] as any[];
for (let d = { year: 2023, month: 1, day: 1 }; d.year < 2026 || d.month <= 10; d = addDays(d, 1)) days.push(d);
const now = Date.parse('2026-11-20T00:00:00Z');
const iso = (process.argv[2] ?? 'pjm') as any;
const o = seriesOf(world, iso, 'outage', days, now);
const t = seriesOf(world, iso, 'poptemp', days, now);
const idx = [...o.values.keys()].sort((a, b) => o.values[b] - o.values[a]).slice(0, 8);
for (const i of idx) { const h = o.hours[i]; const tv = t.values.slice(t.hours.indexOf(h), t.hours.indexOf(h) + 24); console.log(new Date(h * 3600000).toISOString().slice(0, 10), (o.values[i] / 1000).toFixed(1), 'GW, poptemp min', Math.min(...tv).toFixed(1)); }
