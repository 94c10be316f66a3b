/**
 * Job validation of Kubernetes v1.36 (`pkg/apis/batch/validation/validation.go`: `ValidateJob`,
 * `ValidateJobSpec`, `validateJobSpec`, `validatePodFailurePolicy`, `validateSuccessPolicy`,
 * `validateGeneratedSelector`, `ValidateJobSpecUpdate`, `ValidateJobTemplateSpec`), in Kubernetes'
 * order, with the options `pkg/registry/batch/job/strategy.go` passes (`validationOptionsForJob`).
 * ObjectMeta is checked by the engine.
 */
import { child, fieldError, index, key, type FieldError } from '../../../machinery/field-errors.js';
import { isDNS1123Label, isDNS1123Subdomain, isQualifiedName, regexError } from '../../../schema/validation/names.js';
import { validateAnnotations, validateLabels, validateNonnegativeField } from '../../../schema/validation/object-meta.js';
import { labelSelectorFromObject, SelectorParseError, type LabelSelector } from '../../../selectors/label-selector.js';
import {
  Job as JobSchema,
  type Job,
  type JobSpec,
  type JobTemplateSpec,
  type PodFailurePolicyOnExitCodesRequirement,
  type PodFailurePolicyOnPodConditionsPattern,
  type PodFailurePolicyRule,
  type SuccessPolicyRule,
} from '../../types/batch-v1.js';
import type { Pod, PodTemplateSpec } from '../../types/core-v1.js';
import { podAnnotationErrors, validatePodSpec } from '../../shared/pod-spec/validation.js';
import { validateLabelSelector } from '../../shared/label-selector-validation.js';
import { semanticEqualAt } from '../../shared/semantic-equal.js';
import { CONTROLLER_UID_LABEL, JOB_NAME_LABEL, LEGACY_CONTROLLER_UID_LABEL, LEGACY_JOB_NAME_LABEL } from './defaults.js';
import { validateIndexesFormat } from './indexes.js';
import { FIELD_IMMUTABLE_ERROR_MSG } from '../../../schema/validation/immutable-fields.js';

const MAX_PARALLELISM_FOR_INDEXED_JOB = 100000;
const MAX_FAILED_INDEXES_FOR_INDEXED_JOB = 100000;
const COMPLETIONS_SOFT_LIMIT = 100000;
const PARALLELISM_LIMIT_FOR_HIGH_COMPLETIONS = 10000;
const MAX_FAILED_INDEXES_LIMIT_FOR_HIGH_COMPLETIONS = 10000;
const MAX_POD_FAILURE_POLICY_RULES = 20;
const MAX_ON_EXIT_CODES_VALUES = 255;
const MAX_ON_POD_CONDITIONS_PATTERNS = 20;
const MAX_MANAGED_BY_LENGTH = 63;
const MAX_SUCCEEDED_INDEXES_LENGTH = 64 * 1024;
const MAX_SUCCESS_POLICY_RULES = 20;

const ACTIONS = ['Count', 'FailIndex', 'FailJob', 'Ignore'];
const OPERATORS = ['In', 'NotIn'];
const CONDITION_STATUSES = ['False', 'True', 'Unknown'];
const REPLACEMENT_POLICIES = ['Failed', 'TerminatingOrFailed'];

/** Go's `%q` of a string list: `["a" "b"]`. */
const quotedList = (values: readonly string[]) => `[${values.map((v) => JSON.stringify(v)).join(' ')}]`;

/** What the strategy lets vary between a create and an update (`JobValidationOptions`). */
export interface JobValidationOptions {
  readonly reservedDomain: string;
  /** The `batch.kubernetes.io/` labels are required (always on create; on update if the stored job has both). */
  readonly requirePrefixedLabels: boolean;
  /** A suspended job that never started may change its template's scheduling directives. */
  readonly allowMutableSchedulingDirectives: boolean;
}

/** The options of a create. */
export function createOptions(reservedDomain: string): JobValidationOptions {
  return { reservedDomain, requirePrefixedLabels: true, allowMutableSchedulingDirectives: false };
}

/** `validationOptionsForJob` with a stored job. */
export function updateOptions(old: Readonly<Job>, reservedDomain: string): JobValidationOptions {
  const labels = old.spec?.template?.metadata?.labels ?? {};
  return {
    reservedDomain,
    requirePrefixedLabels: Object.hasOwn(labels, JOB_NAME_LABEL) && Object.hasOwn(labels, CONTROLLER_UID_LABEL),
    allowMutableSchedulingDirectives: old.spec?.suspend === true && !old.status?.startTime,
  };
}

/** `ValidateHasLabel`. */
function hasLabelErrors(labels: Record<string, string> | undefined, path: string, name: string, expected: string): FieldError[] {
  const p = key(child(path, 'labels'), name);
  if (!labels || !Object.hasOwn(labels, name)) return [fieldError.required(p, `must be '${expected}'`)];
  if (labels[name] !== expected) return [fieldError.invalid(p, labels, `must be '${expected}'`)];
  return [];
}

/** `validateGeneratedSelector`. */
function generatedSelectorErrors(job: Job, requirePrefixedLabels: boolean): FieldError[] {
  const spec = job.spec;
  if (spec?.manualSelector === true || spec?.selector == null) return [];
  const errs: FieldError[] = [];
  const uid = job.metadata?.uid ?? '';
  const name = job.metadata?.name ?? '';
  if (!uid) errs.push(fieldError.required('metadata.uid'));
  const labels = spec.template?.metadata?.labels;
  const path = 'spec.template.metadata';
  errs.push(...hasLabelErrors(labels, path, LEGACY_CONTROLLER_UID_LABEL, uid), ...hasLabelErrors(labels, path, LEGACY_JOB_NAME_LABEL, name));
  const expected: Record<string, string> = {};
  if (requirePrefixedLabels) {
    errs.push(...hasLabelErrors(labels, path, CONTROLLER_UID_LABEL, uid), ...hasLabelErrors(labels, path, JOB_NAME_LABEL, name));
    expected[CONTROLLER_UID_LABEL] = uid;
    expected[JOB_NAME_LABEL] = name;
  }
  expected[LEGACY_CONTROLLER_UID_LABEL] = uid;
  expected[LEGACY_JOB_NAME_LABEL] = name;
  const selector = selectorOf(spec.selector);
  if (selector && !selector.matches(expected)) errs.push(fieldError.invalid('spec.selector', spec.selector, '`selector` not auto-generated'));
  return errs;
}

/** `metav1.LabelSelectorAsSelector`, or undefined when it fails. */
function selectorOf(sel: JobSpec['selector'] | null | undefined): LabelSelector | undefined {
  try {
    return labelSelectorFromObject(sel);
  } catch (e) {
    if (e instanceof SelectorParseError) return undefined;
    throw e;
  }
}

/** `ValidateJob`. */
export function validateJob(job: Job, opts: JobValidationOptions): FieldError[] {
  const spec = job.spec ?? ({ template: {} } as JobSpec);
  const errs = [...generatedSelectorErrors(job, opts.requirePrefixedLabels), ...validateJobSpecWithSelector(spec, 'spec', opts)];
  if (spec.completionMode === 'Indexed' && spec.completions != null && spec.completions > 0) {
    // The pod hostname of the last index must be a DNS label.
    const name = job.metadata?.name ?? '';
    const hostname = `${name}-${spec.completions - 1}`;
    if (isDNS1123Label(hostname).length > 0) {
      errs.push(fieldError.invalid('metadata.name', name, `will not able to create pod with invalid DNS label: ${hostname}`));
    }
  }
  return errs;
}

/** `ValidateJobSpec`: the spec rules, the selector and its match with the template's labels. */
function validateJobSpecWithSelector(spec: JobSpec, path: string, opts: JobValidationOptions): FieldError[] {
  const errs = validateJobSpec(spec, path, opts);
  const selectorPath = child(path, 'selector');
  if (spec.selector == null) errs.push(fieldError.required(selectorPath));
  else errs.push(...validateLabelSelector(spec.selector, selectorPath));
  const selector = selectorOf(spec.selector);
  const labels = spec.template?.metadata?.labels;
  if (selector && !selector.matches(labels ?? {})) {
    errs.push(fieldError.invalid(`${path}.template.metadata.labels`, labels ?? null, '`selector` does not match template `labels`'));
  }
  return errs;
}

/** `IsDomainPrefixedPath`. */
function domainPrefixedPathErrors(value: string, path: string): FieldError[] {
  if (value.length === 0) return [fieldError.required(path)];
  const slash = value.indexOf('/');
  if (slash <= 0 || slash === value.length - 1) return [fieldError.invalid(path, value, 'must be a domain-prefixed path (such as "acme.io/foo")')];
  const host = value.slice(0, slash);
  const rest = value.slice(slash + 1);
  const errs = isDNS1123Subdomain(host).map((msg) => fieldError.invalid(path, host, msg));
  const httpPath = "[A-Za-z0-9/\\-._~%!$&'()*+,;=:]+";
  if (!new RegExp(`^${httpPath}$`).test(rest)) errs.push(fieldError.invalid(path, rest, regexError('Invalid path', httpPath)));
  return errs;
}

/** `validateJobSpec`: the rules a Job's spec and a CronJob's job template share. */
export function validateJobSpec(spec: JobSpec, path: string, opts: JobValidationOptions): FieldError[] {
  const errs: FieldError[] = [];
  const at = (f: string) => child(path, f);
  for (const f of ['parallelism', 'completions', 'activeDeadlineSeconds', 'backoffLimit', 'ttlSecondsAfterFinished', 'backoffLimitPerIndex'] as const) {
    if (spec[f] != null) errs.push(...validateNonnegativeField(spec[f], at(f)));
  }
  if (spec.maxFailedIndexes != null) {
    errs.push(...validateNonnegativeField(spec.maxFailedIndexes, at('maxFailedIndexes')));
    if (spec.backoffLimitPerIndex == null) errs.push(fieldError.required(at('backoffLimitPerIndex'), 'when maxFailedIndexes is specified'));
  }
  if (spec.managedBy != null) {
    errs.push(...domainPrefixedPathErrors(spec.managedBy, at('managedBy')));
    if (spec.managedBy.length > MAX_MANAGED_BY_LENGTH) errs.push(fieldError.tooLong(at('managedBy'), MAX_MANAGED_BY_LENGTH));
  }
  const indexed = spec.completionMode === 'Indexed';
  if (spec.completionMode != null) {
    if (spec.completionMode !== 'NonIndexed' && !indexed)
      errs.push(fieldError.notSupported(at('completionMode'), spec.completionMode, ['NonIndexed', 'Indexed']));
    if (indexed) errs.push(...indexedErrors(spec, at));
  }
  if (spec.completionMode == null || spec.completionMode === 'NonIndexed') {
    if (spec.backoffLimitPerIndex != null)
      errs.push(fieldError.invalid(at('backoffLimitPerIndex'), spec.backoffLimitPerIndex, 'requires indexed completion mode'));
    if (spec.maxFailedIndexes != null) errs.push(fieldError.invalid(at('maxFailedIndexes'), spec.maxFailedIndexes, 'requires indexed completion mode'));
  }
  if (spec.podFailurePolicy != null) errs.push(...podFailurePolicyErrors(spec, at('podFailurePolicy')));
  if (spec.successPolicy != null) {
    if (!indexed) errs.push(fieldError.invalid(at('successPolicy'), spec.successPolicy, 'requires indexed completion mode'));
    else errs.push(...successPolicyErrors(spec, at('successPolicy')));
  }
  if (spec.podReplacementPolicy != null) {
    const p = at('podReplacementPolicy');
    if (spec.podFailurePolicy != null) {
      if (spec.podReplacementPolicy !== 'Failed') errs.push(fieldError.notSupported(p, spec.podReplacementPolicy, ['Failed']));
    } else if (!REPLACEMENT_POLICIES.includes(spec.podReplacementPolicy)) {
      errs.push(fieldError.notSupported(p, spec.podReplacementPolicy, REPLACEMENT_POLICIES));
    }
  }
  const template = spec.template ?? {};
  errs.push(...validatePodTemplateSpec(template, at('template'), opts.reservedDomain));
  const restartPolicy = template.spec?.restartPolicy ?? '';
  const restartPath = `${path}.template.spec.restartPolicy`;
  if (restartPolicy === 'Always' || restartPolicy === '') {
    errs.push(fieldError.required(restartPath, 'valid values: "OnFailure", "Never"'));
  } else if (restartPolicy !== 'OnFailure' && restartPolicy !== 'Never') {
    errs.push(fieldError.notSupported(restartPath, restartPolicy, ['OnFailure', 'Never']));
  } else if (spec.podFailurePolicy != null && restartPolicy !== 'Never') {
    errs.push(fieldError.invalid(restartPath, restartPolicy, 'only "Never" is supported when podFailurePolicy is specified'));
  }
  return errs;
}

/** The rules of `validateJobSpec` for `completionMode: Indexed`. */
function indexedErrors(spec: JobSpec, at: (f: string) => string): FieldError[] {
  const errs: FieldError[] = [];
  const { completions, parallelism, maxFailedIndexes } = spec;
  if (completions == null) errs.push(fieldError.required(at('completions'), 'when completion mode is Indexed'));
  if (parallelism != null && parallelism > MAX_PARALLELISM_FOR_INDEXED_JOB) {
    errs.push(
      fieldError.invalid(at('parallelism'), parallelism, `must be less than or equal to ${MAX_PARALLELISM_FOR_INDEXED_JOB} when completion mode is Indexed`),
    );
  }
  if (completions != null && maxFailedIndexes != null && maxFailedIndexes > completions) {
    errs.push(fieldError.invalid(at('maxFailedIndexes'), maxFailedIndexes, 'must be less than or equal to completions'));
  }
  if (maxFailedIndexes != null && maxFailedIndexes > MAX_FAILED_INDEXES_FOR_INDEXED_JOB) {
    errs.push(fieldError.invalid(at('maxFailedIndexes'), maxFailedIndexes, `must be less than or equal to ${MAX_FAILED_INDEXES_FOR_INDEXED_JOB}`));
  }
  if (completions != null && completions > COMPLETIONS_SOFT_LIMIT && spec.backoffLimitPerIndex != null) {
    const why = `when completions are above ${COMPLETIONS_SOFT_LIMIT} and used with backoff limit per index`;
    if (maxFailedIndexes == null)
      errs.push(fieldError.required(at('maxFailedIndexes'), `must be specified when completions is above ${COMPLETIONS_SOFT_LIMIT}`));
    if (parallelism != null && parallelism > PARALLELISM_LIMIT_FOR_HIGH_COMPLETIONS) {
      errs.push(fieldError.invalid(at('parallelism'), parallelism, `must be less than or equal to ${PARALLELISM_LIMIT_FOR_HIGH_COMPLETIONS} ${why}`));
    }
    if (maxFailedIndexes != null && maxFailedIndexes > MAX_FAILED_INDEXES_LIMIT_FOR_HIGH_COMPLETIONS) {
      errs.push(
        fieldError.invalid(at('maxFailedIndexes'), maxFailedIndexes, `must be less than or equal to ${MAX_FAILED_INDEXES_LIMIT_FOR_HIGH_COMPLETIONS} ${why}`),
      );
    }
  }
  return errs;
}

/** `validatePodFailurePolicy`. */
function podFailurePolicyErrors(spec: JobSpec, path: string): FieldError[] {
  const errs: FieldError[] = [];
  const rules = spec.podFailurePolicy?.rules ?? [];
  const rulesPath = child(path, 'rules');
  if (rules.length > MAX_POD_FAILURE_POLICY_RULES) errs.push(fieldError.tooMany(rulesPath, rules.length, MAX_POD_FAILURE_POLICY_RULES));
  const podSpec = spec.template?.spec;
  const containerNames = new Set([...(podSpec?.containers ?? []), ...(podSpec?.initContainers ?? [])].map((c) => c.name));
  rules.forEach((rule, i) => errs.push(...podFailurePolicyRuleErrors(spec, rule, index(rulesPath, i), containerNames)));
  return errs;
}

/** `validatePodFailurePolicyRule`. */
function podFailurePolicyRuleErrors(spec: JobSpec, rule: PodFailurePolicyRule, path: string, containerNames: ReadonlySet<string>): FieldError[] {
  const errs: FieldError[] = [];
  const actionPath = child(path, 'action');
  const action = rule.action ?? '';
  if (action === '') errs.push(fieldError.required(actionPath, `valid values: ${quotedList(ACTIONS)}`));
  else if (action === 'FailIndex') {
    if (spec.backoffLimitPerIndex == null) errs.push(fieldError.invalid(actionPath, action, 'requires the backoffLimitPerIndex to be set'));
  } else if (!ACTIONS.includes(action)) errs.push(fieldError.notSupported(actionPath, action, ACTIONS));
  const conditions = rule.onPodConditions ?? [];
  if (rule.onExitCodes != null) errs.push(...onExitCodesErrors(rule.onExitCodes, child(path, 'onExitCodes'), containerNames));
  if (conditions.length > 0) errs.push(...onPodConditionsErrors(conditions, child(path, 'onPodConditions')));
  if (rule.onExitCodes != null && conditions.length > 0) {
    errs.push(fieldError.invalid(path, undefined, 'specifying both OnExitCodes and OnPodConditions is not supported'));
  }
  if (rule.onExitCodes == null && conditions.length === 0) {
    errs.push(fieldError.invalid(path, undefined, 'specifying one of OnExitCodes and OnPodConditions is required'));
  }
  return errs;
}

/** `validatePodFailurePolicyRuleOnPodConditions`. */
function onPodConditionsErrors(patterns: PodFailurePolicyOnPodConditionsPattern[], path: string): FieldError[] {
  const errs: FieldError[] = [];
  if (patterns.length > MAX_ON_POD_CONDITIONS_PATTERNS) errs.push(fieldError.tooMany(path, patterns.length, MAX_ON_POD_CONDITIONS_PATTERNS));
  patterns.forEach((pattern, j) => {
    const p = index(path, j);
    const type = pattern.type ?? '';
    for (const msg of isQualifiedName(type)) errs.push(fieldError.invalid(child(p, 'type'), type, msg));
    const status = pattern.status ?? '';
    if (status === '') errs.push(fieldError.required(child(p, 'status'), `valid values: ${quotedList(CONDITION_STATUSES)}`));
    else if (!CONDITION_STATUSES.includes(status)) errs.push(fieldError.notSupported(child(p, 'status'), status, CONDITION_STATUSES));
  });
  return errs;
}

/** `validatePodFailurePolicyRuleOnExitCodes`. */
function onExitCodesErrors(req: PodFailurePolicyOnExitCodesRequirement, path: string, containerNames: ReadonlySet<string>): FieldError[] {
  const errs: FieldError[] = [];
  const operatorPath = child(path, 'operator');
  const operator = req.operator ?? '';
  if (operator === '') errs.push(fieldError.required(operatorPath, `valid values: ${quotedList(OPERATORS)}`));
  else if (!OPERATORS.includes(operator)) errs.push(fieldError.notSupported(operatorPath, operator, OPERATORS));
  if (req.containerName != null && !containerNames.has(req.containerName)) {
    errs.push(fieldError.invalid(child(path, 'containerName'), req.containerName, 'must be one of the container or initContainer names in the pod template'));
  }
  const valuesPath = child(path, 'values');
  const values = req.values ?? [];
  if (values.length === 0) errs.push(fieldError.invalid(valuesPath, req.values ?? null, 'at least one value is required'));
  else if (values.length > MAX_ON_EXIT_CODES_VALUES) errs.push(fieldError.tooMany(valuesPath, values.length, MAX_ON_EXIT_CODES_VALUES));
  let ordered = true;
  const seen = new Set<number>();
  values.forEach((value, j) => {
    const p = index(valuesPath, j);
    if (operator === 'In' && value === 0) errs.push(fieldError.invalid(p, value, 'must not be 0 for the In operator'));
    if (seen.has(value)) errs.push(fieldError.duplicate(p, value));
    else seen.add(value);
    if (j > 0 && values[j - 1]! > value) ordered = false;
  });
  if (!ordered) errs.push(fieldError.invalid(valuesPath, values, 'must be ordered'));
  return errs;
}

/** `validateSuccessPolicy`. */
function successPolicyErrors(spec: JobSpec, path: string): FieldError[] {
  const errs: FieldError[] = [];
  const rules = spec.successPolicy?.rules ?? [];
  const rulesPath = child(path, 'rules');
  if (rules.length === 0) errs.push(fieldError.required(rulesPath, 'at least one rules must be specified when the successPolicy is specified'));
  if (rules.length > MAX_SUCCESS_POLICY_RULES) errs.push(fieldError.tooMany(rulesPath, rules.length, MAX_SUCCESS_POLICY_RULES));
  rules.forEach((rule, i) => errs.push(...successPolicyRuleErrors(spec, rule, index(rulesPath, i))));
  return errs;
}

/** `validateSuccessPolicyRule`. */
function successPolicyRuleErrors(spec: JobSpec, rule: SuccessPolicyRule, path: string): FieldError[] {
  const errs: FieldError[] = [];
  // An Indexed job without completions has its own error; Kubernetes would read *nil here.
  const completions = spec.completions ?? 0;
  if (rule.succeededCount == null && rule.succeededIndexes == null) {
    errs.push(fieldError.required(path, 'at least one of succeededCount or succeededIndexes must be specified'));
  }
  let total = 0;
  if (rule.succeededIndexes != null) {
    const p = child(path, 'succeededIndexes');
    if (rule.succeededIndexes.length > MAX_SUCCEEDED_INDEXES_LENGTH) errs.push(fieldError.tooLong(p, MAX_SUCCEEDED_INDEXES_LENGTH));
    const parsed = validateIndexesFormat(rule.succeededIndexes, completions);
    if ('error' in parsed) errs.push(fieldError.invalid(p, rule.succeededIndexes, `error parsing succeededIndexes: ${parsed.error}`));
    else total = parsed.total;
  }
  if (rule.succeededCount != null) {
    const p = child(path, 'succeededCount');
    errs.push(...validateNonnegativeField(rule.succeededCount, p));
    if (rule.succeededCount > completions) {
      errs.push(fieldError.invalid(p, rule.succeededCount, `must be less than or equal to ${completions} (the number of specified completions)`));
    }
    if (rule.succeededIndexes != null && rule.succeededCount > total) {
      errs.push(
        fieldError.invalid(p, rule.succeededCount, `must be less than or equal to ${total} (the number of indexes in the specified succeededIndexes field)`),
      );
    }
  }
  return errs;
}

/** `ValidatePodTemplateSpec` (core validation): labels, annotations, the PodSpec, no ephemeral containers. */
export function validatePodTemplateSpec(template: PodTemplateSpec, path: string, reservedDomain: string): FieldError[] {
  const errs: FieldError[] = [];
  errs.push(...validateLabels(template.metadata?.labels, child(path, 'labels')));
  const annotationsPath = child(path, 'annotations');
  errs.push(...validateAnnotations(template.metadata?.annotations, annotationsPath));
  const podSpec = template.spec ?? { containers: [] };
  // The pod rules name their path `metadata.annotations`; in a template it is `<template>.annotations`.
  const pod: Pod = { metadata: { annotations: template.metadata?.annotations ?? {} }, spec: podSpec };
  for (const e of podAnnotationErrors(pod, { reservedDomain })) {
    errs.push({ ...e, field: annotationsPath + e.field.slice('metadata.annotations'.length) });
  }
  errs.push(...validatePodSpec({ ...podSpec, containers: podSpec.containers ?? [] }, undefined, child(path, 'spec')));
  if ((podSpec.ephemeralContainers ?? []).length > 0) {
    errs.push(fieldError.forbidden(`${path}.spec.ephemeralContainers`, 'ephemeral containers not allowed in pod template'));
  }
  return errs;
}

/** `apiequality.Semantic.DeepEqual` of one JobSpec field. */
const equalities = new Map<string, (a: unknown, b: unknown) => boolean>();
function specEqual(field: keyof JobSpec): (a: unknown, b: unknown) => boolean {
  let eq = equalities.get(field);
  if (!eq) equalities.set(field, (eq = semanticEqualAt(JobSchema, 'spec', field)));
  return eq;
}

/** `ValidateImmutableField`: the new value shown (`null` when unset). */
function immutable(now: unknown, before: unknown, path: string, equal: (a: unknown, b: unknown) => boolean): FieldError[] {
  return equal(now, before) ? [] : [fieldError.invalid(path, now ?? null, FIELD_IMMUTABLE_ERROR_MSG)];
}

/** `ValidateJobUpdate` without ObjectMeta: `ValidateJob` runs before it (see the kind's strategy). */
export function validateJobSpecUpdate(job: Job, old: Readonly<Job>, opts: JobValidationOptions): FieldError[] {
  const spec = job.spec ?? ({ template: {} } as JobSpec);
  const prev = old.spec ?? ({ template: {} } as JobSpec);
  const errs = validateJobSpecWithSelector(spec, 'spec', opts);
  errs.push(...completionsUpdateErrors(spec, prev));
  errs.push(...immutable(spec.selector, prev.selector, 'spec.selector', specEqual('selector')));
  errs.push(...templateUpdateErrors(spec, prev, opts));
  errs.push(...immutable(spec.completionMode, prev.completionMode, 'spec.completionMode', specEqual('completionMode')));
  errs.push(...immutable(spec.podFailurePolicy, prev.podFailurePolicy, 'spec.podFailurePolicy', specEqual('podFailurePolicy')));
  errs.push(...immutable(spec.backoffLimitPerIndex, prev.backoffLimitPerIndex, 'spec.backoffLimitPerIndex', specEqual('backoffLimitPerIndex')));
  errs.push(...immutable(spec.managedBy, prev.managedBy, 'spec.managedBy', specEqual('managedBy')));
  errs.push(...immutable(spec.successPolicy, prev.successPolicy, 'spec.successPolicy', specEqual('successPolicy')));
  return errs;
}

/** `validateCompletions` (ElasticIndexedJob is GA: an Indexed job may change completions with parallelism). */
function completionsUpdateErrors(spec: JobSpec, prev: JobSpec): FieldError[] {
  const path = 'spec.completions';
  if (spec.completionMode !== 'Indexed') return immutable(spec.completions, prev.completions, path, specEqual('completions'));
  if ((spec.completions ?? null) === (prev.completions ?? null) || spec.completions == null) return [];
  if (spec.completions !== spec.parallelism) return [fieldError.invalid(path, spec.completions, 'can only be modified in tandem with spec.parallelism')];
  return [];
}

/**
 * `validatePodTemplateUpdate`: the template may not change, except (for a suspended job that never
 * started) its node affinity, node selector, tolerations, labels, annotations and scheduling gates.
 */
function templateUpdateErrors(spec: JobSpec, prev: JobSpec, opts: JobValidationOptions): FieldError[] {
  const template = spec.template ?? {};
  let oldTemplate: PodTemplateSpec = prev.template ?? {};
  if (opts.allowMutableSchedulingDirectives) {
    oldTemplate = structuredClone(oldTemplate);
    const oldSpec = (oldTemplate.spec ??= { containers: [] });
    const newSpec = template.spec;
    const newAffinity = newSpec?.affinity;
    if (newAffinity == null && oldSpec.affinity != null) {
      delete oldSpec.affinity.nodeAffinity;
      if (Object.values(oldSpec.affinity).every((v) => v == null)) delete oldSpec.affinity;
    } else if (newAffinity != null && oldSpec.affinity == null) {
      oldSpec.affinity = newAffinity.nodeAffinity === undefined ? {} : { nodeAffinity: newAffinity.nodeAffinity };
    } else if (newAffinity != null && oldSpec.affinity != null) {
      if (newAffinity.nodeAffinity === undefined) delete oldSpec.affinity.nodeAffinity;
      else oldSpec.affinity.nodeAffinity = newAffinity.nodeAffinity;
    }
    copyField(oldSpec, newSpec, 'nodeSelector');
    copyField(oldSpec, newSpec, 'tolerations');
    copyField(oldSpec, newSpec, 'schedulingGates');
    const oldMeta = (oldTemplate.metadata ??= {});
    copyField(oldMeta, template.metadata, 'annotations');
    copyField(oldMeta, template.metadata, 'labels');
  }
  return immutable(template, oldTemplate, 'spec.template', specEqual('template'));
}

function copyField<T extends object, K extends keyof T>(to: T, from: T | undefined, field: K): void {
  if (from?.[field] === undefined) delete to[field];
  else to[field] = from[field];
}

/** `ValidateJobTemplateSpec`: a CronJob's job template, whose selector is always generated. */
export function validateJobTemplateSpec(template: JobTemplateSpec, path: string, reservedDomain: string): FieldError[] {
  const spec = template.spec ?? ({ template: {} } as JobSpec);
  const specPath = child(path, 'spec');
  const errs = validateJobSpec(spec, specPath, createOptions(reservedDomain));
  if (spec.selector != null) errs.push(fieldError.invalid(child(specPath, 'selector'), spec.selector, '`selector` will be auto-generated'));
  if (spec.manualSelector === true) errs.push(fieldError.notSupported(child(specPath, 'manualSelector'), true, ['nil', 'false']));
  return errs;
}
