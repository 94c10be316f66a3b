/** PodDisruptionBudget (policy/v1, namespaced). */
import { defineKind } from '../../schema/define-kind.js';
import { specGeneration } from '../shared/semantic-equal.js';
import { PodDisruptionBudget as PodDisruptionBudgetSchema } from '../types/policy-v1.js';
import type { LabelSelector } from '../types/meta-v1.js';
import { hasInvalidLabelValue, validatePodDisruptionBudgetSpec, validatePodDisruptionBudgetStatus } from './pod-disruption-budget-validation.js';
import { lazyVersion } from '../shared/lazy-version.js';

/** A PodDisruptionBudget object. */
export type PodDisruptionBudget = PodDisruptionBudgetSchema;

/** The label policy/v1beta1 used to tell an empty selector that matched nothing (`policy.PDBV1beta1Label`). */
const V1BETA1_LABEL = 'pdb.kubernetes.io/deprecated-v1beta1-empty-selector-match';

/**
 * `Convert_v1_PodDisruptionBudget_To_policy_PodDisruptionBudget`: a selector that is not exactly the
 * v1beta1 match-none one (an `Exists` on the label) or empty loses that label
 * (`policy.StripPDBV1beta1Label`).
 */
function stripV1beta1Label(selector: LabelSelector | undefined): void {
  if (!selector) return;
  const exprs = selector.matchExpressions ?? [];
  const labels = Object.keys(selector.matchLabels ?? {});
  const matchNone =
    labels.length === 0 && exprs.length === 1 && exprs[0]!.key === V1BETA1_LABEL && exprs[0]!.operator === 'Exists' && (exprs[0]!.values ?? []).length === 0;
  if (matchNone) return;
  if (selector.matchLabels && V1BETA1_LABEL in selector.matchLabels) {
    delete selector.matchLabels[V1BETA1_LABEL];
    if (Object.keys(selector.matchLabels).length === 0) delete selector.matchLabels;
  }
  if (selector.matchExpressions) {
    selector.matchExpressions = selector.matchExpressions.filter((e) => e.key !== V1BETA1_LABEL);
    if (selector.matchExpressions.length === 0) delete selector.matchExpressions;
  }
}

/** The status of a new budget: Go's zero status, whose counts are always serialized. */
function zeroStatus(): NonNullable<PodDisruptionBudget['status']> {
  return { disruptionsAllowed: 0, currentHealthy: 0, desiredHealthy: 0, expectedPods: 0 };
}

/**
 * PodDisruptionBudget: how many of the pods a selector matches may be down at once (`minAvailable`
 * or `maxUnavailable`, an integer or a percentage), with the disruption controller's counts in
 * `status`, written through `/status`. Generation 1 on create, bumped by spec changes; updates need
 * a resourceVersion.
 */
export const PodDisruptionBudgetKind = defineKind<PodDisruptionBudget>({
  group: 'policy',
  kind: 'PodDisruptionBudget',
  plural: 'poddisruptionbudgets',
  shortNames: ['pdb'],
  scope: 'Namespaced',
  // pkg/registry/policy/poddisruptionbudget/strategy.go: 1 on create, one more per spec change.
  generation: specGeneration(PodDisruptionBudgetSchema),
  versions: [lazyVersion('v1', PodDisruptionBudgetSchema, { storage: true })],
  statusSubresource: true,
  allowUnconditionalUpdate: false,
  printerColumns: [
    {
      name: 'Min Available',
      type: 'string',
      description: 'The minimum number of pods that must be available.',
      value: (p) => (p.spec?.minAvailable === undefined ? 'N/A' : String(p.spec.minAvailable)),
    },
    {
      name: 'Max Unavailable',
      type: 'string',
      description: 'The maximum number of pods that may be unavailable.',
      value: (p) => (p.spec?.maxUnavailable === undefined ? 'N/A' : String(p.spec.maxUnavailable)),
    },
    {
      name: 'Allowed Disruptions',
      type: 'integer',
      description: 'Calculated number of pods that may be disrupted at this time.',
      value: (p) => p.status?.disruptionsAllowed ?? 0,
    },
  ],
  strategy: {
    defaults(pdb) {
      // spec and status are Go structs: the real server always serializes them.
      pdb.spec ??= {};
      stripV1beta1Label(pdb.spec.selector);
      pdb.status = { ...zeroStatus(), ...pdb.status };
    },
    validate: (pdb, ctx) => (ctx.operation === 'create' ? validatePodDisruptionBudgetSpec(pdb.spec ?? {}, {}) : []),
    validateUpdate(pdb, old, ctx) {
      if (ctx.subresource === 'status') return validatePodDisruptionBudgetStatus(pdb.status ?? {});
      return validatePodDisruptionBudgetSpec(pdb.spec ?? {}, { allowInvalidLabelValueInSelector: hasInvalidLabelValue(old.spec) });
    },
  },
});
