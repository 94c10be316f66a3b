/** Deployment (apps/v1). */
import { badRequest } from '../../machinery/errors.js';
import { defineKind, type KindContext } from '../../schema/define-kind.js';
import type { StructuralNode } from '../../schema/structural.js';
import { Deployment as DeploymentSchema } from '../types/apps-v1.js';
import { withZeroValues } from '../shared/zero-values.js';
import { fieldNode, semanticEqual } from '../shared/semantic-equal.js';
import { QuantityDecodeError } from '../shared/resource-lists.js';
import { podTemplateWarnings } from '../shared/pod-spec/template.js';
import { applyDeploymentDefaults, DeploymentDecodeError, rollbackRevision } from './deployment/defaults.js';
import { validateDeploymentSpec, validateDeploymentStatusUpdate } from './deployment/validation.js';
import { CONTAINERS_DESCRIPTION, DEPLOYMENT_COLUMNS as DESCRIPTIONS, IMAGES_DESCRIPTION } from './columns.js';
import { DEPLOYMENT_REPLICASET_TERMINATING_REPLICAS } from './replicaset.js';
import { containerCells, selectorImmutableErrors, selectorString, workloadNameWarnings } from './workload.js';
import { lazyVersion } from '../shared/lazy-version.js';

/** A Deployment object. */
export type Deployment = DeploymentSchema;

/** Decode-time defaults and conversion; what Kubernetes' decoder refuses is a 400. */
function defaultDeployment(d: Deployment): void {
  try {
    applyDeploymentDefaults(d);
  } catch (e) {
    if (e instanceof QuantityDecodeError || e instanceof DeploymentDecodeError) {
      throw badRequest(`Deployment in version "v1" cannot be handled as a Deployment: ${e.message}`);
    }
    throw e;
  }
}

/** `ValidateDeploymentSpec` of the object as Go sees it (zero values filled, a missing selector nil). */
function specRules(d: Deployment, ctx: KindContext) {
  const full = withZeroValues(d, DeploymentSchema());
  return validateDeploymentSpec(full.spec ?? ({} as NonNullable<Deployment['spec']>), d.spec?.selector, ctx.reservedDomain, rollbackRevision(d));
}

let specNode: StructuralNode | undefined;
let annotationsNode: StructuralNode | undefined;
let selectorNode: StructuralNode | undefined;

/**
 * Deployment: the v1 defaults (Pod defaults for the template), validation, the selector that may not
 * change, `/status` and `/scale` of Kubernetes v1.36 (pkg/registry/apps/deployment). No controller
 * rolls it out: its status changes only through `/status`.
 */
export const DeploymentKind = defineKind<Deployment>({
  group: 'apps',
  kind: 'Deployment',
  plural: 'deployments',
  shortNames: ['deploy'],
  categories: ['all'],
  scope: 'Namespaced',
  // Generation 1 on create, one more when the spec or the annotations change (deploymentStrategy.PrepareForUpdate:
  // annotations are copied to the ReplicaSets).
  generation: {
    changed(d, old) {
      specNode ??= fieldNode(DeploymentSchema(), 'spec');
      annotationsNode ??= fieldNode(DeploymentSchema(), 'metadata', 'annotations');
      return !semanticEqual(d.spec, old.spec, specNode) || !semanticEqual(d.metadata?.annotations, old.metadata?.annotations, annotationsNode);
    },
  },
  versions: [lazyVersion('v1', DeploymentSchema, { storage: true })],
  statusSubresource: true,
  scale: { specReplicasPath: '.spec.replicas', statusReplicasPath: '.status.replicas', labelSelectorPath: '.spec.selector' },
  // The rules check required fields in code, with Kubernetes' own paths and messages.
  schemaRequired: false,
  printerColumns: [
    { name: 'Ready', type: 'string', description: DESCRIPTIONS.ready, value: (d) => `${d.status?.readyReplicas ?? 0}/${d.spec?.replicas ?? 0}` },
    { name: 'Up-to-date', type: 'string', description: DESCRIPTIONS.upToDate, value: (d) => d.status?.updatedReplicas ?? 0 },
    { name: 'Available', type: 'string', description: DESCRIPTIONS.available, value: (d) => d.status?.availableReplicas ?? 0 },
    { name: 'Age', type: 'date', value: (d) => d.metadata?.creationTimestamp },
    { name: 'Containers', type: 'string', priority: 1, description: CONTAINERS_DESCRIPTION, value: (d) => containerCells(d.spec?.template).names },
    { name: 'Images', type: 'string', priority: 1, description: IMAGES_DESCRIPTION, value: (d) => containerCells(d.spec?.template).images },
    { name: 'Selector', type: 'string', priority: 1, description: DESCRIPTIONS.selector, value: (d) => selectorString(d.spec?.selector) },
  ],
  strategy: {
    prepareForCreate(d) {
      // DeploymentStatus has only omitempty fields: the zero status serializes as `{}`.
      d.status = {};
      defaultDeployment(d);
    },
    prepareForUpdate(d, old, ctx) {
      if (ctx.subresource === 'status') dropDisabledStatusFields(d, old, ctx);
    },
    defaults(d) {
      defaultDeployment(d);
    },
    validate(d, ctx) {
      // On update the spec rules run in validateUpdate, in Kubernetes' order.
      if (ctx.operation !== 'create') return [];
      return specRules(d, ctx);
    },
    validateUpdate(d, old, ctx) {
      if (ctx.subresource === 'status') return validateDeploymentStatusUpdate(d.status ?? {}, old.status);
      selectorNode ??= fieldNode(DeploymentSchema(), 'spec', 'selector');
      return [...specRules(d, ctx), ...selectorImmutableErrors(d.spec?.selector, old.spec?.selector, selectorNode)];
    },
    warnings(d, old, ctx) {
      if (ctx.subresource === 'status') return [];
      if (!old) return [...workloadNameWarnings(d.metadata?.name), ...podTemplateWarnings(d.spec?.template, 'spec.template', ctx.reservedDomain)];
      return d.metadata?.generation !== old.metadata?.generation ? podTemplateWarnings(d.spec?.template, 'spec.template', ctx.reservedDomain) : [];
    },
  },
});

/** `dropDisabledStatusFields`: without its gate, a new `status.terminatingReplicas` is dropped unless the stored status has one. */
function dropDisabledStatusFields(d: Deployment, old: Readonly<Deployment>, ctx: KindContext): void {
  if (ctx.featureEnabled(DEPLOYMENT_REPLICASET_TERMINATING_REPLICAS)) return;
  if (old.status?.terminatingReplicas !== undefined) return;
  if (d.status) delete d.status.terminatingReplicas;
}
