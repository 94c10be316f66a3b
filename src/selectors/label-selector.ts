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

import { isQualifiedName, isValidLabelValue } from '../schema/validation/names.js';
import { compareGoStrings, goJsonString, goQuote } from '../util/go-format.js';

export { compareGoStrings, goQuote };

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

/** `field.Invalid(path, value, detail).Error()`. */
function invalid(path: string, value: string | readonly string[] | null, detail: string): string {
  const rendered = typeof value === 'string' ? goQuote(value) : value === null ? 'null' : `[${value.map(goJsonString).join(',')}]`;
  return `${path}: Invalid value: ${rendered}${detail ? `: ${detail}` : ''}`;
}

/** `errors.NewAggregate(...).Error()` — one message as is, several de-duplicated in brackets. */
function aggregate(messages: readonly string[]): string {
  const unique = [...new Set(messages)];
  return unique.length === 1 ? unique[0]! : `[${unique.join(', ')}]`;
}

// ---------------------------------------------------------------------------------------------
// Validation: the same rules as labels on objects (content.IsLabelKey / content.IsLabelValue)

/** `content.IsLabelKey` (a.k.a. `IsQualifiedName`): the list of problems, empty when valid. */
export const labelKeyErrors = isQualifiedName;

/** `content.IsLabelValue`: the list of problems, empty when valid. */
export const labelValueErrors = isValidLabelValue;

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
const isSpecial = (c: number): boolean => c === 0x3d || c === 0x21 || c === 0x28 || c === 0x29 || c === 0x2c || c === 0x3e || c === 0x3c;

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
    const op = Object.prototype.hasOwnProperty.call(expressionOperators, expr.operator) ? expressionOperators[expr.operator] : undefined;
    if (op === undefined) throw new SelectorParseError(`${goQuote(String(expr.operator))} is not a valid label selector operator`);
    const { req, errors } = newRequirement(expr.key, op, expr.values ?? []);
    if (errors.length) throw new SelectorParseError(aggregate(errors));
    reqs.push(req);
  }
  return new InternalSelector(byKey(reqs));
}
