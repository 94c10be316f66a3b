/**
 * Privilege escalation prevention for writes of RBAC objects, as kube-apiserver's policy-based
 * storages of roles and bindings do it (`pkg/registry/rbac/{role,clusterrole,rolebinding,
 * clusterrolebinding}/policybased/storage.go`, `pkg/registry/rbac/escalation_check.go`,
 * `pkg/registry/rbac/validation/rule.go` ConfirmNoEscalation): a user may write a role only with
 * rules it holds itself, and bind a role only when it holds its rules, unless it is in
 * `system:masters` or is authorized for the `escalate` (roles) or `bind` (bindings) verb.
 *
 * The checks run as the strategy's prepare hooks: after mutating admission and before validation,
 * where the policy-based storage wraps the generic store.
 */
import { SYSTEM_PRIVILEGED_GROUP } from '../../machinery/auth.js';
import { forbidden, internalError, notFound } from '../../machinery/errors.js';
import type { UserInfo } from '../../machinery/request.js';
import type { KindContext, KubeObject } from '../../schema/define-kind.js';
import { jsonEqual } from '../../util/json-equal.js';
import type { PolicyRule, RoleRef } from '../types/rbac-v1.js';
import { rbacGroup } from './binding.js';
import { compactRules, compactString, covers, goQuoteList, MAX_ATOMIC_RULES, type Rule } from './policy-comparator.js';
import { goQuote } from '../../util/go-format.js';

/** `EscalationAllowed`: members of `system:masters` may write any role and binding. */
export function escalationAllowed(user: Readonly<UserInfo>): boolean {
  return user.groups.includes(SYSTEM_PRIVILEGED_GROUP);
}

/** `RoleEscalationAuthorized`: the writer may `escalate` roles (or cluster roles) of this name. */
export async function roleEscalationAuthorized(ctx: KindContext, resource: 'roles' | 'clusterroles', name: string, namespace: string): Promise<boolean> {
  const result = await ctx.auth.authorizer.authorize({
    user: ctx.user,
    verb: 'escalate',
    resourceRequest: true,
    apiGroup: rbacGroup(ctx),
    apiVersion: '*',
    resource,
    name,
    namespace,
  });
  return result.decision === 'Allow';
}

/** `BindingAuthorized`: the writer may `bind` the role a binding refers to, in the binding's namespace (`''` for cluster bindings). */
export async function bindingAuthorized(ctx: KindContext, roleRef: Readonly<RoleRef>, namespace: string): Promise<boolean> {
  let resource: string;
  if (roleRef.kind === 'ClusterRole') resource = 'clusterroles';
  else if (roleRef.kind === 'Role') resource = 'roles';
  else return false;
  const result = await ctx.auth.authorizer.authorize({
    user: ctx.user,
    verb: 'bind',
    resourceRequest: true,
    apiGroup: roleRef.apiGroup ?? '',
    apiVersion: '*',
    resource,
    name: roleRef.name,
    namespace,
  });
  return result.decision === 'Allow';
}

/**
 * `ConfirmNoEscalation`: why the writer may not grant `rules` (in `namespace`), or undefined when
 * its own rules there cover them.
 */
export async function escalationError(ctx: KindContext, rules: readonly Rule[], namespace: string): Promise<string | undefined> {
  // ConfirmNoEscalation asks the RBAC rule resolver, not the chain: a webhook's or the Node
  // authorizer's "does not support user rule resolution" is no resolution error here.
  const owned = await ctx.auth.rbacRules.rulesFor(ctx.user, namespace);
  const ownerRules: Rule[] = [
    ...owned.resourceRules.map((r) => ({ verbs: r.verbs, apiGroups: r.apiGroups, resources: r.resources, resourceNames: r.resourceNames })),
    ...owned.nonResourceRules.map((r) => ({ verbs: r.verbs, nonResourceURLs: r.nonResourceURLs })),
  ];
  const { covered, missing, truncated } = covers(ownerRules, rules);
  if (covered) return undefined;
  // sets.NewString(...).List(): each description once, in byte order.
  const lines = [...new Set(compactRules(missing).map(compactString))].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
  if (truncated) lines.push(`(the rules expand to more than ${MAX_ATOMIC_RULES} single permissions; the rest were not compared)`);
  let message = `user ${goQuote(ctx.user.username)} (groups=${goQuoteList(ctx.user.groups)}) is attempting to grant RBAC permissions not currently held:\n${lines.join('\n')}`;
  if (owned.evaluationError) message += `; resolution errors: [${owned.evaluationError}]`;
  return message;
}

/**
 * `IsOnlyMutatingGCFields`: the update changes nothing but owner references and finalizers (what
 * the garbage collector and finalizing controllers write). The field manager's record of the
 * change and the resourceVersion do not count either: they carry no permission.
 */
export function isOnlyMutatingGCFields(obj: KubeObject, old: Readonly<KubeObject>): boolean {
  const meta = { ...obj.metadata };
  const oldMeta = (old.metadata ?? {}) as Record<string, unknown>;
  for (const field of ['ownerReferences', 'finalizers', 'selfLink', 'managedFields', 'resourceVersion']) {
    if (oldMeta[field] === undefined) delete (meta as Record<string, unknown>)[field];
    else (meta as Record<string, unknown>)[field] = oldMeta[field];
  }
  return jsonEqual({ ...obj, metadata: meta }, old);
}

type RoleResource = 'roles' | 'clusterroles';

/** The full authority `*` on `*.*` and on every URL, which an aggregation rule needs. */
const FULL_AUTHORITY: readonly PolicyRule[] = [
  { verbs: ['*'], apiGroups: ['*'], resources: ['*'] },
  { verbs: ['*'], nonResourceURLs: ['*'] },
];

/** The object's namespace (`''` for cluster-scoped objects) and name. */
function keyOf(obj: Readonly<KubeObject>): { namespace: string; name: string } {
  return { namespace: obj.metadata?.namespace ?? '', name: obj.metadata?.name ?? '' };
}

/**
 * The check of a Role or ClusterRole write: refuses (403) rules the writer does not hold, and an
 * aggregation rule (new or old) unless the writer holds everything.
 */
export async function checkRoleWrite(
  resource: RoleResource,
  obj: KubeObject & { rules?: PolicyRule[]; aggregationRule?: { clusterRoleSelectors?: unknown[] } },
  old: Readonly<KubeObject & { aggregationRule?: { clusterRoleSelectors?: unknown[] } }> | undefined,
  ctx: KindContext,
): Promise<void> {
  if (escalationAllowed(ctx.user)) return;
  const { namespace, name } = keyOf(obj);
  // The request's name: a create by POST names no object.
  if (await roleEscalationAuthorized(ctx, resource, old ? name : '', namespace)) return;
  if (old && isOnlyMutatingGCFields(obj, old)) return;
  const group = { group: rbacGroup(ctx), resource };
  const why = await escalationError(ctx, obj.rules ?? [], namespace);
  if (why !== undefined) throw forbidden(group, name, why);
  const aggregates = (r: typeof old) => (r?.aggregationRule?.clusterRoleSelectors?.length ?? 0) > 0;
  if (resource === 'clusterroles' && (aggregates(obj) || aggregates(old))) {
    if ((await escalationError(ctx, FULL_AUTHORITY, namespace)) !== undefined) {
      throw forbidden(group, name, 'must have cluster-admin privileges to use the aggregationRule');
    }
  }
}

/** `GetRoleReferenceRules` as the registry reads it: the role's rules, 404 when it is missing. */
async function referencedRules(ctx: KindContext, roleRef: Readonly<RoleRef>, namespace: string): Promise<readonly Rule[]> {
  const group = rbacGroup(ctx);
  let resource: RoleResource;
  if (roleRef.kind === 'Role') resource = 'roles';
  else if (roleRef.kind === 'ClusterRole') resource = 'clusterroles';
  else throw internalError(new Error(`unsupported role reference kind: ${goQuote(roleRef.kind ?? '')}`));
  const role = (await ctx.read({ group, resource }, namespace, roleRef.name ?? '')) as { rules?: PolicyRule[] } | undefined;
  if (!role) throw notFound({ group, resource }, roleRef.name ?? '');
  return role.rules ?? [];
}

/**
 * The check of a RoleBinding or ClusterRoleBinding write: the writer must be allowed to `bind` the
 * role, or hold every rule of it (403 otherwise; 404 when the role does not exist).
 */
export async function checkBindingWrite(
  resource: 'rolebindings' | 'clusterrolebindings',
  obj: KubeObject & { roleRef?: RoleRef },
  old: Readonly<KubeObject> | undefined,
  ctx: KindContext,
): Promise<void> {
  if (escalationAllowed(ctx.user)) return;
  const { namespace, name } = keyOf(obj);
  if (old && isOnlyMutatingGCFields(obj, old)) return;
  const roleRef = obj.roleRef ?? { kind: '', name: '' };
  if (await bindingAuthorized(ctx, roleRef, namespace)) return;
  const rules = await referencedRules(ctx, roleRef, namespace);
  const why = await escalationError(ctx, rules, namespace);
  if (why !== undefined) throw forbidden({ group: rbacGroup(ctx), resource }, name, why);
}
