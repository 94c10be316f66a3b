/** CompositePodGroup (scheduling/v1alpha3, namespaced; feature gate CompositePodGroup). */
import { defineKind, type KindContext } from '../../schema/define-kind.js';
import { CompositePodGroup as CompositePodGroupSchema, type CompositePodGroupSpec } from './composite-pod-group-schema.js';
import {
  COMPOSITE_POD_GROUP,
  POD_GROUP_PREEMPTION_POLICY,
  validateCompositePodGroupSpec,
  validateCompositePodGroupSpecUpdate,
  validateCompositePodGroupStatusUpdate,
} from './composite-pod-group-validation.js';

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

/** The defaults Kubernetes would fill in when it reads an object, given the gates. */
function specDefaults(ctx: KindContext): Partial<CompositePodGroupSpec> {
  const defaults: Partial<CompositePodGroupSpec> = { disruptionMode: DEFAULT_DISRUPTION_MODE };
  if (ctx.featureEnabled(POD_GROUP_PREEMPTION_POLICY)) defaults.preemptionPolicy = DEFAULT_PREEMPTION_POLICY;
  return defaults;
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
  versions: [{ name: 'v1alpha3', schema: CompositePodGroupSchema, served: true, storage: true }],
  statusSubresource: true,
  // Required fields are checked in code, with Kubernetes' paths and messages.
  schemaRequired: false,
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
      return validateCompositePodGroupSpecUpdate(cpg, old, specDefaults(ctx));
    },
  },
});
