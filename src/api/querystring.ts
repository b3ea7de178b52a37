/**
 * Query strings parsed the way Starlette (and so FastAPI) parses them, because the
 * validation errors echo the decoded input: pairs split on '&', '+' is a space, bad
 * percent-escapes are kept as they are, blank values are kept ('?x=' gives ''), and a
 * repeated parameter keeps all its values (validation refuses a repetition: params.ts singleQueryValue).
 */
export function parseQueryString(qs: string): Record<string, string | string[]> {
  const out: Record<string, string | string[]> = Object.create(null);
  for (const pair of qs.split('&')) {
    if (pair === '') continue;
    const eq = pair.indexOf('=');
    const name = decodeQueryComponent(eq < 0 ? pair : pair.slice(0, eq));
    const value = decodeQueryComponent(eq < 0 ? '' : pair.slice(eq + 1));
    const prev = out[name];
    if (prev === undefined) out[name] = value;
    else if (Array.isArray(prev)) prev.push(value);
    else out[name] = [prev, value];
  }
  return out;
}

/** Like Python's unquote_plus: invalid escapes stay literal, invalid UTF-8 becomes U+FFFD. */
export function decodeQueryComponent(s: string): string {
  const plus = s.replace(/\+/g, ' ');
  if (!plus.includes('%')) return plus;
  try {
    return decodeURIComponent(plus);
  } catch {
    const bytes: number[] = [];
    const raw = Buffer.from(plus, 'utf8');
    for (let i = 0; i < raw.length; i++) {
      const hex = raw[i] === 0x25 && i + 2 < raw.length ? raw.toString('latin1', i + 1, i + 3) : '';
      if (/^[0-9a-fA-F]{2}$/.test(hex)) {
        bytes.push(parseInt(hex, 16));
        i += 2;
      } else bytes.push(raw[i]);
    }
    return Buffer.from(bytes).toString('utf8');
  }
}
