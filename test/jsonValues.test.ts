/**
 * The JSON writer's own number and time-axis texts (src/api/writer.ts) against what
 * JSON.stringify writes for the same rounded values: its byte caches and its per-hour axis
 * texts are made once per process, so they are checked on the values the caches do not hold
 * (negatives, values beyond the cache, non-finite ones) and on repeated use.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { formatValueBytes, frameJsonText } from '../src/api/writer.ts';
import type { Frame } from '../src/query/frame.ts';
import { formatUtcHour } from '../src/time/hours.ts';
import { formatLocalHour } from '../src/time/zones.ts';

const text = (bytes: Uint8Array) => Buffer.from(bytes).toString('latin1');

/** What the public service writes: the value rounded to `decimals` places, null where there is none. */
function expected(values: number[], decimals: number, prefix = ''): string {
  const scale = 10 ** decimals;
  return prefix + JSON.stringify(values.map((v) => (Number.isFinite(v) ? Math.round(v * scale) / scale : null)));
}

const EDGES = [
  0,
  -0,
  -0.04,
  -0.05,
  0.05,
  1,
  1.25,
  -1.25,
  15.349,
  99.999,
  -7.5,
  104857.5,
  104857.54,
  1048575,
  1048576,
  123456789.123,
  -123456789.123,
  1e21,
  -1e21,
  5e-7,
  Number.MAX_SAFE_INTEGER,
  NaN,
  Infinity,
  -Infinity,
  2.5,
  3.5,
];

test('values are written as JSON.stringify writes them rounded, with null for NaN and ±Infinity', () => {
  for (const decimals of [0, 1, 2, 3]) {
    // Twice: the second time the cached bytes are used.
    for (let pass = 0; pass < 2; pass++) {
      assert.equal(text(formatValueBytes(Float64Array.from(EDGES), decimals)), expected(EDGES, decimals), `decimals ${decimals}`);
      assert.equal(text(formatValueBytes(Float64Array.from(EDGES), decimals, ',')), expected(EDGES, decimals, ','));
    }
  }
});

test('an empty column and a column of one value or only nulls are well-formed', () => {
  assert.equal(text(formatValueBytes(new Float64Array(0), 1)), '[]');
  assert.equal(text(formatValueBytes(new Float64Array(0), 1, ',')), ',[]');
  assert.equal(text(formatValueBytes(Float64Array.of(-0.01), 1)), '[0]');
  assert.equal(text(formatValueBytes(Float64Array.of(NaN, NaN), 2)), '[null,null]');
});

test('every cached value text, one to eight bytes long, is written whole and nothing past it', () => {
  // Every 7th value in units of the last decimal across the byte cache (0 … 104857.5 at one
  // decimal), then again from the cache; texts of every length from `0` to `104857.5`.
  const values = Float64Array.from({ length: (1 << 20) / 7 }, (_, i) => (i * 7) / 10);
  for (let pass = 0; pass < 2; pass++) assert.equal(text(formatValueBytes(values, 1)), expected([...values], 1));
  const lengths = [0, 12, 123, 1234, 12345, 123456, 1048575].map((v) => v / 10);
  for (const decimals of [0, 1, 2, 3])
    assert.equal(text(formatValueBytes(Float64Array.from(lengths), decimals, ',')), expected(lengths, decimals, ','));
});

test('the time axis is formatLocalHour and formatUtcHour of every hour, over years, in zones with and without daylight saving', () => {
  // 2025-01-01 … 2027-12-31, every hour; a gap and a lone hour at the end.
  const first = Date.UTC(2025, 0, 1) / 3_600_000;
  const hours = [...Array.from({ length: 3 * 365 * 24 }, (_, i) => first + i), first + 4 * 365 * 24, first + 4 * 365 * 24 + 5];
  for (const zone of [
    'America/Chicago',
    'America/New_York',
    'America/Phoenix',
    'America/Los_Angeles',
    'America/St_Johns',
    'Asia/Kolkata',
  ]) {
    const frame: Frame = { model: null, createdAtHour: null, units: 'MW', timezone: zone, hours, decimals: 1, columns: [] };
    const body = JSON.parse(frameJsonText(frame)) as { time_utc: string[]; time_local: string[] };
    assert.deepEqual(body.time_utc, hours.map(formatUtcHour));
    assert.deepEqual(
      body.time_local,
      hours.map((h) => formatLocalHour(zone, h)),
      zone,
    );
  }
});

test('the time axis is the same on every request, across a daylight saving change and with gaps', () => {
  // 2026-03-08 07:00Z..09:00Z: 01:00 CST, then 03:00 CDT; then a gap to 2026-11-01 06:00Z and 07:00Z (01:00 CDT, then 01:00 CST).
  const hours = [492487, 492488, 492489, 498198, 498199];
  const frame = (zone: string): Frame => ({
    model: null,
    createdAtHour: null,
    units: 'MW',
    timezone: zone,
    hours,
    decimals: 1,
    columns: [{ label: ['a'], fill: (out) => out.fill(1.5) }],
  });
  const body = (zone: string) => JSON.parse(frameJsonText(frame(zone))) as { time_utc: string[]; time_local: string[] };
  for (let pass = 0; pass < 2; pass++) {
    const central = body('America/Chicago');
    assert.deepEqual(central.time_utc, [
      '2026-03-08T07:00:00Z',
      '2026-03-08T08:00:00Z',
      '2026-03-08T09:00:00Z',
      '2026-11-01T06:00:00Z',
      '2026-11-01T07:00:00Z',
    ]);
    assert.deepEqual(central.time_local, [
      '2026-03-08T01:00:00-06:00',
      '2026-03-08T03:00:00-05:00',
      '2026-03-08T04:00:00-05:00',
      '2026-11-01T01:00:00-05:00',
      '2026-11-01T01:00:00-06:00',
    ]);
    // The same hours in another zone get that zone's texts, not the first zone's.
    assert.deepEqual(body('America/New_York').time_local, [
      '2026-03-08T03:00:00-04:00',
      '2026-03-08T04:00:00-04:00',
      '2026-03-08T05:00:00-04:00',
      '2026-11-01T01:00:00-05:00',
      '2026-11-01T02:00:00-05:00',
    ]);
  }
  assert.equal(JSON.parse(frameJsonText({ ...frame('America/Chicago'), hours: [], columns: [] })).time_local.length, 0);
});
