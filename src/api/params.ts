/**
 * Path and query parameter validation that reproduces, byte for byte, the 422 error items
 * FastAPI (≥ 0.110.2, no `url` key) + Pydantic v2 produce for the same parameters, and the
 * OpenAPI parameter objects FastAPI would publish for them.
 *
 * The parsing rules are re-implementations of pydantic-core (`str_as_int`, the lax datetime
 * validator with its date fallback) and speedate (date/time/timestamp parsing), written from
 * their documented behaviour; see /work/shared/reference/error-formats.md. Dependency-free.
 */

// ---------------------------------------------------------------------------------------------
// Public types

export interface ValidationErrorItem {
  type: string;
  loc: (string | number)[];
  msg: string;
  input: unknown;
  ctx?: Record<string, unknown>;
}

export type ParamIn = 'path' | 'query';

interface Base {
  name: string;
  in: ParamIn;
  description?: string;
  required?: boolean;
  /** A list parameter: repeating it (`?model=a&model=b`) means the comma list `a,b`, never an error. */
  list?: true;
}

export type ParamSpec =
  | (Base & { kind: 'enum'; values: readonly string[]; default?: string })
  | (Base & { kind: 'int'; ge?: number; le?: number; default?: number })
  | (Base & { kind: 'datetime' })
  | (Base & { kind: 'date' })
  | (Base & {
      kind: 'string';
      minLength?: number;
      maxLength?: number;
      default?: string;
      /** Refuse NUL characters: text that must reach the database, which cannot store them. */
      noNul?: boolean;
      /** Values the document names without restricting the parameter to them (JSON Schema `examples`). */
      examples?: readonly string[];
    });

export interface ParsedDateTime {
  /** the instant in epoch milliseconds; for a naive value, computed as if it were UTC */
  epochMs: number;
  /** offset in seconds east of UTC when the input carried one (Z → 0); null for naive input */
  offsetSeconds: number | null;
  /** true when the input was a bare date (YYYY-MM-DD) accepted through pydantic's date fallback */
  dateOnly: boolean;
  year: number;
  month: number;
  day: number;
  hour: number;
  minute: number;
  second: number;
  microsecond: number;
}

/** A calendar date, as a `date` parameter parses it. */
export interface ParsedDate {
  year: number;
  month: number;
  day: number;
  /** `YYYY-MM-DD`. */
  iso: string;
}

export type ParamValue = string | number | ParsedDateTime | ParsedDate | undefined;

// ---------------------------------------------------------------------------------------------
// Error items (pydantic-core message templates, key order type, loc, msg, input, ctx)

export function errorItem(
  type: string,
  loc: (string | number)[],
  msg: string,
  input: unknown,
  ctx?: Record<string, unknown>,
): ValidationErrorItem {
  // Insertion order is the serialisation order, so ctx must be added last and only when present.
  const item: ValidationErrorItem = { type, loc, msg, input };
  if (ctx !== undefined) item.ctx = ctx;
  return item;
}

const INT_MESSAGES = {
  int_parsing: 'Input should be a valid integer, unable to parse string as an integer',
  int_parsing_size: 'Unable to parse input string as an integer, exceeded maximum size',
} as const;

// ---------------------------------------------------------------------------------------------
// Integers: pydantic-core `str_as_int`

/** Python ints are limited to 4300 digits when parsed from strings (CPython's int_max_str_digits). */
const MAX_INT_DIGITS = 4300;

/** A JSON integer as jiter accepts it: optional minus, then `0` or a digit run without leading zeros. */
const JSON_INT = /^-?(?:0|[1-9][0-9]*)$/;

/** The leading run jiter reads before deciding the number is too long. */
const LONG_INT_PREFIX = /^-?[1-9][0-9]*/;

/** Rust's `char::is_whitespace` set (`str::trim`); it differs from JS `trim()` on U+0085 and U+FEFF. */
const RUST_WHITESPACE =
  '\t\n\u000B\f\r \u0085\u00A0\u1680\u2000\u2001\u2002\u2003\u2004\u2005\u2006\u2007\u2008\u2009\u200A\u2028\u2029\u202F\u205F\u3000';

function rustTrim(s: string): string {
  let start = 0;
  let end = s.length;
  while (start < end && RUST_WHITESPACE.includes(s[start]!)) start++;
  while (end > start && RUST_WHITESPACE.includes(s[end - 1]!)) end--;
  return s.slice(start, end);
}

/** jiter's `NumberInt::try_from`: the whole string must be a JSON integer of at most 4300 characters. */
function parseJsonInt(s: string): bigint | null {
  return JSON_INT.test(s) && s.length <= MAX_INT_DIGITS ? BigInt(s) : null;
}

/**
 * Leading zeros go, but one zero stays for "000" and "00.0"; underscores among the leading zeros
 * go too. Null when the string does not start like a number (pydantic-core `strip_leading_zeros`).
 */
function stripLeadingZeros(s: string): string | null {
  const first = s[0];
  if (first === undefined) return null;
  if (first !== '0') return (first >= '1' && first <= '9') || first === '-' ? s : null;
  for (let i = 1; i < s.length; i++) {
    const c = s[i]!;
    if (c === '0' || c === '_') continue;
    if ((c >= '1' && c <= '9') || c === '-') return s.slice(i);
    if (c === '.') return s.slice(i - 1);
    return null;
  }
  return s.slice(-1);
}

/** Python's rule for digit separators: single underscores strictly between other characters. */
function stripUnderscores(s: string): string | null {
  if (s.startsWith('_') || s.endsWith('_') || !s.includes('_') || s.includes('__')) return null;
  return s.replaceAll('_', '');
}

/**
 * pydantic-core `clean_int_str`: trims whitespace, a leading `+`, leading zeros, a `.0…` suffix
 * and digit underscores. Null means "nothing could be cleaned", which is itself a parse failure.
 */
function cleanIntString(original: string): string | null {
  let s = rustTrim(original);
  if (s.startsWith('+')) {
    if (s.startsWith('+-')) return null;
    s = s.slice(1);
  }
  // The sign is set aside so that leading zeros are handled the same for negative numbers.
  let sign = '';
  if (s.startsWith('-')) {
    if (s.startsWith('--') || s.startsWith('-+')) return null;
    sign = '-';
    s = s.slice(1);
  }
  const noZeros = stripLeadingZeros(s);
  if (noZeros === null) return null;
  s = noZeros;
  const dot = s.indexOf('.');
  if (dot !== -1) {
    const decimals = s.slice(dot + 1);
    if (decimals !== '' && /^0+$/.test(decimals)) s = s.slice(0, dot);
  }
  const noUnderscores = stripUnderscores(s);
  if (noUnderscores !== null) return sign + noUnderscores;
  // `s` is a substring of the original, so equal lengths mean nothing was removed.
  if (s.length === original.length) return null;
  return sign + s;
}

type IntParse = { ok: true; value: bigint } | { ok: false; type: 'int_parsing' | 'int_parsing_size' };

function parseBigIntLikePydantic(s: string): IntParse {
  const direct = parseJsonInt(s);
  if (direct !== null) return { ok: true, value: direct };
  // Only the first, raw attempt reports the size error; a too-long cleaned string is a plain
  // parsing error, as in pydantic-core.
  const prefix = LONG_INT_PREFIX.exec(s);
  if (prefix !== null && prefix[0].length > MAX_INT_DIGITS) return { ok: false, type: 'int_parsing_size' };
  const cleaned = cleanIntString(s);
  const value = cleaned === null ? null : parseJsonInt(cleaned);
  return value === null ? { ok: false, type: 'int_parsing' } : { ok: true, value };
}

/**
 * Lax str → int as pydantic v2 does it: surrounding whitespace, `+`, leading zeros, `1_000` and a
 * `.0…` suffix are accepted; `2.7`, `1e3`, `""` are not. Values beyond 2^53 lose precision.
 */
export function parseIntLikePydantic(s: string): { ok: true; value: number } | { ok: false; type: 'int_parsing' | 'int_parsing_size' } {
  const parsed = parseBigIntLikePydantic(s);
  return parsed.ok ? { ok: true, value: Number(parsed.value) } : parsed;
}

// ---------------------------------------------------------------------------------------------
// Datetimes: speedate parsing as configured by pydantic-core (lax, truncate fractions,
// unix timestamps are UTC)

/** speedate `ParseError` variants that these parsers can raise, with their doc strings. */
const SPEEDATE_MESSAGES = {
  TooShort: 'input is too short',
  ExtraCharacters: 'unexpected extra characters at the end of the input',
  InvalidCharDateTimeSep: 'invalid datetime separator, expected `T`, `t`, `_` or space',
  InvalidCharDateSep: 'invalid date separator, expected `-`',
  DateNotExact: 'Timestamp is not an exact date',
  InvalidCharYear: 'invalid character in year',
  InvalidCharMonth: 'invalid character in month',
  InvalidCharDay: 'invalid character in day',
  InvalidCharTimeSep: 'invalid time separator, expected `:`',
  InvalidCharHour: 'invalid character in hour',
  InvalidCharMinute: 'invalid character in minute',
  InvalidCharSecond: 'invalid character in second',
  InvalidCharTzSign: 'invalid timezone sign',
  InvalidCharTzHour: 'invalid timezone hour',
  InvalidCharTzMinute: 'invalid timezone minute',
  OutOfRangeTzMinute: 'timezone minute value is outside expected range of 0-59',
  OutOfRangeTz: 'timezone offset must be less than 24 hours',
  OutOfRangeMonth: 'month value is outside expected range of 1-12',
  OutOfRangeDay: 'day value is outside expected range',
  OutOfRangeHour: 'hour value is outside expected range of 0-23',
  OutOfRangeMinute: 'minute value is outside expected range of 0-59',
  OutOfRangeSecond: 'second value is outside expected range of 0-59',
  SecondFractionMissing: 'second fraction digits missing after `.`',
  DateTooSmall: 'dates before 0000 are not supported as unix timestamps',
  DateTooLarge: 'dates after 9999 are not supported as unix timestamps',
  TimeTooLarge: 'numeric times may not exceed 86,399 seconds',
} as const;

type SpeedateCode = keyof typeof SPEEDATE_MESSAGES;

/** Thrown inside the speedate re-implementation; never escapes this module. */
/**
 * A speedate parse failure. Not an Error: a bare date (`2026-06-01`) fails the datetime parse
 * on every request that sends one, before the date fallback accepts it, and capturing a stack
 * trace each time cost ~3 % of the HTTP thread under load. It never escapes this module.
 */
class SpeedateError {
  constructor(readonly code: SpeedateCode) {}
}

function fail(code: SpeedateCode): never {
  throw new SpeedateError(code);
}

interface SpeedDate {
  year: number;
  month: number;
  day: number;
}

interface SpeedTime {
  hour: number;
  minute: number;
  second: number;
  microsecond: number;
  /** seconds east of UTC, null when naive */
  offset: number | null;
}

interface SpeedDateTime {
  date: SpeedDate;
  time: SpeedTime;
}

const ASCII_0 = 0x30;
const ASCII_9 = 0x39;

function isDigit(byte: number | undefined): byte is number {
  return byte !== undefined && byte >= ASCII_0 && byte <= ASCII_9;
}

/** The decimal value of the byte at `index`, or the given error (speedate's `get_digit!`). */
function digitAt(bytes: Uint8Array, index: number, code: SpeedateCode): number {
  const byte = bytes[index];
  return isDigit(byte) ? byte - ASCII_0 : fail(code);
}

function isLeapYear(year: number): boolean {
  return year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0);
}

function daysInMonth(year: number, month: number): number {
  if (month === 2) return isLeapYear(year) ? 29 : 28;
  return month === 4 || month === 6 || month === 9 || month === 11 ? 30 : 31;
}

/** speedate `Date::parse_bytes_partial`: `YYYY-MM-DD` in the first 10 bytes, the rest unchecked. */
function parseDatePrefix(bytes: Uint8Array): SpeedDate {
  if (bytes.length < 10) fail('TooShort');
  let year = 0;
  for (let i = 0; i < 4; i++) year = year * 10 + digitAt(bytes, i, 'InvalidCharYear');
  if (bytes[4] !== 0x2d) fail('InvalidCharDateSep');
  const month = digitAt(bytes, 5, 'InvalidCharMonth') * 10 + digitAt(bytes, 6, 'InvalidCharMonth');
  if (bytes[7] !== 0x2d) fail('InvalidCharDateSep');
  const day = digitAt(bytes, 8, 'InvalidCharDay') * 10 + digitAt(bytes, 9, 'InvalidCharDay');
  // All characters are checked before any range, so "2026-13-xx" is a day-character error.
  if (month < 1 || month > 12) fail('OutOfRangeMonth');
  if (day < 1 || day > daysInMonth(year, month)) fail('OutOfRangeDay');
  return { year, month, day };
}

/** `HH:MM[:SS[.f…]]`, returning the time and the index after it (speedate `PureTime::parse`). */
function parsePureTime(bytes: Uint8Array, offset: number): { time: SpeedTime; position: number } {
  if (bytes.length - offset < 5) fail('TooShort');
  const hour = digitAt(bytes, offset, 'InvalidCharHour') * 10 + digitAt(bytes, offset + 1, 'InvalidCharHour');
  if (bytes[offset + 2] !== 0x3a) fail('InvalidCharTimeSep');
  const minute = digitAt(bytes, offset + 3, 'InvalidCharMinute') * 10 + digitAt(bytes, offset + 4, 'InvalidCharMinute');
  if (hour > 23) fail('OutOfRangeHour');
  if (minute > 59) fail('OutOfRangeMinute');

  let length = 5;
  let second = 0;
  let microsecond = 0;
  if (bytes[offset + 5] === 0x3a) {
    second = digitAt(bytes, offset + 6, 'InvalidCharSecond') * 10 + digitAt(bytes, offset + 7, 'InvalidCharSecond');
    if (second > 59) fail('OutOfRangeSecond');
    length = 8;
    const fractionSep = bytes[offset + 8];
    if (fractionSep === 0x2e || fractionSep === 0x2c) {
      length = 9;
      // pydantic's default `microseconds_precision='truncate'`: digits past the sixth are read
      // and dropped.
      let count = 0;
      for (let byte = bytes[offset + length]; isDigit(byte); byte = bytes[offset + length + count]) {
        if (count < 6) microsecond = microsecond * 10 + (byte - ASCII_0);
        count++;
      }
      if (count === 0) fail('SecondFractionMissing');
      if (count < 6) microsecond *= 10 ** (6 - count);
      length += count;
    }
  }
  return { time: { hour, minute, second, microsecond, offset: null }, position: offset + length };
}

const UTF8_MINUS = [0xe2, 0x88, 0x92]; // U+2212 MINUS SIGN, allowed by ISO 8601 for negative offsets

/** `Z`, `z`, `±HH:MM` or `±HHMM` at `position` (speedate `Time::parse_bytes_offset`). */
function parseOffset(bytes: Uint8Array, start: number): { offset: number; position: number } {
  let position = start;
  const signByte = bytes[position++];
  if (signByte === 0x5a || signByte === 0x7a) return { offset: 0, position };
  let sign: number;
  if (signByte === 0x2b) sign = 1;
  else if (signByte === 0x2d) sign = -1;
  else if (signByte === UTF8_MINUS[0]) {
    if (bytes[position] !== UTF8_MINUS[1] || bytes[position + 1] !== UTF8_MINUS[2]) fail('InvalidCharTzSign');
    position += 2;
    sign = -1;
  } else {
    return fail('InvalidCharTzSign');
  }

  const hours = digitAt(bytes, position, 'InvalidCharTzHour') * 10 + digitAt(bytes, position + 1, 'InvalidCharTzHour');
  let minuteTens: number;
  const afterHours = bytes[position + 2];
  if (afterHours === 0x3a) {
    position += 3;
    minuteTens = digitAt(bytes, position, 'InvalidCharTzMinute');
  } else if (isDigit(afterHours)) {
    position += 2;
    minuteTens = afterHours - ASCII_0;
  } else {
    return fail('InvalidCharTzMinute');
  }
  const minuteSeconds = minuteTens * 600 + digitAt(bytes, position + 1, 'InvalidCharTzMinute') * 60;
  if (minuteSeconds >= 3600) fail('OutOfRangeTzMinute');
  const offset = sign * (hours * 3600 + minuteSeconds);
  // Python's timezone() only accepts offsets strictly inside ±24h.
  if (Math.abs(offset) >= 86_400) fail('OutOfRangeTz');
  return { offset, position: position + 2 };
}

/** Time with optional offset starting at `offset`; nothing may follow it. */
function parseTimeWithOffset(bytes: Uint8Array, offset: number): SpeedTime {
  const { time, position } = parsePureTime(bytes, offset);
  let end = position;
  if (position < bytes.length) {
    const parsed = parseOffset(bytes, position);
    time.offset = parsed.offset;
    end = parsed.position;
  }
  if (bytes.length > end) fail('ExtraCharacters');
  return time;
}

/** speedate `DateTime::parse_bytes_rfc3339_with_config`. */
function parseRfc3339DateTime(bytes: Uint8Array): SpeedDateTime {
  const date = parseDatePrefix(bytes);
  const sep = bytes[10];
  // T, t, space and _ all separate the date from the time.
  if (sep !== 0x54 && sep !== 0x74 && sep !== 0x20 && sep !== 0x5f) fail('InvalidCharDateTimeSep');
  return { date, time: parseTimeWithOffset(bytes, 11) };
}

const I64_MAX = 9_223_372_036_854_775_807n;

/** Sign handling shared by speedate's `int_parse_bytes` / `float_parse_bytes`. */
function splitSign(bytes: Uint8Array): { negative: boolean; start: number } | null {
  // A sign needs at least one byte after it; a lone "-" or "+" is treated as an unsigned token.
  if (bytes.length >= 2 && bytes[0] === 0x2d) return { negative: true, start: 1 };
  if (bytes.length >= 2 && bytes[0] === 0x2b) return { negative: false, start: 1 };
  return bytes.length >= 1 ? { negative: false, start: 0 } : null;
}

/** speedate `int_parse_bytes`: `[+-]digits`, i64 only (overflow is "not a number"). */
function intParseBytes(bytes: Uint8Array): bigint | null {
  const sign = splitSign(bytes);
  if (sign === null) return null;
  let value = 0n;
  for (let i = sign.start; i < bytes.length; i++) {
    const byte = bytes[i];
    if (!isDigit(byte)) return null;
    value = value * 10n + BigInt(byte - ASCII_0);
    if (value > I64_MAX) return null;
  }
  return sign.negative ? -value : value;
}

type Numeric = { kind: 'int'; value: bigint } | { kind: 'float'; value: number };

/** speedate `float_parse_bytes`: `[+-]digits[.digits]` (no exponent), i64 integer part. */
function floatParseBytes(bytes: Uint8Array): Numeric | null {
  const sign = splitSign(bytes);
  if (sign === null || !isDigit(bytes[sign.start])) return null;
  let intPart = 0n;
  let i = sign.start;
  for (; i < bytes.length; i++) {
    const byte = bytes[i]!;
    if (byte === 0x2e) break;
    if (!isDigit(byte)) return null;
    intPart = intPart * 10n + BigInt(byte - ASCII_0);
    if (intPart > I64_MAX) return null;
  }
  if (i === bytes.length) return { kind: 'int', value: sign.negative ? -intPart : intPart };
  // Accumulated digit by digit exactly as speedate does, so the float rounds the same way.
  let result = Number(intPart);
  let divisor = 10;
  for (i += 1; i < bytes.length; i++) {
    const byte = bytes[i];
    if (!isDigit(byte)) return null;
    result += (byte - ASCII_0) / divisor;
    divisor *= 10;
  }
  return { kind: 'float', value: sign.negative ? -result : result };
}

/** Absolute values above this are milliseconds, not seconds (20_000_000_000 s is in 2603). */
const MS_WATERSHED = 20_000_000_000n;
/** 0000-01-01T00:00:00Z and 9999-12-31T23:59:59Z as unix seconds: speedate's timestamp range. */
const UNIX_0000 = -62_167_219_200n;
const UNIX_9999 = 253_402_300_799n;

/** Splits a timestamp in seconds or milliseconds into seconds and microseconds. */
function timestampWatershed(timestamp: bigint): { seconds: bigint; microsecond: number } {
  // i64::MIN has no absolute value in Rust (`checked_abs` fails), which speedate reports as too small.
  if (timestamp < -I64_MAX) fail('DateTooSmall');
  const magnitude = timestamp < 0n ? -timestamp : timestamp;
  if (magnitude <= MS_WATERSHED) return { seconds: timestamp, microsecond: 0 };
  // Rust integer division truncates towards zero; a negative remainder borrows a second.
  let seconds = timestamp / 1000n;
  let microsecond = Number(timestamp % 1000n) * 1000;
  if (microsecond < 0) {
    seconds -= 1n;
    microsecond += 1_000_000;
  }
  return { seconds, microsecond };
}

/** Calendar date and seconds into the day for a unix timestamp in seconds, range-checked. */
function dateFromUnixSeconds(seconds: bigint): { date: SpeedDate; secondOfDay: number } {
  if (seconds < UNIX_0000) fail('DateTooSmall');
  if (seconds > UNIX_9999) fail('DateTooLarge');
  const whole = Number(seconds);
  const secondOfDay = ((whole % 86_400) + 86_400) % 86_400;
  // JS Date covers years 0–9999 with the same proleptic Gregorian calendar.
  const at = new Date((whole - secondOfDay) * 1000);
  return { date: { year: at.getUTCFullYear(), month: at.getUTCMonth() + 1, day: at.getUTCDate() }, secondOfDay };
}

/** speedate `DateTime::from_timestamp_with_config` with `unix_timestamp_offset = 0` (aware UTC). */
function dateTimeFromTimestamp(timestamp: bigint, extraMicrosecond: number): SpeedDateTime {
  const split = timestampWatershed(timestamp);
  let seconds = split.seconds;
  let microsecond = split.microsecond + extraMicrosecond;
  if (microsecond >= 1_000_000) {
    seconds += BigInt(Math.floor(microsecond / 1_000_000));
    microsecond %= 1_000_000;
  }
  const { date, secondOfDay } = dateFromUnixSeconds(seconds);
  const time: SpeedTime = {
    hour: Math.floor(secondOfDay / 3600),
    minute: Math.floor((secondOfDay % 3600) / 60),
    second: secondOfDay % 60,
    microsecond,
    offset: 0,
  };
  return { date, time };
}

/** Rust's saturating `f64 as i64`. */
function f64ToI64(value: number): bigint {
  if (value >= 9.223372036854776e18) return I64_MAX;
  if (value <= -9.223372036854776e18) return -I64_MAX - 1n;
  return BigInt(value);
}

/** speedate's float timestamp branch: milliseconds above the watershed, fraction → microseconds. */
function dateTimeFromFloatTimestamp(value: number): SpeedDateTime {
  const normalized = Math.abs(value) > Number(MS_WATERSHED) ? value / 1000 : value;
  // Flooring keeps the microseconds positive for negative timestamps (-6.25 → -7 s + 750000 µs).
  const floor = Math.floor(normalized);
  const microsecond = Math.round((normalized - floor) * 1_000_000);
  // The normalised seconds go through the watershed again, as in speedate.
  return dateTimeFromTimestamp(f64ToI64(floor), microsecond);
}

/** speedate `DateTime::parse_bytes_with_config`: RFC 3339, else a unix timestamp, else the RFC error. */
function parseSpeedDateTime(bytes: Uint8Array): SpeedDateTime {
  try {
    return parseRfc3339DateTime(bytes);
  } catch (error) {
    const numeric = floatParseBytes(bytes);
    if (numeric === null) throw error;
    return numeric.kind === 'int' ? dateTimeFromTimestamp(numeric.value, 0) : dateTimeFromFloatTimestamp(numeric.value);
  }
}

/** speedate `Date::from_timestamp(…, require_exact = true)`. */
function dateFromTimestamp(timestamp: bigint): SpeedDate {
  const { seconds, microsecond } = timestampWatershed(timestamp);
  const { date, secondOfDay } = dateFromUnixSeconds(seconds);
  if (secondOfDay !== 0 || microsecond !== 0) fail('DateNotExact');
  return date;
}

/** speedate `Date::parse_bytes`: exactly `YYYY-MM-DD`, else an integer unix timestamp at midnight. */
function parseSpeedDate(bytes: Uint8Array): SpeedDate {
  try {
    const date = parseDatePrefix(bytes);
    if (bytes.length > 10) fail('ExtraCharacters');
    return date;
  } catch (error) {
    const timestamp = intParseBytes(bytes);
    if (timestamp === null) throw error;
    return dateFromTimestamp(timestamp);
  }
}

/** Epoch milliseconds of a wall-clock time read as UTC (works for years 0–99, unlike Date.UTC). */
function wallClockEpochMs(date: SpeedDate, time: SpeedTime): number {
  const at = new Date(0);
  at.setUTCFullYear(date.year, date.month - 1, date.day);
  at.setUTCHours(time.hour, time.minute, time.second, Math.floor(time.microsecond / 1000));
  return at.getTime();
}

function toParsedDateTime({ date, time }: SpeedDateTime, dateOnly: boolean): ParsedDateTime {
  const offset = time.offset;
  return {
    epochMs: wallClockEpochMs(date, time) - (offset ?? 0) * 1000,
    offsetSeconds: offset,
    dateOnly,
    year: date.year,
    month: date.month,
    day: date.day,
    hour: time.hour,
    minute: time.minute,
    second: time.second,
    microsecond: time.microsecond,
  };
}

const utf8 = new TextEncoder();

/**
 * pydantic v2 lax `datetime` validation of a string. speedate parses bytes, so lengths and
 * positions are UTF-8 byte counts. When the datetime parse fails, the string is parsed as a date
 * and, if that fails too, the *date* error is reported as `datetime_from_date_parsing`.
 */
export function parseDateTimeLikePydantic(
  s: string,
): { ok: true; value: ParsedDateTime } | { ok: false; type: 'datetime_from_date_parsing' | 'datetime_parsing'; error: string } {
  const bytes = utf8.encode(s);
  let parsed: SpeedDateTime;
  let dateOnly = false;
  try {
    parsed = parseSpeedDateTime(bytes);
  } catch (datetimeError) {
    if (!(datetimeError instanceof SpeedateError)) throw datetimeError;
    try {
      const date = parseSpeedDate(bytes);
      parsed = { date, time: { hour: 0, minute: 0, second: 0, microsecond: 0, offset: null } };
      dateOnly = true;
    } catch (dateError) {
      if (!(dateError instanceof SpeedateError)) throw dateError;
      return { ok: false, type: 'datetime_from_date_parsing', error: SPEEDATE_MESSAGES[dateError.code] };
    }
  }
  // speedate accepts year 0 but Python's datetime does not; the conversion error surfaces as
  // datetime_parsing.
  if (parsed.date.year === 0) return { ok: false, type: 'datetime_parsing', error: 'year 0 is out of range' };
  return { ok: true, value: toParsedDateTime(parsed, dateOnly) };
}

// ---------------------------------------------------------------------------------------------
// Enums: Python repr() of the members, joined as pydantic-core's `expected_repr_name`

/** Characters Python's str.isprintable() rejects (other than the plain space). */
const NON_PRINTABLE = /[\p{Cc}\p{Cf}\p{Cs}\p{Co}\p{Cn}\p{Zl}\p{Zp}\p{Zs}]/u;

function pythonEscape(ch: string): string {
  if (ch === '\n') return '\\n';
  if (ch === '\r') return '\\r';
  if (ch === '\t') return '\\t';
  const code = ch.codePointAt(0)!;
  if (code <= 0xff) return `\\x${code.toString(16).padStart(2, '0')}`;
  if (code <= 0xffff) return `\\u${code.toString(16).padStart(4, '0')}`;
  return `\\U${code.toString(16).padStart(8, '0')}`;
}

/** Python `repr(str)`: single quotes unless the text has a ' and no ", escapes as Python does. */
export function pythonRepr(s: string): string {
  const quote = s.includes("'") && !s.includes('"') ? '"' : "'";
  let body = '';
  for (const ch of s) {
    if (ch === quote || ch === '\\') body += `\\${ch}`;
    else if (ch !== ' ' && NON_PRINTABLE.test(ch)) body += pythonEscape(ch);
    else body += ch;
  }
  return quote + body + quote;
}

/** `'a', 'b' or 'c'` — no Oxford comma; a single member is just its repr. */
function expectedEnumText(values: readonly string[]): string {
  const reprs = values.map(pythonRepr);
  if (reprs.length <= 1) return reprs.join('');
  return `${reprs.slice(0, -1).join(', ')} or ${reprs[reprs.length - 1]}`;
}

// ---------------------------------------------------------------------------------------------
// Parameter validation

export type Outcome = { ok: true; value: ParamValue } | { ok: false; error: ValidationErrorItem };

function validateInt(spec: Extract<ParamSpec, { kind: 'int' }>, raw: string, loc: (string | number)[]): Outcome {
  const parsed = parseBigIntLikePydantic(raw);
  if (!parsed.ok) return { ok: false, error: errorItem(parsed.type, loc, INT_MESSAGES[parsed.type], raw) };
  // pydantic-core checks le before ge; only the first failing constraint is reported.
  if (spec.le !== undefined && parsed.value > spec.le) {
    const msg = `Input should be less than or equal to ${spec.le}`;
    return { ok: false, error: errorItem('less_than_equal', loc, msg, raw, { le: spec.le }) };
  }
  if (spec.ge !== undefined && parsed.value < spec.ge) {
    const msg = `Input should be greater than or equal to ${spec.ge}`;
    return { ok: false, error: errorItem('greater_than_equal', loc, msg, raw, { ge: spec.ge }) };
  }
  return { ok: true, value: Number(parsed.value) };
}

function validateEnum(spec: Extract<ParamSpec, { kind: 'enum' }>, raw: string, loc: (string | number)[]): Outcome {
  // Exact match: pydantic neither trims nor folds case for enum values.
  if (spec.values.includes(raw)) return { ok: true, value: raw };
  const expected = expectedEnumText(spec.values);
  return { ok: false, error: errorItem('enum', loc, `Input should be ${expected}`, raw, { expected }) };
}

function validateDateTime(raw: string, loc: (string | number)[]): Outcome {
  const parsed = parseDateTimeLikePydantic(raw);
  if (parsed.ok) return { ok: true, value: parsed.value };
  const prefix = parsed.type === 'datetime_parsing' ? 'Input should be a valid datetime' : 'Input should be a valid datetime or date';
  return { ok: false, error: errorItem(parsed.type, loc, `${prefix}, ${parsed.error}`, raw, { error: parsed.error }) };
}

/**
 * pydantic v2 lax `date` validation of a string: a date (or unix timestamp) as speedate parses
 * it; failing that, a datetime at exactly midnight. A datetime parse error is reported as
 * `date_from_datetime_parsing`, a datetime with a time of day as `date_from_datetime_inexact`.
 */
function validateDate(raw: string, loc: (string | number)[]): Outcome {
  const bytes = utf8.encode(raw);
  let date: SpeedDate;
  try {
    date = parseSpeedDate(bytes);
  } catch (dateError) {
    if (!(dateError instanceof SpeedateError)) throw dateError;
    let datetime: SpeedDateTime;
    try {
      datetime = parseSpeedDateTime(bytes);
    } catch (datetimeError) {
      if (!(datetimeError instanceof SpeedateError)) throw datetimeError;
      const error = SPEEDATE_MESSAGES[datetimeError.code];
      return {
        ok: false,
        error: errorItem('date_from_datetime_parsing', loc, `Input should be a valid date or datetime, ${error}`, raw, { error }),
      };
    }
    const { hour, minute, second, microsecond } = datetime.time;
    if (hour !== 0 || minute !== 0 || second !== 0 || microsecond !== 0) {
      const msg = 'Datetimes provided to dates should have zero time - e.g. be exact dates';
      return { ok: false, error: errorItem('date_from_datetime_inexact', loc, msg, raw) };
    }
    date = datetime.date;
  }
  // speedate accepts year 0 but Python's date does not.
  if (date.year === 0) {
    const error = 'year 0 is out of range';
    return {
      ok: false,
      error: errorItem('date_parsing', loc, `Input should be a valid date in the format YYYY-MM-DD, ${error}`, raw, { error }),
    };
  }
  const pad = (n: number, width: number) => String(n).padStart(width, '0');
  const iso = `${pad(date.year, 4)}-${pad(date.month, 2)}-${pad(date.day, 2)}`;
  return { ok: true, value: { year: date.year, month: date.month, day: date.day, iso } };
}

function validateString(spec: Extract<ParamSpec, { kind: 'string' }>, raw: string, loc: (string | number)[]): Outcome {
  // pydantic counts characters (code points), not UTF-16 units.
  const { minLength, maxLength } = spec;
  const length = [...raw].length;
  if (minLength !== undefined && length < minLength) {
    const msg = `String should have at least ${minLength} character${minLength === 1 ? '' : 's'}`;
    return { ok: false, error: errorItem('string_too_short', loc, msg, raw, { min_length: minLength }) };
  }
  if (maxLength !== undefined && length > maxLength) {
    const msg = `String should have at most ${maxLength} character${maxLength === 1 ? '' : 's'}`;
    return { ok: false, error: errorItem('string_too_long', loc, msg, raw, { max_length: maxLength }) };
  }
  if (spec.noNul && raw.includes('\u0000')) {
    return { ok: false, error: errorItem('value_error', loc, 'Value error, NUL characters are not allowed', raw) };
  }
  return { ok: true, value: raw };
}

/** Validates one raw string against a spec, as a parameter would be (also used for JSON body fields). */
export function validateValue(spec: ParamSpec, raw: string, loc: (string | number)[]): Outcome {
  switch (spec.kind) {
    case 'int':
      return validateInt(spec, raw, loc);
    case 'enum':
      return validateEnum(spec, raw, loc);
    case 'datetime':
      return validateDateTime(raw, loc);
    case 'date':
      return validateDate(raw, loc);
    case 'string':
      return validateString(spec, raw, loc);
  }
}

/** Path parameters are always required in FastAPI; query parameters only when declared so. */
function isRequired(spec: ParamSpec): boolean {
  return spec.in === 'path' || spec.required === true;
}

function defaultOf(spec: ParamSpec): string | number | undefined {
  return spec.kind === 'datetime' || spec.kind === 'date' ? undefined : spec.default;
}

/**
 * The one value of a query parameter, or the error for giving it more than once. FastAPI would
 * silently take the last occurrence; every parameter here is a scalar, so a repetition
 * (`?id=1&id=2`) is a 422 naming the parameter and echoing every value, never input dropped.
 */
export function singleQueryValue(
  name: string,
  value: string | string[] | undefined,
): { ok: true; value: string | undefined } | { ok: false; error: ValidationErrorItem } {
  if (!Array.isArray(value)) return { ok: true, value };
  if (value.length <= 1) return { ok: true, value: value[0] };
  const msg = `Value error, ${name} may be given only once; this request gives it ${value.length} times`;
  return { ok: false, error: errorItem('value_error', ['query', name], msg, value) };
}

/**
 * Validates every parameter and reports every error: path errors first, then query errors, each
 * in declaration order (FastAPI `solve_dependencies`). An empty value (`?x=`) is validated, not
 * treated as missing. Defaults are returned as given, without validation, as FastAPI does.
 */
export function validateParams(
  specs: readonly ParamSpec[],
  raw: { path: Record<string, string | undefined>; query: Record<string, string | string[] | undefined> },
): { values: Record<string, ParamValue>; errors: ValidationErrorItem[] } {
  const values: Record<string, ParamValue> = {};
  const errors: ValidationErrorItem[] = [];
  const ordered = [...specs.filter((s) => s.in === 'path'), ...specs.filter((s) => s.in === 'query')];
  for (const spec of ordered) {
    const loc = [spec.in, spec.name];
    const query = raw.query[spec.name];
    const single =
      spec.in === 'path'
        ? { ok: true as const, value: raw.path[spec.name] }
        : spec.list && Array.isArray(query)
          ? { ok: true as const, value: query.join(',') }
          : singleQueryValue(spec.name, query);
    values[spec.name] = undefined;
    if (!single.ok) {
      errors.push(single.error);
      continue;
    }
    const value = single.value;
    if (value === undefined) {
      if (isRequired(spec)) errors.push(errorItem('missing', loc, 'Field required', null));
      else values[spec.name] = defaultOf(spec);
      continue;
    }
    const outcome = validateValue(spec, value, loc);
    if (outcome.ok) values[spec.name] = outcome.value;
    else errors.push(outcome.error);
  }
  return { values, errors };
}

// ---------------------------------------------------------------------------------------------
// OpenAPI (what FastAPI 0.115 + pydantic 2 publish, with enums inlined instead of $ref)

/** pydantic's default field title: Python `str.title()`, then underscores become spaces. */
export function fieldTitle(name: string): string {
  let out = '';
  let previousCased = false;
  for (const ch of name) {
    const cased = ch.toLowerCase() !== ch.toUpperCase();
    out += cased ? (previousCased ? ch.toLowerCase() : ch.toUpperCase()) : ch;
    previousCased = cased;
  }
  return out.replaceAll('_', ' ').trim();
}

/** The value schema without default, title or nullability; key order as pydantic emits it. */
function valueSchema(spec: ParamSpec): Record<string, unknown> {
  switch (spec.kind) {
    case 'enum':
      return { type: 'string', enum: [...spec.values] };
    case 'int': {
      // pydantic's numeric mapping lists `le` (maximum) before `ge` (minimum).
      const schema: Record<string, unknown> = { type: 'integer' };
      if (spec.le !== undefined) schema.maximum = spec.le;
      if (spec.ge !== undefined) schema.minimum = spec.ge;
      return schema;
    }
    case 'datetime':
      return { type: 'string', format: 'date-time' };
    case 'date':
      return { type: 'string', format: 'date' };
    case 'string': {
      const schema: Record<string, unknown> = { type: 'string' };
      if (spec.maxLength !== undefined) schema.maxLength = spec.maxLength;
      if (spec.minLength !== undefined) schema.minLength = spec.minLength;
      if (spec.examples !== undefined) schema.examples = [...spec.examples];
      return schema;
    }
  }
}

export function openApiParameter(spec: ParamSpec): object {
  const required = isRequired(spec);
  const defaultValue = required ? undefined : defaultOf(spec);
  const title = fieldTitle(spec.name);
  let schema: Record<string, unknown>;
  if (!required && defaultValue === undefined) {
    // `x: T | None = None`: pydantic publishes a nullable union and FastAPI omits the null default.
    schema = { anyOf: [valueSchema(spec), { type: 'null' }], title };
  } else {
    schema = { ...valueSchema(spec) };
    if (defaultValue !== undefined) schema.default = defaultValue;
    schema.title = title;
  }
  const parameter: Record<string, unknown> = { name: spec.name, in: spec.in, required, schema };
  if (spec.description) parameter.description = spec.description;
  return parameter;
}
