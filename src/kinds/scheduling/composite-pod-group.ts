/** CompositePodGroup (scheduling/v1alpha3, namespaced; feature gate CompositePodGroup). */
import { defineKind, type KindContext } from '../../schema/define-kind.js';
import { CompositePodGroup as CompositePodGroupSchema } from './composite-pod-group-schema.js';
import {
  COMPOSITE_POD_GROUP,
  compositePodGroupImmutableFields,
  POD_GROUP_PREEMPTION_POLICY,
  validateCompositePodGroupPreemptionPolicyUpdate,
  validateCompositePodGroupSpec,
  validateCompositePodGroupStatusUpdate,
} from './composite-pod-group-validation.js';
import { lazyVersion } from '../shared/lazy-version.js';

/** A CompositePodGroup object. */
export type CompositePodGroup = CompositePodGroupSchema;

const DEFAULT_DISRUPTION_MODE = 'Single';
const DEFAULT_PREEMPTION_POLICY = 'PreemptLowerPriority';

/**
 * Kubernetes' dropDisabledFields: without the PodGroupPreemptionPolicy gate, `spec.preemptionPolicy`
 * is dropped unless the stored object already uses it.
 */
function dropDisabledFields(cpg: CompositePodGroup, old: Readonly<CompositePodGroup> | undefined, ctx: KindContext): void {
  if (ctx.featureEnabled(POD_GROUP_PREEMPTION_POLICY) || old?.spec?.preemptionPolicy !== undefined) return;
  if (cpg.spec) delete cpg.spec.preemptionPolicy;
}

/** The default Kubernetes gives a stored `preemptionPolicy` when it reads the object, given the gate. */
function storedPreemptionPolicy(ctx: KindContext): string | undefined {
  return ctx.featureEnabled(POD_GROUP_PREEMPTION_POLICY) ? DEFAULT_PREEMPTION_POLICY : undefined;
}

/**
 * CompositePodGroup: a runtime group of pod groups created by workload controllers. The spec is
 * checked on create and immutable afterwards; `disruptionMode` defaults to `Single` and
 * `preemptionPolicy` (gate PodGroupPreemptionPolicy) to `PreemptLowerPriority`; status (conditions
 * merged on `type`) is written through `/status`, where `CompositePodGroupInitiallyScheduled`
 * never leaves True.
 */
export const CompositePodGroupKind = defineKind<CompositePodGroup>({
  group: 'scheduling.{api_domain}',
  kind: 'CompositePodGroup',
  plural: 'compositepodgroups',
  scope: 'Namespaced',
  // No generation: pkg/registry/scheduling/compositepodgroup/strategy.go never sets it.
  generation: false,
  featureGate: COMPOSITE_POD_GROUP,
  versions: [lazyVersion('v1alpha3', CompositePodGroupSchema, { storage: true })],
  statusSubresource: true,
  // Required fields are checked in code, with Kubernetes' paths and messages.
  schemaRequired: false,
  immutableFields: compositePodGroupImmutableFields(DEFAULT_DISRUPTION_MODE),
  strategy: {
    prepareForCreate(cpg, ctx) {
      dropDisabledFields(cpg, undefined, ctx);
    },
    prepareForUpdate(cpg, old, ctx) {
      if (ctx.subresource !== 'status') dropDisabledFields(cpg, old, ctx);
    },
    defaults(cpg, ctx) {
      // The status is a Go struct, not a pointer: the real server always serializes it, `{}` when empty.
      cpg.status ??= {};
      if (!cpg.spec) return;
      cpg.spec.disruptionMode ??= DEFAULT_DISRUPTION_MODE;
      if (ctx.featureEnabled(POD_GROUP_PREEMPTION_POLICY)) cpg.spec.preemptionPolicy ??= DEFAULT_PREEMPTION_POLICY;
    },
    validate: (cpg, ctx) => (ctx.operation === 'create' ? validateCompositePodGroupSpec(cpg) : []),
    validateUpdate(cpg, old, ctx) {
      if (ctx.subresource === 'status') return validateCompositePodGroupStatusUpdate(cpg, old);
      return validateCompositePodGroupPreemptionPolicyUpdate(cpg, old, storedPreemptionPolicy(ctx));
    },
  },
});
