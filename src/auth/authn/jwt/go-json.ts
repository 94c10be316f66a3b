/**
 * The few `encoding/json` error texts the OIDC authenticator passes on: syntax errors of a
 * discovery document or key set, and type errors unmarshaling a claim into a Go string, bool or
 * string slice.
 */

/** The JSON kind Go names in an `UnmarshalTypeError` (`number`, `string`, `bool`, `array`, `object`). */
export function goJsonKind(value: unknown): string {
  if (Array.isArray(value)) return 'array';
  if (typeof value === 'boolean') return 'bool';
  return typeof value;
}

/** `json: cannot unmarshal <kind> into Go value of type <type>`. */
export function goUnmarshalTypeError(value: unknown, goType: string): string {
  return `json: cannot unmarshal ${goJsonKind(value)} into Go value of type ${goType}`;
}

/** Go's `quoteChar`. */
function quoteChar(c: string): string {
  if (c === "'") return `'\\''`;
  if (c === '"') return `'"'`;
  const q = JSON.stringify(c);
  return `'${q.slice(1, -1)}'`;
}

/**
 * Parses JSON text; on failure throws an `Error` with Go's syntax error text where it can tell it
 * (`unexpected end of JSON input`, `invalid character 'g' looking for beginning of value`,
 * `invalid character 'x' after top-level value`), else `invalid character ... ` at the offending
 * character.
 */
export function goParseJson(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch (e) {
    const trimmed = text.replace(/^[ \t\r\n]+/, '');
    if (trimmed === '') throw new Error('unexpected end of JSON input');
    const first = trimmed[0]!;
    if (!/[{["tfn0-9-]/.test(first)) throw new Error(`invalid character ${quoteChar(first)} looking for beginning of value`);
    const message = e instanceof Error ? e.message : '';
    if (/end of (JSON )?input|Unterminated/i.test(message)) throw new Error('unexpected end of JSON input');
    const at = /position (\d+)/.exec(message);
    const pos = at ? Number(at[1]) : -1;
    const c = pos >= 0 ? text[pos] : undefined;
    if (c === undefined) throw new Error('unexpected end of JSON input');
    // A complete value followed by more text.
    try {
      JSON.parse(text.slice(0, pos));
      throw new Error(`invalid character ${quoteChar(c)} after top-level value`);
    } catch (inner) {
      if (inner instanceof Error && inner.message.startsWith('invalid character')) throw inner;
    }
    throw new Error(`invalid character ${quoteChar(c)} looking for beginning of value`);
  }
}
