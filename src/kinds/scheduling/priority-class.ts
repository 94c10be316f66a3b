/** PriorityClass (scheduling.k8s.io/v1, cluster-scoped). */
import { forbidden } from '../../machinery/errors.js';
import { fieldError, type FieldError } from '../../machinery/field-errors.js';
import { defineKind, type BuiltinObject, type KindDefinition } from '../../schema/define-kind.js';
import { immutableFieldError } from '../../schema/validation/immutable-fields.js';
import { PriorityClass as PriorityClassSchema } from '../types/scheduling-v1.js';
import { lazyVersion } from '../shared/lazy-version.js';

/** A PriorityClass object. */
export type PriorityClass = PriorityClassSchema;

/** `scheduling.HighestUserDefinablePriority`. */
export const HIGHEST_USER_DEFINABLE_PRIORITY = 1000000000;
/** `scheduling.SystemCriticalPriority`. */
const SYSTEM_CRITICAL_PRIORITY = 2 * HIGHEST_USER_DEFINABLE_PRIORITY;
/** `scheduling.SystemPriorityClassPrefix`. */
const SYSTEM_PREFIX = 'system-';

/** `schedulingapiv1.SystemPriorityClasses()`: the classes every cluster has. */
export const SYSTEM_PRIORITY_CLASSES: readonly PriorityClass[] = [
  {
    metadata: { name: 'system-node-critical' },
    value: SYSTEM_CRITICAL_PRIORITY + 1000,
    description: 'Used for system critical pods that must not be moved from their current node.',
  },
  {
    metadata: { name: 'system-cluster-critical' },
    value: SYSTEM_CRITICAL_PRIORITY,
    description: 'Used for system critical pods that must run in the cluster, but can be moved to another node if necessary.',
  },
];

const PREEMPTION_POLICIES = ['PreemptLowerPriority', 'Never'];

/** `IsKnownSystemPriorityClass`: undefined when `pc` is one, else why not. */
function unknownSystemClass(name: string, value: number, globalDefault: boolean): string | undefined {
  const known = SYSTEM_PRIORITY_CLASSES.find((c) => c.metadata?.name === name);
  if (!known) return `${name} is not a known system priority class`;
  if (known.value !== value) return `value of ${name} PriorityClass must be ${known.value}`;
  if (globalDefault) return `globalDefault of ${name} PriorityClass must be false`;
  return undefined;
}

/** `ValidatePreemptionPolicy`. */
function preemptionPolicyErrors(policy: string): FieldError[] {
  if (PREEMPTION_POLICIES.includes(policy)) return [];
  if (policy === '') return [fieldError.required('preemptionPolicy')];
  return [fieldError.notSupported('preemptionPolicy', policy, PREEMPTION_POLICIES)];
}

/** `ValidatePriorityClass` without ObjectMeta. */
function validatePriorityClass(pc: PriorityClass): FieldError[] {
  const errs: FieldError[] = [];
  const name = pc.metadata?.name ?? '';
  const value = pc.value ?? 0;
  if (name.startsWith(SYSTEM_PREFIX)) {
    const why = unknownSystemClass(name, value, pc.globalDefault ?? false);
    if (why)
      errs.push(fieldError.forbidden('metadata.name', `priority class names with '${SYSTEM_PREFIX}' prefix are reserved for system use only. error: ${why}`));
  } else if (value > HIGHEST_USER_DEFINABLE_PRIORITY) {
    errs.push(fieldError.forbidden('value', `maximum allowed value of a user defined priority is ${HIGHEST_USER_DEFINABLE_PRIORITY}`));
  }
  if (pc.preemptionPolicy !== undefined) errs.push(...preemptionPolicyErrors(pc.preemptionPolicy));
  return errs;
}

/** `ValidatePriorityClassUpdate` without ObjectMeta: value and preemptionPolicy never change. */
function validatePriorityClassUpdate(pc: PriorityClass, old: Readonly<PriorityClass>): FieldError[] {
  const errs: FieldError[] = [];
  if ((pc.value ?? 0) !== (old.value ?? 0)) errs.push(fieldError.forbidden('value', 'may not be changed in an update.'));
  if (pc.preemptionPolicy !== old.preemptionPolicy) errs.push(immutableFieldError('preemptionPolicy', pc.preemptionPolicy ?? null));
  return errs;
}

/**
 * PriorityClass: a named pod priority. `preemptionPolicy` defaults to `PreemptLowerPriority`;
 * `value` (at most 1000000000 unless a system class) and `preemptionPolicy` never change; names
 * starting with `system-` are the two system classes', which every cluster has and no one deletes.
 * One class at most is `globalDefault` (the Priority admission plugin checks it). Generation 1 on
 * create, never bumped.
 */
export const PriorityClassKind = defineKind<PriorityClass>({
  group: 'scheduling.{api_domain}',
  kind: 'PriorityClass',
  plural: 'priorityclasses',
  shortNames: ['pc'],
  scope: 'Cluster',
  // pkg/registry/scheduling/priorityclass/strategy.go sets 1 on create; PrepareForUpdate never bumps it.
  generation: { changed: () => false },
  versions: [lazyVersion('v1', PriorityClassSchema, { storage: true })],
  printerColumns: [
    {
      name: 'Value',
      type: 'integer',
      description:
        'value represents the integer value of this priority class. This is the actual priority that pods receive when they have the name of this class in their pod spec.',
      value: (pc) => pc.value ?? 0,
    },
    {
      name: 'Global-Default',
      type: 'boolean',
      description:
        'globalDefault specifies whether this PriorityClass should be considered as the default priority for pods that do not have any priority class. Only one PriorityClass can be marked as `globalDefault`. However, if more than one PriorityClasses exists with their `globalDefault` field set to true, the smallest value of such global default PriorityClasses will be used as the default priority.',
      value: (pc) => pc.globalDefault ?? false,
    },
    { name: 'Age', type: 'date', value: (pc) => pc.metadata?.creationTimestamp },
    {
      name: 'PreemptionPolicy',
      type: 'string',
      description:
        'preemptionPolicy is the Policy for preempting pods with lower priority. One of Never, PreemptLowerPriority. Defaults to PreemptLowerPriority if unset.',
      value: (pc) => pc.preemptionPolicy ?? '',
    },
  ],
  strategy: {
    defaults(pc) {
      // SetDefaults_PriorityClass; value is a Go int32, always serialized.
      pc.preemptionPolicy ??= 'PreemptLowerPriority';
      pc.value ??= 0;
    },
    validate: (pc, ctx) => (ctx.operation === 'create' ? validatePriorityClass(pc) : []),
    validateUpdate: (pc, old) => validatePriorityClassUpdate(pc, old),
  },
  deletion: {
    // pkg/registry/scheduling/priorityclass/storage/storage.go: REST.Delete (not DeleteCollection).
    checkDelete(pc, ctx) {
      const name = pc.metadata?.name ?? '';
      if (SYSTEM_PRIORITY_CLASSES.some((c) => c.metadata?.name === name)) {
        throw forbidden({ group: `scheduling.${ctx.apiDomain}`, resource: 'priorityclasses' }, name, 'this is a system priority class and cannot be deleted');
      }
    },
  },
});

/** The system PriorityClasses a cluster starts with (the scheduling storage's post-start hook). */
export const schedulingBuiltinObjects: readonly BuiltinObject[] = SYSTEM_PRIORITY_CLASSES.map((object) => ({
  kind: PriorityClassKind as KindDefinition,
  object,
}));
