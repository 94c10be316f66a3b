/**
 * The structural rules of an admission policy's parts: `paramKind`, `matchConditions`,
 * `variables` and `mutations`, with Kubernetes' field paths and messages
 * (pkg/apis/admissionregistration/validation). CEL expressions are not compiled: only the checks
 * Kubernetes makes before compiling (an expression must not be blank) are enforced.
 */
import { CEL_RESERVED_SYMBOLS } from '../../cel/index.js';
import { child, fieldError, index, type FieldError } from '../../machinery/field-errors.js';
import { isDNS1035Label, isDNS1123Subdomain, isQualifiedName } from '../../schema/validation/names.js';
import type { MatchCondition, Mutation, ParamKind, Variable } from '../types/admissionregistration-v1.js';

/** Kubernetes' limit on `matchConditions`. */
export const MAX_MATCH_CONDITIONS = 64;

/** `patchType` values, sorted as Kubernetes lists them. */
const PATCH_TYPES = ['ApplyConfiguration', 'JSONPatch'];

const isBlank = (s: string | undefined) => (s ?? '').trim() === '';

/** `parseGroupVersion` as the admissionregistration validation has it: at most one '/'. */
function parseGroupVersion(gv: string): { group: string; version: string } | string {
  if (gv === '' || gv === '/') return { group: '', version: '' };
  const parts = gv.split('/');
  if (parts.length === 1) return { group: '', version: gv };
  if (parts.length === 2) return { group: parts[0]!, version: parts[1]! };
  return `unexpected GroupVersion string: ${gv}`;
}

/** `validateParamKind`: `apiVersion` a `[group/]version` (group a DNS subdomain, version a DNS-1035 label), `kind` required. */
export function validateParamKind(pk: ParamKind, path: string): FieldError[] {
  const errors: FieldError[] = [];
  const avPath = child(path, 'apiVersion');
  const apiVersion = pk.apiVersion ?? '';
  if (apiVersion === '') {
    errors.push(fieldError.required(avPath));
  } else {
    const gv = parseGroupVersion(apiVersion);
    if (typeof gv === 'string') {
      errors.push(fieldError.invalid(avPath, apiVersion, gv));
    } else {
      if (gv.group !== '') {
        const msgs = isDNS1123Subdomain(gv.group);
        if (msgs.length) errors.push(fieldError.invalid(avPath, gv.group, msgs.join(',')));
      }
      if (gv.version === '') {
        errors.push(fieldError.invalid(avPath, apiVersion, 'version must be specified'));
      } else {
        const msgs = isDNS1035Label(gv.version);
        if (msgs.length) errors.push(fieldError.invalid(avPath, gv.version, msgs.join(',')));
      }
    }
  }
  const kind = pk.kind ?? '';
  if (kind === '') {
    errors.push(fieldError.required(child(path, 'kind')));
  } else {
    const msgs = isDNS1035Label(kind.toLowerCase());
    if (msgs.length) errors.push(fieldError.invalid(child(path, 'kind'), kind, `may have mixed case, but should otherwise match: ${msgs.join(',')}`));
  }
  return errors;
}

/** `validateMatchConditions`: at most 64; each a non-blank expression and a unique qualified name. */
export function validateMatchConditions(conditions: readonly MatchCondition[], path: string): FieldError[] {
  const errors: FieldError[] = [];
  if (conditions.length > MAX_MATCH_CONDITIONS) errors.push(fieldError.tooMany(path, conditions.length, MAX_MATCH_CONDITIONS));
  const names = new Set<string>();
  conditions.forEach((mc, i) => {
    const p = index(path, i);
    if (isBlank(mc.expression)) errors.push(fieldError.required(child(p, 'expression')));
    const name = mc.name ?? '';
    if (name === '') {
      errors.push(fieldError.required(child(p, 'name')));
      return;
    }
    for (const msg of isQualifiedName(name)) errors.push(fieldError.invalid(child(p, 'name'), name, msg));
    if (names.has(name)) errors.push(fieldError.duplicate(child(p, 'name'), name));
    names.add(name);
  });
  return errors;
}

const CEL_IDENT = /^[_a-zA-Z][_a-zA-Z0-9]*$/;

/** Whether a name is a CEL identifier (and not a reserved word), as a variable's name must be. */
export function isCELIdentifier(name: string): boolean {
  return CEL_IDENT.test(name) && !CEL_RESERVED_SYMBOLS.has(name);
}

/** `validateVariable` without compiling: a CEL identifier as name, a non-blank expression. */
export function validateVariable(v: Variable, path: string): FieldError[] {
  const errors: FieldError[] = [];
  const name = v.name ?? '';
  if (isBlank(name)) errors.push(fieldError.required(child(path, 'name'), 'name is not specified'));
  else if (!isCELIdentifier(name)) errors.push(fieldError.invalid(child(path, 'name'), name, 'name is not a valid CEL identifier'));
  if (isBlank(v.expression)) errors.push(fieldError.required(child(path, 'expression'), 'expression is not specified'));
  return errors;
}

/**
 * `validateMutation` without compiling: `patchType` names which member is set
 * (`applyConfiguration` or `jsonPatch`), the other must be absent, and the expression not blank.
 */
export function validateMutation(m: Mutation, path: string): FieldError[] {
  const patchType = m.patchType ?? '';
  if (patchType === '') return [fieldError.required(child(path, 'patchType'))];
  const errors: FieldError[] = [];
  const member = (set: object | undefined, name: 'applyConfiguration' | 'jsonPatch', other: object | undefined, otherName: string) => {
    const p = child(path, name);
    if (!set) errors.push(fieldError.required(p, `must be specified when patchType is ${patchType}`));
    else if (isBlank((set as { expression?: string }).expression)) errors.push(fieldError.required(child(p, 'expression')));
    // Kubernetes shows a placeholder, not the object, as the bad value.
    if (other) errors.push(fieldError.invalid(child(path, otherName), `{${otherName}}`, `must not be specified when patchType is ${patchType}`));
  };
  if (patchType === 'JSONPatch') member(m.jsonPatch, 'jsonPatch', m.applyConfiguration, 'applyConfiguration');
  else if (patchType === 'ApplyConfiguration') member(m.applyConfiguration, 'applyConfiguration', m.jsonPatch, 'jsonPatch');
  else errors.push(fieldError.notSupported(child(path, 'patchType'), patchType, PATCH_TYPES));
  return errors;
}
