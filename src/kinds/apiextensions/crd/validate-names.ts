/**
 * The naming rules of a definition (apiextensions-apiserver/pkg/apis/apiextensions/validation
 * validation.go): `ValidateCustomResourceDefinitionNames` for `spec.names` and
 * `status.acceptedNames`, the group, the scope, and the rule tying `metadata.name` to
 * `<plural>.<group>`.
 */
import { child, fieldError, index, type FieldError } from '../../../machinery/field-errors.js';
import { isDNS1035Label, isDNS1123Subdomain } from '../../../schema/validation/names.js';
import type { CustomResourceDefinitionNames } from '../../types/apiextensions-v1.js';

/** The scopes a definition may have, in Kubernetes' order. */
export const CRD_SCOPES = ['Cluster', 'Namespaced'];

/** `metadata.name` must be `<spec.names.plural>.<spec.group>`. */
export function validateDefinitionName(name: string, plural: string, group: string): FieldError[] {
  return name === `${plural}.${group}` ? [] : [fieldError.invalid('metadata.name', name, 'must be spec.names.plural+"."+spec.group')];
}

/** `spec.group`: required, a DNS subdomain, with at least one dot. */
export function validateGroup(group: string, path: string): FieldError[] {
  if (group === '') return [fieldError.required(path, '')];
  const errs = isDNS1123Subdomain(group);
  if (errs.length) return [fieldError.invalid(path, group, errs.join(','))];
  if (group.split('.').length < 2) return [fieldError.invalid(path, group, 'should be a domain with at least one dot')];
  return [];
}

/** `validateEnumStrings`: a required value out of a fixed list. */
export function validateEnum(value: string, accepted: readonly string[], path: string): FieldError[] {
  if (value === '') return [fieldError.required(path, '')];
  return accepted.includes(value) ? [] : [fieldError.notSupported(path, value, accepted)];
}

const MIXED_CASE = 'may have mixed case, but should otherwise match: ';

/** `ValidateCustomResourceDefinitionNames`: every set name is a DNS-1035 label (kinds in any case). */
export function validateNames(names: Partial<CustomResourceDefinitionNames>, path: string): FieldError[] {
  const errors: FieldError[] = [];
  const plural = names.plural ?? '';
  const singular = names.singular ?? '';
  const kind = names.kind ?? '';
  const listKind = names.listKind ?? '';
  const label = (value: string, at: string, prefix = ''): void => {
    if (value === '') return;
    const errs = isDNS1035Label(prefix ? value.toLowerCase() : value);
    if (errs.length) errors.push(fieldError.invalid(at, value, prefix + errs.join(',')));
  };
  label(plural, child(path, 'plural'));
  label(singular, child(path, 'singular'));
  label(kind, child(path, 'kind'), MIXED_CASE);
  label(listKind, child(path, 'listKind'), MIXED_CASE);
  (names.shortNames ?? []).forEach((s, i) => {
    const errs = isDNS1035Label(s ?? '');
    if (errs.length) errors.push(fieldError.invalid(index(child(path, 'shortNames'), i), s ?? '', errs.join(',')));
  });
  if (kind !== '' && kind === listKind) errors.push(fieldError.invalid(child(path, 'listKind'), listKind, 'kind and listKind may not be the same'));
  (names.categories ?? []).forEach((c, i) => {
    const errs = isDNS1035Label(c ?? '');
    if (errs.length) errors.push(fieldError.invalid(index(child(path, 'categories'), i), c ?? '', errs.join(',')));
  });
  return errors;
}

/** The names `spec.names` must have (status names may be empty). */
export function validateRequiredNames(names: Partial<CustomResourceDefinitionNames>, path: string): FieldError[] {
  const errors: FieldError[] = [];
  for (const n of ['plural', 'singular', 'kind', 'listKind'] as const) if (!names[n]) errors.push(fieldError.required(child(path, n), ''));
  return errors;
}
