/**
 * Acceptance ("Foundation"): the error behaviour of GET /v1/plant/{iso}/{metric}/continuous
 * (and /list) as a client sees it over HTTP. Every error body is compared in full, as the
 * exact JSON text the public service (FastAPI + Pydantic v2) would send.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { ROUTES } from '../src/api/routes/index.ts';
import { plantsOf } from '../src/catalog/plants.ts';
import { SAME_ON_EVERY_STORE, startTestApp, type Response, type TestApp } from './helpers.ts';

const CONT = '/v1/plant/ercot/wind/continuous';
const LIST = '/v1/plant/ercot/wind/list';
const WIND_ID = String(plantsOf('ercot', 'wind')[0].id);
const SOLAR_ID = String(plantsOf('ercot', 'solar')[0].id);
/** A cheap successful query: one plant, one day. */
const SMALL = { id: WIND_ID, start: '2026-06-01', end: '2026-06-01' };

const MISSING_KEY =
  '{"detail":[{"type":"error","msg":"Missing API key: send it in the X-API-Key header or the api_key query parameter."}]}';
const INVALID_KEY = '{"detail":[{"type":"error","msg":"Invalid API key."}]}';
const ISO_ENUM =
  `{"type":"enum","loc":["path","iso"],"msg":"Input should be 'pjm', 'miso', 'spp', 'ercot', 'caiso', 'nyiso' or 'isone'",` +
  `"input":"texas","ctx":{"expected":"'pjm', 'miso', 'spp', 'ercot', 'caiso', 'nyiso' or 'isone'"}}`;
const METRIC_ENUM =
  `{"type":"enum","loc":["path","metric"],"msg":"Input should be 'wind', 'solar', 'wind_icing' or 'solar_snow'",` +
  `"input":"hydro","ctx":{"expected":"'wind', 'solar', 'wind_icing' or 'solar_snow'"}}`;
const NO_DATA_MSG =
  'Value error, no forecast data in the requested window: continuous forecasts exist for local days from 2026-01-01 ' +
  'through the last day whose run (days_ahead=1, latest_hour=10) has been issued';

let t: TestApp;
/** ercot at the advanced level (what the plant group needs); nothing else. */
let ercotAdvanced: string;
/** every ISO at the core level: below what the plant group needs. */
let allCore: string;

before(async () => {
  // authCacheMs 0: a revoked key must fail on the very next request.
  t = await startTestApp({ authCacheMs: 0 });
  ercotAdvanced = await t.key({ ercot: 'advanced' }, 'ercot-advanced');
  allCore = await t.key({ all: 'core' }, 'all-core');
});

after(async () => {
  await t?.close();
});

/** Asserts status, exact body text and exact content type of an error response. */
function assertError(res: Response, status: number, body: string): void {
  assert.equal(res.status, status, `status (body: ${res.text.slice(0, 300)})`);
  assert.equal(res.text, body);
  assert.equal(res.headers['content-type'], 'application/json', 'error content type is exactly application/json');
}

/** `{"detail":[<item>]}` for one 422 item given as JSON text. */
const detail = (...items: string[]) => `{"detail":[${items.join(',')}]}`;

describe('authentication (401)', () => {
  test('a request without a key is 401 with WWW-Authenticate: APIKey', async () => {
    const res = await t.get(CONT, { query: SMALL });
    assertError(res, 401, MISSING_KEY);
    assert.equal(res.headers['www-authenticate'], 'APIKey');
  });

  test('an empty X-API-Key header or api_key parameter counts as missing', async () => {
    assertError(await t.get(CONT, { query: SMALL, headers: { 'x-api-key': '' } }), 401, MISSING_KEY);
    assertError(await t.get(CONT, { query: { ...SMALL, api_key: '' } }), 401, MISSING_KEY);
  });

  test('an unknown key is 401 Invalid API key, with WWW-Authenticate', async () => {
    const res = await t.get(CONT, { key: 'gc_not_a_real_key_0123456789abcdef', query: SMALL });
    assertError(res, 401, INVALID_KEY);
    assert.equal(res.headers['www-authenticate'], 'APIKey');
    assertError(await t.get(CONT, { query: { ...SMALL, api_key: 'nope' } }), 401, INVALID_KEY);
  });

  test('a revoked key works until revoked, then is 401 Invalid API key', async () => {
    const created = await t.store.keys.create('to-revoke', [{ iso: 'ercot', level: 'advanced' }]);
    const ok = await t.get(LIST, { key: created.key });
    assert.equal(ok.status, 200, 'the key works before it is revoked');
    assert.equal(await t.store.keys.revoke(created.id), true);
    assertError(await t.get(LIST, { key: created.key }), 401, INVALID_KEY);
    assertError(await t.get(CONT, { key: created.key, query: SMALL }), 401, INVALID_KEY);
  });

  test('the X-API-Key header wins over the api_key query parameter', async () => {
    const both = await t.get(CONT, { key: ercotAdvanced, query: { ...SMALL, api_key: 'garbage' } });
    assert.equal(both.status, 200, 'valid header + garbage api_key works');
    assertError(await t.get(CONT, { key: 'garbage', query: { ...SMALL, api_key: ercotAdvanced } }), 401, INVALID_KEY);
    const queryOnly = await t.get(CONT, { query: { ...SMALL, api_key: ercotAdvanced } });
    assert.equal(queryOnly.status, 200, 'the key in api_key alone works');
    assert.equal(queryOnly.text, both.text, 'the api_key parameter does not change the data');
  });
});

describe('authorisation (403)', () => {
  test('a key without a subscription for the ISO is 403 naming the ISO and the level needed', async () => {
    const res = await t.get('/v1/plant/pjm/wind/continuous', { key: ercotAdvanced });
    assertError(
      res,
      403,
      `{"detail":[{"type":"error","msg":"Your API key has no subscription for ISO 'pjm'. ` +
        `This endpoint needs the 'advanced' level or higher for 'pjm'."}]}`,
    );
    assertError(
      await t.get('/v1/plant/caiso/solar/list', { key: ercotAdvanced }),
      403,
      `{"detail":[{"type":"error","msg":"Your API key has no subscription for ISO 'caiso'. ` +
        `This endpoint needs the 'advanced' level or higher for 'caiso'."}]}`,
    );
  });

  test('a core key on the plant group (which needs advanced) is 403 naming both levels', async () => {
    const expected =
      `{"detail":[{"type":"error","msg":"Your subscription for ISO 'ercot' is at the 'core' level. ` +
      `This endpoint needs the 'advanced' level or higher for 'ercot'."}]}`;
    assertError(await t.get(CONT, { key: allCore, query: SMALL }), 403, expected);
    assertError(await t.get(LIST, { key: allCore }), 403, expected);
  });

  test('a higher level than needed is accepted (enterprise on all ISOs)', async () => {
    const enterprise = await t.key({ all: 'enterprise' });
    const res = await t.get('/v1/plant/pjm/solar/list', { key: enterprise });
    assert.equal(res.status, 200);
    assert.ok(Array.isArray(res.json()) && res.json().length > 0);
  });
});

describe('parameter validation (422, pydantic v2 bodies)', { skip: SAME_ON_EVERY_STORE }, () => {
  test('unknown iso and metric in the path: enum errors, iso first', async () => {
    const res = await t.get('/v1/plant/texas/hydro/continuous', { key: ercotAdvanced });
    assertError(res, 422, detail(ISO_ENUM, METRIC_ENUM));
    assertError(await t.get('/v1/plant/texas/wind/list', { key: ercotAdvanced }), 422, detail(ISO_ENUM));
    assertError(await t.get('/v1/plant/ercot/hydro/continuous', { key: ercotAdvanced }), 422, detail(METRIC_ENUM));
  });

  test('enum matching is exact: ERCOT and Wind are rejected', async () => {
    const res = await t.get('/v1/plant/ERCOT/Wind/continuous', { key: ercotAdvanced });
    assertError(res, 422, detail(ISO_ENUM.replace('"texas"', '"ERCOT"'), METRIC_ENUM.replace('"hydro"', '"Wind"')));
  });

  test('latest_hour=abc: int_parsing without ctx', async () => {
    const res = await t.get(CONT, { key: ercotAdvanced, query: { ...SMALL, latest_hour: 'abc' } });
    assertError(
      res,
      422,
      detail(
        '{"type":"int_parsing","loc":["query","latest_hour"],"msg":"Input should be a valid integer, unable to parse string as an integer","input":"abc"}',
      ),
    );
  });

  test('latest_hour=2.7 and days_ahead=1e3 are int_parsing too', async () => {
    const res = await t.get(CONT, { key: ercotAdvanced, query: { ...SMALL, latest_hour: '2.7', days_ahead: '1e3' } });
    assertError(
      res,
      422,
      detail(
        '{"type":"int_parsing","loc":["query","latest_hour"],"msg":"Input should be a valid integer, unable to parse string as an integer","input":"2.7"}',
        '{"type":"int_parsing","loc":["query","days_ahead"],"msg":"Input should be a valid integer, unable to parse string as an integer","input":"1e3"}',
      ),
    );
  });

  test('latest_hour out of 0..23: greater_than_equal / less_than_equal with ctx', async () => {
    assertError(
      await t.get(CONT, { key: ercotAdvanced, query: { ...SMALL, latest_hour: '-1' } }),
      422,
      detail(
        '{"type":"greater_than_equal","loc":["query","latest_hour"],"msg":"Input should be greater than or equal to 0","input":"-1","ctx":{"ge":0}}',
      ),
    );
    assertError(
      await t.get(CONT, { key: ercotAdvanced, query: { ...SMALL, latest_hour: '24' } }),
      422,
      detail(
        '{"type":"less_than_equal","loc":["query","latest_hour"],"msg":"Input should be less than or equal to 23","input":"24","ctx":{"le":23}}',
      ),
    );
  });

  test('days_ahead out of 1..14: greater_than_equal / less_than_equal with ctx', async () => {
    assertError(
      await t.get(CONT, { key: ercotAdvanced, query: { ...SMALL, days_ahead: '0' } }),
      422,
      detail(
        '{"type":"greater_than_equal","loc":["query","days_ahead"],"msg":"Input should be greater than or equal to 1","input":"0","ctx":{"ge":1}}',
      ),
    );
    assertError(
      await t.get(CONT, { key: ercotAdvanced, query: { ...SMALL, days_ahead: '15' } }),
      422,
      detail(
        '{"type":"less_than_equal","loc":["query","days_ahead"],"msg":"Input should be less than or equal to 14","input":"15","ctx":{"le":14}}',
      ),
    );
  });

  test('an empty value is validated, not treated as missing: ?days_ahead= is int_parsing of ""', async () => {
    assertError(
      await t.get(CONT, { key: ercotAdvanced, query: `id=${WIND_ID}&days_ahead=` }),
      422,
      detail(
        '{"type":"int_parsing","loc":["query","days_ahead"],"msg":"Input should be a valid integer, unable to parse string as an integer","input":""}',
      ),
    );
  });

  test('a repeated parameter is a 422 naming it with every value, on every route (never the last value silently)', async () => {
    const repeated = (name: string, values: string[]) =>
      JSON.stringify({
        type: 'value_error',
        loc: ['query', name],
        msg: `Value error, ${name} may be given only once; this request gives it ${values.length} times`,
        input: values,
      });
    const second = String(plantsOf('ercot', 'wind')[1].id);
    assertError(
      await t.get(CONT, { key: ercotAdvanced, query: `id=${WIND_ID}&id=${second}&start=2026-06-01&end=2026-06-01` }),
      422,
      detail(repeated('id', [WIND_ID, second])),
    );
    assertError(
      await t.get(CONT, { key: ercotAdvanced, query: { ...SMALL, days_ahead: ['1', '2'], format: ['csv', 'csv'] } }),
      422,
      detail(repeated('days_ahead', ['1', '2']), repeated('format', ['csv', 'csv'])),
    );
    // A repeated api_key is refused too, without echoing the keys (the header, when sent, is the
    // key and the parameter is not read).
    assertError(
      await t.get(LIST, { query: { api_key: [ercotAdvanced, 'other'] } }),
      422,
      detail(repeated('api_key', [ercotAdvanced, 'other']).replace(JSON.stringify([ercotAdvanced, 'other']), '"[redacted]"')),
    );
    assert.equal((await t.get(LIST, { key: ercotAdvanced, query: { api_key: ['a', 'b'] } })).status, 200);
    // Every route that takes an id refuses two of them the same way (validation runs before any computing).
    const all = await t.key({ all: 'enterprise' }, 'all-enterprise');
    for (const def of ROUTES.filter((r) => r.params.some((p) => p.name === 'id'))) {
      const path = '/v1' + def.path.replace('{iso}', 'ercot').replace('{metric}', def.path.startsWith('/lmp') ? 'dalmp' : 'demand');
      const res = await t.get(path, { key: all, query: 'id=a&id=b' });
      assert.equal(res.status, 422, path);
      assert.ok(res.text.includes(repeated('id', ['a', 'b'])), `${path}: ${res.text}`);
    }
  });

  test('lax integers are accepted as pydantic accepts them (+3, " 3 ", 03, 3.0, 1_0)', async () => {
    const canonical = async (v: string) => (await t.get(CONT, { key: ercotAdvanced, query: { ...SMALL, latest_hour: v } })).text;
    const three = await canonical('3');
    for (const v of ['+3', ' 3 ', '03', '3.0', '3.00']) {
      assert.equal(await canonical(v), three, `latest_hour=${JSON.stringify(v)} reads as 3`);
    }
    assert.equal(await canonical('1_0'), await canonical('10'));
    assert.notEqual(three, await canonical('10'), 'latest_hour matters, so the comparisons above mean something');
  });

  const datetimeCases: [string, string][] = [
    ['garbage', 'input is too short'],
    ['tomorrow', 'input is too short'],
    ['yesterday!', 'invalid character in year'],
    ['01/15/2026', 'invalid character in year'],
    ['2026/01/01', 'invalid date separator, expected `-`'],
    ['2026-13-01', 'month value is outside expected range of 1-12'],
    ['2026-02-30', 'day value is outside expected range'],
    ['2026-01-01T25:00:00', 'unexpected extra characters at the end of the input'],
    ['2026-01-01T00:00:00+24:00', 'unexpected extra characters at the end of the input'],
    ['2026-01-01Tfoo', 'unexpected extra characters at the end of the input'],
    ['99999999999999999', 'dates after 9999 are not supported as unix timestamps'],
  ];
  for (const [input, error] of datetimeCases) {
    test(`start=${input}: datetime_from_date_parsing "${error}"`, async () => {
      const res = await t.get(CONT, { key: ercotAdvanced, query: { id: WIND_ID, start: input } });
      assertError(
        res,
        422,
        detail(
          JSON.stringify({
            type: 'datetime_from_date_parsing',
            loc: ['query', 'start'],
            msg: `Input should be a valid datetime or date, ${error}`,
            input,
            ctx: { error },
          }),
        ),
      );
    });
  }

  test('an unescaped + in a datetime decodes to a space and is reported with the space', async () => {
    const res = await t.get(CONT, { key: ercotAdvanced, query: `id=${WIND_ID}&end=2026-06-01T00:00:00+05:00` });
    assertError(
      res,
      422,
      '{"detail":[{"type":"datetime_from_date_parsing","loc":["query","end"],"msg":"Input should be a valid datetime or date, ' +
        'unexpected extra characters at the end of the input","input":"2026-06-01T00:00:00 05:00",' +
        '"ctx":{"error":"unexpected extra characters at the end of the input"}}]}',
    );
    // Sent as %2B it is a valid offset.
    const ok = await t.get(CONT, {
      key: ercotAdvanced,
      query: `id=${WIND_ID}&start=2026-06-01T00:00:00%2B05:00&end=2026-06-01T02:00:00%2B05:00`,
    });
    assert.equal(ok.status, 200, ok.text.slice(0, 300));
    assert.deepEqual(ok.json().time_utc, ['2026-05-31T19:00:00Z', '2026-05-31T20:00:00Z', '2026-05-31T21:00:00Z']);
  });

  test('an unknown model: enum error', async () => {
    assertError(
      await t.get(CONT, { key: ercotAdvanced, query: { ...SMALL, model: 'normal' } }),
      422,
      detail(
        `{"type":"enum","loc":["query","model"],"msg":"Input should be 'optimized' or 'iso'","input":"normal","ctx":{"expected":"'optimized' or 'iso'"}}`,
      ),
    );
  });

  test('every invalid parameter is reported at once, path first, then query in declaration order', async () => {
    // Sent in the reverse of the declaration order, to show the order is FastAPI's, not the request's.
    const query = 'days_ahead=0&latest_hour=x&model=best&id=whatever&end=soon&start=2026-02-30';
    const res = await t.get('/v1/plant/texas/hydro/continuous', { key: ercotAdvanced, query });
    assertError(
      res,
      422,
      detail(
        ISO_ENUM,
        METRIC_ENUM,
        `{"type":"datetime_from_date_parsing","loc":["query","start"],"msg":"Input should be a valid datetime or date, day value is outside expected range","input":"2026-02-30","ctx":{"error":"day value is outside expected range"}}`,
        `{"type":"datetime_from_date_parsing","loc":["query","end"],"msg":"Input should be a valid datetime or date, input is too short","input":"soon","ctx":{"error":"input is too short"}}`,
        `{"type":"enum","loc":["query","model"],"msg":"Input should be 'optimized' or 'iso'","input":"best","ctx":{"expected":"'optimized' or 'iso'"}}`,
        `{"type":"int_parsing","loc":["query","latest_hour"],"msg":"Input should be a valid integer, unable to parse string as an integer","input":"x"}`,
        `{"type":"greater_than_equal","loc":["query","days_ahead"],"msg":"Input should be greater than or equal to 1","input":"0","ctx":{"ge":1}}`,
      ),
    );
  });
});

describe('request-level 422s (value_error with type, loc, msg, input)', { skip: SAME_ON_EVERY_STORE }, () => {
  test('an unknown plant id', async () => {
    assertError(
      await t.get(CONT, { key: ercotAdvanced, query: { id: '1' } }),
      422,
      `{"detail":[{"type":"value_error","loc":["query","id"],"msg":"Value error, unknown wind plant id '1' in ercot; GET /v1/plant/ercot/wind/list lists them","input":"1"}]}`,
    );
    assertError(
      await t.get(CONT, { key: ercotAdvanced, query: { id: 'abc' } }),
      422,
      `{"detail":[{"type":"value_error","loc":["query","id"],"msg":"Value error, unknown wind plant id 'abc' in ercot; GET /v1/plant/ercot/wind/list lists them","input":"abc"}]}`,
    );
  });

  test('a real plant of the wrong type or of another ISO is unknown here', async () => {
    assertError(
      await t.get(CONT, { key: ercotAdvanced, query: { id: SOLAR_ID } }),
      422,
      `{"detail":[{"type":"value_error","loc":["query","id"],"msg":"Value error, unknown wind plant id '${SOLAR_ID}' in ercot; GET /v1/plant/ercot/wind/list lists them","input":"${SOLAR_ID}"}]}`,
    );
    const pjmWind = String(plantsOf('pjm', 'wind')[0].id);
    assertError(
      await t.get(CONT, { key: ercotAdvanced, query: { id: pjmWind } }),
      422,
      `{"detail":[{"type":"value_error","loc":["query","id"],"msg":"Value error, unknown wind plant id '${pjmWind}' in ercot; GET /v1/plant/ercot/wind/list lists them","input":"${pjmWind}"}]}`,
    );
  });

  test('end before start', async () => {
    assertError(
      await t.get(CONT, { key: ercotAdvanced, query: { id: WIND_ID, start: '2026-03-01', end: '2026-02-01' } }),
      422,
      `{"detail":[{"type":"value_error","loc":["query","end"],"msg":"Value error, end (2026-02-02T05:00:00Z) is before start (2026-03-01T06:00:00Z)","input":"2026-02-01"}]}`,
    );
    assertError(
      await t.get(CONT, { key: ercotAdvanced, query: { id: WIND_ID, start: '2026-03-01T12:00:00Z', end: '2026-03-01T11:00:00Z' } }),
      422,
      `{"detail":[{"type":"value_error","loc":["query","end"],"msg":"Value error, end (2026-03-01T11:00:00Z) is before start (2026-03-01T12:00:00Z)","input":"2026-03-01T11:00:00Z"}]}`,
    );
  });

  test('a window longer than 365 days', async () => {
    assertError(
      await t.get(CONT, { key: ercotAdvanced, query: { id: WIND_ID, start: '2025-01-01', end: '2026-03-01' } }),
      422,
      `{"detail":[{"type":"value_error","loc":["query","end"],"msg":"Value error, end is 424 days after start; it may be at most 365 days after start (a whole calendar year such as 2024-01-01 to 2024-12-31 always fits): split longer spans","input":"2026-03-01"}]}`,
    );
    assertError(
      await t.get(CONT, { key: ercotAdvanced, query: { id: WIND_ID, start: '2026-01-01T00:00:00Z', end: '2027-01-01T01:00:00Z' } }),
      422,
      `{"detail":[{"type":"value_error","loc":["query","end"],"msg":"Value error, end is 365.0 days after start; it may be at most 365 days after start (a whole calendar year such as 2024-01-01 to 2024-12-31 always fits): split longer spans","input":"2027-01-01T01:00:00Z"}]}`,
    );
    // Exactly 365 days is allowed.
    const ok = await t.get(CONT, {
      key: ercotAdvanced,
      query: { id: WIND_ID, start: '2026-01-01T00:00:00Z', end: '2027-01-01T00:00:00Z' },
    });
    assert.equal(ok.status, 200, ok.text.slice(0, 300));
  });

  test('a calendar year with 29 February is one window: every local day of it, and a 365-day chunk too', async () => {
    const key = await t.key({ ercot: 'core' }, 'leap');
    const year = await t.get('/v1/region/ercot/demand/actual', {
      key,
      query: { id: 'ercot_total', start: '2024-01-01', end: '2024-12-31' },
    });
    assert.equal(year.status, 200, year.text.slice(0, 300));
    const body = year.json();
    // 366 local days; the spring-forward day has 23 hours and the fall-back day 25.
    assert.equal(body.time_utc.length, 366 * 24);
    assert.equal(body.time_local[0], '2024-01-01T00:00:00-06:00');
    assert.equal(body.time_local.at(-1), '2024-12-31T23:00:00-06:00');
    // The official client's chunk after it: 2024-12-31 to 2025-12-31 (365 days later).
    const chunk = await t.get('/v1/region/ercot/demand/actual', {
      key,
      query: { id: 'ercot_total', start: '2024-12-31', end: '2025-12-31' },
    });
    assert.equal(chunk.status, 200, chunk.text.slice(0, 300));
    assert.equal(chunk.json().time_utc.length, 366 * 24);
  });

  test('a window entirely before 2026-01-01 (local) has no data', async () => {
    assertError(
      await t.get(CONT, { key: ercotAdvanced, query: { id: WIND_ID, start: '2025-06-01', end: '2025-12-31' } }),
      422,
      `{"detail":[{"type":"value_error","loc":["query","end"],"msg":"${NO_DATA_MSG}","input":"2025-12-31"}]}`,
    );
    // 2026-01-01T05:00Z is still 2025-12-31 in Chicago.
    assertError(
      await t.get(CONT, { key: ercotAdvanced, query: { id: WIND_ID, start: '2025-12-31T00:00:00Z', end: '2026-01-01T05:00:00Z' } }),
      422,
      `{"detail":[{"type":"value_error","loc":["query","end"],"msg":"${NO_DATA_MSG}","input":"2026-01-01T05:00:00Z"}]}`,
    );
  });

  test('a window entirely after the last issued run has no data', async () => {
    assertError(
      await t.get(CONT, { key: ercotAdvanced, query: { id: WIND_ID, start: '2026-06-20', end: '2026-06-21' } }),
      422,
      `{"detail":[{"type":"value_error","loc":["query","start"],"msg":"${NO_DATA_MSG}","input":"2026-06-20"}]}`,
    );
  });
});

describe('status precedence', () => {
  const BAD = { latest_hour: '99', days_ahead: 'x' };

  test('a bad key with bad parameters is 401 (authentication first)', async () => {
    assertError(await t.get('/v1/plant/texas/wind/continuous', { key: 'garbage', query: BAD }), 401, INVALID_KEY);
    assertError(await t.get('/v1/plant/texas/wind/continuous', { query: BAD }), 401, MISSING_KEY);
  });

  test('a valid key without a subscription and bad parameters is 422 (validation before authorisation)', async () => {
    const res = await t.get('/v1/plant/pjm/wind/continuous', { key: ercotAdvanced, query: BAD });
    assertError(
      res,
      422,
      detail(
        '{"type":"less_than_equal","loc":["query","latest_hour"],"msg":"Input should be less than or equal to 23","input":"99","ctx":{"le":23}}',
        '{"type":"int_parsing","loc":["query","days_ahead"],"msg":"Input should be a valid integer, unable to parse string as an integer","input":"x"}',
      ),
    );
    const tooLow = await t.get(CONT, { key: allCore, query: BAD });
    assert.equal(tooLow.status, 422, 'a core key with bad parameters is 422 too');
  });

  test('an unknown id with a key lacking the subscription is 403 (authorisation before the query)', async () => {
    const res = await t.get('/v1/plant/pjm/wind/continuous', { key: ercotAdvanced, query: { id: 'nope' } });
    assert.equal(res.status, 403);
  });

  test('an unknown path is 404 even without a key; a wrong method is 405 even without a key', async () => {
    assertError(await t.get('/v1/plant/ercot/wind/forecastx'), 404, '{"detail":"Not Found"}');
    assertError(await t.request('POST', CONT), 405, '{"detail":"Method Not Allowed"}');
  });
});

describe('HTTP-level errors', { skip: SAME_ON_EVERY_STORE }, () => {
  test('unknown paths are 404 {"detail":"Not Found"}', async () => {
    for (const p of [
      '/v1/nothing',
      '/v1/plant/ercot/wind',
      '/v1/plant/ercot/wind/continuous/extra',
      '/v2/plant/ercot/wind/continuous',
      '/plant/ercot/wind/continuous',
    ]) {
      assertError(await t.get(p, { key: ercotAdvanced }), 404, '{"detail":"Not Found"}');
    }
  });

  test('other methods are 405 {"detail":"Method Not Allowed"} with Allow: GET, HEAD', async () => {
    for (const method of ['POST', 'PUT', 'DELETE', 'PATCH', 'OPTIONS']) {
      const res = await t.request(method, CONT, { key: ercotAdvanced });
      assertError(res, 405, '{"detail":"Method Not Allowed"}');
      assert.equal(res.headers.allow, 'GET, HEAD', `${method}: Allow header`);
    }
    const list = await t.request('POST', LIST, { key: ercotAdvanced });
    assertError(list, 405, '{"detail":"Method Not Allowed"}');
    assert.equal(list.headers.allow, 'GET, HEAD');
  });

  test('HEAD answers as GET would, without a body: 200 for a good request, the same 4xx for a bad one', async () => {
    const head = await t.request('HEAD', CONT, { key: ercotAdvanced, query: SMALL });
    assert.equal(head.status, 200);
    assert.equal(head.headers['content-type'], 'application/json');
    assert.equal(head.raw.length, 0);
    assert.equal((await t.request('HEAD', CONT, { query: SMALL })).status, 401);
    assert.equal((await t.request('HEAD', CONT, { key: ercotAdvanced, query: { ...SMALL, id: '999999' } })).status, 422);
    assert.equal((await t.request('HEAD', LIST, { key: ercotAdvanced })).status, 200);
  });

  test('a trailing slash is a 307 redirect to the route, keeping the query', async () => {
    const res = await t.get(`${CONT}/`, { key: ercotAdvanced, query: SMALL });
    assert.equal(res.status, 307);
    assert.equal(res.raw.length, 0, 'empty body');
    const location = new URL(String(res.headers.location), `${t.baseUrl}${CONT}/`);
    assert.equal(location.pathname, CONT);
    assert.equal(location.search, `?id=${WIND_ID}&start=2026-06-01&end=2026-06-01`);
    const followed = await t.get(location.pathname + location.search, { key: ercotAdvanced });
    assert.equal(followed.status, 200);
    const listRedirect = await t.get(`${LIST}/`, { key: ercotAdvanced });
    assert.equal(listRedirect.status, 307);
    assert.equal(new URL(String(listRedirect.headers.location), t.baseUrl).pathname, LIST);
  });
});

describe('robustness', { skip: SAME_ON_EVERY_STORE }, () => {
  const ODD_QUERIES: string[] = [
    'days_ahead=',
    'latest_hour=',
    'start=',
    'end=',
    'id=',
    'model=',
    'api_key=',
    'days_ahead=1&days_ahead=2&days_ahead=3',
    'start=2026-06-01&start=2026-06-02&end=2026-06-02',
    'start=2026-06-01T00:00:00+05:00',
    'start=2026-06-01T00:00:00%2B05:00&end=2026-06-01T03:00:00%2B05:00',
    'start=2026-06-01T00:00:00%E2%88%9205:00&end=2026-06-01T03:00:00Z',
    `latest_hour=${'9'.repeat(40)}`,
    `days_ahead=${'9'.repeat(5000)}`,
    `days_ahead=-${'9'.repeat(30)}`,
    'start=99999999999999999',
    'start=-99999999999999999',
    'start=1767225600&end=1767312000',
    'start=1767225600000',
    'start=0&end=1',
    'start=0001-01-01&end=0001-01-02',
    'start=9999-12-31&end=9999-12-31T23:59:59Z',
    'end=9999-12-31',
    'start=0000-12-31T23:59:59Z',
    'start=2026-06-14T23:59:59.999999-23:59&end=2026-06-15T00:00:00%2B23:59',
    'start=2026-06-01T00:00:00.123456789Z&end=2026-06-01T05:00',
    'id=%E2%98%83',
    'id=%F0%9F%94%A5%F0%9F%94%A5',
    `id=${'x'.repeat(5000)}`,
    `id=${'1'.repeat(400)}`,
    'id=56001%00',
    'id=%zz',
    'start=%zz',
    '%zz=%zz',
    '%=%&&=&==',
    'id=-1',
    'id=5.6001e4',
    'model=%C3%A9',
    'latest_hour=NaN&days_ahead=Infinity',
    'latest_hour=0x10',
    'start=2026-03-08T02:30:00&end=2026-03-08T03:30:00',
    'start=2026-11-01T01:30:00-05:00&end=2026-11-01T01:30:00-06:00',
  ];

  test(`none of ${ODD_QUERIES.length} odd query strings yields a 500`, async () => {
    const failures: string[] = [];
    for (const odd of ODD_QUERIES) {
      // One plant unless the input is about the id, so that the wide windows stay cheap.
      const q = /(^|&)id=/.test(odd) ? odd : `${odd}&id=${WIND_ID}`;
      const res = await t.get(CONT, { key: ercotAdvanced, query: q });
      if (res.status >= 500) failures.push(`${res.status} ?${q.slice(0, 60)}: ${res.text.slice(0, 200)}`);
      // Every answer is JSON (data or an error body).
      try {
        JSON.parse(res.text);
      } catch {
        failures.push(`not JSON: ?${q.slice(0, 60)}: ${res.text.slice(0, 200)}`);
      }
    }
    assert.deepEqual(failures, []);
  });

  test('odd paths never yield a 500', async () => {
    const paths = [
      '/v1/plant/%E2%98%83/wind/continuous',
      '/v1/plant/ercot/%F0%9F%94%A5/continuous',
      '/v1/plant//wind/continuous',
      '/v1/plant/ercot/wind/continuous//',
      '/v1//plant/ercot/wind/continuous',
      '/v1/plant/ercot/wind/continuous%2F',
      `/v1/plant/${'a'.repeat(500)}/wind/continuous`,
      '/v1/plant/ercot/wind/continuous?',
      '/v1/plant/ercot/wind/continuous?&&&',
      '/v1/plant/%zz/wind/continuous',
      `/v1/plant/${'a'.repeat(3000)}/wind/continuous`,
    ];
    const failures: string[] = [];
    for (const p of paths) {
      const res = await t.get(p, { key: ercotAdvanced });
      if (res.status >= 500) failures.push(`${res.status} ${p.slice(0, 60)}: ${res.text.slice(0, 200)}`);
    }
    assert.deepEqual(failures, []);
  });

  test('every 4xx, even for a malformed path, has the public error shape {"detail": …} as application/json', async () => {
    // FastAPI takes `%zz` in a path segment literally (so the enum check answers 422) and has
    // no parameter-length limit; whatever the status, the body must be the service's shape.
    const failures: string[] = [];
    for (const p of [
      '/v1/plant/%zz/wind/continuous',
      `/v1/plant/${'a'.repeat(3000)}/wind/continuous`,
      '/v1/plant/ercot/%E2%98%83/continuous',
    ]) {
      const res = await t.get(p, { key: ercotAdvanced });
      let shapeOk = false;
      try {
        const body = JSON.parse(res.text);
        shapeOk = typeof body === 'object' && body !== null && Object.keys(body).join() === 'detail';
      } catch {
        /* not JSON */
      }
      if (!shapeOk || res.headers['content-type'] !== 'application/json') {
        failures.push(`${res.status} ${p.slice(0, 40)}…: content-type ${res.headers['content-type']}, body ${res.text.slice(0, 160)}`);
      }
    }
    assert.deepEqual(failures, [], 'these bodies are Fastify-shaped, not the public service\'s {"detail": …}');
  });
});
