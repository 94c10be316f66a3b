/** Role (rbac.authorization.k8s.io/v1, namespaced). */
import { defineKind } from '../../schema/define-kind.js';
import { pathSegmentNameValidator } from '../../schema/validation/names.js';
import { Role as RoleSchema } from '../types/rbac-v1.js';
import { validatePolicyRules } from './policy-rule.js';
import { checkRoleWrite } from './escalation.js';
import { lazyVersion } from '../shared/lazy-version.js';

/** A Role object. */
export type Role = RoleSchema;

/**
 * Role: a namespaced set of policy rules (`ValidateRole`: names are path segments; each rule needs
 * verbs, and API groups and resources; non-resource URLs are for ClusterRoles only). PUT creates;
 * no generation; `kubectl get` prints Kubernetes' default table (Name, Created At).
 */
export const RoleKind = defineKind<Role>({
  group: 'rbac.authorization.{api_domain}',
  kind: 'Role',
  plural: 'roles',
  scope: 'Namespaced',
  // No generation: pkg/registry/rbac/role/strategy.go never sets it.
  generation: false,
  versions: [lazyVersion('v1', RoleSchema, { storage: true })],
  // ValidateRBACName: path.IsValidPathSegmentName.
  nameValidator: pathSegmentNameValidator,
  allowCreateOnUpdate: true,
  // Required fields (a rule's verbs) are checked in code, with Kubernetes' messages.
  schemaRequired: false,
  // pkg/printers has no printer for roles: the default table convertor's Name and Created At.
  defaultTable: true,
  strategy: {
    // The policy-based storage: no rules the writer does not hold (pkg/registry/rbac/role/policybased).
    prepareForCreate: (role, ctx) => checkRoleWrite('roles', role, undefined, ctx),
    prepareForUpdate: (role, old, ctx) => checkRoleWrite('roles', role, old, ctx),
    validate: (role, ctx) => (ctx.operation === 'create' ? validatePolicyRules(role.rules, true) : []),
    // Kubernetes' ValidateUpdate runs ValidateRole, then ValidateRoleUpdate, which runs it again:
    // each cause is reported twice (the message lists it once).
    validateUpdate(role) {
      const errs = validatePolicyRules(role.rules, true);
      return [...errs, ...errs];
    },
  },
});
