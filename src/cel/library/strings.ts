/**
 * cel-go's strings extension at version 2 (ext/strings.go), as Kubernetes enables it since 1.29:
 * charAt, indexOf, lastIndexOf, lowerAscii, upperAscii, replace, split, substring, trim, join,
 * strings.quote and format. Indexes count code points.
 */
import { ArrayList, CelError, ListValue, type Result, type Value } from '../values/values.js';
import { fn, overload, type FunctionDecl } from '../functions/declarations.js';
import { formatValue } from './format-string.js';

const cps = (s: string): string[] => Array.from(s);
const GO_SPACE = '\\t\\n\\v\\f\\r \\u0085\\u00a0\\u1680\\u2000-\\u200a\\u2028\\u2029\\u202f\\u205f\\u3000';
const GO_SPACE_ENDS = new RegExp(`^[${GO_SPACE}]+|[${GO_SPACE}]+$`, 'g');
const outOfRange = (i: bigint | number): CelError => new CelError(`index out of range: ${i}`);

function indexOf(s: string, sub: string, offset: bigint): Result {
  const chars = cps(s);
  if (offset < 0n || offset > BigInt(chars.length)) return outOfRange(offset);
  const subChars = cps(sub);
  const start = Number(offset);
  for (let i = start; i + subChars.length <= chars.length; i++) {
    if (subChars.every((c, j) => chars[i + j] === c)) return BigInt(i);
  }
  return -1n;
}

function lastIndexOf(s: string, sub: string, offset: bigint | undefined): Result {
  const chars = cps(s);
  const subChars = cps(sub);
  if (offset === undefined) {
    if (subChars.length === 0) return BigInt(chars.length);
    offset = BigInt(chars.length - 1);
  } else if (offset < 0n || offset >= BigInt(Math.max(chars.length, 1))) return outOfRange(offset);
  if (subChars.length === 0) return offset;
  for (let i = Math.min(Number(offset), chars.length - subChars.length); i >= 0; i--) {
    if (subChars.every((c, j) => chars[i + j] === c)) return BigInt(i);
  }
  return -1n;
}

/** Go's strings.Replace. */
function replace(s: string, old: string, rep: string, n: bigint): string {
  if (n === 0n || (old === rep && old !== '')) return s;
  if (old === '') {
    const chars = cps(s);
    const out: string[] = [];
    let count = 0n;
    for (let i = 0; i <= chars.length; i++) {
      if (n < 0n || count < n) {
        out.push(rep);
        count++;
      }
      if (i < chars.length) out.push(chars[i]!);
    }
    return out.join('');
  }
  const parts = s.split(old);
  if (n < 0n || BigInt(parts.length - 1) <= n) return parts.join(rep);
  const k = Number(n);
  return parts.slice(0, k + 1).join(rep) + old + parts.slice(k + 1).join(old);
}

/** Go's strings.SplitN. */
function split(s: string, sep: string, n: bigint): string[] {
  if (n === 0n) return [];
  if (sep === '') {
    const chars = cps(s);
    if (n < 0n || BigInt(chars.length) <= n) return chars;
    const k = Number(n);
    return [...chars.slice(0, k - 1), chars.slice(k - 1).join('')];
  }
  const parts = s.split(sep);
  if (n < 0n || BigInt(parts.length) <= n) return parts;
  const k = Number(n);
  return [...parts.slice(0, k - 1), parts.slice(k - 1).join(sep)];
}

function substring(s: string, start: bigint, end: bigint | undefined): Result {
  const chars = cps(s);
  const len = BigInt(chars.length);
  if (end === undefined) {
    if (start < 0n || start > len) return outOfRange(start);
    return chars.slice(Number(start)).join('');
  }
  if (start < 0n || start > len) return outOfRange(start);
  if (end < 0n || end > len) return outOfRange(end);
  if (start > end) return new CelError(`invalid substring range. start: ${start}, end: ${end}`);
  return chars.slice(Number(start), Number(end)).join('');
}

/** Go's strconv.Quote (what strings.quote returns). */
function quote(s: string): string {
  let out = '"';
  for (const ch of s) {
    const cp = ch.codePointAt(0)!;
    if (ch === '"' || ch === '\\') out += `\\${ch}`;
    else if (cp === 7) out += '\\a';
    else if (cp === 8) out += '\\b';
    else if (cp === 12) out += '\\f';
    else if (cp === 10) out += '\\n';
    else if (cp === 13) out += '\\r';
    else if (cp === 9) out += '\\t';
    else if (cp === 11) out += '\\v';
    else if (cp < 0x20 || cp === 0x7f) out += `\\x${cp.toString(16).padStart(2, '0')}`;
    else if (cp >= 0xd800 && cp <= 0xdfff) out += '\\ufffd';
    else out += ch;
  }
  return `${out}"`;
}

function join(list: ListValue, sep: string): string {
  return [...list].map((v) => v as string).join(sep);
}

/** The declarations of the strings extension. */
export function stringsFunctions(): FunctionDecl[] {
  return [
    fn(
      'charAt',
      overload('string_char_at_int', 'string.(int) -> string', (a) => {
        const chars = cps(a[0] as string);
        const i = a[1] as bigint;
        if (i < 0n || i > BigInt(chars.length)) return outOfRange(i);
        return chars[Number(i)] ?? '';
      }),
    ),
    fn(
      'indexOf',
      overload('string_index_of_string', 'string.(string) -> int', (a) => indexOf(a[0] as string, a[1] as string, 0n)),
      overload('string_index_of_string_int', 'string.(string, int) -> int', (a) => indexOf(a[0] as string, a[1] as string, a[2] as bigint)),
    ),
    fn(
      'lastIndexOf',
      overload('string_last_index_of_string', 'string.(string) -> int', (a) => lastIndexOf(a[0] as string, a[1] as string, undefined)),
      overload('string_last_index_of_string_int', 'string.(string, int) -> int', (a) => lastIndexOf(a[0] as string, a[1] as string, a[2] as bigint)),
    ),
    fn(
      'lowerAscii',
      overload('string_lower_ascii', 'string.() -> string', (a) => (a[0] as string).replace(/[A-Z]+/g, (m) => m.toLowerCase())),
    ),
    fn(
      'upperAscii',
      overload('string_upper_ascii', 'string.() -> string', (a) => (a[0] as string).replace(/[a-z]+/g, (m) => m.toUpperCase())),
    ),
    fn(
      'replace',
      overload('string_replace_string_string', 'string.(string, string) -> string', (a) => replace(a[0] as string, a[1] as string, a[2] as string, -1n)),
      overload('string_replace_string_string_int', 'string.(string, string, int) -> string', (a) =>
        replace(a[0] as string, a[1] as string, a[2] as string, a[3] as bigint),
      ),
    ),
    fn(
      'split',
      overload('string_split_string', 'string.(string) -> list(string)', (a) => new ArrayList(split(a[0] as string, a[1] as string, -1n))),
      overload('string_split_string_int', 'string.(string, int) -> list(string)', (a) => new ArrayList(split(a[0] as string, a[1] as string, a[2] as bigint))),
    ),
    fn(
      'substring',
      overload('string_substring_int', 'string.(int) -> string', (a) => substring(a[0] as string, a[1] as bigint, undefined)),
      overload('string_substring_int_int', 'string.(int, int) -> string', (a) => substring(a[0] as string, a[1] as bigint, a[2] as bigint)),
    ),
    // Go's strings.TrimSpace: Unicode white space at both ends.
    fn(
      'trim',
      overload('string_trim', 'string.() -> string', (a) => (a[0] as string).replace(GO_SPACE_ENDS, '')),
    ),
    fn(
      'join',
      overload('list_join', 'list(string).() -> string', (a) => join(a[0] as ListValue, '')),
      overload('list_join_string', 'list(string).(string) -> string', (a) => join(a[0] as ListValue, a[1] as string)),
    ),
    fn(
      'strings.quote',
      overload('strings_quote', '(string) -> string', (a) => quote(a[0] as string)),
    ),
    fn(
      'format',
      overload('string_format', 'string.(list(dyn)) -> string', (a) => formatValue(a[0] as string, [...(a[1] as ListValue)] as Value[])),
    ),
  ];
}
