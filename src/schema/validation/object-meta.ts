/**
 * Validation of `metadata` (ObjectMeta) with the field errors Kubernetes v1.36 produces:
 * `ValidateObjectMetaAccessor` / `ValidateObjectMetaAccessorUpdate` from
 * k8s.io/apimachinery/pkg/api/validation, plus the finalizer-name rule that
 * k8s.io/kubernetes/pkg/apis/core/validation adds for built-in kinds.
 *
 * The input is the decoded JSON of `metadata`. Its shape (strings are strings, maps are maps) is
 * assumed to have been checked while decoding, as Kubernetes rejects wrongly typed JSON before it
 * validates; values of the wrong type are skipped here rather than reported.
 */

import { child, fieldError, index, type FieldError } from '../../machinery/field-errors.js';
import { immutableFieldError } from './immutable-fields.js';
import { isQualifiedName, isValidLabelValue, utf8ByteLength, validateNamespaceName, validatePathSegmentName, type NameValidator } from './names.js';

export interface ObjectMetaValidationOptions {
  /** True when objects of the kind live in a namespace. */
  readonly namespaced: boolean;
  /** The kind's name rule, e.g. `nameIsDNSSubdomain`. Used for `name` and (as a prefix) `generateName`. */
  readonly nameValidator: NameValidator;
  /** Field path of the metadata; defaults to `metadata` (e.g. `spec.template.metadata`). */
  readonly path?: string;
  /**
   * Built-in kinds (default true) also require a finalizer without a '/' to be one of the standard
   * finalizers (`kubernetes`, `orphan`, `foregroundDeletion`), reported per index as
   * `metadata.finalizers[0]: Invalid value: "x": name is neither a standard finalizer name nor is it fully qualified`.
   * Custom resources only get a warning for that: pass false.
   */
  readonly standardFinalizerNames?: boolean;
}

/** `metav1.FinalizerOrphanDependents`. */
export const FINALIZER_ORPHAN_DEPENDENTS = 'orphan';
/** `metav1.FinalizerDeleteDependents`. */
export const FINALIZER_DELETE_DEPENDENTS = 'foregroundDeletion';
/** `core.FinalizerKubernetes` (namespace finalizer). */
export const FINALIZER_KUBERNETES = 'kubernetes';
/** Finalizer names accepted without a domain prefix on built-in kinds. */
export const STANDARD_FINALIZERS: ReadonlySet<string> = new Set([FINALIZER_KUBERNETES, FINALIZER_ORPHAN_DEPENDENTS, FINALIZER_DELETE_DEPENDENTS]);

/** `TotalAnnotationSizeLimitB`: keys plus values, in bytes. */
export const TOTAL_ANNOTATION_SIZE_LIMIT_BYTES = 256 * 1024;

export const IS_NEGATIVE_ERROR_MSG = 'must be greater than or equal to 0';

type Meta = Readonly<Record<string, unknown>>;

function asMeta(meta: object | null | undefined): Meta {
  return meta && typeof meta === 'object' && !Array.isArray(meta) ? (meta as Meta) : {};
}

function str(value: unknown): string {
  return typeof value === 'string' ? value : '';
}

function stringMap(value: unknown): Array<[string, string]> {
  if (!value || typeof value !== 'object' || Array.isArray(value)) return [];
  const out: Array<[string, string]> = [];
  for (const [k, v] of Object.entries(value as Record<string, unknown>)) {
    if (typeof v === 'string') out.push([k, v]);
  }
  return out;
}

function stringList(value: unknown): string[] {
  return Array.isArray(value) ? value.filter((v): v is string => typeof v === 'string') : [];
}

// ---------------------------------------------------------------------------------------------
// Pieces (exported for callers that validate label maps etc. elsewhere, e.g. selectors)
// ---------------------------------------------------------------------------------------------

/** `ValidateNonnegativeField`. */
export function validateNonnegativeField(value: unknown, path: string): FieldError[] {
  if (typeof value === 'number' && value < 0) return [fieldError.invalid(path, value, IS_NEGATIVE_ERROR_MSG)];
  return [];
}

/** `ValidateLabelName`: a label key is a qualified name. */
export function validateLabelName(key: string, path: string): FieldError[] {
  return isQualifiedName(key).map((msg) => fieldError.invalid(path, key, msg));
}

/** `ValidateLabels`: every error is reported at the map's path (not per key), as Kubernetes does. */
export function validateLabels(labels: unknown, path: string): FieldError[] {
  const errs: FieldError[] = [];
  for (const [k, v] of stringMap(labels)) {
    errs.push(...validateLabelName(k, path));
    for (const msg of isValidLabelValue(v)) errs.push(fieldError.invalid(path, v, msg));
  }
  return errs;
}

/**
 * Go's `strings.ToLower`, which maps each code point with the simple case mapping (so `İ` becomes
 * `i`, where JavaScript's `toLowerCase` gives `i̇`, and there is no final-sigma rule).
 */
function goToLower(value: string): string {
  // ASCII only (NUL included): JavaScript's lower-casing agrees with Go's there.
  // eslint-disable-next-line no-control-regex
  if (/^[\x00-\x7f]*$/.test(value)) return value.toLowerCase();
  let out = '';
  for (const ch of value) {
    if (ch === '\u0130') {
      out += 'i';
      continue;
    }
    const lower = ch.toLowerCase();
    out += [...lower].length === 1 ? lower : ch;
  }
  return out;
}

/** `ValidateAnnotationsSize` as a boolean: keys plus values over 256 KiB. */
export function annotationsTooLarge(annotations: unknown): boolean {
  let total = 0;
  for (const [k, v] of stringMap(annotations)) {
    total += utf8ByteLength(k) + utf8ByteLength(v);
    if (total > TOTAL_ANNOTATION_SIZE_LIMIT_BYTES) return true;
  }
  return false;
}

/**
 * `ValidateAnnotations`: keys are qualified names except that case does not matter (the check runs
 * on the lower-cased key, the error shows the key as given); total size at most 256 KiB.
 */
export function validateAnnotations(annotations: unknown, path: string): FieldError[] {
  const errs: FieldError[] = [];
  for (const [k] of stringMap(annotations)) {
    for (const msg of isQualifiedName(goToLower(k))) errs.push(fieldError.invalid(path, k, msg));
  }
  if (annotationsTooLarge(annotations)) errs.push(fieldError.tooLong(path, TOTAL_ANNOTATION_SIZE_LIMIT_BYTES));
  return errs;
}

/** `schema.ParseGroupVersion`, for owner references. */
function parseGroupVersion(apiVersion: string): { group: string; version: string } | undefined {
  if (apiVersion === '' || apiVersion === '/') return { group: '', version: '' };
  const first = apiVersion.indexOf('/');
  if (first < 0) return { group: '', version: apiVersion };
  if (apiVersion.indexOf('/', first + 1) >= 0) return undefined;
  return { group: apiVersion.slice(0, first), version: apiVersion.slice(first + 1) };
}

/** An owner reference as Go serializes `metav1.OwnerReference` (field order, omitempty), for error values. */
function canonicalOwnerReference(ref: Meta): Record<string, unknown> {
  const out: Record<string, unknown> = {
    apiVersion: str(ref['apiVersion']),
    kind: str(ref['kind']),
    name: str(ref['name']),
    uid: str(ref['uid']),
  };
  if (typeof ref['controller'] === 'boolean') out['controller'] = ref['controller'];
  if (typeof ref['blockOwnerDeletion'] === 'boolean') out['blockOwnerDeletion'] = ref['blockOwnerDeletion'];
  return out;
}

/** `BannedOwners`: kinds that may not own anything. */
const BANNED_OWNERS = new Set(['/v1, Kind=Event']);

function validateOwnerReference(ref: Meta, path: string): FieldError[] {
  const errs: FieldError[] = [];
  const apiVersion = str(ref['apiVersion']);
  const kind = str(ref['kind']);
  const name = str(ref['name']);
  const uid = str(ref['uid']);
  // schema.FromAPIVersionAndKind: an unparsable apiVersion gives an empty group and version.
  const gv = parseGroupVersion(apiVersion) ?? { group: '', version: '' };
  if (gv.version === '') errs.push(fieldError.invalid(child(path, 'apiVersion'), apiVersion, 'version must not be empty'));
  if (kind === '') errs.push(fieldError.invalid(child(path, 'kind'), kind, 'must not be empty'));
  if (name === '') errs.push(fieldError.invalid(child(path, 'name'), name, 'must not be empty'));
  if (uid === '') errs.push(fieldError.invalid(child(path, 'uid'), uid, 'must not be empty'));
  const gvk = `${gv.group}/${gv.version}, Kind=${kind}`;
  if (BANNED_OWNERS.has(gvk)) errs.push(fieldError.invalid(path, canonicalOwnerReference(ref), `${gvk} is disallowed from being an owner`));
  return errs;
}

/**
 * `ValidateOwnerReferences`. In v1.36 the per-reference errors carry no index
 * (`metadata.ownerReferences.uid`), and at most one reference may be the controller.
 */
export function validateOwnerReferences(ownerReferences: unknown, path: string): FieldError[] {
  if (!Array.isArray(ownerReferences)) return [];
  const refs = ownerReferences.map((r): Meta => (r && typeof r === 'object' && !Array.isArray(r) ? (r as Meta) : {}));
  const errs: FieldError[] = [];
  let firstController = '';
  for (const ref of refs) {
    errs.push(...validateOwnerReference(ref, path));
    if (ref['controller'] === true) {
      const current = `${str(ref['kind'])}/${str(ref['name'])}`;
      if (firstController !== '') {
        errs.push(
          fieldError.invalid(
            path,
            refs.map(canonicalOwnerReference),
            `Only one reference can have Controller set to true. Found "true" in references for ${firstController} and ${current}`,
          ),
        );
      } else {
        firstController = current;
      }
    }
  }
  return errs;
}

/** `ValidateFinalizerName`: a qualified name. */
export function validateFinalizerName(finalizer: string, path: string): FieldError[] {
  return isQualifiedName(finalizer).map((msg) => fieldError.invalid(path, finalizer, msg));
}

/** `ValidateFinalizers`: each a qualified name (errors at the list's path), and not both `orphan` and `foregroundDeletion`. */
export function validateFinalizers(finalizers: unknown, path: string): FieldError[] {
  const list = stringList(finalizers);
  const errs: FieldError[] = [];
  for (const f of list) errs.push(...validateFinalizerName(f, path));
  if (list.includes(FINALIZER_ORPHAN_DEPENDENTS) && list.includes(FINALIZER_DELETE_DEPENDENTS)) {
    errs.push(fieldError.invalid(path, list, `finalizer ${FINALIZER_ORPHAN_DEPENDENTS} and ${FINALIZER_DELETE_DEPENDENTS} cannot be both set`));
  }
  return errs;
}

/** The built-in kinds' `validateKubeFinalizerName`, per index. */
export function validateStandardFinalizerNames(finalizers: unknown, path: string): FieldError[] {
  const errs: FieldError[] = [];
  if (!Array.isArray(finalizers)) return errs;
  finalizers.forEach((f, i) => {
    if (typeof f === 'string' && !f.includes('/') && !STANDARD_FINALIZERS.has(f)) {
      errs.push(fieldError.invalid(index(path, i), f, 'name is neither a standard finalizer name nor is it fully qualified'));
    }
  });
  return errs;
}

// ---------------------------------------------------------------------------------------------
// ObjectMeta on create
// ---------------------------------------------------------------------------------------------

/**
 * `ValidateObjectMetaAccessor` (create): name or generateName, namespace vs. scope, generation,
 * labels, annotations, ownerReferences, finalizers; then, for built-in kinds, the standard
 * finalizer-name rule. Expects name generation to have been done (as the API server does before
 * validating), but also works when only generateName is set.
 */
export function validateObjectMeta(meta: object | null | undefined, options: ObjectMetaValidationOptions): FieldError[] {
  const m = asMeta(meta);
  const path = options.path ?? 'metadata';
  const errs: FieldError[] = [];

  const generateName = str(m['generateName']);
  if (generateName !== '') {
    for (const msg of options.nameValidator(generateName, true)) errs.push(fieldError.invalid(child(path, 'generateName'), generateName, msg));
  }
  const name = str(m['name']);
  if (name === '') {
    errs.push(fieldError.required(child(path, 'name'), 'name or generateName is required'));
  } else {
    for (const msg of options.nameValidator(name, false)) errs.push(fieldError.invalid(child(path, 'name'), name, msg));
  }

  errs.push(...validateCommon(m, options.namespaced, path));
  if (options.standardFinalizerNames ?? true) errs.push(...validateStandardFinalizerNames(m['finalizers'], child(path, 'finalizers')));
  return errs;
}

function validateCommon(m: Meta, namespaced: boolean, path: string): FieldError[] {
  const errs: FieldError[] = [];
  const namespace = str(m['namespace']);
  if (namespaced) {
    if (namespace === '') {
      errs.push(fieldError.required(child(path, 'namespace')));
    } else {
      for (const msg of validateNamespaceName(namespace, false)) errs.push(fieldError.invalid(child(path, 'namespace'), namespace, msg));
    }
  } else if (namespace !== '') {
    errs.push(fieldError.forbidden(child(path, 'namespace'), 'not allowed on this type'));
  }
  errs.push(...validateNonnegativeField(m['generation'], child(path, 'generation')));
  errs.push(...validateLabels(m['labels'], child(path, 'labels')));
  errs.push(...validateAnnotations(m['annotations'], child(path, 'annotations')));
  errs.push(...validateOwnerReferences(m['ownerReferences'], child(path, 'ownerReferences')));
  errs.push(...validateFinalizers(m['finalizers'], child(path, 'finalizers')));
  return errs;
}

// ---------------------------------------------------------------------------------------------
// ObjectMeta on update
// ---------------------------------------------------------------------------------------------

/** metav1.Time as Go decodes and re-encodes it: RFC 3339 in UTC, whole seconds; absent is `null`. */
function timeValue(value: unknown): { key: string; shown: unknown } {
  const ms = value instanceof Date ? value.getTime() : typeof value === 'string' && value !== '' ? Date.parse(value) : undefined;
  if (ms === undefined) return { key: '', shown: null }; // absent (or not a time at all)
  if (Number.isNaN(ms)) return { key: `raw:${String(value)}`, shown: value };
  const shown = new Date(Math.floor(ms / 1000) * 1000).toISOString().replace(/\.\d{3}Z$/, 'Z');
  return { key: `ms:${ms}`, shown };
}

function immutable(path: string, newVal: unknown, oldVal: unknown, shown: unknown): FieldError[] {
  return Object.is(newVal, oldVal) ? [] : [immutableFieldError(path, shown)];
}

/** Go's `%q` / `strconv.Quote`. */
function goQuote(value: string): string {
  let out = '"';
  for (const ch of value) {
    const cp = ch.codePointAt(0)!;
    switch (ch) {
      case '"':
        out += '\\"';
        continue;
      case '\\':
        out += '\\\\';
        continue;
      case '\x07':
        out += '\\a';
        continue;
      case '\b':
        out += '\\b';
        continue;
      case '\f':
        out += '\\f';
        continue;
      case '\n':
        out += '\\n';
        continue;
      case '\r':
        out += '\\r';
        continue;
      case '\t':
        out += '\\t';
        continue;
      case '\v':
        out += '\\v';
        continue;
    }
    if (cp >= 0xd800 && cp <= 0xdfff)
      out += '\ufffd'; // lone surrogate: U+FFFD after Go's JSON decoding
    else if (cp === 0x20 || /^[\p{L}\p{M}\p{N}\p{P}\p{S}]$/u.test(ch)) out += ch;
    else if (cp < 0x80) out += `\\x${cp.toString(16).padStart(2, '0')}`;
    else if (cp < 0x10000) out += `\\u${cp.toString(16).padStart(4, '0')}`;
    else out += `\\U${cp.toString(16).padStart(8, '0')}`;
  }
  return `${out}"`;
}

/** Sorts strings in Go's byte order (= code point order). */
function compareGo(a: string, b: string): number {
  const ia = a[Symbol.iterator]();
  const ib = b[Symbol.iterator]();
  for (;;) {
    const x = ia.next();
    const y = ib.next();
    if (x.done || y.done) return x.done && y.done ? 0 : x.done ? -1 : 1;
    const d = x.value.codePointAt(0)! - y.value.codePointAt(0)!;
    if (d !== 0) return d;
  }
}

/** `ValidateNoNewFinalizers`. */
function validateNoNewFinalizers(newFinalizers: unknown, oldFinalizers: unknown, path: string): FieldError[] {
  const old = new Set(stringList(oldFinalizers));
  const extra = [...new Set(stringList(newFinalizers).filter((f) => !old.has(f)))].sort(compareGo);
  if (extra.length === 0) return [];
  return [
    fieldError.forbidden(
      path,
      `no new finalizers can be added if the object is being deleted, found new finalizers []string{${extra.map(goQuote).join(', ')}}`,
    ),
  ];
}

/**
 * `ValidateObjectMetaAccessorUpdate` alone: resourceVersion present, generation not decremented,
 * name/namespace/uid/creationTimestamp/deletionTimestamp/deletionGracePeriodSeconds unchanged,
 * no new finalizers while deleting, and labels/annotations/ownerReferences valid.
 */
export function validateObjectMetaUpdateOnly(newMeta: object | null | undefined, oldMeta: object | null | undefined, path = 'metadata'): FieldError[] {
  const n = asMeta(newMeta);
  const o = asMeta(oldMeta);
  const errs: FieldError[] = [];

  const oldDeletion = timeValue(o['deletionTimestamp']);
  if (oldDeletion.key !== '') errs.push(...validateNoNewFinalizers(n['finalizers'], o['finalizers'], child(path, 'finalizers')));

  const resourceVersion = str(n['resourceVersion']);
  if (resourceVersion === '') errs.push(fieldError.invalid(child(path, 'resourceVersion'), resourceVersion, 'must be specified for an update'));

  const newGeneration = typeof n['generation'] === 'number' ? n['generation'] : 0;
  const oldGeneration = typeof o['generation'] === 'number' ? o['generation'] : 0;
  if (newGeneration < oldGeneration) errs.push(fieldError.invalid(child(path, 'generation'), newGeneration, 'must not be decremented'));

  for (const f of ['name', 'namespace', 'uid'] as const) {
    errs.push(...immutable(child(path, f), str(n[f]), str(o[f]), str(n[f])));
  }
  for (const f of ['creationTimestamp', 'deletionTimestamp'] as const) {
    const nt = timeValue(n[f]);
    const ot = timeValue(o[f]);
    errs.push(...immutable(child(path, f), nt.key, ot.key, nt.shown));
  }
  const newGrace = typeof n['deletionGracePeriodSeconds'] === 'number' ? n['deletionGracePeriodSeconds'] : null;
  const oldGrace = typeof o['deletionGracePeriodSeconds'] === 'number' ? o['deletionGracePeriodSeconds'] : null;
  errs.push(...immutable(child(path, 'deletionGracePeriodSeconds'), newGrace, oldGrace, newGrace));

  errs.push(...validateLabels(n['labels'], child(path, 'labels')));
  errs.push(...validateAnnotations(n['annotations'], child(path, 'annotations')));
  errs.push(...validateOwnerReferences(n['ownerReferences'], child(path, 'ownerReferences')));
  return errs;
}

/**
 * Metadata validation of an update, as the API server runs it: the create checks on the new object
 * with the path-segment name rule (`rest.BeforeUpdate`'s common-field validation; the kind's own name
 * rule is not re-run because the name cannot change), then {@link validateObjectMetaUpdateOnly}, then
 * for built-in kinds the standard finalizer-name rule. Errors Kubernetes would report twice (labels,
 * annotations, owner references) are reported once.
 *
 * Kubernetes copies some fields from the stored object before validating (uid when empty,
 * creationTimestamp, a set deletionTimestamp, a set deletionGracePeriodSeconds when the new one is
 * empty, generation, and resourceVersion for unconditional updates); do the same before calling this.
 */
export function validateObjectMetaUpdate(
  newMeta: object | null | undefined,
  oldMeta: object | null | undefined,
  options: Omit<ObjectMetaValidationOptions, 'nameValidator'> & { readonly nameValidator?: NameValidator },
): FieldError[] {
  const path = options.path ?? 'metadata';
  const all = [
    ...validateObjectMeta(newMeta, { ...options, path, nameValidator: validatePathSegmentName, standardFinalizerNames: false }),
    ...validateObjectMetaUpdateOnly(newMeta, oldMeta, path),
  ];
  if (options.standardFinalizerNames ?? true) all.push(...validateStandardFinalizerNames(asMeta(newMeta)['finalizers'], child(path, 'finalizers')));
  return dedupe(all);
}

function dedupe(errors: FieldError[]): FieldError[] {
  const seen = new Set<string>();
  return errors.filter((e) => {
    let k: string;
    try {
      k = `${e.type}\u0000${e.field}\u0000${e.detail}\u0000${JSON.stringify(e.badValue)}`;
    } catch {
      return true;
    }
    if (seen.has(k)) return false;
    seen.add(k);
    return true;
  });
}
