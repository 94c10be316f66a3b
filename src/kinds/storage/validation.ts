/**
 * Rules several storage.k8s.io kinds share (`pkg/apis/storage/validation/validation.go`,
 * `pkg/apis/core/validation`): provisioner/driver names, class parameters, CSI driver names,
 * topology selector terms.
 */
import { fieldError, type FieldError } from '../../machinery/field-errors.js';
import { isDNS1123Subdomain, isQualifiedName } from '../../schema/validation/names.js';
import { validateLabelName } from '../../schema/validation/object-meta.js';
import { jsonEqual } from '../../util/json-equal.js';
import type { TopologySelectorTerm } from '../types/core-v1.js';

const MAX_PARAMETER_SIZE = 256 * 1024;
const MAX_PARAMETER_COUNT = 512;
const MAX_CSI_DRIVER_NAME = 63;

/** `validateProvisioner`: required, and a qualified name once lowercased. */
export function validateProvisioner(value: string | undefined, path: string): FieldError[] {
  if (!value) return [fieldError.required(path)];
  const lower = value.toLowerCase();
  return isQualifiedName(lower).map((m) => fieldError.invalid(path, lower, m));
}

const utf8 = (s: string): number => Buffer.byteLength(s, 'utf8');

/** `validateParameters`: at most 512 entries and 256 KiB, no empty key; `allowEmpty` false requires one. */
export function validateParameters(params: Readonly<Record<string, string>> | undefined, allowEmpty: boolean, path: string): FieldError[] {
  const entries = Object.entries(params ?? {});
  if (entries.length > MAX_PARAMETER_COUNT) return [fieldError.tooLong(path, MAX_PARAMETER_COUNT)];
  const errs: FieldError[] = [];
  let size = 0;
  for (const [k, v] of entries) {
    if (k.length < 1) errs.push(fieldError.invalid(path, k, 'field can not be empty.'));
    size += utf8(k) + utf8(v);
  }
  if (size > MAX_PARAMETER_SIZE) errs.push(fieldError.tooLong(path, MAX_PARAMETER_SIZE));
  if (!allowEmpty && entries.length === 0) errs.push(fieldError.required(path, 'must contain at least one key/value pair'));
  return errs;
}

/** `reflect.DeepEqual` of two decoded string maps: an empty map is not an absent one. */
export function sameMap(a: Readonly<Record<string, string>> | undefined, b: Readonly<Record<string, string>> | undefined): boolean {
  if ((a === undefined) !== (b === undefined)) return false;
  return jsonEqual(a ?? {}, b ?? {});
}

/** `ValidateCSIDriverName` (core validation): required, at most 63 characters, a DNS subdomain lowercased. */
export function validateCSIDriverName(name: string | undefined, path: string): FieldError[] {
  const value = name ?? '';
  const errs: FieldError[] = [];
  if (value.length === 0) errs.push(fieldError.required(path));
  if (value.length > MAX_CSI_DRIVER_NAME) errs.push(fieldError.tooLong(path, MAX_CSI_DRIVER_NAME));
  for (const m of isDNS1123Subdomain(value.toLowerCase())) errs.push(fieldError.invalid(path, value, m));
  return errs;
}

/** `validateAllowedTopologies` with `ValidateTopologySelectorTerm`: keys, values and duplicate terms. */
export function validateAllowedTopologies(terms: readonly TopologySelectorTerm[] | undefined, path: string): FieldError[] {
  const errs: FieldError[] = [];
  // Go starts its list of seen terms with one empty entry per term (`make([]..., len(topologies))`
  // before appending), so a term without expressions is reported as a duplicate of each.
  const seen: Map<string, Set<string>>[] = (terms ?? []).map(() => new Map());
  (terms ?? []).forEach((term, i) => {
    const termPath = `${path}[${i}]`;
    const exprs = new Map<string, Set<string>>();
    (term.matchLabelExpressions ?? []).forEach((req, j) => {
      const p = `${termPath}.matchLabelExpressions[${j}]`;
      const values = new Set<string>();
      const list = req.values ?? [];
      if (list.length === 0) errs.push(fieldError.required(`${p}.values`));
      list.forEach((v, k) => {
        if (values.has(v)) errs.push(fieldError.duplicate(`${p}.values[${k}]`, v));
        values.add(v);
      });
      errs.push(...validateLabelName(req.key, `${p}.key`));
      if (exprs.has(req.key)) errs.push(fieldError.duplicate(`${p}.key`, req.key));
      exprs.set(req.key, values);
    });
    const same = (a: Map<string, Set<string>>, b: Map<string, Set<string>>) =>
      a.size === b.size && [...a].every(([k, v]) => b.has(k) && b.get(k)!.size === v.size && [...v].every((x) => b.get(k)!.has(x)));
    for (const earlier of seen) if (same(exprs, earlier)) errs.push(fieldError.duplicate(`${termPath}.matchLabelExpressions`, ''));
    seen.push(exprs);
  });
  return errs;
}
