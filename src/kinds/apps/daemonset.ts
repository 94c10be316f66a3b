/** DaemonSet (apps/v1). */
import { badRequest } from '../../machinery/errors.js';
import { defineKind, type KindContext } from '../../schema/define-kind.js';
import type { StructuralNode } from '../../schema/structural.js';
import { DaemonSet as DaemonSetSchema } from '../types/apps-v1.js';
import { withZeroValues } from '../shared/zero-values.js';
import { fieldNode, semanticEqual, specGeneration } from '../shared/semantic-equal.js';
import { QuantityDecodeError } from '../shared/resource-lists.js';
import { podTemplateWarnings } from '../shared/pod-spec/template.js';
import {
  applyDaemonSetDefaults,
  DaemonSetDecodeError,
  DEPRECATED_TEMPLATE_GENERATION,
  setTemplateGeneration,
  templateGeneration,
} from './daemonset/defaults.js';
import { validateDaemonSetSpec, validateDaemonSetSpecUpdate, validateDaemonSetStatusUpdate } from './daemonset/validation.js';
import { CONTAINERS_DESCRIPTION, DAEMONSET_COLUMNS as DESCRIPTIONS, IMAGES_DESCRIPTION } from './columns.js';
import { containerCells, formatLabels, formatLabelSelector, selectorImmutableErrors, workloadNameWarnings } from './workload.js';
import { lazyVersion } from '../shared/lazy-version.js';

/** A DaemonSet object. */
export type DaemonSet = DaemonSetSchema;

/** Decode-time defaults and conversion; what Kubernetes' decoder refuses is a 400. */
function defaultDaemonSet(ds: DaemonSet): void {
  try {
    applyDaemonSetDefaults(ds);
  } catch (e) {
    if (e instanceof QuantityDecodeError || e instanceof DaemonSetDecodeError) {
      throw badRequest(`DaemonSet in version "v1" cannot be handled as a DaemonSet: ${e.message}`);
    }
    throw e;
  }
}

/** The status a new DaemonSet gets: the zero status as the server serializes it. */
function zeroStatus(): NonNullable<DaemonSet['status']> {
  return { currentNumberScheduled: 0, numberMisscheduled: 0, desiredNumberScheduled: 0, numberReady: 0 };
}

/** `ValidateDaemonSetSpec` of the object as Go sees it (zero values filled, a missing selector nil). */
function specRules(ds: DaemonSet, ctx: KindContext) {
  const full = withZeroValues(ds, DaemonSetSchema());
  return validateDaemonSetSpec(full.spec ?? ({} as NonNullable<DaemonSet['spec']>), ds.spec?.selector, templateGeneration(ds) ?? 0n, ctx.reservedDomain);
}

/** Whether the template changed, as `apiequality.Semantic.DeepEqual` sees it. */
function templateChanged(ds: Readonly<DaemonSet>, old: Readonly<DaemonSet>): boolean {
  templateNode ??= fieldNode(DaemonSetSchema(), 'spec', 'template');
  return !semanticEqual(ds.spec?.template, old.spec?.template, templateNode);
}

let templateNode: StructuralNode | undefined;
let selectorNode: StructuralNode | undefined;

/**
 * DaemonSet: the v1 defaults (Pod defaults for the template), the template generation kept in the
 * `deprecated.daemonset.template.generation` annotation, validation, the selector that may not
 * change and `/status` of Kubernetes v1.36 (pkg/registry/apps/daemonset). No controller schedules
 * its pods.
 */
export const DaemonSetKind = defineKind<DaemonSet>({
  group: 'apps',
  kind: 'DaemonSet',
  plural: 'daemonsets',
  shortNames: ['ds'],
  categories: ['all'],
  scope: 'Namespaced',
  // Generation 1 on create, one more for each change of the spec (daemonSetStrategy.PrepareForUpdate).
  generation: specGeneration(DaemonSetSchema),
  versions: [lazyVersion('v1', DaemonSetSchema, { storage: true })],
  statusSubresource: true,
  // The rules check required fields in code, with Kubernetes' own paths and messages.
  schemaRequired: false,
  printerColumns: [
    { name: 'Desired', type: 'integer', description: DESCRIPTIONS.desired, value: (d) => d.status?.desiredNumberScheduled ?? 0 },
    { name: 'Current', type: 'integer', description: DESCRIPTIONS.current, value: (d) => d.status?.currentNumberScheduled ?? 0 },
    { name: 'Ready', type: 'integer', description: DESCRIPTIONS.ready, value: (d) => d.status?.numberReady ?? 0 },
    { name: 'Up-to-date', type: 'integer', description: DESCRIPTIONS.upToDate, value: (d) => d.status?.updatedNumberScheduled ?? 0 },
    { name: 'Available', type: 'integer', description: DESCRIPTIONS.available, value: (d) => d.status?.numberAvailable ?? 0 },
    { name: 'Node Selector', type: 'string', description: DESCRIPTIONS.nodeSelector, value: (d) => formatLabels(d.spec?.template?.spec?.nodeSelector) },
    { name: 'Age', type: 'date', value: (d) => d.metadata?.creationTimestamp },
    { name: 'Containers', type: 'string', priority: 1, description: CONTAINERS_DESCRIPTION, value: (d) => containerCells(d.spec?.template).names },
    { name: 'Images', type: 'string', priority: 1, description: IMAGES_DESCRIPTION, value: (d) => containerCells(d.spec?.template).images },
    { name: 'Selector', type: 'string', priority: 1, description: DESCRIPTIONS.selector, value: (d) => formatLabelSelector(d.spec?.selector) },
  ],
  strategy: {
    prepareForCreate(ds) {
      ds.status = zeroStatus();
      defaultDaemonSet(ds);
      // The template generation starts at the annotation's value, at least 1.
      const generation = templateGeneration(ds) ?? 0n;
      setTemplateGeneration(ds, generation < 1n ? 1n : generation);
    },
    prepareForUpdate(ds, old) {
      // An update may not set the template generation: it is the stored one, one more when the
      // template changes (semantically). /status keeps the stored metadata anyway.
      // Go's int64 wraps around past its maximum (and the rules then refuse the update).
      const stored = templateGeneration(old) ?? 0n;
      setTemplateGeneration(ds, templateChanged(ds, old) ? BigInt.asIntN(64, stored + 1n) : stored);
    },
    defaults(ds) {
      defaultDaemonSet(ds);
    },
    validate(ds, ctx) {
      // On update the spec rules run in validateUpdate, in Kubernetes' order.
      if (ctx.operation !== 'create') return [];
      return specRules(ds, ctx);
    },
    validateUpdate(ds, old, ctx) {
      if (ctx.subresource === 'status') return validateDaemonSetStatusUpdate(ds.status ?? zeroStatus(), old.status);
      // daemonSetStrategy.ValidateUpdate runs ValidateDaemonSet, then ValidateDaemonSetUpdate (the
      // template generation rules, the spec rules again: the message lists each once, the causes
      // twice), then the selector rule.
      selectorNode ??= fieldNode(DaemonSetSchema(), 'spec', 'selector');
      const spec = specRules(ds, ctx);
      const generation = validateDaemonSetSpecUpdate(templateGeneration(ds) ?? 0n, templateGeneration(old) ?? 0n, templateChanged(ds, old));
      return [...spec, ...generation, ...spec, ...selectorImmutableErrors(ds.spec?.selector, old.spec?.selector, selectorNode)];
    },
    warnings(ds, old, ctx) {
      if (ctx.subresource === 'status') return [];
      if (!old) return [...workloadNameWarnings(ds.metadata?.name), ...podTemplateWarnings(ds.spec?.template, 'spec.template', ctx.reservedDomain)];
      const next = ds.metadata?.annotations?.[DEPRECATED_TEMPLATE_GENERATION];
      return next !== old.metadata?.annotations?.[DEPRECATED_TEMPLATE_GENERATION]
        ? podTemplateWarnings(ds.spec?.template, 'spec.template', ctx.reservedDomain)
        : [];
    },
  },
});
