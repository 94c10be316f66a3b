/**
 * Field selectors, parsed and matched exactly as the Kubernetes API server (v1.36) does.
 *
 * Behaviour and messages follow `k8s.io/apimachinery` v0.36 `pkg/fields/selector.go`
 * (`ParseSelector`, `splitTerms`, `splitTerm`, `UnescapeValue`, `EscapeValue`, `hasTerm`,
 * `notHasTerm`, `andTerm`). A bad `?fieldSelector=` is answered with `400 BadRequest` whose
 * `message` is exactly the parse error text (`apiserver/pkg/endpoints/handlers/get.go` `listOpts`):
 *
 * - `invalid selector: '<whole selector>'; can't understand '<term>'` — a term with no `=`, `==`, `!=`
 * - `invalid field selector: invalid escape sequence: \<c>` — `\` followed by anything but `\`, `,`, `=`
 *   (a trailing lone `\` gives `... invalid escape sequence: \`)
 * - `invalid field selector: unescaped character in value: 61` — an unescaped `=` in a value
 *   (Go prints the rune with `%v`, i.e. its decimal code point)
 *
 * Notes on Kubernetes' behaviour reproduced here:
 * - No whitespace is trimmed anywhere: `a = b` is field `a ` and value ` b`.
 * - Terms are split on unescaped commas, then **sorted** (byte order) before being parsed, so the
 *   first error reported is that of the smallest term, and `toString()` lists terms sorted.
 * - Empty terms (`a=b,,`, trailing commas) are skipped; `""` selects everything.
 * - A term whose field and value are both empty (`=`, `==`, `!=`) is dropped (it becomes
 *   `Everything()` during the identity `Transform`).
 * - `==` is the same as `=`; requirements report it as `=`.
 * - The field name is never unescaped: the first `!=`, `==` or `=` splits the term.
 * - A missing field compares as the empty string (`fields.Set.Get`).
 */
import { SelectorParseError, compareGoStrings, goQuote } from './label-selector.js';

export { SelectorParseError } from './label-selector.js';

/** One term of a field selector (`fields.Requirement`). */
export interface FieldRequirement {
  readonly field: string;
  readonly operator: '=' | '!=';
  readonly value: string;
}

/** A field selector (`fields.Selector`). Immutable. */
export interface FieldSelector {
  /** The terms, all of which must hold, in Kubernetes' order (sorted by their raw text). */
  readonly requirements: readonly FieldRequirement[];
  /** Whether all terms hold; `fields` returns a field's value, `undefined` counting as `""`. */
  matches(fields: (field: string) => string | undefined): boolean;
  /** True when the selector does not restrict anything. */
  empty(): boolean;
  /** Canonical text, as Go's `String()`: `field=value` / `field!=value`, values escaped, comma-joined. */
  toString(): string;
  /** Go's `RequiresExactMatch`: the value of the first `=` term on `field`, else `undefined`. */
  exactValue(field: string): string | undefined;
}

/** `fields.EscapeValue`: prefixes `\`, `,` and `=` with a backslash. */
export function escapeFieldValue(value: string): string {
  return value.replace(/[\\,=]/g, (c) => `\\${c}`);
}

/** `fields.UnescapeValue`. @throws SelectorParseError */
export function unescapeFieldValue(text: string): string {
  if (!/[\\,=]/.test(text)) return text;
  let out = '';
  let inSlash = false;
  for (const c of text) {
    if (inSlash) {
      if (c === '\\' || c === ',' || c === '=') out += c;
      else throw new SelectorParseError(`invalid field selector: invalid escape sequence: \\${c}`, 'field');
      inSlash = false;
      continue;
    }
    if (c === '\\') inSlash = true;
    else if (c === ',' || c === '=') {
      throw new SelectorParseError(`invalid field selector: unescaped character in value: ${c.codePointAt(0)}`, 'field');
    } else out += c;
  }
  if (inSlash) throw new SelectorParseError('invalid field selector: invalid escape sequence: \\', 'field');
  return out;
}

/** `splitTerms`: splits on commas not preceded by an (unescaped) backslash; escapes are kept. */
function splitTerms(text: string): string[] {
  if (text.length === 0) return [];
  const terms: string[] = [];
  let start = 0;
  let inSlash = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inSlash) {
      inSlash = false;
      // A backslash escapes a whole code point; skip the low half of a surrogate pair too.
      if (c >= 0xd800 && c <= 0xdbff && i + 1 < text.length && (text.charCodeAt(i + 1) & 0xfc00) === 0xdc00) i++;
    } else if (c === 0x5c) inSlash = true;
    else if (c === 0x2c) {
      terms.push(text.slice(start, i));
      start = i + 1;
    }
  }
  terms.push(text.slice(start));
  return terms;
}

/** `splitTerm`: the first `!=`, `==` or `=` (checked in that order at each position). */
function splitTerm(term: string): { lhs: string; op: '!=' | '==' | '='; rhs: string } | undefined {
  for (let i = 0; i < term.length; i++) {
    const c = term.charCodeAt(i);
    if (c === 0x21 && term.charCodeAt(i + 1) === 0x3d) return { lhs: term.slice(0, i), op: '!=', rhs: term.slice(i + 2) };
    if (c === 0x3d) {
      if (term.charCodeAt(i + 1) === 0x3d) return { lhs: term.slice(0, i), op: '==', rhs: term.slice(i + 2) };
      return { lhs: term.slice(0, i), op: '=', rhs: term.slice(i + 1) };
    }
  }
  return undefined;
}

class AndSelector implements FieldSelector {
  readonly requirements: readonly FieldRequirement[];
  constructor(requirements: readonly FieldRequirement[]) {
    this.requirements = Object.freeze(requirements.map((r) => Object.freeze({ ...r })));
  }
  matches(fields: (field: string) => string | undefined): boolean {
    for (const r of this.requirements) {
      const actual = fields(r.field) ?? '';
      if ((actual === r.value) !== (r.operator === '=')) return false;
    }
    return true;
  }
  empty(): boolean {
    return this.requirements.length === 0;
  }
  toString(): string {
    return this.requirements.map((r) => `${r.field}${r.operator}${escapeFieldValue(r.value)}`).join(',');
  }
  exactValue(field: string): string | undefined {
    for (const r of this.requirements) if (r.field === field && r.operator === '=') return r.value;
    return undefined;
  }
}

const EVERYTHING: FieldSelector = new AndSelector([]);

/** `fields.Everything()`. */
export function everythingFieldSelector(): FieldSelector {
  return EVERYTHING;
}

/** A selector from the given requirements, kept in the given order (`fields.AndSelectors` of terms). */
export function fieldSelectorFromRequirements(requirements: readonly FieldRequirement[]): FieldSelector {
  return requirements.length === 0 ? EVERYTHING : new AndSelector(requirements);
}

/**
 * `fields.ParseSelector`: parses `?fieldSelector=` text (`f=v`, `f==v`, `f!=v`, comma-joined;
 * `\,`, `\=`, `\\` escapes in values).
 *
 * @throws SelectorParseError with the exact message the API server puts in its 400 response.
 */
export function parseFieldSelector(text: string): FieldSelector {
  const parts = splitTerms(text).sort(compareGoStrings);
  const reqs: FieldRequirement[] = [];
  for (const part of parts) {
    if (part === '') continue;
    const split = splitTerm(part);
    if (split === undefined) {
      throw new SelectorParseError(`invalid selector: '${text}'; can't understand '${part}'`, 'field');
    }
    const value = unescapeFieldValue(split.rhs);
    // The identity Transform turns a term with empty field and value into Everything(), dropped.
    if (split.lhs === '' && value === '') continue;
    reqs.push({ field: split.lhs, operator: split.op === '!=' ? '!=' : '=', value });
  }
  return fieldSelectorFromRequirements(reqs);
}

/**
 * The first field (in requirement order, as Kubernetes' `Transform` walks them) that is not in
 * `supported`, or `undefined` when all are supported. Build the 400 message with
 * {@link fieldLabelNotSupportedMessage} or {@link unknownFieldSelectorMessage}, depending on the kind.
 */
export function checkSupportedFields(selector: FieldSelector, supported: ReadonlySet<string>): string | undefined {
  for (const r of selector.requirements) if (!supported.has(r.field)) return r.field;
  return undefined;
}

/**
 * The 400 BadRequest message for an unsupported field, for kinds that register a field label
 * conversion function — the core/v1 kinds Pod, Node, ReplicationController, Event, Namespace,
 * Secret, Service (`kubernetes/pkg/apis/core/v1/conversion.go`), other built-ins that register one
 * in their group's `conversion.go`, and **all custom resources**
 * (`apiextensions-apiserver/pkg/apiserver/conversion/converter.go` `crConverter.ConvertFieldLabel`;
 * CRDs accept `metadata.name`, `metadata.namespace` unless cluster-scoped, and their
 * `selectableFields`):
 *
 * `field label not supported: spec.foo`
 */
export function fieldLabelNotSupportedMessage(field: string): string {
  return `field label not supported: ${field}`;
}

/**
 * The 400 BadRequest message for an unsupported field, for built-in kinds that register no field
 * label conversion function and so use `runtime.DefaultMetaV1FieldSelectorConversion`
 * (`apimachinery/pkg/runtime/conversion.go`; e.g. ingresses, per the Kubernetes field-selector docs), which
 * accepts only `metadata.name` and `metadata.namespace`:
 *
 * `"spec.foo" is not a known field selector: only "metadata.name", "metadata.namespace"`
 */
export function unknownFieldSelectorMessage(field: string): string {
  return `${goQuote(field)} is not a known field selector: only "metadata.name", "metadata.namespace"`;
}
