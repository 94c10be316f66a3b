/**
 * The value types of kubelet's flags and their `Set` methods, with Go's error texts: strconv's
 * integers and booleans, `time.ParseDuration`, pflag's comma-separated (CSV) string slices, and
 * component-base's map flags (`--feature-gates A=true,B=false`, `--node-labels`,
 * `--manifest-url-header a:b`, `--eviction-hard memory.available<1Gi`), plus kubelet's IP and
 * taint flags. Each parser returns the value or throws a {@link FlagValueError} with the reason
 * pflag puts after `invalid argument "..." for "--flag" flag: `.
 */
import { isQualifiedName, isValidLabelValue } from '../../schema/validation/names.js';
import { goQuote } from '../../util/go-format.js';
import { isSloppyIP } from '../../util/go-net.js';
import { goParseDuration, formatGoDuration } from '../../config/nodeagent/go-duration.js';
import type { ConfigTaint } from '../../config/nodeagent/types.js';

/** A value a flag's `Set` refuses; `message` is the reason only. */
export class FlagValueError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'FlagValueError';
  }
}

const fail = (message: string): never => {
  throw new FlagValueError(message);
};

/** `strconv.ParseBool`. */
export function parseGoBool(s: string): boolean {
  if (['1', 't', 'T', 'TRUE', 'true', 'True'].includes(s)) return true;
  if (['0', 'f', 'F', 'FALSE', 'false', 'False'].includes(s)) return false;
  return fail(`strconv.ParseBool: parsing ${goQuote(s)}: invalid syntax`);
}

/** `underscoreOK` of strconv: underscores only between digits, after a base prefix at most. */
function underscoreOK(text: string): boolean {
  let s = text.replace(/^[-+]/, '');
  let saw = '^';
  let i = 0;
  let hex = false;
  if (s.length >= 2 && s[0] === '0' && 'box'.includes(s[1]!.toLowerCase())) {
    i = 2;
    saw = '0';
    hex = s[1]!.toLowerCase() === 'x';
  }
  for (; i < s.length; i++) {
    const c = s[i]!;
    if ((c >= '0' && c <= '9') || (hex && /[a-fA-F]/.test(c))) {
      saw = '0';
      continue;
    }
    if (c === '_') {
      if (saw !== '0') return false;
      saw = '_';
      continue;
    }
    if (saw === '_') return false;
    saw = '!';
  }
  s = '';
  return saw !== '_';
}

/** `strconv.ParseInt(s, 0, bits)`: decimal, `0x`, `0o`, `0b` or leading-zero octal, `_` separators. */
export function parseGoInt(s: string, bits: 32 | 64): number {
  const syntax = () => fail(`strconv.ParseInt: parsing ${goQuote(s)}: invalid syntax`);
  const range = () => fail(`strconv.ParseInt: parsing ${goQuote(s)}: value out of range`);
  if (s === '') return syntax();
  let body = s;
  let negative = false;
  if (body[0] === '+' || body[0] === '-') {
    negative = body[0] === '-';
    body = body.slice(1);
    if (body === '') return syntax();
  }
  let base = 10n;
  let underscores = false;
  if (body[0] === '0') {
    const p = body[1]?.toLowerCase();
    if (body.length >= 3 && (p === 'b' || p === 'o' || p === 'x')) {
      base = p === 'b' ? 2n : p === 'o' ? 8n : 16n;
      body = body.slice(2);
    } else {
      base = 8n;
      body = body.slice(1);
    }
    underscores = true;
  }
  const limit = 1n << 64n;
  let n = 0n;
  let overflow = false;
  for (const c of body) {
    if (c === '_') {
      underscores = true;
      continue;
    }
    const d = /[0-9]/.test(c) ? BigInt(c.charCodeAt(0) - 48) : /[a-zA-Z]/.test(c) ? BigInt(c.toLowerCase().charCodeAt(0) - 87) : 99n;
    if (d >= base) return syntax();
    if (!overflow) {
      n = n * base + d;
      if (n >= limit) overflow = true;
    }
  }
  if (underscores && !underscoreOK(s)) return syntax();
  if (overflow) return range();
  const cutoff = 1n << BigInt(bits - 1);
  if (negative ? n > cutoff : n >= cutoff) return range();
  return Number(negative ? -n : n);
}

/** `time.ParseDuration`, the value in Go's `String()` form (`1m0s`). */
export function parseFlagDuration(s: string): string {
  const parsed = goParseDuration(s);
  return parsed.ok ? formatGoDuration(parsed.nanos) : fail(parsed.error);
}

/** pflag's `readAsCSV` of one line: fields split at commas, `"..."` quoting with `""` for a quote. */
export function parseCsvLine(text: string): string[] {
  if (text === '') return [];
  const line = text.split('\n')[0]!.replace(/\r$/, '');
  const fields: string[] = [];
  let i = 0;
  for (;;) {
    if (line[i] === '"') {
      const start = i;
      let field = '';
      i++;
      for (;;) {
        if (i >= line.length) return fail(`parse error on line 1, column ${start + 1}: extraneous or missing " in quoted-field`);
        if (line[i] === '"') {
          if (line[i + 1] === '"') {
            field += '"';
            i += 2;
            continue;
          }
          i++;
          break;
        }
        field += line[i++];
      }
      if (i < line.length && line[i] !== ',') return fail(`parse error on line 1, column ${i + 1}: extraneous or missing " in quoted-field`);
      fields.push(field);
    } else {
      const end = line.indexOf(',', i);
      const field = end < 0 ? line.slice(i) : line.slice(i, end);
      const quote = field.indexOf('"');
      if (quote >= 0) return fail(`parse error on line 1, column ${i + quote + 1}: bare " in non-quoted-field`);
      fields.push(field);
      i = end < 0 ? line.length : end;
    }
    if (i >= line.length) return fields;
    i++; // the comma
    if (i >= line.length) {
      fields.push('');
      return fields;
    }
  }
}

/** kubelet's `IPVar.Set`: empty, or an IP (`ParseIPSloppy`). */
export function parseFlagIP(s: string): string {
  if (s === '') return '';
  return isSloppyIP(s) ? s : fail(`${goQuote(s)} is not a valid IP address`);
}

/** `MapStringBool.Set`: `A=true,B=false` into `into`. */
export function parseMapStringBool(value: string, into: Record<string, boolean>): void {
  for (const raw of value.split(',')) {
    const s = raw.trim();
    if (s === '') continue;
    const eq = s.indexOf('=');
    if (eq < 0) fail(`missing bool value for ${s}`);
    const k = s.slice(0, eq).trim();
    const v = s.slice(eq + 1).trim();
    let b: boolean;
    try {
      b = parseGoBool(v);
    } catch (e) {
      return fail(`invalid value of ${k}=${v}, err: ${(e as Error).message}`);
    }
    Object.defineProperty(into, k, { value: b, enumerable: true, writable: true, configurable: true });
  }
}

/** `MapStringString.Set` (and its `<`-separated variant): `k=v,k2=v2` into `into`; one pair only when `noSplit`. */
export function parseMapStringString(value: string, into: Record<string, string>, separator: '=' | '<' = '=', noSplit = false): void {
  const pairs = noSplit ? [value] : value.split(',');
  for (const raw of pairs) {
    const s = noSplit ? raw : raw.trim();
    if (!noSplit && s === '') continue;
    const at = s.indexOf(separator);
    if (at < 0) fail(`malformed pair, expect string${separator}string`);
    Object.defineProperty(into, s.slice(0, at).trim(), { value: s.slice(at + 1).trim(), enumerable: true, writable: true, configurable: true });
  }
}

/** `ColonSeparatedMultimapStringString.Set`: `a:hello,b:again` appended into `into`. */
export function parseColonMultimap(value: string, into: Record<string, string[]>): void {
  for (const pair of value.split(',')) {
    if (pair === '') continue;
    const at = pair.indexOf(':');
    if (at < 0) fail('malformed pair, expect string:string');
    const k = pair.slice(0, at).trim();
    const list = Object.hasOwn(into, k) ? into[k]! : [];
    list.push(pair.slice(at + 1));
    Object.defineProperty(into, k, { value: list, enumerable: true, writable: true, configurable: true });
  }
}

/** `ConfigurationMap.Set` (`--node-labels`): `k=v` pairs, a bare key meaning an empty value. */
export function parseConfigurationMap(value: string, into: Record<string, string>): void {
  for (const s of value.split(',')) {
    if (s === '') continue;
    const eq = s.indexOf('=');
    const k = (eq < 0 ? s : s.slice(0, eq)).trim();
    Object.defineProperty(into, k, { value: eq < 0 ? '' : s.slice(eq + 1).trim(), enumerable: true, writable: true, configurable: true });
  }
}

const TAINT_EFFECTS = ['NoSchedule', 'PreferNoSchedule', 'NoExecute'];

/** `parseTaint`: `key`, `key:Effect` or `key=value:Effect`, each part checked in upstream's order. */
function parseTaint(spec: string): ConfigTaint {
  const parts = spec.split(':');
  let key: string;
  let value = '';
  let effect = '';
  if (parts.length === 1) key = parts[0]!;
  else if (parts.length === 2) {
    effect = parts[1]!;
    if (!TAINT_EFFECTS.includes(effect)) fail(`invalid taint effect: ${effect}, unsupported taint effect`);
    const kv = parts[0]!.split('=');
    if (kv.length > 2) fail(`invalid taint spec: ${spec}`);
    key = kv[0]!;
    if (kv.length === 2) {
      value = kv[1]!;
      const errs = isValidLabelValue(value);
      if (errs.length) fail(`invalid taint spec: ${spec}, ${errs.join('; ')}`);
    }
  } else return fail(`invalid taint spec: ${spec}`);
  const keyErrs = isQualifiedName(key);
  if (keyErrs.length) fail(`invalid taint spec: ${spec}, ${keyErrs.join('; ')}`);
  return { key, ...(value ? { value } : {}), ...(effect ? { effect } : {}) };
}

/**
 * `utiltaints.ParseTaints` as `--register-with-taints` uses it (`key=value:Effect,...`): a taint
 * to add needs an effect and is unique by key and effect; `key-` removals are checked and dropped.
 */
export function parseTaints(value: string): ConfigTaint[] {
  if (value === '') return [];
  const taints: ConfigTaint[] = [];
  const seen = new Set<string>();
  for (const spec of value.split(',')) {
    if (spec.endsWith('-')) {
      parseTaint(spec.slice(0, -1));
      continue;
    }
    const taint = parseTaint(spec);
    if (!taint.effect) fail(`invalid taint spec: ${spec}`);
    const id = `${taint.effect}\u0000${taint.key}`;
    if (seen.has(id)) fail(`duplicated taints with the same key and effect: {${taint.key} ${taint.value ?? ''} ${taint.effect} <nil>}`);
    seen.add(id);
    taints.push(taint);
  }
  return taints;
}
