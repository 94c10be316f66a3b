/**
 * Label selectors, parsed and matched exactly as the Kubernetes API server (v1.36) does.
 *
 * Behaviour and messages follow `k8s.io/apimachinery` v0.36:
 * - `pkg/labels/selector.go` — the lexer, the recursive-descent parser, `NewRequirement`,
 *   `Requirement.Matches`, `Requirement.String`, `RequiresExactMatch`.
 * - `pkg/api/validate/content/kube.go`, `dns.go`, `errors.go` — `IsLabelKey` (qualified name)
 *   and `IsLabelValue`, with their detail messages.
 * - `pkg/util/validation/field/{errors,path}.go`, `pkg/util/errors/errors.go` — how a
 *   `field.Invalid` error and an aggregate of several render as text.
 * - `pkg/apis/meta/v1/helpers.go` — `LabelSelectorAsSelector`.
 *
 * The API server answers a bad `?labelSelector=` with `400 BadRequest` whose `message` is exactly
 * `labels.Parse(...)`'s error text (`apiserver/pkg/endpoints/handlers/get.go` `listOpts` ->
 * `errors.NewBadRequest(err.Error())`, nothing prepended). {@link SelectorParseError.message}
 * carries that text. Its shapes are:
 *
 * - `unable to parse requirement: <detail>` where `<detail>` is one of
 *   - `<nil>: Invalid value: "<key>": <reasons joined by "; ">` (a bad key; the path really is `<nil>`)
 *   - `values[<i>][<key>]: Invalid value: "<value>": <reason>` (a bad value; `<i>` indexes the
 *     sorted, de-duplicated value set)
 *   - `values[<i>]: Invalid value: "<value>": for 'Gt', 'Lt' operators, the value must be an integer`
 *   - `[<error>, <error>]` when several of the above apply to one requirement
 *   - `found '<tok>', expected: identifier`
 *   - `found '<tok>', expected: in, notin, =, ==, !=, gt, lt`
 *   - `found '<tok>' expected: '('` (sic, no comma)
 *   - `found '<tok>', expected: ',', ')' or identifier`
 *   - `found '<tok>', expected: ',' or ')'`
 *   - `found '<tok>', expected: ',', or identifier`
 * - `found '<tok>', expected: identifier after ','`
 * - `found '<tok>', expected: ',' or 'end of string'`
 * - `found '<tok>', expected: !, identifier, or 'end of string'`
 *
 * `<tok>` is the raw token text (empty at the end of the input); quoted values use Go's `%q`.
 */

/** The operators of `k8s.io/apimachinery/pkg/selection`, spelled as Kubernetes spells them. */
export type LabelOperator = 'in' | 'notin' | '=' | '==' | '!=' | 'exists' | '!' | 'gt' | 'lt';

/** One requirement of a label selector (`labels.Requirement`). */
export interface LabelRequirement {
  readonly key: string;
  readonly operator: LabelOperator;
  /**
   * The values. For parsed selectors this is the sorted, de-duplicated set (as Kubernetes keeps
   * it); for {@link labelSelectorFromObject} it is the list as given. Empty for `exists` and `!`.
   */
  readonly values: readonly string[];
}

/** A label selector (`labels.Selector`). Immutable. */
export interface LabelSelector {
  /** The requirements, all of which must hold, sorted by key (stable). */
  readonly requirements: readonly LabelRequirement[];
  /**
   * `false` only for the "nothing" selector (a nil `metav1.LabelSelector`), which matches no
   * object at all; mirrors the `selectable` result of Go's `Requirements()`.
   */
  readonly selectable: boolean;
  /** Whether all requirements hold for these labels (`undefined` = no labels). */
  matches(labels: Readonly<Record<string, string>> | undefined): boolean;
  /** True when the selector does not restrict anything (matches everything). */
  empty(): boolean;
  /** The canonical text form, as Go's `Selector.String()` (requirements sorted by key, values sorted). */
  toString(): string;
  /**
   * Go's `RequiresExactMatch`: looks at the first requirement on `key`; if it is `=`, `==` or `in`
   * with exactly one value, returns that value, otherwise `undefined`.
   */
  exactValue(key: string): string | undefined;
}

/** A selector string (or `metav1.LabelSelector`) Kubernetes would reject; `message` is Kubernetes' text. */
export class SelectorParseError extends Error {
  override readonly name = 'SelectorParseError';
  /** Which kind of selector failed. */
  readonly selectorKind: 'label' | 'field';
  constructor(message: string, selectorKind: 'label' | 'field' = 'label') {
    super(message);
    this.selectorKind = selectorKind;
  }
}

// ---------------------------------------------------------------------------------------------
// Go formatting helpers

const printable = /^[\p{L}\p{M}\p{N}\p{P}\p{S}]$/u;

function hex(n: number, width: number): string {
  return n.toString(16).padStart(width, '0');
}

/**
 * Go's `strconv.Quote` (`%q`): escapes `"` and `\`, the usual C escapes, other control and
 * non-printable characters as `\xHH` / `\uHHHH` / `\UHHHHHHHH`. Lone UTF-16 surrogates (which
 * cannot reach Go from an HTTP request) are rendered as U+FFFD, like an UTF-8 encoder would.
 */
export function goQuote(s: string): string {
  let out = '"';
  for (const ch of s) {
    let cp = ch.codePointAt(0)!;
    if (cp >= 0xd800 && cp <= 0xdfff) cp = 0xfffd;
    if (cp === 0x22 || cp === 0x5c) {
      out += '\\' + String.fromCodePoint(cp);
    } else if (cp === 0x20 || printable.test(String.fromCodePoint(cp))) {
      out += String.fromCodePoint(cp);
    } else {
      switch (cp) {
        case 0x07: out += '\\a'; break;
        case 0x08: out += '\\b'; break;
        case 0x0c: out += '\\f'; break;
        case 0x0a: out += '\\n'; break;
        case 0x0d: out += '\\r'; break;
        case 0x09: out += '\\t'; break;
        case 0x0b: out += '\\v'; break;
        default:
          if (cp < 0x20 || cp === 0x7f) out += '\\x' + hex(cp, 2);
          else if (cp < 0x10000) out += '\\u' + hex(cp, 4);
          else out += '\\U' + hex(cp, 8);
      }
    }
  }
  return out + '"';
}

/** Go's `encoding/json` rendering of a string (HTML-safe: `<`, `>`, `&`, U+2028/9 escaped). */
function goJSONString(s: string): string {
  return JSON.stringify(s.replace(/[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g, '\ufffd')).replace(
    /[<>&\u2028\u2029]/g,
    (c) => '\\u' + hex(c.charCodeAt(0), 4),
  );
}

/** Length in bytes of the UTF-8 encoding (Go's `len(string)`). */
function utf8Length(s: string): number {
  let n = 0;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c < 0x80) n += 1;
    else if (c < 0x800) n += 2;
    else if (c >= 0xd800 && c <= 0xdbff && i + 1 < s.length && (s.charCodeAt(i + 1) & 0xfc00) === 0xdc00) {
      n += 4;
      i++;
    } else n += 3;
  }
  return n;
}

/** Byte-wise (UTF-8) string order, as Go's `<` on strings; equals Unicode code point order. */
export function compareGoStrings(a: string, b: string): number {
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) {
    const x = a.charCodeAt(i);
    const y = b.charCodeAt(i);
    if (x === y) continue;
    // Surrogates (supplementary code points) sort after every BMP code unit in UTF-8 order.
    const xs = x >= 0xd800 && x <= 0xdfff;
    const ys = y >= 0xd800 && y <= 0xdfff;
    if (xs !== ys) return xs ? 1 : -1;
    return x < y ? -1 : 1;
  }
  return a.length === b.length ? 0 : a.length < b.length ? -1 : 1;
}

/** `field.Invalid(path, value, detail).Error()`. */
function invalid(path: string, value: string | readonly string[] | null, detail: string): string {
  const rendered =
    typeof value === 'string' ? goQuote(value) : value === null ? 'null' : `[${value.map(goJSONString).join(',')}]`;
  return `${path}: Invalid value: ${rendered}${detail ? `: ${detail}` : ''}`;
}

/** `errors.NewAggregate(...).Error()` — one message as is, several de-duplicated in brackets. */
function aggregate(messages: readonly string[]): string {
  const unique = [...new Set(messages)];
  return unique.length === 1 ? unique[0]! : `[${unique.join(', ')}]`;
}

// ---------------------------------------------------------------------------------------------
// Validation (content.IsLabelKey / content.IsLabelValue)

const labelKeyFmt = '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]';
const labelValueFmt = `(${labelKeyFmt})?`;
const dns1123SubdomainFmt = '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*';

/** `content.RegexError`. */
function regexError(msg: string, re: string, ...examples: string[]): string {
  if (examples.length === 0) return `${msg} (regex used for validation is '${re}')`;
  return `${msg} (e.g. ${examples.map((e) => `'${e}', `).join(' or ')}regex used for validation is '${re}')`;
}

const maxLenError = (n: number): string => `must be no more than ${n} bytes`;
const emptyError = 'must be non-empty';

const labelKeyErrMsg =
  "must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character";
const labelKeyRegexError = regexError(labelKeyErrMsg, labelKeyFmt, 'MyName', 'my.name', '123-abc');
const labelValueRegexError = regexError(
  "a valid label must be an empty string or consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character",
  labelValueFmt,
  'MyValue',
  'my_value',
  '12345',
);
const dns1123SubdomainRegexError = regexError(
  "a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character",
  dns1123SubdomainFmt,
  'example.com',
);

const isAlnum = (c: number): boolean => (c >= 0x30 && c <= 0x39) || (c >= 0x41 && c <= 0x5a) || (c >= 0x61 && c <= 0x7a);
const isLowerAlnum = (c: number): boolean => (c >= 0x30 && c <= 0x39) || (c >= 0x61 && c <= 0x7a);

/** `^([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]$`, without a regex engine. */
function isLabelName(s: string): boolean {
  const n = s.length;
  if (n === 0 || !isAlnum(s.charCodeAt(0)) || !isAlnum(s.charCodeAt(n - 1))) return false;
  for (let i = 1; i < n - 1; i++) {
    const c = s.charCodeAt(i);
    if (!isAlnum(c) && c !== 0x2d && c !== 0x5f && c !== 0x2e) return false;
  }
  return true;
}

/** `^[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$`. */
function isDNS1123Subdomain(s: string): boolean {
  if (s.length === 0) return false;
  for (const label of s.split('.')) {
    const n = label.length;
    if (n === 0 || !isLowerAlnum(label.charCodeAt(0)) || !isLowerAlnum(label.charCodeAt(n - 1))) return false;
    for (let i = 1; i < n - 1; i++) {
      const c = label.charCodeAt(i);
      if (!isLowerAlnum(c) && c !== 0x2d) return false;
    }
  }
  return true;
}

/** `content.IsLabelKey` (a.k.a. `IsQualifiedName`): the list of problems, empty when valid. */
export function labelKeyErrors(key: string): string[] {
  const errs: string[] = [];
  const parts = key.split('/');
  let name: string;
  if (parts.length === 1) {
    name = parts[0]!;
  } else if (parts.length === 2) {
    const prefix = parts[0]!;
    name = parts[1]!;
    if (prefix.length === 0) {
      errs.push(`prefix part ${emptyError}`);
    } else {
      if (utf8Length(prefix) > 253) errs.push(`prefix part ${maxLenError(253)}`);
      if (!isDNS1123Subdomain(prefix)) errs.push(`prefix part ${dns1123SubdomainRegexError}`);
    }
  } else {
    errs.push(
      `a valid label key ${labelKeyRegexError} with an optional DNS subdomain prefix and '/' (e.g. 'example.com/MyName')`,
    );
    return errs;
  }
  if (name.length === 0) errs.push(`name part ${emptyError}`);
  else if (utf8Length(name) > 63) errs.push(`name part ${maxLenError(63)}`);
  if (!isLabelName(name)) errs.push(`name part ${labelKeyRegexError}`);
  return errs;
}

/** `content.IsLabelValue`: the list of problems, empty when valid. */
export function labelValueErrors(value: string): string[] {
  const errs: string[] = [];
  if (utf8Length(value) > 63) errs.push(maxLenError(63));
  if (value.length !== 0 && !isLabelName(value)) errs.push(labelValueRegexError);
  return errs;
}

// ---------------------------------------------------------------------------------------------
// Requirements

/** `strconv.ParseInt(s, 10, 64)`; `undefined` when Go would return an error. */
function parseInt64(s: string): bigint | undefined {
  if (!/^[+-]?[0-9]+$/.test(s)) return undefined;
  const digits = s.replace(/^[+-]?0*/, '');
  if (digits.length > 19) return undefined;
  const v = BigInt(s);
  if (v > 9223372036854775807n || v < -9223372036854775808n) return undefined;
  return v;
}

/**
 * `labels.NewRequirement`: builds a requirement and collects the error messages Kubernetes would
 * (paths relative to a nil root: `key`, `values`, `values[i]`, `values[i][key]`).
 */
function newRequirement(key: string, operator: LabelOperator, values: readonly string[]): { req: LabelRequirement; errors: string[] } {
  const errors: string[] = [];
  const keyErrs = labelKeyErrors(key);
  if (keyErrs.length) errors.push(invalid('key', key, keyErrs.join('; ')));
  const badSet = values.length === 0 ? null : values;
  switch (operator) {
    case 'in':
    case 'notin':
      if (values.length === 0) errors.push(invalid('values', badSet, "for 'in', 'notin' operators, values set can't be empty"));
      break;
    case '=':
    case '==':
    case '!=':
      if (values.length !== 1) errors.push(invalid('values', badSet, 'exact-match compatibility requires one single value'));
      break;
    case 'exists':
    case '!':
      if (values.length !== 0) errors.push(invalid('values', badSet, 'values set must be empty for exists and does not exist'));
      break;
    case 'gt':
    case 'lt':
      if (values.length !== 1) errors.push(invalid('values', badSet, "for 'Gt', 'Lt' operators, exactly one value is required"));
      values.forEach((v, i) => {
        if (parseInt64(v) === undefined) {
          errors.push(invalid(`values[${i}]`, v, "for 'Gt', 'Lt' operators, the value must be an integer"));
        }
      });
      break;
  }
  values.forEach((v, i) => {
    const errs = labelValueErrors(v);
    if (errs.length) errors.push(invalid(`values[${i}][${key}]`, v, errs.join('; ')));
  });
  return { req: Object.freeze({ key, operator, values: Object.freeze([...values]) }), errors };
}

function has(labels: Readonly<Record<string, string>> | undefined, key: string): labels is Readonly<Record<string, string>> {
  return labels !== undefined && labels !== null && Object.prototype.hasOwnProperty.call(labels, key);
}

/** `Requirement.Matches`. */
export function requirementMatches(r: LabelRequirement, labels: Readonly<Record<string, string>> | undefined): boolean {
  switch (r.operator) {
    case 'in':
    case '=':
    case '==':
      return has(labels, r.key) && r.values.includes(labels[r.key]!);
    case 'notin':
    case '!=':
      return !has(labels, r.key) || !r.values.includes(labels[r.key]!);
    case 'exists':
      return has(labels, r.key);
    case '!':
      return !has(labels, r.key);
    case 'gt':
    case 'lt': {
      if (!has(labels, r.key) || r.values.length !== 1) return false;
      const actual = parseInt64(String(labels[r.key]));
      const bound = parseInt64(r.values[0]!);
      if (actual === undefined || bound === undefined) return false;
      return r.operator === 'gt' ? actual > bound : actual < bound;
    }
    default:
      return false;
  }
}

const operatorText: Record<LabelOperator, string> = {
  '=': '=',
  '==': '==',
  '!=': '!=',
  in: ' in ',
  notin: ' notin ',
  gt: '>',
  lt: '<',
  exists: '',
  '!': '',
};

/** `Requirement.String`. */
export function requirementString(r: LabelRequirement): string {
  if (r.operator === 'exists') return r.key;
  if (r.operator === '!') return `!${r.key}`;
  const values = r.values.length === 1 ? r.values[0]! : [...r.values].sort(compareGoStrings).join(',');
  const set = r.operator === 'in' || r.operator === 'notin';
  return `${r.key}${operatorText[r.operator]}${set ? `(${values})` : values}`;
}

class InternalSelector implements LabelSelector {
  readonly selectable = true;
  readonly requirements: readonly LabelRequirement[];
  constructor(requirements: readonly LabelRequirement[]) {
    this.requirements = Object.freeze(requirements.slice());
  }
  matches(labels: Readonly<Record<string, string>> | undefined): boolean {
    for (const r of this.requirements) if (!requirementMatches(r, labels)) return false;
    return true;
  }
  empty(): boolean {
    return this.requirements.length === 0;
  }
  toString(): string {
    return this.requirements.map(requirementString).join(',');
  }
  exactValue(key: string): string | undefined {
    for (const r of this.requirements) {
      if (r.key !== key) continue;
      if ((r.operator === '=' || r.operator === '==' || r.operator === 'in') && r.values.length === 1) return r.values[0];
      return undefined;
    }
    return undefined;
  }
}

const NOTHING: LabelSelector = Object.freeze({
  requirements: Object.freeze([]) as readonly LabelRequirement[],
  selectable: false,
  matches: () => false,
  empty: () => false,
  toString: () => '',
  exactValue: () => undefined,
});

const EVERYTHING: LabelSelector = new InternalSelector([]);

/** `labels.Everything()`: matches every object. */
export function everythingLabelSelector(): LabelSelector {
  return EVERYTHING;
}

/** `labels.Nothing()`: matches no object (what a nil `metav1.LabelSelector` becomes). */
export function nothingLabelSelector(): LabelSelector {
  return NOTHING;
}

/**
 * Sorts by key like Go's `sort.Sort(ByKey(...))`. Go's sort is not stable, but for up to 12
 * requirements (insertion sort) it is; this implementation is always stable.
 */
function byKey(reqs: LabelRequirement[]): LabelRequirement[] {
  return reqs.sort((a, b) => compareGoStrings(a.key, b.key));
}

/**
 * `labels.SelectorFromValidatedSet`: `k1=v1,k2=v2,...` without validation. Empty or missing set
 * = everything.
 */
export function labelSelectorFromSet(set: Readonly<Record<string, string>> | undefined | null): LabelSelector {
  if (!set) return EVERYTHING;
  const reqs = Object.keys(set).map((k) => Object.freeze({ key: k, operator: '=' as const, values: Object.freeze([set[k]!]) }));
  return reqs.length === 0 ? EVERYTHING : new InternalSelector(byKey(reqs));
}

// ---------------------------------------------------------------------------------------------
// Lexer and parser (labels.Parse)

type Tok = 'ERR' | 'EOS' | ')' | ',' | '!' | '==' | '=' | '>' | 'ID' | 'in' | '<' | '!=' | 'notin' | '(';

interface Item {
  tok: Tok;
  lit: string;
}

const symbolTokens: ReadonlyMap<string, Tok> = new Map<string, Tok>([
  [')', ')'],
  [',', ','],
  ['!', '!'],
  ['==', '=='],
  ['=', '='],
  ['>', '>'],
  ['<', '<'],
  ['!=', '!='],
  ['(', '('],
]);

/** ' ', '\t', '\r', '\n' — nothing else counts as whitespace. */
const isWhitespace = (c: number): boolean => c === 0x20 || c === 0x09 || c === 0x0d || c === 0x0a;
/** = ! ( ) , > < */
const isSpecial = (c: number): boolean =>
  c === 0x3d || c === 0x21 || c === 0x28 || c === 0x29 || c === 0x2c || c === 0x3e || c === 0x3c;

/**
 * The Go lexer, faithfully: it reads bytes and uses 0 both for "end of input" and for a NUL
 * character, so a NUL between tokens ends the input while a NUL right after a token is swallowed.
 * All delimiters are ASCII, so reading UTF-16 code units is equivalent to reading UTF-8 bytes.
 */
function lex(s: string): Item[] {
  const items: Item[] = [];
  const n = s.length;
  let pos = 0;
  const read = (): number => (pos < n ? s.charCodeAt(pos++) : 0);
  for (;;) {
    let ch = read();
    while (isWhitespace(ch)) ch = read();
    if (ch === 0) {
      items.push({ tok: 'EOS', lit: '' });
      return items;
    }
    pos--;
    if (isSpecial(ch)) {
      let buffer = '';
      let last: Item | undefined;
      for (;;) {
        const c = read();
        if (c === 0) break;
        if (isSpecial(c)) {
          buffer += String.fromCharCode(c);
          const t = symbolTokens.get(buffer);
          if (t !== undefined) last = { tok: t, lit: buffer };
          else if (last !== undefined) {
            pos--;
            break;
          }
        } else {
          pos--;
          break;
        }
      }
      items.push(last ?? { tok: 'ERR', lit: `error expected: keyword found '${buffer}'` });
    } else {
      const start = pos;
      let end = pos;
      while (end < n) {
        const c = s.charCodeAt(end);
        if (c === 0 || isSpecial(c) || isWhitespace(c)) break;
        end++;
      }
      const lit = s.slice(start, end);
      pos = end < n && s.charCodeAt(end) === 0 ? end + 1 : end;
      items.push({ tok: lit === 'in' ? 'in' : lit === 'notin' ? 'notin' : 'ID', lit });
    }
  }
}

const binaryOperators = 'in, notin, =, ==, !=, gt, lt';

class Parser {
  private position = 0;
  constructor(private readonly items: Item[]) {}

  private at(i: number, values: boolean): Item {
    const item = this.items[Math.min(i, this.items.length - 1)]!;
    if (values && (item.tok === 'in' || item.tok === 'notin')) return { tok: 'ID', lit: item.lit };
    return item;
  }
  /** Values context: `in` / `notin` are plain identifiers. */
  private lookahead(values = true): Item {
    return this.at(this.position, values);
  }
  private consume(values = true): Item {
    return this.at(this.position++, values);
  }

  parse(): LabelRequirement[] {
    const reqs: LabelRequirement[] = [];
    for (;;) {
      const { tok, lit } = this.lookahead();
      if (tok === 'ID' || tok === '!') {
        let r: LabelRequirement;
        try {
          r = this.parseRequirement();
        } catch (e) {
          if (e instanceof SelectorParseError) throw new SelectorParseError(`unable to parse requirement: ${e.message}`);
          throw e;
        }
        reqs.push(r);
        const t = this.consume();
        if (t.tok === 'EOS') return reqs;
        if (t.tok === ',') {
          const t2 = this.lookahead();
          if (t2.tok !== 'ID' && t2.tok !== '!') {
            throw new SelectorParseError(`found '${t2.lit}', expected: identifier after ','`);
          }
        } else {
          throw new SelectorParseError(`found '${t.lit}', expected: ',' or 'end of string'`);
        }
      } else if (tok === 'EOS') {
        return reqs;
      } else {
        throw new SelectorParseError(`found '${lit}', expected: !, identifier, or 'end of string'`);
      }
    }
  }

  private parseRequirement(): LabelRequirement {
    const { key, operator } = this.parseKeyAndInferOperator();
    let op: LabelOperator;
    let values: string[];
    if (operator !== undefined) {
      op = operator;
      values = [];
    } else {
      op = this.parseOperator();
      values = op === 'in' || op === 'notin' ? this.parseValues() : this.parseExactValue();
    }
    const { req, errors } = newRequirement(key, op, values);
    if (errors.length) throw new SelectorParseError(aggregate(errors));
    return req;
  }

  private parseKeyAndInferOperator(): { key: string; operator: 'exists' | '!' | undefined } {
    let operator: 'exists' | '!' | undefined;
    let item = this.consume();
    if (item.tok === '!') {
      operator = '!';
      item = this.consume();
    }
    if (item.tok !== 'ID') throw new SelectorParseError(`found '${item.lit}', expected: identifier`);
    const errs = labelKeyErrors(item.lit);
    if (errs.length) throw new SelectorParseError(invalid('<nil>', item.lit, errs.join('; ')));
    const next = this.lookahead().tok;
    if ((next === 'EOS' || next === ',') && operator !== '!') operator = 'exists';
    return { key: item.lit, operator };
  }

  private parseOperator(): LabelOperator {
    const { tok, lit } = this.consume(false);
    switch (tok) {
      case 'in':
        return 'in';
      case '=':
        return '=';
      case '==':
        return '==';
      case '>':
        return 'gt';
      case '<':
        return 'lt';
      case 'notin':
        return 'notin';
      case '!=':
        return '!=';
      default:
        throw new SelectorParseError(`found '${lit}', expected: ${binaryOperators}`);
    }
  }

  /** `( v1, v2, ... )` -> the sorted set of values (`sets.String.List()`). */
  private parseValues(): string[] {
    const open = this.consume();
    if (open.tok !== '(') throw new SelectorParseError(`found '${open.lit}' expected: '('`);
    const { tok, lit } = this.lookahead();
    if (tok === 'ID' || tok === ',') {
      const set = this.parseIdentifiersList();
      if (this.consume().tok !== ')') throw new SelectorParseError(`found '${lit}', expected: ')'`);
      return [...set].sort(compareGoStrings);
    }
    if (tok === ')') {
      this.consume();
      return [''];
    }
    throw new SelectorParseError(`found '${lit}', expected: ',', ')' or identifier`);
  }

  private parseIdentifiersList(): Set<string> {
    const set = new Set<string>();
    for (;;) {
      const { tok, lit } = this.consume();
      if (tok === 'ID') {
        set.add(lit);
        const next = this.lookahead();
        if (next.tok === ',') continue;
        if (next.tok === ')') return set;
        throw new SelectorParseError(`found '${next.lit}', expected: ',' or ')'`);
      } else if (tok === ',') {
        if (set.size === 0) set.add('');
        const next = this.lookahead().tok;
        if (next === ')') {
          set.add('');
          return set;
        }
        if (next === ',') set.add('');
      } else {
        throw new SelectorParseError(`found '${lit}', expected: ',', or identifier`);
      }
    }
  }

  private parseExactValue(): string[] {
    const next = this.lookahead().tok;
    if (next === 'EOS' || next === ',') return [''];
    const { tok, lit } = this.consume();
    if (tok === 'ID') return [lit];
    throw new SelectorParseError(`found '${lit}', expected: identifier`);
  }
}

/**
 * `labels.Parse`: parses the string form of a label selector (`?labelSelector=`).
 *
 * Grammar: comma-separated requirements, each `key`, `!key`, `key=v`, `key==v`, `key!=v`,
 * `key in (v1,v2)`, `key notin (v1,v2)`, `key>N`, `key<N`; blanks (space, tab, CR, LF) between
 * tokens are ignored; `""` selects everything. Values may be empty (`k=`, `k in ()`, `k in (a,,b)`).
 * Requirements are sorted by key; set values are de-duplicated and sorted.
 *
 * @throws SelectorParseError with the exact message the API server puts in its 400 response.
 */
export function parseLabelSelector(text: string): LabelSelector {
  const reqs = new Parser(lex(text)).parse();
  return reqs.length === 0 ? EVERYTHING : new InternalSelector(byKey(reqs));
}

// ---------------------------------------------------------------------------------------------
// metav1.LabelSelector

/** `metav1.LabelSelector` as plain JSON. */
export interface LabelSelectorObject {
  matchLabels?: Readonly<Record<string, string>> | null;
  matchExpressions?: readonly { key: string; operator: string; values?: readonly string[] | null }[] | null;
}

const expressionOperators: Readonly<Record<string, LabelOperator>> = {
  In: 'in',
  NotIn: 'notin',
  Exists: 'exists',
  DoesNotExist: '!',
};

/**
 * `metav1.LabelSelectorAsSelector`.
 *
 * - `null` / `undefined` (a nil selector) -> matches **nothing** ({@link nothingLabelSelector});
 * - `{}` (no matchLabels, no matchExpressions) -> matches **everything**;
 * - otherwise `matchLabels` become `key=value` requirements, `matchExpressions` `In` / `NotIn` /
 *   `Exists` / `DoesNotExist` requirements (values kept as given), all sorted by key.
 *
 * Errors, as Kubernetes words them (first failing entry; Go walks `matchLabels` in random map
 * order, we walk it sorted by key, then `matchExpressions` in order):
 * - `"Foo" is not a valid label selector operator`
 * - `key: Invalid value: "a b": name part must consist of ...`
 * - `values[0][app]: Invalid value: "a b": a valid label must be an empty string or ...`
 * - `values: Invalid value: null: for 'in', 'notin' operators, values set can't be empty`
 * - `values: Invalid value: ["x"]: values set must be empty for exists and does not exist`
 * - several for one entry: `[<error>, <error>]`
 *
 * @throws SelectorParseError
 */
export function labelSelectorFromObject(sel: LabelSelectorObject | null | undefined): LabelSelector {
  if (sel === null || sel === undefined) return NOTHING;
  const matchLabels = sel.matchLabels ?? {};
  const labelKeys = Object.keys(matchLabels).sort(compareGoStrings);
  const expressions = sel.matchExpressions ?? [];
  if (labelKeys.length + expressions.length === 0) return EVERYTHING;
  const reqs: LabelRequirement[] = [];
  for (const k of labelKeys) {
    const { req, errors } = newRequirement(k, '=', [matchLabels[k]!]);
    if (errors.length) throw new SelectorParseError(aggregate(errors));
    reqs.push(req);
  }
  for (const expr of expressions) {
    const op = Object.prototype.hasOwnProperty.call(expressionOperators, expr.operator)
      ? expressionOperators[expr.operator]
      : undefined;
    if (op === undefined) throw new SelectorParseError(`${goQuote(String(expr.operator))} is not a valid label selector operator`);
    const { req, errors } = newRequirement(expr.key, op, expr.values ?? []);
    if (errors.length) throw new SelectorParseError(aggregate(errors));
    reqs.push(req);
  }
  return new InternalSelector(byKey(reqs));
}
