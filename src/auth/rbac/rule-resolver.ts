/**
 * Which RBAC rules apply to a user in a namespace (`pkg/registry/rbac/validation/rule.go`
 * `DefaultRuleResolver`): the rules of the roles that ClusterRoleBindings grant the user, then
 * those that the namespace's RoleBindings grant; a binding whose role is missing is an error,
 * never a failure of the whole resolution (rules only ever add permissions).
 */
import type { PolicyRule, RoleRef, Subject } from '../../kinds/types/rbac-v1.js';
import type { UserInfo } from '../../machinery/request.js';
import { goQuote } from '../../util/go-format.js';
import type { IndexedBinding, RbacPolicySource } from './policy-index.js';
import { SERVICE_ACCOUNT_USER_PREFIX } from './policy-index.js';

/** Where a rule came from: the binding and the subject of it that names the user. */
export interface RuleSource {
  readonly binding: IndexedBinding;
  readonly subject: Readonly<Subject>;
}

/**
 * Called with each rule that applies (and its source) or each error met (`rule` and `source`
 * undefined); answering false stops the walk.
 */
export type RuleVisitor = (source: RuleSource | undefined, rule: Readonly<PolicyRule> | undefined, error: string | undefined) => boolean;

/** `appliesToUser`. */
function appliesToUser(user: Readonly<UserInfo>, subject: Readonly<Subject>, namespace: string): boolean {
  switch (subject.kind) {
    case 'User':
      return user.username === subject.name;
    case 'Group':
      return user.groups.includes(subject.name);
    case 'ServiceAccount': {
      const saNamespace = subject.namespace || namespace;
      if (!saNamespace) return false;
      return user.username === `${SERVICE_ACCOUNT_USER_PREFIX}${saNamespace}:${subject.name}`;
    }
    default:
      return false;
  }
}

/** `appliesTo`: the first subject of the binding that names the user. */
function firstSubjectFor(user: Readonly<UserInfo>, binding: IndexedBinding): Readonly<Subject> | undefined {
  return binding.subjects.find((s) => appliesToUser(user, s, binding.namespace));
}

/**
 * The text of a missing role as the authorizer's listers say it
 * (`clusterrole.rbac.authorization.k8s.io "name" not found`).
 */
function notFoundText(singular: string, group: string, name: string): string {
  return `${singular}.${group} ${goQuote(name)} not found`;
}

/** `GetRoleReferenceRules`: the rules of the role a binding refers to, or why there are none. */
export function roleReferenceRules(
  source: RbacPolicySource,
  group: string,
  roleRef: Readonly<RoleRef>,
  bindingNamespace: string,
): { rules: readonly Readonly<PolicyRule>[] } | { error: string } {
  switch (roleRef.kind) {
    case 'Role': {
      const rules = source.roleRules(bindingNamespace, roleRef.name);
      return rules ? { rules } : { error: notFoundText('role', group, roleRef.name) };
    }
    case 'ClusterRole': {
      const rules = source.clusterRoleRules(roleRef.name);
      return rules ? { rules } : { error: notFoundText('clusterrole', group, roleRef.name) };
    }
    default:
      return { error: `unsupported role reference kind: ${goQuote(roleRef.kind ?? '')}` };
  }
}

/** `VisitRulesFor`: every rule (or error) for the user, cluster bindings first, until the visitor stops. */
export function visitRulesFor(source: RbacPolicySource, group: string, user: Readonly<UserInfo>, namespace: string, visitor: RuleVisitor): void {
  const walk = (bindings: readonly IndexedBinding[], bindingNamespace: string): boolean => {
    for (const binding of bindings) {
      const subject = firstSubjectFor(user, binding);
      if (!subject) continue;
      const resolved = roleReferenceRules(source, group, binding.roleRef, bindingNamespace);
      if ('error' in resolved) {
        if (!visitor(undefined, undefined, resolved.error)) return false;
        continue;
      }
      const from: RuleSource = { binding, subject };
      for (const rule of resolved.rules) if (!visitor(from, rule, undefined)) return false;
    }
    return true;
  };
  if (!walk(source.clusterRoleBindingsFor(user.username, user.groups), '')) return;
  if (namespace.length > 0) walk(source.roleBindingsFor(namespace, user.username, user.groups), namespace);
}

/** `describeSubject`: `User "alice"`, `ServiceAccount "name/namespace"`. */
function describeSubject(subject: Readonly<Subject>, bindingNamespace: string): string {
  if (subject.kind === 'ServiceAccount') return `${subject.kind} ${goQuote(`${subject.name}/${subject.namespace || bindingNamespace}`)}`;
  return `${subject.kind} ${goQuote(subject.name)}`;
}

/**
 * What the authorizer says allowed a request: `ClusterRoleBinding "x" of ClusterRole "y" to User "z"`,
 * `RoleBinding "x/ns" of Role "y" to Group "g"`.
 */
export function describeSource({ binding, subject }: RuleSource): string {
  const ref = `${binding.roleRef.kind} ${goQuote(binding.roleRef.name)}`;
  if (binding.namespace === '') return `ClusterRoleBinding ${goQuote(binding.name)} of ${ref} to ${describeSubject(subject, '')}`;
  return `RoleBinding ${goQuote(`${binding.name}/${binding.namespace}`)} of ${ref} to ${describeSubject(subject, binding.namespace)}`;
}

/** `RulesFor`: every rule that applies, and the errors met. */
export function resolveRules(
  source: RbacPolicySource,
  group: string,
  user: Readonly<UserInfo>,
  namespace: string,
): { rules: Readonly<PolicyRule>[]; errors: string[] } {
  const rules: Readonly<PolicyRule>[] = [];
  const errors: string[] = [];
  visitRulesFor(source, group, user, namespace, (_, rule, error) => {
    if (rule) rules.push(rule);
    if (error !== undefined) errors.push(error);
    return true;
  });
  return { rules, errors };
}
