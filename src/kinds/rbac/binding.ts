/**
 * What RoleBinding and ClusterRoleBinding share (`pkg/apis/rbac/validation/validation.go`
 * `ValidateRoleBinding`, `ValidateClusterRoleBinding`, `ValidateRoleBindingSubject`; the defaults
 * of `pkg/apis/rbac/v1/defaults.go`; `printRoleBinding` of `pkg/printers/internalversion/printers.go`).
 */
import { child, fieldError, GoPrinted, index, type FieldError } from '../../machinery/field-errors.js';
import type { KindContext, PrinterColumn } from '../../schema/define-kind.js';
import { isDNS1123Subdomain, isPathSegmentName } from '../../schema/validation/names.js';
import { goQuote } from '../../util/go-format.js';
import type { RoleRef, Subject } from '../types/rbac-v1.js';

/** A RoleBinding or ClusterRoleBinding. */
export interface Binding {
  metadata?: { namespace?: string; [k: string]: unknown };
  roleRef: RoleRef;
  subjects?: Subject[];
  [k: string]: unknown;
}

/** The RBAC group of a cluster (`rbac.authorization.k8s.io` by default). */
export function rbacGroup(ctx: Pick<KindContext, 'apiDomain'>): string {
  return `rbac.authorization.${ctx.apiDomain}`;
}

/** `SetDefaults_RoleBinding`, `SetDefaults_ClusterRoleBinding` and `SetDefaults_Subject`. */
export function applyBindingDefaults(binding: Binding, ctx: KindContext): void {
  const group = rbacGroup(ctx);
  // roleRef is a struct in Go: a binding without one has the zero RoleRef, which validation refuses.
  binding.roleRef ??= { kind: '', name: '' };
  if (!binding.roleRef.apiGroup) binding.roleRef.apiGroup = group;
  for (const s of binding.subjects ?? []) {
    if (s.apiGroup) continue;
    if (s.kind === 'User' || s.kind === 'Group') s.apiGroup = group;
    else if (s.kind === 'ServiceAccount') delete s.apiGroup;
  }
}

/** `%#v` of the internal `rbac.RoleRef`, as Kubernetes shows it in `cannot change roleRef`. */
function goRoleRef(ref: Readonly<RoleRef>): GoPrinted {
  return new GoPrinted(`rbac.RoleRef{APIGroup:${goQuote(ref.apiGroup ?? '')}, Kind:${goQuote(ref.kind ?? '')}, Name:${goQuote(ref.name ?? '')}}`);
}

/** `ValidateRoleBindingSubject`. */
function validateSubject(subject: Subject, namespaced: boolean, group: string, path: string): FieldError[] {
  const errs: FieldError[] = [];
  const name = subject.name ?? '';
  if (name.length === 0) errs.push(fieldError.required(child(path, 'name')));
  const apiGroup = subject.apiGroup ?? '';
  switch (subject.kind) {
    case 'ServiceAccount':
      if (name.length > 0) for (const msg of isDNS1123Subdomain(name)) errs.push(fieldError.invalid(child(path, 'name'), name, msg));
      if (apiGroup.length > 0) errs.push(fieldError.notSupported(child(path, 'apiGroup'), apiGroup, ['']));
      if (!namespaced && !subject.namespace) errs.push(fieldError.required(child(path, 'namespace')));
      break;
    case 'User':
    case 'Group':
      if (apiGroup !== group) errs.push(fieldError.notSupported(child(path, 'apiGroup'), apiGroup, [group]));
      break;
    default:
      errs.push(fieldError.notSupported(child(path, 'kind'), subject.kind ?? '', ['ServiceAccount', 'User', 'Group']));
  }
  return errs;
}

/**
 * `ValidateRoleBinding` (`namespaced`, a roleRef to a Role or ClusterRole) and
 * `ValidateClusterRoleBinding` (a roleRef to a ClusterRole only; ServiceAccount subjects need a
 * namespace), without ObjectMeta.
 */
export function validateBinding(binding: Binding, namespaced: boolean, ctx: KindContext): FieldError[] {
  const group = rbacGroup(ctx);
  const errs: FieldError[] = [];
  const ref: Partial<RoleRef> = binding.roleRef ?? {};
  if ((ref.apiGroup ?? '') !== group) errs.push(fieldError.notSupported('roleRef.apiGroup', ref.apiGroup ?? '', [group]));
  const kinds = namespaced ? ['Role', 'ClusterRole'] : ['ClusterRole'];
  if (!kinds.includes(ref.kind ?? '')) errs.push(fieldError.notSupported('roleRef.kind', ref.kind ?? '', kinds));
  const name = ref.name ?? '';
  if (name.length === 0) errs.push(fieldError.required('roleRef.name'));
  else for (const msg of isPathSegmentName(name)) errs.push(fieldError.invalid('roleRef.name', name, msg));
  (binding.subjects ?? []).forEach((s, i) => errs.push(...validateSubject(s, namespaced, group, index('subjects', i))));
  return errs;
}

/** `ValidateRoleBindingUpdate` / `ValidateClusterRoleBindingUpdate`: roleRef never changes. */
export function validateRoleRefUnchanged(binding: Binding, old: Readonly<Binding>): FieldError[] {
  const a: Partial<RoleRef> = binding.roleRef ?? {};
  const b: Partial<RoleRef> = old.roleRef ?? {};
  if ((a.apiGroup ?? '') === (b.apiGroup ?? '') && (a.kind ?? '') === (b.kind ?? '') && (a.name ?? '') === (b.name ?? '')) return [];
  return [fieldError.invalid('roleRef', goRoleRef(a as RoleRef), 'cannot change roleRef')];
}

/** `rbac.SubjectsStrings`: users, groups and `namespace/name` of service accounts. */
function subjectsStrings(subjects: readonly Subject[] | undefined): { users: string[]; groups: string[]; sas: string[] } {
  const users: string[] = [];
  const groups: string[] = [];
  const sas: string[] = [];
  for (const s of subjects ?? []) {
    if (s.kind === 'ServiceAccount') sas.push(`${s.namespace ?? ''}/${s.name ?? ''}`);
    else if (s.kind === 'User') users.push(s.name ?? '');
    else if (s.kind === 'Group') groups.push(s.name ?? '');
  }
  return { users, groups, sas };
}

const ROLE_REF_DESCRIPTION =
  'RoleRef can reference a Role in the current namespace or a ClusterRole in the global namespace. If the RoleRef cannot be resolved, the Authorizer must return an error.';

/** The columns of `printRoleBinding` / `printClusterRoleBinding` (`of` is `roleBinding` or `clusterRoleBinding`). */
export function bindingColumns(of: string): PrinterColumn<Binding>[] {
  return [
    { name: 'Role', type: 'string', description: ROLE_REF_DESCRIPTION, value: (b) => `${b.roleRef?.kind ?? ''}/${b.roleRef?.name ?? ''}` },
    { name: 'Age', type: 'date', value: (b) => (b.metadata as { creationTimestamp?: string } | undefined)?.creationTimestamp },
    { name: 'Users', type: 'string', priority: 1, description: `Users in the ${of}`, value: (b) => subjectsStrings(b.subjects).users.join(', ') },
    { name: 'Groups', type: 'string', priority: 1, description: `Groups in the ${of}`, value: (b) => subjectsStrings(b.subjects).groups.join(', ') },
    {
      name: 'ServiceAccounts',
      type: 'string',
      priority: 1,
      description: `ServiceAccounts in the ${of}`,
      value: (b) => subjectsStrings(b.subjects).sas.join(', '),
    },
  ];
}
