/**
 * CompositePodGroup rules: Kubernetes v1.36 checks its spec with declarative validation
 * (`+k8s:required`, `+k8s:format=k8s-long-name`, unions, `+k8s:immutable`, ...), whose messages are
 * those of k8s.io/apimachinery/pkg/api/validate; the status with metav1 `ValidateConditions`.
 */
import { child, fieldError, index, type FieldError } from '../../machinery/field-errors.js';
import { isDNS1123Label, isDNS1123Subdomain, isQualifiedName } from '../../schema/validation/names.js';
import { validateMetaConditions, type MetaCondition } from '../shared/conditions.js';
import { immutableFieldError, type ImmutableField } from '../../schema/validation/immutable-fields.js';
import { GO_NIL } from '../shared/declarative.js';
import { semanticEqualAt } from '../shared/semantic-equal.js';
import { CompositePodGroup as CompositePodGroupSchema, type CompositePodGroup, type CompositePodGroupSpec } from './composite-pod-group-schema.js';

/** The feature gate of the kind itself. */
export const COMPOSITE_POD_GROUP = 'CompositePodGroup';
/** The feature gate of `spec.preemptionPolicy`. */
export const POD_GROUP_PREEMPTION_POLICY = 'PodGroupPreemptionPolicy';

/** `spec.disruptionMode` values (memkube serves a string where upstream has a struct); `Single` is the default. */
export const DISRUPTION_MODES = ['All', 'Single'] as const;
/** `spec.preemptionPolicy` values; `PreemptLowerPriority` is the default. */
export const PREEMPTION_POLICIES = ['Never', 'PreemptLowerPriority'] as const;
/** `HighestUserDefinablePriority`, the `+k8s:maximum` of `spec.priority`. */
export const HIGHEST_USER_DEFINABLE_PRIORITY = 1_000_000_000;
/** The condition that, once True, stays True. */
export const INITIALLY_SCHEDULED = 'CompositePodGroupInitiallyScheduled';

const SPEC = 'spec';

/** `+k8s:format=k8s-long-name`: each `IsDNS1123Subdomain` message as an Invalid error. */
const longName = (path: string, v: string) => isDNS1123Subdomain(v).map((m) => fieldError.invalid(path, v, m));
/** `+k8s:format=k8s-short-name`. */
const shortName = (path: string, v: string) => isDNS1123Label(v).map((m) => fieldError.invalid(path, v, m));
/** `+k8s:format=k8s-label-key`. */
const labelKey = (path: string, v: string) => isQualifiedName(v).map((m) => fieldError.invalid(path, v, m));

function validateWorkloadRef(spec: Partial<CompositePodGroupSpec>): FieldError[] {
  const path = child(SPEC, 'workloadRef');
  const ref = spec.workloadRef;
  if (ref === undefined || ref === null) return [fieldError.required(path)];
  const errs: FieldError[] = [];
  const workload = child(path, 'workloadName');
  if (!ref.workloadName) errs.push(fieldError.required(workload));
  else errs.push(...longName(workload, ref.workloadName));
  const template = child(path, 'templateName');
  if (!ref.templateName) errs.push(fieldError.required(template));
  else errs.push(...shortName(template, ref.templateName));
  return errs;
}

/** `validate.Union` over `basic` and `gang`, then the gang's `minGroupCount` (required, minimum 1). */
function validateSchedulingPolicy(spec: Partial<CompositePodGroupSpec>): FieldError[] {
  const path = child(SPEC, 'schedulingPolicy');
  const policy = spec.schedulingPolicy ?? {};
  const set = (['basic', 'gang'] as const).filter((m) => policy[m] !== undefined && policy[m] !== null);
  const members = '`basic`, `gang`';
  if (set.length === 0) return [fieldError.invalid(path, '', `must specify one of: ${members}`)];
  const errs: FieldError[] = [];
  if (set.length > 1) errs.push(fieldError.invalid(path, `{${set.join(', ')}}`, `must specify exactly one of: ${members}`));
  if (policy.gang) {
    const min = child(child(path, 'gang'), 'minGroupCount');
    const value = policy.gang.minGroupCount ?? 0;
    if (value === 0) errs.push(fieldError.required(min));
    else if (value < 1) errs.push(fieldError.invalid(min, value, 'must be greater than or equal to 1'));
  }
  return errs;
}

function validateSchedulingConstraints(spec: Partial<CompositePodGroupSpec>): FieldError[] {
  const path = child(child(SPEC, 'schedulingConstraints'), 'topology');
  const topology = spec.schedulingConstraints?.topology ?? [];
  const errs: FieldError[] = [];
  if (topology.length > 1) errs.push(fieldError.tooMany(path, topology.length, 1));
  topology.forEach((t, i) => {
    const key = child(index(path, i), 'key');
    if (!t?.key) errs.push(fieldError.required(key));
    else errs.push(...labelKey(key, t.key));
  });
  return errs;
}

/** `+k8s:enum`: an unset value passes; an unknown one is NotSupported (values sorted). */
function enumValue(path: string, value: string | undefined, allowed: readonly string[]): FieldError[] {
  return value === undefined || allowed.includes(value) ? [] : [fieldError.notSupported(path, value, allowed)];
}

/** The rules of a new CompositePodGroup's spec, in the order of the spec's fields. */
export function validateCompositePodGroupSpec(cpg: CompositePodGroup): FieldError[] {
  const spec: Partial<CompositePodGroupSpec> = cpg.spec ?? {};
  const errs: FieldError[] = [];
  if (spec.parentCompositePodGroupName !== undefined) {
    errs.push(...longName(child(SPEC, 'parentCompositePodGroupName'), spec.parentCompositePodGroupName));
  }
  errs.push(...validateWorkloadRef(spec));
  errs.push(...validateSchedulingPolicy(spec));
  errs.push(...validateSchedulingConstraints(spec));
  errs.push(...enumValue(child(SPEC, 'disruptionMode'), spec.disruptionMode, DISRUPTION_MODES));
  if (spec.priorityClassName) errs.push(...longName(child(SPEC, 'priorityClassName'), spec.priorityClassName));
  if (spec.priority !== undefined && spec.priority > HIGHEST_USER_DEFINABLE_PRIORITY) {
    errs.push(fieldError.invalid(child(SPEC, 'priority'), spec.priority, `must be less than or equal to ${HIGHEST_USER_DEFINABLE_PRIORITY}`));
  }
  errs.push(...enumValue(child(SPEC, 'preemptionPolicy'), spec.preemptionPolicy, PREEMPTION_POLICIES));
  return errs;
}

/**
 * Every spec field is immutable (`+k8s:immutable`: `Invalid value: null: field is immutable` on the
 * field that changed); `ImmutableByReflect` compares with apiequality.Semantic.DeepEqual, where an
 * empty list equals an absent one. `preemptionPolicy` is checked in code
 * ({@link validateCompositePodGroupPreemptionPolicyUpdate}): the default its stored value gains
 * depends on a feature gate. `disruptionMode` stands absent in an object stored before it had a
 * default, which Kubernetes' defaulting on read fills in.
 */
export function compositePodGroupImmutableFields(disruptionModeDefault: string): readonly ImmutableField[] {
  const field = (f: keyof CompositePodGroupSpec, more: Partial<ImmutableField> = {}): ImmutableField => ({
    path: child(SPEC, f),
    equal: semanticEqualAt(CompositePodGroupSchema, SPEC, f),
    shown: 'nil',
    ...more,
  });
  return [
    field('parentCompositePodGroupName'),
    field('workloadRef'),
    field('schedulingPolicy'),
    field('schedulingConstraints'),
    field('disruptionMode', { storedDefault: disruptionModeDefault }),
    // A plain string in Go: unset and "" are the same value.
    field('priorityClassName', { zero: '' }),
    field('priority'),
  ];
}

/**
 * `spec.preemptionPolicy` is immutable too (after the declared fields, in the order of the spec).
 * `storedDefault` stands for Kubernetes' defaulting of the stored object on read, which fills the
 * field only when the PodGroupPreemptionPolicy gate is on.
 */
const samePreemptionPolicy = semanticEqualAt(CompositePodGroupSchema, SPEC, 'preemptionPolicy');

export function validateCompositePodGroupPreemptionPolicyUpdate(
  cpg: CompositePodGroup,
  old: Readonly<CompositePodGroup>,
  storedDefault: string | undefined,
): FieldError[] {
  const path = child(SPEC, 'preemptionPolicy');
  const now = cpg.spec?.preemptionPolicy;
  const before = old.spec?.preemptionPolicy ?? storedDefault;
  return samePreemptionPolicy(now, before) ? [] : [immutableFieldError(path, GO_NIL)];
}

/**
 * `/status`: valid metav1 Conditions (unique `type`), and `CompositePodGroupInitiallyScheduled`,
 * once True, stays True (the condition is terminal). Kubernetes v1.36 documents that rule but has no
 * validation message for it; memkube rejects the change as Forbidden on the condition's status
 * (or on `status.conditions` when the condition is dropped).
 */
export function validateCompositePodGroupStatusUpdate(cpg: CompositePodGroup, old: Readonly<CompositePodGroup>): FieldError[] {
  const conditions = (cpg.status?.conditions ?? []) as MetaCondition[];
  const errs = validateMetaConditions(conditions, 'status.conditions');
  const wasScheduled = (old.status?.conditions ?? []).some((c) => c.type === INITIALLY_SCHEDULED && c.status === 'True');
  if (!wasScheduled) return errs;
  const i = conditions.findIndex((c) => c.type === INITIALLY_SCHEDULED);
  const detail = `the ${INITIALLY_SCHEDULED} condition may not change once it is True`;
  if (i < 0) errs.push(fieldError.forbidden('status.conditions', detail));
  else if (conditions[i]!.status !== 'True') errs.push(fieldError.forbidden(`status.conditions[${i}].status`, detail));
  return errs;
}
