/**
 * Value validation of a custom resource against its OpenAPI v3 schema, as kube-openapi's
 * `validate.SchemaValidator` does it (k8s.io/kube-openapi/pkg/validation/validate), compiled once
 * per schema position into a {@link ValidatorNode} and run as a walk over the value.
 *
 * What is reproduced, because it shows in the answers:
 * - the validators run in kube-openapi's order (type, `allOf`/`anyOf`/`oneOf`/`not`, string,
 *   format, number, array, enum, object) and all of them run (a type error does not stop the
 *   others);
 * - value paths as kube-openapi writes them: `spec.replicas`, `spec.list[0]`, `spec.map.key`
 *   (a map value joins with a dot), `.spec` for a required root field;
 * - numbers as Go decodes them (int64 when integral, float64 otherwise, see util/go-value.ts),
 *   and kube-openapi's int64-or-float64 comparison rules, including its truncation of a bound to
 *   int64 for an integer value, and its check that a bound fits the declared type and format;
 * - `anyOf`/`oneOf` report the errors of their "best" failing branch, chosen by kube-openapi's
 *   match counts, which are counted here exactly as it counts them;
 * - ratcheting (`CRDValidationRatcheting`): with a {@link Correlation}, the errors found under a
 *   node whose value is unchanged from the old object are dropped, as apiextensions'
 *   `ratchetingValueValidator` does; the correlation reaches properties and map-list items.
 */
import type { GoKind } from '../../util/go-value.js';
import { goKind, goMemberKind } from '../../util/go-value.js';
import { jsonEqual } from '../../util/json-equal.js';
import { goQuote } from '../../util/go-format.js';
import { compileGoRegexp, type GoRegexp } from '../../util/go-regexp.js';
import { canonicalText } from './canonical.js';
import type { Correlation } from './correlation.js';
import { effectiveFormat, formatCheck } from './formats.js';
import { goNumberText, goNumberValue, openApiError, type OpenApiError } from './openapi-errors.js';
import { PropsReader, type JsonSchemaProps } from './props.js';

/** A numeric bound (`maximum`, `minimum`, `multipleOf`) and whether it fits the schema's type and format. */
interface Bound {
  readonly value: number;
  /** The bound converted to int64 as Go converts it (compared with an int64 value). */
  readonly int64: bigint;
  readonly exclusive: boolean;
  /** kube-openapi's `IsValueValidAgainstRange` on the bound itself. */
  readonly fits: boolean;
}

/** A compiled pattern: the Go regexp, or Go's compile error text. */
interface Pattern {
  readonly source: string;
  readonly regexp: GoRegexp | undefined;
  readonly error: string | undefined;
}

/** The compiled value validations of one schema position (kube-openapi's `SchemaValidator`). */
export interface ValidatorNode {
  /** The types (`['integer', 'string']` for `x-kubernetes-int-or-string`), empty when untyped. */
  readonly types: readonly string[];
  readonly nullable: boolean;
  /** The format after unsupported ones are dropped. */
  readonly format: string;
  readonly formatCheck: ((s: string) => boolean) | undefined;
  readonly maxLength: number | undefined;
  readonly minLength: number | undefined;
  readonly pattern: Pattern | undefined;
  /** The number validator's type and format (set only for a single `integer` or `number` type). */
  readonly numberType: '' | 'integer' | 'number';
  readonly numberFormat: string;
  readonly multipleOf: Bound | undefined;
  readonly maximum: Bound | undefined;
  readonly minimum: Bound | undefined;
  readonly items: ValidatorNode | undefined;
  readonly minItems: number | undefined;
  readonly maxItems: number | undefined;
  readonly uniqueItems: boolean;
  /** `enum` values (a `null` entry never matches, as in kube-openapi). */
  readonly enum: readonly unknown[] | undefined;
  readonly minProperties: number | undefined;
  readonly maxProperties: number | undefined;
  readonly required: readonly string[];
  readonly properties: ReadonlyMap<string, ValidatorNode> | undefined;
  readonly additionalProperties: { readonly node: ValidatorNode | undefined; readonly allows: boolean } | undefined;
  readonly allOf: readonly ValidatorNode[];
  readonly anyOf: readonly ValidatorNode[];
  readonly oneOf: readonly ValidatorNode[];
  readonly not: ValidatorNode | undefined;
}

/** The validators of the children of a main-tree node, compiled by the caller (junctor clauses compile their own). */
export interface ValidatorChildren {
  readonly properties?: ReadonlyMap<string, ValidatorNode>;
  readonly items?: ValidatorNode;
  readonly additionalProperties?: ValidatorNode;
}

const INT32_MIN = -(2 ** 31);
const INT32_MAX = 2 ** 31 - 1;
const INT64_LIMIT = 2 ** 63;

/** Whether a value fits the number validator's type and format (`IsValueValidAgainstRange`). */
function fitsRange(v: number, isInt: boolean, type: string, format: string): boolean {
  if (type === 'integer') {
    // strconv.ParseInt of the value's text: an integral text within the format's range.
    if (!isInt && (!Number.isInteger(v) || v < -INT64_LIMIT || v >= INT64_LIMIT)) return false;
    return format !== 'int32' || (v >= INT32_MIN && v <= INT32_MAX);
  }
  if (format === 'float') return Number.isFinite(Math.fround(v));
  return true;
}

function rangeError(prefix: string, type: string, format: string, path: string): OpenApiError {
  return openApiError.plain(
    format !== ''
      ? `${prefix} value must be of type ${type} with format ${format} in ${path}`
      : `${prefix} value must be of type ${type} (default format) in ${path}`,
  );
}

/** Go's float64 → int64 conversion on amd64: truncation, and the "integer indefinite" value when out of range. */
function goInt64(f: number): bigint {
  if (!Number.isFinite(f) || f < -INT64_LIMIT || f >= INT64_LIMIT) return -(2n ** 63n);
  return BigInt(Math.trunc(f));
}

/** swag's `IsFloat64AJSONInteger`, with Go's float → uint64 conversion on amd64 for its `g`. */
function isJsonInteger(f: number): boolean {
  if (!Number.isFinite(f) || Math.abs(f) > 2 ** 53 - 1) return false;
  if (Number.isInteger(f)) return true;
  if (f < 0) return false; // uint64 of a negative float is 0 or huge: never within epsilon
  const g = Math.trunc(f);
  if (g === 0) return false;
  return (f - g) / Math.min(f + g, Number.MAX_VALUE) < 1e-9;
}

function compilePattern(source: string): Pattern {
  const r = compileGoRegexp(source);
  return r.ok ? { source, regexp: r.regexp, error: undefined } : { source, regexp: undefined, error: r.error };
}

/**
 * Compiles one schema position's value validations. `children` are the main-tree children's
 * validators; a junctor clause (`allOf`, ...) compiles its own sub-validators.
 */
export function compileValidator(props: JsonSchemaProps, children?: ValidatorChildren): ValidatorNode {
  const r = new PropsReader(props);
  const types = r.bool('x-kubernetes-int-or-string') ? ['integer', 'string'] : r.string('type') ? [r.string('type')] : [];
  const format = effectiveFormat(types, r.string('format'));
  const numberType: ValidatorNode['numberType'] = types.length === 1 && (types[0] === 'integer' || types[0] === 'number') ? types[0] : '';
  const numberFormat =
    numberType === 'integer'
      ? format === 'int32' || format === 'int64'
        ? format
        : ''
      : numberType === 'number'
        ? format === 'float' || format === 'double'
          ? format
          : ''
        : '';
  const bound = (name: string, exclusiveName?: string): Bound | undefined => {
    const value = r.number(name);
    if (value === undefined) return undefined;
    return { value, int64: goInt64(value), exclusive: exclusiveName ? r.bool(exclusiveName) : false, fits: fitsRange(value, false, numberType, numberFormat) };
  };
  const compileAll = (name: string) => r.schemas(name).map((p) => compileValidator(p));
  let properties = children?.properties;
  if (!properties && r.has('properties')) {
    const m = new Map<string, ValidatorNode>();
    for (const [k, p] of r.properties()) m.set(k, compileValidator(p));
    properties = m;
  }
  const itemsProps = r.schema('items');
  const items = children?.items ?? (itemsProps ? compileValidator(itemsProps) : undefined);
  const ap = r.raw('additionalProperties');
  let additionalProperties: ValidatorNode['additionalProperties'];
  if (typeof ap === 'boolean') additionalProperties = { node: undefined, allows: ap };
  else if (r.schema('additionalProperties'))
    additionalProperties = { node: children?.additionalProperties ?? compileValidator(r.schema('additionalProperties')!), allows: true };
  const enumValue = r.raw('enum');
  const notProps = r.schema('not');
  const pattern = r.string('pattern');
  return {
    types,
    nullable: r.bool('nullable'),
    format,
    formatCheck: formatCheck(format),
    maxLength: r.int('maxLength'),
    minLength: r.int('minLength'),
    pattern: pattern ? compilePattern(pattern) : undefined,
    numberType,
    numberFormat,
    multipleOf: bound('multipleOf'),
    maximum: bound('maximum', 'exclusiveMaximum'),
    minimum: bound('minimum', 'exclusiveMinimum'),
    items,
    minItems: r.int('minItems'),
    maxItems: r.int('maxItems'),
    uniqueItems: r.bool('uniqueItems'),
    enum: Array.isArray(enumValue) && enumValue.length > 0 ? enumValue : undefined,
    minProperties: r.int('minProperties'),
    maxProperties: r.int('maxProperties'),
    required: r.strings('required'),
    properties,
    additionalProperties,
    allOf: compileAll('allOf'),
    anyOf: compileAll('anyOf'),
    oneOf: compileAll('oneOf'),
    not: notProps ? compileValidator(notProps) : undefined,
  };
}

// ---------------------------------------------------------------------------------------------
// Running
// ---------------------------------------------------------------------------------------------

const isNumberKind = (k: GoKind) => k === 'int64' || k === 'float64';

/** The type name and format kube-openapi infers for a value (`schemaInfoForType`). */
function schemaInfo(kind: GoKind): [string, string] {
  switch (kind) {
    case 'bool':
      return ['boolean', ''];
    case 'string':
      return ['string', ''];
    case 'int64':
      return ['integer', 'int64'];
    case 'float64':
      return ['number', 'float64'];
    case 'slice':
      return ['array', ''];
    default:
      return ['object', ''];
  }
}

/** Go's `reflect` conversion of `data` to the enum value's type, then `DeepEqual` (`basicCommonValidator`). */
function enumMatches(data: unknown, kind: GoKind, enumValue: unknown): boolean {
  const ek = goKind(enumValue);
  switch (ek) {
    case 'nil':
      return false;
    case 'string':
      if (kind === 'string') return data === enumValue;
      // An integer converts to the string of its rune, as Go's string(rune) does.
      if (kind === 'int64') {
        const n = data as number;
        const text = n >= 0 && n <= 0x10ffff && !(n >= 0xd800 && n <= 0xdfff) ? String.fromCodePoint(n) : '\ufffd';
        return text === enumValue;
      }
      return false;
    case 'bool':
      return kind === 'bool' && data === enumValue;
    case 'int64':
      if (kind === 'int64') return data === enumValue;
      if (kind === 'float64') return goInt64(data as number) === BigInt(enumValue as number);
      return false;
    case 'float64':
      return isNumberKind(kind) && (data as number) === enumValue;
    case 'slice':
      return kind === 'slice' && jsonEqual(data, enumValue);
    case 'map':
      return kind === 'map' && jsonEqual(data, enumValue);
  }
}

/** Where errors go, and the ratcheting context of the walk. */
interface Run {
  readonly out: OpenApiError[];
}

/**
 * Validates `data` (whose Go kind is `kind`) at value path `path`, appending errors to `run.out`;
 * answers kube-openapi's match count. With `corr`, errors under an unchanged value are dropped.
 */
export function validateWith(v: ValidatorNode, data: unknown, kind: GoKind, path: string, run: Run, corr: Correlation | undefined): number {
  if (!corr) return validatePlain(v, data, kind, path, run, undefined);
  const start = run.out.length;
  const count = validatePlain(v, data, kind, path, run, corr);
  if (run.out.length > start && corr.deepEqual()) run.out.length = start;
  return count;
}

function validatePlain(v: ValidatorNode, data: unknown, kind: GoKind, path: string, run: Run, corr: Correlation | undefined): number {
  const out = run.out;
  if (kind === 'nil') {
    // Only the type and enum validators see a null.
    let count = 0;
    if (v.types.length > 0 && !v.nullable) out.push(openApiError.invalidType(path, v.types.join(','), 'null'));
    else count = 1;
    if (v.enum) out.push(openApiError.enumFail(path, undefined, v.enum));
    return count;
  }
  let count = 0;
  if (v.types.length > 0 || v.format !== '') count += validateType(v, data, kind, path, out) + 1;
  count += validateJunctors(v, data, kind, path, run) + 2;
  if (kind === 'string') {
    validateString(v, data as string, path, out);
    count++;
    if (v.formatCheck) {
      if (!v.formatCheck(data as string)) out.push(openApiError.invalidType(path, v.format, data as string));
      count++;
    }
  }
  if (isNumberKind(kind)) {
    validateNumber(v, data as number, kind === 'int64', path, out);
    count += 2;
  }
  if (kind === 'slice') count += validateSlice(v, data as unknown[], path, run, corr) + 2;
  if (v.enum) {
    let matched = false;
    for (const e of v.enum) {
      if (enumMatches(data, kind, e)) {
        matched = true;
        break;
      }
    }
    if (!matched) out.push(openApiError.enumFail(path, typeof data === 'number' ? goNumberValue(data, kind === 'int64') : data, v.enum));
  }
  count++;
  if (kind === 'map') count += validateObject(v, data as Record<string, unknown>, path, run, corr) + 1;
  return count + 1;
}

/** kube-openapi's `typeValidator` on a non-null value; answers its match count (1 when it passes). */
function validateType(v: ValidatorNode, data: unknown, kind: GoKind, path: string, out: OpenApiError[]): number {
  const [schType, format] = schemaInfo(kind);
  const has = (t: string) => v.types.includes(t);
  const isFloatInt = schType === 'number' && isJsonInteger(data as number) && has('integer');
  const isIntFloat = schType === 'integer' && has('number');
  const stringish = kind === 'string' || kind === 'slice';
  if (!stringish && v.format !== '' && !(has(schType) || format === v.format || isFloatInt || isIntFloat)) {
    out.push(openApiError.invalidType(path, v.format, format));
    return 0;
  }
  if (!(has('number') || has('integer')) && v.format !== '' && stringish) return 1;
  if (!(has(schType) || isFloatInt || isIntFloat)) {
    out.push(openApiError.invalidType(path, v.types.join(','), schType));
    return 0;
  }
  return 1;
}

/** `allOf`, `anyOf`, `oneOf`, `not` (kube-openapi's `schemaPropsValidator`); answers the match count it merges. */
function validateJunctors(v: ValidatorNode, data: unknown, kind: GoKind, path: string, run: Run): number {
  const out = run.out;
  let count = 0;
  const branch = (b: ValidatorNode): { errors: OpenApiError[]; count: number } => {
    const sub: Run = { out: [] };
    const c = validateWith(b, data, kind, path, sub, undefined);
    return { errors: sub.out, count: c };
  };
  if (v.anyOf.length) {
    let best: { errors: OpenApiError[]; count: number } | undefined;
    let success: number | undefined;
    for (const b of v.anyOf) {
      const r = branch(b);
      if (r.errors.length === 0) {
        best = undefined;
        success = r.count;
        break;
      }
      if (!best || r.count > best.count) best = r;
    }
    if (success === undefined) out.push(openApiError.plain(`${goQuote(path)} must validate at least one schema (anyOf)`));
    if (best) {
      out.push(...best.errors);
      count += best.count;
    } else if (success !== undefined) count += success;
  }
  if (v.oneOf.length) {
    let best: { errors: OpenApiError[]; count: number } | undefined;
    let firstSuccess: number | undefined;
    let validated = 0;
    for (const b of v.oneOf) {
      const r = branch(b);
      if (r.errors.length === 0) {
        validated++;
        best = undefined;
        firstSuccess ??= r.count;
        continue;
      }
      if (validated === 0 && (!best || r.count > best.count)) best = r;
    }
    if (validated !== 1) {
      const detail = validated === 0 ? 'Found none valid' : `Found ${validated} valid alternatives`;
      out.push(openApiError.plain(`${goQuote(path)} must validate one and only one schema (oneOf). ${detail}`));
      if (best) {
        out.push(...best.errors);
        count += best.count;
      }
    } else if (firstSuccess !== undefined) count += firstSuccess;
  }
  if (v.allOf.length) {
    let validated = 0;
    for (const b of v.allOf) {
      const r = branch(b);
      if (r.errors.length === 0) validated++;
      out.push(...r.errors);
      count += r.count;
    }
    if (validated !== v.allOf.length)
      out.push(openApiError.plain(`${goQuote(path)} must validate all the schemas (allOf)${validated === 0 ? '. None validated' : ''}`));
  }
  if (v.not && branch(v.not).errors.length === 0) out.push(openApiError.plain(`${goQuote(path)} must not validate the schema (not)`));
  return count;
}

/** Length in Unicode code points (Go's `utf8.RuneCount`). */
function runeCount(s: string): number {
  let n = 0;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c >= 0xd800 && c <= 0xdbff && i + 1 < s.length) {
      const d = s.charCodeAt(i + 1);
      if (d >= 0xdc00 && d <= 0xdfff) i++;
    }
    n++;
  }
  return n;
}

/** `stringValidator`: the first of maxLength, minLength, pattern that fails. */
function validateString(v: ValidatorNode, s: string, path: string, out: OpenApiError[]): void {
  if (v.maxLength !== undefined || v.minLength !== undefined) {
    const n = runeCount(s);
    if (v.maxLength !== undefined && n > v.maxLength) {
      out.push(openApiError.tooLong(path, v.maxLength, s));
      return;
    }
    if (v.minLength !== undefined && n < v.minLength) {
      out.push(openApiError.tooShort(path, v.minLength, s));
      return;
    }
  }
  const p = v.pattern;
  if (p) {
    if (p.error !== undefined) out.push(openApiError.failedPattern(path, `${p.source}, but pattern is invalid: ${p.error}`, s));
    else if (!p.regexp!.test(s)) out.push(openApiError.failedPattern(path, p.source, s));
  }
}

/** Compares an int64 value with an int64 bound (exactly, beyond 2^53 too). */
function compareInt(n: number, limit: bigint): number {
  const l = Number(limit);
  if (Number.isSafeInteger(n) && Number.isSafeInteger(l)) return n < l ? -1 : n > l ? 1 : 0;
  const x = BigInt(Math.trunc(n));
  return x < limit ? -1 : x > limit ? 1 : 0;
}

/** Go's `data / factor * factor == data` on int64s. */
function isIntMultiple(n: number, factor: bigint): boolean {
  const f = Number(factor);
  if (Number.isSafeInteger(n) && Number.isSafeInteger(f)) return n % f === 0;
  const x = BigInt(Math.trunc(n));
  return (x / factor) * factor === x;
}

/** `numberValidator`: the value's range check, then multipleOf, minimum, maximum. */
function validateNumber(v: ValidatorNode, n: number, isInt: boolean, path: string, out: OpenApiError[]): void {
  const type = v.numberType;
  const format = v.numberFormat;
  if (!fitsRange(n, isInt, type, format)) out.push(rangeError('Checked', type, format, path));
  // The bad value as Go holds it: the int64 or float64 itself, or its float64 conversion.
  const value = () => goNumberValue(n, isInt);
  const floatValue = () => goNumberValue(n, false);
  if (v.multipleOf) {
    const m = v.multipleOf;
    if (!m.fits) out.push(rangeError('MultipleOf', type, format, path));
    if (m.fits && isInt) {
      const factor = m.int64;
      if (factor <= 0n) out.push(openApiError.multipleOfMustBePositive(path, factor.toString(), Number(factor)));
      else if (!isIntMultiple(n, factor)) out.push(openApiError.notMultipleOf(path, factor.toString(), value()));
    } else {
      const factor = m.value;
      if (factor <= 0) out.push(openApiError.multipleOfMustBePositive(path, goNumberText(factor, false), goNumberValue(factor, false)));
      else {
        const mult = factor < 1 ? (1 / factor) * n : n / factor;
        if (!isJsonInteger(mult)) out.push(openApiError.notMultipleOf(path, goNumberText(factor, false), m.fits ? value() : floatValue()));
      }
    }
  }
  const compare = (b: Bound, which: 'Minimum boundary' | 'Maximum boundary'): void => {
    if (!b.fits) out.push(rangeError(which, type, format, path));
    const max = which === 'Maximum boundary';
    if (b.fits && isInt) {
      const limit = b.int64;
      const c = compareInt(n, limit);
      const fails = max ? (b.exclusive ? c >= 0 : c > 0) : b.exclusive ? c <= 0 : c < 0;
      if (fails) out.push((max ? openApiError.exceedsMaximum : openApiError.exceedsMinimum)(path, limit.toString(), b.exclusive, value()));
    } else {
      const fails = max ? (b.exclusive ? n >= b.value : n > b.value) : b.exclusive ? n <= b.value : n < b.value;
      if (fails)
        out.push(
          (max ? openApiError.exceedsMaximum : openApiError.exceedsMinimum)(path, goNumberText(b.value, false), b.exclusive, b.fits ? value() : floatValue()),
        );
    }
  };
  if (v.minimum) compare(v.minimum, 'Minimum boundary');
  if (v.maximum) compare(v.maximum, 'Maximum boundary');
}

/** `schemaSliceValidator`: items, then minItems, maxItems, uniqueItems; answers the items' match counts. */
function validateSlice(v: ValidatorNode, list: unknown[], path: string, run: Run, corr: Correlation | undefined): number {
  let count = 0;
  if (v.items) {
    for (let i = 0; i < list.length; i++) {
      const item = list[i];
      count += validateWith(v.items, item, goMemberKind(list, i, item), `${path}[${i}]`, run, corr?.index(i));
    }
  }
  if (v.minItems !== undefined && list.length < v.minItems) run.out.push(openApiError.tooFewItems(path, v.minItems, list.length));
  if (v.maxItems !== undefined && list.length > v.maxItems) run.out.push(openApiError.tooManyItems(path, v.maxItems, list.length));
  if (v.uniqueItems) {
    const seen = new Set<string>();
    for (const item of list) {
      const key = canonicalText(item, true);
      if (seen.has(key)) {
        run.out.push(openApiError.duplicateItems(path));
        break;
      }
      seen.add(key);
    }
  }
  return count;
}

/** `objectValidator`; answers the match counts of the values it validated. */
function validateObject(v: ValidatorNode, obj: Record<string, unknown>, path: string, run: Run, corr: Correlation | undefined): number {
  const out = run.out;
  const keys = Object.keys(obj).filter((k) => obj[k] !== undefined);
  let count = 0;
  if (v.minProperties !== undefined && keys.length < v.minProperties) out.push(openApiError.tooFewProperties(path, v.minProperties, keys.length));
  if (v.maxProperties !== undefined && keys.length > v.maxProperties) out.push(openApiError.tooManyProperties(path, v.maxProperties, keys.length));
  const ap = v.additionalProperties;
  // The root's apiVersion and kind never ratchet (apiextensions' `isTypeMetaField`).
  const childCorr = (k: string) => (corr && !(path === '' && (k === 'apiVersion' || k === 'kind')) ? corr.key(k) : undefined);
  if (ap && !ap.allows) {
    for (const k of keys) if (!v.properties?.has(k)) out.push(openApiError.propertyNotAllowed(path, k));
  } else if (ap?.node) {
    for (const k of keys) {
      if (v.properties?.has(k)) continue;
      const value = obj[k];
      count += validateWith(ap.node, value, goMemberKind(obj, k, value), `${path}.${k}`, run, childCorr(k));
    }
  }
  if (v.properties) {
    for (const k of keys) {
      const p = v.properties.get(k);
      if (!p) continue;
      const value = obj[k];
      count += validateWith(p, value, goMemberKind(obj, k, value), path === '' ? k : `${path}.${k}`, run, childCorr(k));
    }
  }
  for (const k of v.required) if (!Object.hasOwn(obj, k) || obj[k] === undefined) out.push(openApiError.required(`${path}.${k}`));
  return count;
}
