import { describe, test } from 'node:test';
import assert from 'node:assert/strict';

import {
  fieldTitle,
  openApiParameter,
  parseDateTimeLikePydantic,
  parseIntLikePydantic,
  pythonRepr,
  validateParams,
  type ParamSpec,
  type ParsedDateTime,
} from '../src/api/params.ts';

const MARKETS = ['pjm', 'miso', 'spp', 'ercot', 'caiso', 'nyiso', 'isone'] as const;

/** A route shaped like the service's: a path enum plus the usual query parameters. */
const SPECS: readonly ParamSpec[] = [
  { name: 'start', in: 'query', kind: 'datetime' },
  { name: 'market', in: 'path', kind: 'enum', values: MARKETS },
  { name: 'limit', in: 'query', kind: 'int', ge: 1, le: 100, default: 50 },
  { name: 'offset', in: 'query', kind: 'int', ge: 0, default: 0 },
  { name: 'order_by', in: 'query', kind: 'enum', values: ['created_at', 'updated_at'], default: 'created_at' },
  { name: 'id', in: 'query', kind: 'string', minLength: 1 },
];

type Query = Record<string, string | string[] | undefined>;

function run(query: Query, path: Record<string, string | undefined> = { market: 'pjm' }) {
  return validateParams(SPECS, { path, query });
}

/** The 422 body FastAPI would send for these errors. */
function body(query: Query, path?: Record<string, string | undefined>): string {
  return JSON.stringify({ detail: run(query, path).errors });
}

function parsedOk(input: string): ParsedDateTime {
  const result = parseDateTimeLikePydantic(input);
  assert.ok(result.ok, `${JSON.stringify(input)} should parse, got ${JSON.stringify(result)}`);
  return result.value;
}

/** The body of a single datetime_from_date_parsing error for ?start=<input>. */
function datetimeErrorBody(input: string, error: string): string {
  return JSON.stringify({
    detail: [
      {
        type: 'datetime_from_date_parsing',
        loc: ['query', 'start'],
        msg: `Input should be a valid datetime or date, ${error}`,
        input,
        ctx: { error },
      },
    ],
  });
}

describe('literal bodies from error-formats.md §2.2', () => {
  test('(1) path enum with a bad value', () => {
    const expected =
      "{\"detail\":[{\"type\":\"enum\",\"loc\":[\"path\",\"market\"],\"msg\":\"Input should be 'pjm', 'miso', 'spp', 'ercot', 'caiso', 'nyiso' or 'isone'\",\"input\":\"foo\",\"ctx\":{\"expected\":\"'pjm', 'miso', 'spp', 'ercot', 'caiso', 'nyiso' or 'isone'\"}}]}";
    assert.equal(body({}, { market: 'foo' }), expected);
    assert.deepStrictEqual(run({}, { market: 'foo' }).errors, [
      {
        type: 'enum',
        loc: ['path', 'market'],
        msg: "Input should be 'pjm', 'miso', 'spp', 'ercot', 'caiso', 'nyiso' or 'isone'",
        input: 'foo',
        ctx: { expected: "'pjm', 'miso', 'spp', 'ercot', 'caiso', 'nyiso' or 'isone'" },
      },
    ]);
  });

  test('(2) integer given "abc"', () => {
    const expected =
      '{"detail":[{"type":"int_parsing","loc":["query","limit"],"msg":"Input should be a valid integer, unable to parse string as an integer","input":"abc"}]}';
    assert.equal(body({ limit: 'abc' }), expected);
    assert.deepStrictEqual(run({ limit: 'abc' }).errors, [
      {
        type: 'int_parsing',
        loc: ['query', 'limit'],
        msg: 'Input should be a valid integer, unable to parse string as an integer',
        input: 'abc',
      },
    ]);
  });

  test('(3) ge and le', () => {
    assert.equal(
      body({ offset: '-1' }),
      '{"detail":[{"type":"greater_than_equal","loc":["query","offset"],"msg":"Input should be greater than or equal to 0","input":"-1","ctx":{"ge":0}}]}',
    );
    assert.equal(
      body({ limit: '150' }),
      '{"detail":[{"type":"less_than_equal","loc":["query","limit"],"msg":"Input should be less than or equal to 100","input":"150","ctx":{"le":100}}]}',
    );
    assert.deepStrictEqual(run({ offset: '-1' }).errors, [
      {
        type: 'greater_than_equal',
        loc: ['query', 'offset'],
        msg: 'Input should be greater than or equal to 0',
        input: '-1',
        ctx: { ge: 0 },
      },
    ]);
  });

  test('(4) datetime given garbage', () => {
    const expected =
      '{"detail":[{"type":"datetime_from_date_parsing","loc":["query","start"],"msg":"Input should be a valid datetime or date, input is too short","input":"garbage","ctx":{"error":"input is too short"}}]}';
    assert.equal(body({ start: 'garbage' }), expected);
    assert.deepStrictEqual(run({ start: 'garbage' }).errors, [
      {
        type: 'datetime_from_date_parsing',
        loc: ['query', 'start'],
        msg: 'Input should be a valid datetime or date, input is too short',
        input: 'garbage',
        ctx: { error: 'input is too short' },
      },
    ]);
  });

  test('(5) missing required query parameter', () => {
    const specs: ParamSpec[] = [{ name: 'start', in: 'query', kind: 'datetime', required: true }];
    const { errors } = validateParams(specs, { path: {}, query: {} });
    assert.equal(
      JSON.stringify({ detail: errors }),
      '{"detail":[{"type":"missing","loc":["query","start"],"msg":"Field required","input":null}]}',
    );
    assert.deepStrictEqual(errors, [{ type: 'missing', loc: ['query', 'start'], msg: 'Field required', input: null }]);
  });

  test('(6) enum-typed query parameter: same body as (1) with loc ["query", name]', () => {
    assert.equal(
      body({ order_by: 'invalid' }),
      '{"detail":[{"type":"enum","loc":["query","order_by"],"msg":"Input should be \'created_at\' or \'updated_at\'","input":"invalid","ctx":{"expected":"\'created_at\' or \'updated_at\'"}}]}',
    );
  });

  test('enum matching is exact: no trimming, no case folding', () => {
    for (const value of ['PJM', ' pjm', 'pjm ', 'Pjm']) {
      assert.equal(run({}, { market: value }).errors[0]?.type, 'enum', value);
    }
  });

  test('a missing path parameter is reported as missing', () => {
    assert.equal(body({}, {}), '{"detail":[{"type":"missing","loc":["path","market"],"msg":"Field required","input":null}]}');
  });
});

describe('datetime: §2.2(4) table', () => {
  const rows: [string, string][] = [
    ['abc', 'input is too short'],
    ['garbage', 'input is too short'],
    ['tomorrow', 'input is too short'],
    ['', 'input is too short'],
    ['-', 'input is too short'],
    ['yesterday!', 'invalid character in year'],
    ['01/15/2026', 'invalid character in year'],
    ['2026/01/01', 'invalid date separator, expected `-`'],
    ['2026-13-01', 'month value is outside expected range of 1-12'],
    ['2026-02-30', 'day value is outside expected range'],
    ['2026-01-01T25:00:00', 'unexpected extra characters at the end of the input'],
    ['2026-01-01T00:00:00+24:00', 'unexpected extra characters at the end of the input'],
    ['2026-01-01T00:00:00 01:00', 'unexpected extra characters at the end of the input'],
    ['2026-01-01Tfoo', 'unexpected extra characters at the end of the input'],
    ['99999999999999999', 'dates after 9999 are not supported as unix timestamps'],
  ];
  for (const [input, error] of rows) {
    test(`${JSON.stringify(input)} → ${error}`, () => {
      assert.deepStrictEqual(parseDateTimeLikePydantic(input), { ok: false, type: 'datetime_from_date_parsing', error });
      assert.equal(body({ start: input }), datetimeErrorBody(input, error));
    });
  }

  test('year 0 parses in speedate but not in Python: datetime_parsing', () => {
    assert.equal(
      body({ start: '0000-12-31T23:59:59Z' }),
      '{"detail":[{"type":"datetime_parsing","loc":["query","start"],"msg":"Input should be a valid datetime, year 0 is out of range","input":"0000-12-31T23:59:59Z","ctx":{"error":"year 0 is out of range"}}]}',
    );
    assert.deepStrictEqual(parseDateTimeLikePydantic('0000-01-01'), {
      ok: false,
      type: 'datetime_parsing',
      error: 'year 0 is out of range',
    });
  });

  test('day validity follows the Gregorian leap-year rules', () => {
    assert.equal(parsedOk('2024-02-29').day, 29);
    assert.equal(parsedOk('2000-02-29').day, 29);
    for (const input of ['2023-02-29', '1900-02-29', '2026-04-31', '2026-01-00']) {
      assert.deepStrictEqual(parseDateTimeLikePydantic(input), {
        ok: false,
        type: 'datetime_from_date_parsing',
        error: 'day value is outside expected range',
      });
    }
  });

  test('other speedate date errors', () => {
    const rows: [string, string][] = [
      ['2026-1x-01', 'invalid character in month'],
      ['2026-01-0x', 'invalid character in day'],
      ['2026-01x01', 'invalid date separator, expected `-`'],
      ['2026-01-01x', 'unexpected extra characters at the end of the input'],
      ['2026-01-01 ', 'unexpected extra characters at the end of the input'],
      [' 2026-01-01', 'invalid character in year'],
      ['-99999999999999999', 'dates before 0000 are not supported as unix timestamps'],
      // More than i64 can hold is no number at all, so the date error is reported.
      ['99999999999999999999', 'invalid date separator, expected `-`'],
      // speedate counts UTF-8 bytes: five two-byte characters are long enough.
      ['ééééé', 'invalid character in year'],
    ];
    for (const [input, error] of rows) {
      assert.deepStrictEqual(parseDateTimeLikePydantic(input), { ok: false, type: 'datetime_from_date_parsing', error }, input);
    }
  });

  test('every time-part failure is reported through the date fallback', () => {
    for (const input of [
      '2026-01-01T',
      '2026-01-01T12:0',
      '2026-01-01T12:60',
      '2026-01-01T12:00:60',
      '2026-01-01T12-00',
      '2026-01-01T12:00:00.',
      '2026-01-01T12:00:00+01:60',
      '2026-01-01T12:00:00+1',
      '2026-01-01T12:00:00Zx',
      '2026-01-01T12:00:00≒',
      '2026-01-01x12:00:00',
    ]) {
      assert.deepStrictEqual(
        parseDateTimeLikePydantic(input),
        { ok: false, type: 'datetime_from_date_parsing', error: 'unexpected extra characters at the end of the input' },
        input,
      );
    }
  });
});

describe('datetime: §2.6 accepted forms', () => {
  test('a bare date is a naive midnight through the date fallback', () => {
    assert.deepStrictEqual(parsedOk('2026-01-01'), {
      epochMs: Date.UTC(2026, 0, 1),
      offsetSeconds: null,
      dateOnly: true,
      year: 2026,
      month: 1,
      day: 1,
      hour: 0,
      minute: 0,
      second: 0,
      microsecond: 0,
    });
  });

  test('Z or z is aware UTC', () => {
    for (const input of ['2026-01-01T00:00:00Z', '2026-01-01T00:00:00z']) {
      const value = parsedOk(input);
      assert.equal(value.offsetSeconds, 0);
      assert.equal(value.dateOnly, false);
      assert.equal(value.epochMs, Date.UTC(2026, 0, 1));
    }
  });

  test('seconds are optional; the value is naive', () => {
    assert.deepStrictEqual(parsedOk('2026-01-01T06:30'), {
      epochMs: Date.UTC(2026, 0, 1, 6, 30),
      offsetSeconds: null,
      dateOnly: false,
      year: 2026,
      month: 1,
      day: 1,
      hour: 6,
      minute: 30,
      second: 0,
      microsecond: 0,
    });
  });

  test('T, t, space and _ all separate date and time', () => {
    for (const sep of ['T', 't', ' ', '_']) {
      assert.equal(parsedOk(`2026-01-01${sep}12:34:56`).epochMs, Date.UTC(2026, 0, 1, 12, 34, 56), sep);
    }
  });

  test('the fraction is truncated to microseconds; comma works as well as dot', () => {
    const value = parsedOk('2026-01-01T00:00:00.123456789');
    assert.equal(value.microsecond, 123456);
    assert.equal(value.epochMs, Date.UTC(2026, 0, 1, 0, 0, 0, 123));
    assert.equal(parsedOk('2026-01-01T00:00:00,5').microsecond, 500000);
    assert.equal(parsedOk('2026-01-01T00:00:00.000123').microsecond, 123);
  });

  test('offsets with and without colon, ASCII minus and U+2212', () => {
    const rows: [string, number][] = [
      ['2026-01-01T00:00:00+01:00', 3600],
      ['2026-01-01T00:00:00+0100', 3600],
      ['2026-01-01T00:00:00-05:00', -18000],
      ['2026-01-01T00:00:00\u221205:00', -18000],
      ['2026-01-01T00:00:00+23:59', 86340],
      ['2026-01-01T00:00:00-23:59', -86340],
      ['2026-01-01T00:00+05:30', 19800],
    ];
    for (const [input, offset] of rows) {
      const value = parsedOk(input);
      assert.equal(value.offsetSeconds, offset, input);
      assert.equal(value.hour, 0, input);
      assert.equal(value.epochMs, Date.UTC(2026, 0, 1) - offset * 1000, input);
    }
  });

  test('offset must be under 24 h and its minutes under 60', () => {
    for (const input of ['2026-01-01T00:00:00+24:00', '2026-01-01T00:00:00-24:00', '2026-01-01T00:00:00+01:60']) {
      assert.equal(parseDateTimeLikePydantic(input).ok, false, input);
    }
  });

  test('a "+" sent unescaped arrives as a space and fails', () => {
    assert.equal(
      body({ start: '2026-01-01T00:00:00 01:00' }),
      datetimeErrorBody('2026-01-01T00:00:00 01:00', 'unexpected extra characters at the end of the input'),
    );
  });

  test('unix seconds, as integer or float strings, are aware UTC', () => {
    assert.deepStrictEqual(parsedOk('1767225600'), {
      epochMs: Date.UTC(2026, 0, 1),
      offsetSeconds: 0,
      dateOnly: false,
      year: 2026,
      month: 1,
      day: 1,
      hour: 0,
      minute: 0,
      second: 0,
      microsecond: 0,
    });
    const float = parsedOk('1767225600.25');
    assert.equal(float.offsetSeconds, 0);
    assert.equal(float.microsecond, 250000);
    assert.equal(parsedOk('+1767225600').epochMs, Date.UTC(2026, 0, 1));
    assert.equal(parsedOk('0').epochMs, 0);
    assert.equal(parsedOk('-1').epochMs, -1000);
  });

  test('absolute values above 2e10 are milliseconds', () => {
    assert.equal(parsedOk('1767225600000').epochMs, Date.UTC(2026, 0, 1));
    const seconds = parsedOk('20000000000');
    assert.deepStrictEqual(
      [seconds.year, seconds.month, seconds.day, seconds.hour, seconds.minute, seconds.second],
      [2603, 10, 11, 11, 33, 20],
    );
    const millis = parsedOk('20000000001');
    assert.deepStrictEqual([millis.year, millis.month, millis.day, millis.microsecond], [1970, 8, 20, 1000]);
    assert.equal(parsedOk('-20000000001').epochMs, -20000000001);
  });

  test('numbers with an exponent or a bare sign are not timestamps', () => {
    assert.equal(parseDateTimeLikePydantic('1e9').ok, false);
    assert.equal(parseDateTimeLikePydantic('+').ok, false);
  });

  test('aware and naive values are both accepted and stay of their kind', () => {
    const { values, errors } = validateParams(
      [
        { name: 'start', in: 'query', kind: 'datetime' },
        { name: 'end', in: 'query', kind: 'datetime' },
      ],
      { path: {}, query: { start: '2026-01-01T00:00:00+01:00', end: '2026-01-02T00:00:00' } },
    );
    assert.deepStrictEqual(errors, []);
    assert.equal((values.start as ParsedDateTime).offsetSeconds, 3600);
    assert.equal((values.end as ParsedDateTime).offsetSeconds, null);
  });
});

describe('int: pydantic lax str → int', () => {
  const accepted: [string, number][] = [
    [' 42 ', 42],
    ['+42', 42],
    ['042', 42],
    ['1_000', 1000],
    ['42.0', 42],
    ['42.00', 42],
    ['-7', -7],
    ['-0', 0],
    ['00', 0],
    ['0_0', 0],
    ['\t-042.00\n', -42],
    ['1_000.0', 1000],
    ['9007199254740993', 9007199254740992],
  ];
  for (const [input, value] of accepted) {
    test(`accepts ${JSON.stringify(input)}`, () => {
      assert.deepStrictEqual(parseIntLikePydantic(input), { ok: true, value });
    });
  }

  const rejected = ['2.7', '', '1e3', 'abc', '1__0', '_1', '1_', '--1', '+-1', '-+1', '- 1', '.0', '1.', '0x10', '٤٢', ' '];
  for (const input of rejected) {
    test(`rejects ${JSON.stringify(input)}`, () => {
      assert.deepStrictEqual(parseIntLikePydantic(input), { ok: false, type: 'int_parsing' });
    });
  }

  test('more than 4300 digits is int_parsing_size', () => {
    assert.deepStrictEqual(parseIntLikePydantic('9'.repeat(4301)), { ok: false, type: 'int_parsing_size' });
    assert.deepStrictEqual(parseIntLikePydantic('-' + '9'.repeat(4300)), { ok: false, type: 'int_parsing_size' });
    assert.equal(parseIntLikePydantic('9'.repeat(4300)).ok, true);
    assert.equal(
      body({ limit: '1'.repeat(4301) }),
      JSON.stringify({
        detail: [
          {
            type: 'int_parsing_size',
            loc: ['query', 'limit'],
            msg: 'Unable to parse input string as an integer, exceeded maximum size',
            input: '1'.repeat(4301),
          },
        ],
      }),
    );
  });

  test('"2.7" is int_parsing, not int_from_float', () => {
    assert.deepStrictEqual(run({ limit: '2.7' }).errors[0]?.type, 'int_parsing');
  });

  test('the constraints apply to the parsed value, and boundaries are inclusive', () => {
    assert.deepStrictEqual(run({ limit: '100', offset: '0' }).errors, []);
    assert.equal(run({ limit: ' 100.0 ' }).values.limit, 100);
    assert.equal(run({ limit: '1_01' }).errors[0]?.type, 'less_than_equal');
    assert.equal(run({ limit: '0' }).errors[0]?.msg, 'Input should be greater than or equal to 1');
    assert.equal(run({ limit: '9'.repeat(30) }).errors[0]?.type, 'less_than_equal');
  });
});

describe('validateParams', () => {
  test('defaults apply when absent; absent without default is undefined', () => {
    const { values, errors } = run({});
    assert.deepStrictEqual(errors, []);
    assert.deepStrictEqual(values, {
      market: 'pjm',
      start: undefined,
      limit: 50,
      offset: 0,
      order_by: 'created_at',
      id: undefined,
    });
  });

  test('parsed values are returned by kind', () => {
    const { values, errors } = run({ start: '2026-03-01', limit: '10', order_by: 'updated_at', id: 'PJM-W' }, { market: 'ercot' });
    assert.deepStrictEqual(errors, []);
    assert.equal(values.market, 'ercot');
    assert.equal(values.limit, 10);
    assert.equal(values.order_by, 'updated_at');
    assert.equal(values.id, 'PJM-W');
    assert.equal((values.start as ParsedDateTime).epochMs, Date.UTC(2026, 2, 1));
  });

  test('all errors at once: path first, then query in declaration order', () => {
    const detail = run({ id: '', order_by: 'x', offset: '-3', limit: 'ten', start: 'soon' }, { market: 'nope' }).errors;
    assert.deepStrictEqual(
      detail.map((e) => e.loc),
      [
        ['path', 'market'],
        ['query', 'start'],
        ['query', 'limit'],
        ['query', 'offset'],
        ['query', 'order_by'],
        ['query', 'id'],
      ],
    );
    assert.deepStrictEqual(
      detail.map((e) => e.type),
      ['enum', 'datetime_from_date_parsing', 'int_parsing', 'greater_than_equal', 'enum', 'string_too_short'],
    );
    assert.equal(
      JSON.stringify(detail[5]),
      '{"type":"string_too_short","loc":["query","id"],"msg":"String should have at least 1 character","input":"","ctx":{"min_length":1}}',
    );
  });

  test('a repeated query parameter is a 422 naming it, with every value it was given', () => {
    assert.equal(
      body({ limit: ['5', '7'] }),
      '{"detail":[{"type":"value_error","loc":["query","limit"],"msg":"Value error, limit may be given only once; this request gives it 2 times","input":["5","7"]}]}',
    );
    // Reported in declaration order with the other errors; a one-element list is just the value.
    assert.deepStrictEqual(
      run({ start: 'x', limit: ['1', '2', '3'] }).errors.map((e) => [e.type, e.loc[1], e.input]),
      [
        ['datetime_from_date_parsing', 'start', 'x'],
        ['value_error', 'limit', ['1', '2', '3']],
      ],
    );
    assert.equal(run({ limit: ['7'] }).values.limit, 7);
  });

  test('an empty value is not missing', () => {
    const { errors } = run({ start: '', limit: '', id: '' });
    assert.deepStrictEqual(errors, [
      {
        type: 'datetime_from_date_parsing',
        loc: ['query', 'start'],
        msg: 'Input should be a valid datetime or date, input is too short',
        input: '',
        ctx: { error: 'input is too short' },
      },
      {
        type: 'int_parsing',
        loc: ['query', 'limit'],
        msg: 'Input should be a valid integer, unable to parse string as an integer',
        input: '',
      },
      {
        type: 'string_too_short',
        loc: ['query', 'id'],
        msg: 'String should have at least 1 character',
        input: '',
        ctx: { min_length: 1 },
      },
    ]);
  });

  test('an empty value for a string without constraints is the empty string', () => {
    const specs: ParamSpec[] = [{ name: 'q', in: 'query', kind: 'string' }];
    assert.deepStrictEqual(validateParams(specs, { path: {}, query: { q: '' } }), { values: { q: '' }, errors: [] });
  });

  test('string_too_short pluralises and counts characters, not UTF-16 units', () => {
    const specs: ParamSpec[] = [{ name: 'code', in: 'query', kind: 'string', minLength: 3 }];
    const short = validateParams(specs, { path: {}, query: { code: '😀😀' } });
    assert.equal(
      JSON.stringify(short.errors),
      '[{"type":"string_too_short","loc":["query","code"],"msg":"String should have at least 3 characters","input":"😀😀","ctx":{"min_length":3}}]',
    );
    assert.deepStrictEqual(validateParams(specs, { path: {}, query: { code: 'abc' } }).errors, []);
  });

  test('required query parameters of every kind report missing', () => {
    const specs: ParamSpec[] = [
      { name: 'a', in: 'query', kind: 'int', required: true },
      { name: 'b', in: 'query', kind: 'enum', values: ['x'], required: true },
      { name: 'c', in: 'query', kind: 'string', required: true },
    ];
    assert.equal(
      JSON.stringify({ detail: validateParams(specs, { path: {}, query: { b: [] } }).errors }),
      '{"detail":[{"type":"missing","loc":["query","a"],"msg":"Field required","input":null},{"type":"missing","loc":["query","b"],"msg":"Field required","input":null},{"type":"missing","loc":["query","c"],"msg":"Field required","input":null}]}',
    );
  });
});

describe('enum repr', () => {
  test('a single member is just its repr', () => {
    const specs: ParamSpec[] = [{ name: 'model', in: 'query', kind: 'enum', values: ['optimized'] }];
    assert.deepStrictEqual(validateParams(specs, { path: {}, query: { model: 'iso' } }).errors, [
      {
        type: 'enum',
        loc: ['query', 'model'],
        msg: "Input should be 'optimized'",
        input: 'iso',
        ctx: { expected: "'optimized'" },
      },
    ]);
  });

  test('two members join with " or "', () => {
    const specs: ParamSpec[] = [{ name: 'type', in: 'path', kind: 'enum', values: ['dalmp', 'rtlmp'] }];
    assert.equal(validateParams(specs, { path: { type: 'x' }, query: {} }).errors[0]?.msg, "Input should be 'dalmp' or 'rtlmp'");
  });

  test('Python repr picks double quotes for a single quote and escapes as Python does', () => {
    assert.equal(pythonRepr("it's"), '"it\'s"');
    assert.equal(pythonRepr('say "hi"'), '\'say "hi"\'');
    assert.equal(pythonRepr('both \' and "'), "'both \\' and \"'");
    assert.equal(pythonRepr('a\\b'), "'a\\\\b'");
    assert.equal(pythonRepr('tab\there\n'), "'tab\\there\\n'");
    assert.equal(pythonRepr('\u0001\u00a0é'), "'\\x01\\xa0é'");
    const specs: ParamSpec[] = [{ name: 'k', in: 'query', kind: 'enum', values: ["o'neil", 'b'] }];
    assert.equal(validateParams(specs, { path: {}, query: { k: 'z' } }).errors[0]?.msg, "Input should be \"o'neil\" or 'b'");
  });
});

describe('openApiParameter', () => {
  test('int with bounds and default', () => {
    const param = openApiParameter({
      name: 'latest_hour',
      in: 'query',
      kind: 'int',
      ge: 0,
      le: 23,
      default: 10,
      description: 'Local hour of the model run.',
    });
    assert.equal(
      JSON.stringify(param),
      '{"name":"latest_hour","in":"query","required":false,"schema":{"type":"integer","maximum":23,"minimum":0,"default":10,"title":"Latest Hour"},"description":"Local hour of the model run."}',
    );
  });

  test('path enum', () => {
    assert.equal(
      JSON.stringify(openApiParameter({ name: 'iso', in: 'path', kind: 'enum', values: ['pjm', 'miso'], description: 'ISO.' })),
      '{"name":"iso","in":"path","required":true,"schema":{"type":"string","enum":["pjm","miso"],"title":"Iso"},"description":"ISO."}',
    );
  });

  test('query enum with default', () => {
    assert.equal(
      JSON.stringify(openApiParameter({ name: 'model', in: 'query', kind: 'enum', values: ['optimized', 'iso'], default: 'optimized' })),
      '{"name":"model","in":"query","required":false,"schema":{"type":"string","enum":["optimized","iso"],"default":"optimized","title":"Model"}}',
    );
  });

  test('optional datetime', () => {
    assert.equal(
      JSON.stringify(openApiParameter({ name: 'start', in: 'query', kind: 'datetime' })),
      '{"name":"start","in":"query","required":false,"schema":{"anyOf":[{"type":"string","format":"date-time"},{"type":"null"}],"title":"Start"}}',
    );
  });

  test('required datetime', () => {
    assert.equal(
      JSON.stringify(openApiParameter({ name: 'as_of', in: 'query', kind: 'datetime', required: true })),
      '{"name":"as_of","in":"query","required":true,"schema":{"type":"string","format":"date-time","title":"As Of"}}',
    );
  });

  test('optional and required strings', () => {
    assert.equal(
      JSON.stringify(openApiParameter({ name: 'id', in: 'query', kind: 'string' })),
      '{"name":"id","in":"query","required":false,"schema":{"anyOf":[{"type":"string"},{"type":"null"}],"title":"Id"}}',
    );
    assert.equal(
      JSON.stringify(openApiParameter({ name: 'id', in: 'query', kind: 'string', minLength: 1, required: true })),
      '{"name":"id","in":"query","required":true,"schema":{"type":"string","minLength":1,"title":"Id"}}',
    );
  });

  test('titles follow Python str.title()', () => {
    assert.equal(fieldTitle('days_ahead'), 'Days Ahead');
    assert.equal(fieldTitle('forecasted_by'), 'Forecasted By');
    assert.equal(fieldTitle('x2y'), 'X2Y');
    assert.equal(fieldTitle('API_key'), 'Api Key');
  });
});
