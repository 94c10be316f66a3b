/** ReplicaSet (apps/v1). */
import { badRequest } from '../../machinery/errors.js';
import { defineKind, type KindContext } from '../../schema/define-kind.js';
import type { StructuralNode } from '../../schema/structural.js';
import { ReplicaSet as ReplicaSetSchema } from '../types/apps-v1.js';
import { withZeroValues } from '../shared/zero-values.js';
import { fieldNode, specGeneration } from '../shared/semantic-equal.js';
import { QuantityDecodeError } from '../shared/resource-lists.js';
import { podTemplateWarnings } from '../shared/pod-spec/template.js';
import { applyReplicaSetDefaults } from './replicaset/defaults.js';
import { validateReplicaSetSpec, validateReplicaSetStatus } from './replicaset/validation.js';
import { CONTAINERS_DESCRIPTION, IMAGES_DESCRIPTION, REPLICASET_COLUMNS as DESCRIPTIONS } from './columns.js';
import { containerCells, formatLabelSelector, selectorImmutableErrors, workloadNameWarnings } from './workload.js';
import { lazyVersion } from '../shared/lazy-version.js';

/** A ReplicaSet object. */
export type ReplicaSet = ReplicaSetSchema;

/** Feature gate of `status.terminatingReplicas` of Deployments and ReplicaSets (beta, on by default in v1.36). */
export const DEPLOYMENT_REPLICASET_TERMINATING_REPLICAS = 'DeploymentReplicaSetTerminatingReplicas';

/** Decode-time defaults; a malformed quantity fails the request as Kubernetes' decoder does (400). */
function defaultReplicaSet(rs: ReplicaSet): void {
  try {
    applyReplicaSetDefaults(rs);
  } catch (e) {
    if (e instanceof QuantityDecodeError) throw badRequest(`ReplicaSet in version "v1" cannot be handled as a ReplicaSet: ${e.message}`);
    throw e;
  }
}

/** `ValidateReplicaSetSpec` of the object as Go sees it (zero values filled, a missing selector nil). */
function specRules(rs: ReplicaSet, ctx: KindContext) {
  const full = withZeroValues(rs, ReplicaSetSchema());
  return validateReplicaSetSpec(full.spec ?? ({} as NonNullable<ReplicaSet['spec']>), rs.spec?.selector, ctx.reservedDomain);
}

let selectorNode: StructuralNode | undefined;

/**
 * ReplicaSet: the v1 defaults (Pod defaults for the template), validation, the selector that may not
 * change, `/status` and `/scale` of Kubernetes v1.36 (pkg/registry/apps/replicaset).
 */
export const ReplicaSetKind = defineKind<ReplicaSet>({
  group: 'apps',
  kind: 'ReplicaSet',
  plural: 'replicasets',
  shortNames: ['rs'],
  categories: ['all'],
  scope: 'Namespaced',
  // Generation 1 on create, one more for each change of the spec (rsStrategy.PrepareForUpdate).
  generation: specGeneration(ReplicaSetSchema),
  versions: [lazyVersion('v1', ReplicaSetSchema, { storage: true })],
  statusSubresource: true,
  scale: { specReplicasPath: '.spec.replicas', statusReplicasPath: '.status.replicas', labelSelectorPath: '.spec.selector' },
  // The rules check required fields in code, with Kubernetes' own paths and messages.
  schemaRequired: false,
  // No field selectors beyond metadata: apps/v1 registers no field label conversion for ReplicaSet,
  // so `status.replicas` (in the registry's GetAttrs) is refused before it is ever matched.
  printerColumns: [
    { name: 'Desired', type: 'integer', description: DESCRIPTIONS.desired, value: (r) => r.spec?.replicas ?? 0 },
    { name: 'Current', type: 'integer', description: DESCRIPTIONS.current, value: (r) => r.status?.replicas ?? 0 },
    { name: 'Ready', type: 'integer', description: DESCRIPTIONS.ready, value: (r) => r.status?.readyReplicas ?? 0 },
    { name: 'Age', type: 'date', value: (r) => r.metadata?.creationTimestamp },
    { name: 'Containers', type: 'string', priority: 1, description: CONTAINERS_DESCRIPTION, value: (r) => containerCells(r.spec?.template).names },
    { name: 'Images', type: 'string', priority: 1, description: IMAGES_DESCRIPTION, value: (r) => containerCells(r.spec?.template).images },
    { name: 'Selector', type: 'string', priority: 1, description: DESCRIPTIONS.selector, value: (r) => formatLabelSelector(r.spec?.selector) },
  ],
  strategy: {
    prepareForCreate(rs) {
      rs.status = { replicas: 0 };
      defaultReplicaSet(rs);
    },
    prepareForUpdate(rs, old, ctx) {
      if (ctx.subresource === 'status') dropDisabledStatusFields(rs, old, ctx);
    },
    defaults(rs) {
      defaultReplicaSet(rs);
    },
    validate(rs, ctx) {
      // On update the spec rules run in validateUpdate, in Kubernetes' order.
      if (ctx.operation !== 'create') return [];
      return specRules(rs, ctx);
    },
    validateUpdate(rs, old, ctx) {
      if (ctx.subresource === 'status') return validateReplicaSetStatus(rs.status ?? { replicas: 0 });
      // rsStrategy.ValidateUpdate runs ValidateReplicaSet and ValidateReplicaSetUpdate: the spec
      // rules twice (the message lists each once, the causes twice), then the selector rule.
      const spec = specRules(rs, ctx);
      return [
        ...spec,
        ...spec,
        ...selectorImmutableErrors(rs.spec?.selector, old.spec?.selector, (selectorNode ??= fieldNode(ReplicaSetSchema(), 'spec', 'selector'))),
      ];
    },
    warnings(rs, old, ctx) {
      if (ctx.subresource === 'status') return [];
      if (!old) return [...workloadNameWarnings(rs.metadata?.name), ...podTemplateWarnings(rs.spec?.template, 'spec.template', ctx.reservedDomain)];
      return rs.metadata?.generation !== old.metadata?.generation ? podTemplateWarnings(rs.spec?.template, 'spec.template', ctx.reservedDomain) : [];
    },
  },
});

/** `dropDisabledStatusFields`: without its gate, a new `status.terminatingReplicas` is dropped unless the stored status has one. */
function dropDisabledStatusFields(rs: ReplicaSet, old: Readonly<ReplicaSet>, ctx: KindContext): void {
  if (ctx.featureEnabled(DEPLOYMENT_REPLICASET_TERMINATING_REPLICAS)) return;
  if (old.status?.terminatingReplicas !== undefined) return;
  if (rs.status) delete rs.status.terminatingReplicas;
}
