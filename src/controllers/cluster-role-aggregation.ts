/**
 * The cluster-role aggregation controller (Kubernetes' `pkg/controller/clusterroleaggregation`):
 * a ClusterRole with `aggregationRule.clusterRoleSelectors` has its `rules` kept equal to the union
 * of the rules of the other ClusterRoles its selectors match (selector by selector, each role's
 * rules in name order, a rule already present skipped), written with server-side apply as the
 * field manager `clusterrole-aggregation-controller`. Any change of any ClusterRole queues every
 * aggregated one, as upstream does: the set of roles is small and the dependencies unknown.
 */
import type { EngineContext } from '../api/context.js';
import { isApiError } from '../machinery/errors.js';
import type { ApiRequest, ApiResponse } from '../machinery/request.js';
import type { KubeObject } from '../schema/define-kind.js';
import type { ResolvedKind } from '../schema/registry.js';
import { labelSelectorFromObject, type LabelSelectorObject } from '../selectors/label-selector.js';
import type { StorageEvent } from '../storage/storage.js';
import { compareGoStrings } from '../util/go-format.js';
import { jsonEqual } from '../util/json-equal.js';
import type { Controller, StartingState } from './controller-loop.js';

type Send = (req: Omit<ApiRequest, 'user'>) => Promise<ApiResponse>;

const MANAGER = 'clusterrole-aggregation-controller';
const RULE_FIELDS = ['verbs', 'apiGroups', 'resources', 'resourceNames', 'nonResourceURLs'] as const;

interface Rule {
  verbs?: string[];
  apiGroups?: string[];
  resources?: string[];
  resourceNames?: string[];
  nonResourceURLs?: string[];
}

interface ClusterRoleLike extends KubeObject {
  rules?: Rule[];
  aggregationRule?: { clusterRoleSelectors?: LabelSelectorObject[] };
}

/** `apiequality.Semantic.DeepEqual` of two rules: an empty list equals an absent one. */
function sameRule(a: Rule, b: Rule): boolean {
  return RULE_FIELDS.every((f) => {
    const x = a[f] ?? [];
    const y = b[f] ?? [];
    return x.length === y.length && x.every((v, i) => v === y[i]);
  });
}

function sameRules(a: readonly Rule[], b: readonly Rule[]): boolean {
  return a.length === b.length && a.every((r, i) => sameRule(r, b[i]!));
}

const isAggregated = (role: ClusterRoleLike | undefined): boolean => role?.aggregationRule !== undefined && role.aggregationRule !== null;

/** Creates the aggregation controller of a cluster. */
export function clusterRoleAggregationController(ctx: EngineContext, send: Send): Controller {
  const group = `rbac.authorization.${ctx.apiDomain}`;
  let kind: ResolvedKind | undefined | null = null;
  const clusterRoles = () => (kind === null ? (kind = ctx.registry.lookupResource(group, 'clusterroles')) : kind);
  /** The names of the ClusterRoles with an aggregation rule, kept from storage events. */
  const aggregated = new Set<string>();

  async function reconcile(name: string): Promise<void> {
    const k = clusterRoles();
    if (!k) return;
    const role = (await ctx.storage.get({ bucket: k.bucket, namespace: '', name }))?.value as ClusterRoleLike | undefined;
    if (!role || !isAggregated(role)) return;
    const { items } = await ctx.storage.list(k.bucket);
    const all = items.map((i) => i.value as ClusterRoleLike).sort((a, b) => compareGoStrings(a.metadata?.name ?? '', b.metadata?.name ?? ''));
    const rules: Rule[] = [];
    for (const selectorObject of role.aggregationRule?.clusterRoleSelectors ?? []) {
      const selector = labelSelectorFromObject(selectorObject);
      for (const other of all) {
        if (other.metadata?.name === name || !selector.matches(other.metadata?.labels)) continue;
        for (const rule of other.rules ?? []) if (!rules.some((r) => sameRule(r, rule))) rules.push(rule);
      }
    }
    if (sameRules(rules, role.rules ?? [])) return;
    const body: KubeObject = { apiVersion: `${group}/v1`, kind: 'ClusterRole', metadata: { name } };
    if (rules.length) body.rules = rules;
    try {
      await send({
        verb: 'patch',
        resource: { group, version: 'v1', resource: 'clusterroles' },
        name,
        patchType: 'apply',
        body,
        writeOptions: { fieldManager: MANAGER, force: true },
      });
    } catch (e) {
      // Deleted meanwhile: nothing to aggregate.
      if (!isApiError(e, 'NotFound')) throw e;
    }
  }

  return {
    name: 'clusterrole-aggregation',
    keepsOnlyObserved: true,
    // Once for the whole starting state: an ADDED event would queue every aggregated role again.
    start(state: StartingState): readonly string[] {
      const k = clusterRoles();
      for (const { name, value } of (k && state.buckets.get(k.bucket)?.objects.values()) ?? []) {
        if (isAggregated(value as ClusterRoleLike)) aggregated.add(name);
      }
      return [...aggregated];
    },
    observe(event: StorageEvent): readonly string[] {
      const k = clusterRoles();
      if (!k || event.bucket !== k.bucket) return [];
      const now = event.object as ClusterRoleLike;
      if (event.type !== 'DELETED' && isAggregated(now)) aggregated.add(event.name);
      else aggregated.delete(event.name);
      // A write that left labels, rules and aggregation rule alone changes no aggregation.
      const before = event.previous as ClusterRoleLike | undefined;
      if (
        event.type === 'MODIFIED' &&
        before &&
        jsonEqual(before.metadata?.labels, now.metadata?.labels) &&
        jsonEqual(before.rules, now.rules) &&
        jsonEqual(before.aggregationRule, now.aggregationRule)
      ) {
        return [];
      }
      return [...aggregated];
    },
    reconcile,
  };
}
