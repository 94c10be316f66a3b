/**
 * The rules of structural schemas (apiextensions-apiserver/pkg/apiserver/schema validation.go
 * `ValidateStructural` and complete.go `validateStructuralCompleteness`), over a schema that
 * `NewStructural` accepts:
 * - every node has a type, except under `x-kubernetes-int-or-string` or
 *   `x-kubernetes-preserve-unknown-fields`; arrays have items; the root is an object without
 *   `additionalProperties`;
 * - value validations (allOf, anyOf, oneOf, not) only restrict: no type, default, title,
 *   description, nullable, `x-kubernetes-*` or `metadata` in them (except the two int-or-string
 *   `anyOf` patterns), and the properties they name exist in the structural part;
 * - `metadata` at the root restricts only `name` and `generateName`; `apiVersion` and `kind` are
 *   strings; an embedded resource is an object with properties (or preserves unknown fields);
 * - patterns compile as Go regular expressions.
 * The errors come sorted by their message, as Kubernetes sorts them.
 */
import { child, fieldError, fieldErrorMessage, index, key, type FieldError } from '../../../machinery/field-errors.js';
import { compareGoStrings } from '../../../util/go-format.js';
import type { JSONSchemaProps } from '../../types/apiextensions-v1.js';
import { additionalProperties, hasDefault, hasProperties, isObject, itemsSchema, property, propertyEntries, typeOf, validationRules } from './schema-access.js';

type Level = 'root' | 'item' | 'field';

/** Options of the structural rules (Kubernetes allows none of these for CustomResourceDefinitions). */
export interface StructuralRuleOptions {
  /** Go's `regexp.Compile` verdict on a pattern: undefined when it compiles. */
  readonly checkPattern: (pattern: string) => string | undefined;
}

const x = (s: JSONSchemaProps, name: 'x-kubernetes-preserve-unknown-fields' | 'x-kubernetes-embedded-resource' | 'x-kubernetes-int-or-string'): boolean =>
  s[name] === true;

/** A value validation holding nothing but `type: <t>` (one arm of the int-or-string `anyOf`). */
function onlyType(v: unknown, t: string): boolean {
  if (!isObject(v) || v.type !== t) return false;
  return Object.entries(v).every(([k, val]) => k === 'type' || val === undefined || val === null || val === false || val === '');
}

function isIntOrStringAnyOf(anyOf: unknown): boolean {
  return Array.isArray(anyOf) && anyOf.length === 2 && onlyType(anyOf[0], 'integer') && onlyType(anyOf[1], 'string');
}

const list = (v: unknown): JSONSchemaProps[] => (Array.isArray(v) ? v.filter(isObject).map((s) => s as JSONSchemaProps) : []);

/** Checks the value validations of a node: its allOf, anyOf, oneOf and not, and its pattern. */
function validateValueValidation(
  s: JSONSchemaProps,
  skipAnyOf: boolean,
  skipFirstAllOfAnyOf: boolean,
  lvl: Level,
  path: string,
  opts: StructuralRuleOptions,
  out: FieldError[],
): void {
  if (!skipAnyOf) list(s.anyOf).forEach((v, i) => validateNested(v, false, lvl, index(child(path, 'anyOf'), i), opts, out));
  list(s.allOf).forEach((v, i) => validateNested(v, skipFirstAllOfAnyOf && i === 0, lvl, index(child(path, 'allOf'), i), opts, out));
  list(s.oneOf).forEach((v, i) => validateNested(v, false, lvl, index(child(path, 'oneOf'), i), opts, out));
  if (isObject(s.not)) validateNested(s.not as JSONSchemaProps, false, lvl, child(path, 'not'), opts, out);
  if (typeof s.pattern === 'string' && s.pattern !== '') {
    const err = opts.checkPattern(s.pattern);
    if (err) out.push(fieldError.invalid(child(path, 'pattern'), s.pattern, `must be a valid regular expression, but isn't: ${err}`));
  }
}

/** `validateNestedValueValidation`: what a value validation may not hold. */
function validateNested(v: JSONSchemaProps, skipAnyOf: boolean, lvl: Level, path: string, opts: StructuralRuleOptions, out: FieldError[]): void {
  validateValueValidation(v, skipAnyOf, false, lvl, path, opts, out);
  const items = itemsSchema(v);
  if (items) validateNested(items, false, lvl, child(path, 'items'), opts, out);
  for (const [k, p] of propertyEntries(v)) validateNested(p, false, 'field', key(child(path, 'properties'), k), opts, out);
  if (typeOf(v) !== '') out.push(fieldError.forbidden(child(path, 'type'), 'must be empty to be structural'));
  // `additionalProperties: false` converts to nothing; `true` or a schema is a nested validation.
  const ap = additionalProperties(v);
  if (ap && (ap.schema || ap.allows)) out.push(fieldError.forbidden(child(path, 'additionalProperties'), 'must be undefined to be structural'));
  if (hasDefault(v)) out.push(fieldError.forbidden(child(path, 'default'), 'must be undefined to be structural'));
  if (v.title) out.push(fieldError.forbidden(child(path, 'title'), 'must be empty to be structural'));
  if (v.description) out.push(fieldError.forbidden(child(path, 'description'), 'must be empty to be structural'));
  if (v.nullable === true) out.push(fieldError.forbidden(child(path, 'nullable'), 'must be false to be structural'));
  if (x(v, 'x-kubernetes-preserve-unknown-fields'))
    out.push(fieldError.forbidden(child(path, 'x-kubernetes-preserve-unknown-fields'), 'must be false to be structural'));
  if (x(v, 'x-kubernetes-embedded-resource')) out.push(fieldError.forbidden(child(path, 'x-kubernetes-embedded-resource'), 'must be false to be structural'));
  if (x(v, 'x-kubernetes-int-or-string')) out.push(fieldError.forbidden(child(path, 'x-kubernetes-int-or-string'), 'must be false to be structural'));
  if (Array.isArray(v['x-kubernetes-list-map-keys']) && v['x-kubernetes-list-map-keys'].length)
    out.push(fieldError.forbidden(child(path, 'x-kubernetes-list-map-keys'), 'must be empty to be structural'));
  if (typeof v['x-kubernetes-list-type'] === 'string')
    out.push(fieldError.forbidden(child(path, 'x-kubernetes-list-type'), 'must be undefined to be structural'));
  if (typeof v['x-kubernetes-map-type'] === 'string')
    out.push(fieldError.forbidden(child(path, 'x-kubernetes-map-type'), 'must be undefined to be structural'));
  if (validationRules(v).length) out.push(fieldError.forbidden(child(path, 'x-kubernetes-validations'), 'must be empty to be structural'));
  if (property(v, 'metadata')) out.push(fieldError.forbidden(key(child(path, 'properties'), 'metadata'), 'must not be specified in a nested context'));
}

/** Keys of the root `metadata` schema that never count (cleared before the comparison). */
const METADATA_CLEARED = new Set(['type', 'default']);

/** Whether the root `metadata` schema says anything beyond `name` and `generateName` (`validateStructuralMetadataInvariants`). */
function metadataSaysMore(m: JSONSchemaProps): boolean {
  for (const [k, v] of Object.entries(m)) {
    if (METADATA_CLEARED.has(k) || v === undefined || v === null) continue;
    // `additionalProperties: false` is still set (a StructuralOrBool that disallows).
    if (k === 'additionalProperties') return true;
    if (k === 'properties') {
      const names = isObject(v) ? Object.keys(v) : [];
      if (names.length === 0) continue;
      const onlyNames = names.every((n) => n === 'name' || n === 'generateName') && names.length <= 2;
      if (onlyNames) continue;
      return true;
    }
    // Lists built by appending stay nil when empty; the others keep an empty list.
    if ((k === 'enum' || k === 'allOf' || k === 'anyOf' || k === 'oneOf') && Array.isArray(v) && v.length === 0) continue;
    if (v === false || v === '') continue;
    return true;
  }
  return false;
}

/** `validateStructuralInvariants` of one node and, recursively, the structural nodes below it. */
function validateInvariants(s: JSONSchemaProps, lvl: Level, path: string, opts: StructuralRuleOptions, out: FieldError[]): void {
  const type = typeOf(s);
  const items = itemsSchema(s);
  if (type === 'array' && !items) out.push(fieldError.required(child(path, 'items'), 'must be specified'));
  if (items) validateInvariants(items, 'item', child(path, 'items'), opts, out);
  for (const [k, p] of propertyEntries(s)) validateInvariants(p, 'field', key(child(path, 'properties'), k), opts, out);
  const ap = additionalProperties(s);
  if (ap) {
    if (lvl === 'root') out.push(fieldError.forbidden(child(path, 'additionalProperties'), 'must not be used at the root'));
    if (ap.schema) validateInvariants(ap.schema, 'field', child(path, 'additionalProperties'), opts, out);
  }
  const intOrString = x(s, 'x-kubernetes-int-or-string');
  const preserve = x(s, 'x-kubernetes-preserve-unknown-fields');
  const embedded = x(s, 'x-kubernetes-embedded-resource');
  if (intOrString && preserve)
    out.push(fieldError.invalid(child(path, 'x-kubernetes-preserve-unknown-fields'), true, 'must be false if x-kubernetes-int-or-string is true'));
  if (intOrString && embedded)
    out.push(fieldError.invalid(child(path, 'x-kubernetes-embedded-resource'), true, 'must be false if x-kubernetes-int-or-string is true'));

  const skipAnyOf = isIntOrStringAnyOf(s.anyOf);
  const allOf = list(s.allOf);
  const skipFirstAllOfAnyOf = allOf.length >= 1 && isIntOrStringAnyOf(allOf[0]!.anyOf);
  validateValueValidation(s, skipAnyOf, skipFirstAllOfAnyOf, lvl, path, opts, out);

  const checkMetadata = lvl === 'root' || embedded;
  if (embedded && type !== 'object') {
    const detail = 'must be object if x-kubernetes-embedded-resource is true';
    out.push(type === '' ? fieldError.required(child(path, 'type'), detail) : fieldError.invalid(child(path, 'type'), type, detail));
  } else if (type === '' && !intOrString && !preserve) {
    const where = { root: 'at the root', item: 'for specified array items', field: 'for specified object fields' }[lvl];
    out.push(fieldError.required(child(path, 'type'), `must not be empty ${where}`));
  }
  if (embedded && ap) out.push(fieldError.forbidden(child(path, 'additionalProperties'), 'must not be used if x-kubernetes-embedded-resource is set'));
  if (lvl === 'root' && type !== '' && type !== 'object') out.push(fieldError.invalid(child(path, 'type'), type, 'must be object at the root'));
  for (const name of ['kind', 'apiVersion']) {
    const p = property(s, name);
    if (p && checkMetadata && typeOf(p) !== 'string')
      out.push(fieldError.invalid(child(key(child(path, 'properties'), name), 'type'), typeOf(p), 'must be string'));
  }
  const metadata = property(s, 'metadata');
  if (metadata) {
    const mPath = key(child(path, 'properties'), 'metadata');
    if (checkMetadata && typeOf(metadata) !== 'object') out.push(fieldError.invalid(child(mPath, 'type'), typeOf(metadata), 'must be object'));
    if (lvl === 'root' && metadataSaysMore(metadata))
      out.push(fieldError.forbidden(mPath, 'must not specify anything other than name and generateName, but metadata is implicitly specified'));
  }
  if (embedded && !preserve && !hasProperties(s))
    out.push(
      fieldError.required(
        child(path, 'properties'),
        'must not be empty if x-kubernetes-embedded-resource is true without x-kubernetes-preserve-unknown-fields',
      ),
    );
}

/** `validateNestedValueValidationCompleteness`: the properties a value validation names exist structurally. */
function validateCompleteness(v: JSONSchemaProps, s: JSONSchemaProps | undefined, sPath: string, vPath: string, out: FieldError[]): void {
  if (!s) {
    out.push(fieldError.required(sPath, `because it is defined in ${vPath}`));
    return;
  }
  validateValueValidationCompleteness(v, s, sPath, vPath, out);
  const items = itemsSchema(v);
  if (items) validateCompleteness(items, itemsSchema(s), child(sPath, 'items'), child(vPath, 'items'), out);
  for (const [k, p] of propertyEntries(v)) {
    const sp = property(s, k);
    if (!sp) out.push(fieldError.required(key(child(sPath, 'properties'), k), `because it is defined in ${key(child(vPath, 'properties'), k)}`));
    else validateCompleteness(p, sp, key(child(sPath, 'properties'), k), key(child(vPath, 'properties'), k), out);
  }
}

function validateValueValidationCompleteness(v: JSONSchemaProps, s: JSONSchemaProps, sPath: string, vPath: string, out: FieldError[]): void {
  if (isObject(v.not)) validateCompleteness(v.not as JSONSchemaProps, s, sPath, child(vPath, 'not'), out);
  list(v.allOf).forEach((n, i) => validateCompleteness(n, s, sPath, index(child(vPath, 'allOf'), i), out));
  list(v.anyOf).forEach((n, i) => validateCompleteness(n, s, sPath, index(child(vPath, 'anyOf'), i), out));
  list(v.oneOf).forEach((n, i) => validateCompleteness(n, s, sPath, index(child(vPath, 'oneOf'), i), out));
}

/** `ValidateStructural` of a root schema at `path`, sorted by message as Kubernetes sorts them. */
export function validateStructural(root: JSONSchemaProps, path: string, opts: StructuralRuleOptions): FieldError[] {
  const out: FieldError[] = [];
  validateInvariants(root, 'root', path, opts, out);
  validateValueValidationCompleteness(root, root, path, path, out);
  const keyed = out.map((e) => [fieldErrorMessage(e), e] as const);
  keyed.sort((a, b) => compareGoStrings(a[0], b[0]));
  return keyed.map((k) => k[1]);
}
