/**
 * HorizontalPodAutoscaler validation of Kubernetes v1.36 (`pkg/apis/autoscaling/validation/validation.go`:
 * `validateHorizontalPodAutoscalerSpec`, `ValidateCrossVersionObjectReference`, `ValidateAPIVersion`,
 * `validateMetrics`, `validateMetricSpec` and the per-source rules, `validateBehavior`,
 * `ValidateHorizontalPodAutoscalerStatusUpdate`), with the options of
 * `pkg/registry/autoscaling/horizontalpodautoscaler/strategy.go` (HPAScaleToZero off: `minReplicas`
 * at least 1 unless the stored object already has 0). Rules run on the stored (v2) shape, as
 * Kubernetes runs them on the internal type, whatever version the request used.
 */
import { child, fieldError, index, type FieldError } from '../../../machinery/field-errors.js';
import { isPathSegmentName } from '../../../schema/validation/names.js';
import { IS_NEGATIVE_ERROR_MSG, validateNonnegativeField } from '../../../schema/validation/object-meta.js';
import type {
  ContainerResourceMetricSource,
  CrossVersionObjectReference,
  ExternalMetricSource,
  HorizontalPodAutoscaler,
  HorizontalPodAutoscalerSpec,
  HPAScalingPolicy,
  HPAScalingRules,
  MetricIdentifier,
  MetricSpec,
  MetricTarget,
  ObjectMetricSource,
  PodsMetricSource,
  ResourceMetricSource,
} from '../../types/autoscaling-v2.js';
import { dns1123LabelErrors } from '../../shared/pod-spec/formats.js';
import { containerResourceNameErrors } from '../../shared/pod-spec/resources.js';
import { quantityValue } from '../../shared/resource-lists.js';

const MAX_PERIOD_SECONDS = 1800;
const MAX_STABILIZATION_WINDOW_SECONDS = 3600;
const METRIC_SOURCE_TYPES = ['ContainerResource', 'External', 'Object', 'Pods', 'Resource'];
const SELECT_POLICIES = ['Disabled', 'Max', 'Min'];
const POLICY_TYPES = ['Percent', 'Pods'];

/** `CrossVersionObjectReferenceValidationOptions`. */
interface RefOptions {
  readonly allowEmptyAPIGroup: boolean;
  readonly allowInvalidAPIVersion: boolean;
}

/** `HorizontalPodAutoscalerSpecValidationOptions`. */
export interface HpaValidationOptions {
  readonly minReplicasLowerBound: number;
  readonly scaleTargetRef: RefOptions;
  readonly objectMetrics: RefOptions;
}

/** `validationOptionsForHorizontalPodAutoscaler`. */
export function validationOptions(hpa: Readonly<HorizontalPodAutoscaler>, old?: Readonly<HorizontalPodAutoscaler>): HpaValidationOptions {
  const ref = hpa.spec?.scaleTargetRef;
  const oldRef = old?.spec?.scaleTargetRef;
  let scaleTargetRef: RefOptions = { allowInvalidAPIVersion: false, allowEmptyAPIGroup: false };
  if (old && (oldRef?.apiVersion ?? '') === (ref?.apiVersion ?? '') && (oldRef?.kind ?? '') === (ref?.kind ?? '')) {
    // An update that keeps the kind and apiVersion does not check the apiVersion again.
    scaleTargetRef = { ...scaleTargetRef, allowInvalidAPIVersion: true };
  } else if (ref?.kind === 'ReplicationController') {
    // The one scalable kind of the core group.
    scaleTargetRef = { ...scaleTargetRef, allowEmptyAPIGroup: true };
  }
  let objectMetrics: RefOptions = { allowInvalidAPIVersion: false, allowEmptyAPIGroup: true };
  for (const m of old?.spec?.metrics ?? []) {
    if (m.type === 'Object' && m.object && apiVersionError(m.object.describedObject, objectMetrics) !== undefined) {
      objectMetrics = { ...objectMetrics, allowInvalidAPIVersion: true };
      break;
    }
  }
  const oldZero = old?.spec?.minReplicas === 0;
  return { minReplicasLowerBound: oldZero ? 0 : 1, scaleTargetRef, objectMetrics };
}

/** `ValidateAPIVersion`: why the reference's apiVersion is not usable, or undefined. */
function apiVersionError(ref: CrossVersionObjectReference | undefined, opts: RefOptions): string | undefined {
  if (opts.allowInvalidAPIVersion) return undefined;
  const apiVersion = ref?.apiVersion ?? '';
  // schema.ParseGroupVersion: "" and "/" are the empty group version; more than one "/" is an error.
  const slashes = apiVersion.split('/').length - 1;
  if (slashes > 1) return `unexpected GroupVersion string: ${apiVersion}`;
  const group = slashes === 1 && apiVersion !== '/' ? apiVersion.slice(0, apiVersion.indexOf('/')) : '';
  if (!opts.allowEmptyAPIGroup && group === '') return 'apiVersion must specify API group';
  return undefined;
}

/** `ValidateCrossVersionObjectReference`. */
function crossVersionObjectReferenceErrors(ref: CrossVersionObjectReference | undefined, path: string, opts: RefOptions): FieldError[] {
  const errs: FieldError[] = [];
  for (const f of ['kind', 'name'] as const) {
    const value = ref?.[f] ?? '';
    if (value.length === 0) errs.push(fieldError.required(child(path, f)));
    else for (const msg of isPathSegmentName(value)) errs.push(fieldError.invalid(child(path, f), value, msg));
  }
  const err = apiVersionError(ref, opts);
  if (err) errs.push(fieldError.invalid(child(path, 'apiVersion'), ref?.apiVersion ?? '', err));
  return errs;
}

/** `validateHorizontalPodAutoscalerSpec`. */
export function validateHorizontalPodAutoscalerSpec(spec: HorizontalPodAutoscalerSpec, opts: HpaValidationOptions, path = 'spec'): FieldError[] {
  const errs: FieldError[] = [];
  const max = spec.maxReplicas ?? 0;
  if (spec.minReplicas != null && spec.minReplicas < opts.minReplicasLowerBound) {
    errs.push(fieldError.invalid(child(path, 'minReplicas'), spec.minReplicas, `must be greater than or equal to ${opts.minReplicasLowerBound}`));
  }
  if (max < 1) errs.push(fieldError.invalid(child(path, 'maxReplicas'), max, 'must be greater than 0'));
  if (spec.minReplicas != null && max < spec.minReplicas)
    errs.push(fieldError.invalid(child(path, 'maxReplicas'), max, 'must be greater than or equal to `minReplicas`'));
  errs.push(...crossVersionObjectReferenceErrors(spec.scaleTargetRef, child(path, 'scaleTargetRef'), opts.scaleTargetRef));
  errs.push(...metricsErrors(spec.metrics ?? [], child(path, 'metrics'), spec.minReplicas, opts.objectMetrics));
  if (spec.behavior) {
    const p = child(path, 'behavior');
    if (spec.behavior.scaleUp) errs.push(...scalingRulesErrors(spec.behavior.scaleUp, child(p, 'scaleUp')));
    if (spec.behavior.scaleDown) errs.push(...scalingRulesErrors(spec.behavior.scaleDown, child(p, 'scaleDown')));
  }
  return errs;
}

/** `validateMetrics`. */
function metricsErrors(metrics: MetricSpec[], path: string, minReplicas: number | undefined, opts: RefOptions): FieldError[] {
  const errs: FieldError[] = [];
  metrics.forEach((m, i) => errs.push(...metricSpecErrors(m, index(path, i), opts)));
  const scalesToZero = metrics.some((m) => m.type === 'Object' || m.type === 'External');
  if (minReplicas === 0 && !scalesToZero) {
    errs.push(fieldError.forbidden(path, 'must specify at least one Object or External metric to support scaling to zero replicas'));
  }
  return errs;
}

const SOURCES = [
  ['object', 'Object'],
  ['external', 'External'],
  ['pods', 'Pods'],
  ['resource', 'Resource'],
  ['containerResource', 'ContainerResource'],
] as const;

/** `validateMetricSpec`. */
function metricSpecErrors(spec: MetricSpec, path: string, opts: RefOptions): FieldError[] {
  const errs: FieldError[] = [];
  const type = spec.type ?? '';
  if (type === '') errs.push(fieldError.required(child(path, 'type'), 'must specify a metric source type'));
  if (!METRIC_SOURCE_TYPES.includes(type)) errs.push(fieldError.notSupported(child(path, 'type'), type, METRIC_SOURCE_TYPES));
  const present: string[] = [];
  for (const [field] of SOURCES) {
    if (spec[field] == null) continue;
    present.push(field);
    if (present.length !== 1) continue;
    const p = child(path, field);
    switch (field) {
      case 'object':
        errs.push(...objectSourceErrors(spec.object!, p, opts));
        break;
      case 'external':
        errs.push(...externalSourceErrors(spec.external!, p));
        break;
      case 'pods':
        errs.push(...podsSourceErrors(spec.pods!, p));
        break;
      case 'resource':
        errs.push(...resourceSourceErrors(spec.resource!, p));
        break;
      case 'containerResource':
        errs.push(...containerResourceSourceErrors(spec.containerResource!, p));
        break;
    }
  }
  const expected = SOURCES.find(([, t]) => t === type)?.[0];
  if (expected === undefined) errs.push(fieldError.notSupported(child(path, 'type'), type, METRIC_SOURCE_TYPES));
  else if (spec[expected] == null) errs.push(fieldError.required(child(path, expected), 'must populate information for the given metric source'));
  if (present.length !== 1) {
    for (const field of present) if (field !== expected) errs.push(fieldError.forbidden(child(path, field), 'must populate the given metric source only'));
  }
  return errs;
}

/** `validateMetricIdentifier`. */
function metricIdentifierErrors(id: MetricIdentifier | undefined, path: string): FieldError[] {
  const name = id?.name ?? '';
  if (name.length === 0) return [fieldError.required(child(path, 'name'), 'must specify a metric name')];
  return isPathSegmentName(name).map((msg) => fieldError.invalid(child(path, 'name'), name, msg));
}

/** Go's `Quantity.Sign() == 1`. */
function positive(q: string | number): boolean {
  const v = quantityValue(q);
  return v !== undefined && v.nanos > 0n;
}

/** `validateMetricTarget`. */
function metricTargetErrors(t: MetricTarget | undefined, path: string): FieldError[] {
  const errs: FieldError[] = [];
  const type = t?.type ?? '';
  if (type === '') errs.push(fieldError.required(child(path, 'type'), 'must specify a metric target type'));
  if (type !== 'Utilization' && type !== 'Value' && type !== 'AverageValue') {
    errs.push(fieldError.invalid(child(path, 'type'), type, 'must be either Utilization, Value, or AverageValue'));
  }
  if (t?.value != null && !positive(t.value)) errs.push(fieldError.invalid(child(path, 'value'), t.value, 'must be positive'));
  if (t?.averageValue != null && !positive(t.averageValue)) errs.push(fieldError.invalid(child(path, 'averageValue'), t.averageValue, 'must be positive'));
  if (t?.averageUtilization != null && t.averageUtilization < 1) {
    errs.push(fieldError.invalid(child(path, 'averageUtilization'), t.averageUtilization, 'must be greater than 0'));
  }
  return errs;
}

/** `validateObjectSource`. */
function objectSourceErrors(src: ObjectMetricSource, path: string, opts: RefOptions): FieldError[] {
  const errs = [
    ...crossVersionObjectReferenceErrors(src.describedObject, child(path, 'describedObject'), opts),
    ...metricIdentifierErrors(src.metric, child(path, 'metric')),
    ...metricTargetErrors(src.target, child(path, 'target')),
  ];
  if (src.target?.value == null && src.target?.averageValue == null) {
    errs.push(fieldError.required(`${path}.target.averageValue`, 'must set either a target value or averageValue'));
  }
  return errs;
}

/** `validateExternalSource`. */
function externalSourceErrors(src: ExternalMetricSource, path: string): FieldError[] {
  const errs = [...metricIdentifierErrors(src.metric, child(path, 'metric')), ...metricTargetErrors(src.target, child(path, 'target'))];
  if (src.target?.value == null && src.target?.averageValue == null) {
    errs.push(fieldError.required(`${path}.target.averageValue`, 'must set either a target value for metric or a per-pod target'));
  }
  if (src.target?.value != null && src.target?.averageValue != null) {
    errs.push(fieldError.forbidden(`${path}.target.value`, 'may not set both a target value for metric and a per-pod target'));
  }
  return errs;
}

/** `validatePodsSource`. */
function podsSourceErrors(src: PodsMetricSource, path: string): FieldError[] {
  const errs = [...metricIdentifierErrors(src.metric, child(path, 'metric')), ...metricTargetErrors(src.target, child(path, 'target'))];
  if (src.target?.averageValue == null) errs.push(fieldError.required(`${path}.target.averageValue`, 'must specify a positive target averageValue'));
  return errs;
}

/** The target rules a Resource and a ContainerResource source share. */
function utilizationOrValueErrors(target: MetricTarget | undefined, path: string): FieldError[] {
  const errs: FieldError[] = [];
  if (target?.averageUtilization == null && target?.averageValue == null) {
    errs.push(fieldError.required(`${path}.target.averageUtilization`, 'must set either a target raw value or a target utilization'));
  }
  if (target?.averageUtilization != null && target?.averageValue != null) {
    errs.push(fieldError.forbidden(`${path}.target.averageValue`, 'may not set both a target raw value and a target utilization'));
  }
  return errs;
}

/** `validateContainerResourceSource`. */
function containerResourceSourceErrors(src: ContainerResourceMetricSource, path: string): FieldError[] {
  const errs: FieldError[] = [];
  const name = src.name ?? '';
  if (name.length === 0) errs.push(fieldError.required(child(path, 'name'), 'must specify a resource name'));
  else errs.push(...containerResourceNameErrors(name, child(path, 'name')));
  const container = src.container ?? '';
  if (container.length === 0) errs.push(fieldError.required(child(path, 'container'), 'must specify a container'));
  else errs.push(...dns1123LabelErrors(container, child(path, 'container')));
  errs.push(...metricTargetErrors(src.target, child(path, 'target')), ...utilizationOrValueErrors(src.target, path));
  return errs;
}

/** `validateResourceSource`. */
function resourceSourceErrors(src: ResourceMetricSource, path: string): FieldError[] {
  const errs: FieldError[] = [];
  if ((src.name ?? '').length === 0) errs.push(fieldError.required(child(path, 'name'), 'must specify a resource name'));
  errs.push(...metricTargetErrors(src.target, child(path, 'target')), ...utilizationOrValueErrors(src.target, path));
  return errs;
}

/** `validateScalingRules`. */
function scalingRulesErrors(rules: HPAScalingRules, path: string): FieldError[] {
  const errs: FieldError[] = [];
  const window = rules.stabilizationWindowSeconds;
  if (window != null && window < 0) errs.push(fieldError.invalid(child(path, 'stabilizationWindowSeconds'), window, 'must be greater than or equal to zero'));
  if (window != null && window > MAX_STABILIZATION_WINDOW_SECONDS) {
    errs.push(fieldError.invalid(child(path, 'stabilizationWindowSeconds'), window, `must be less than or equal to ${MAX_STABILIZATION_WINDOW_SECONDS}`));
  }
  if (rules.selectPolicy != null && !SELECT_POLICIES.includes(rules.selectPolicy)) {
    errs.push(fieldError.notSupported(child(path, 'selectPolicy'), rules.selectPolicy, SELECT_POLICIES));
  }
  const policiesPath = child(path, 'policies');
  const policies = rules.policies ?? [];
  if (policies.length === 0) errs.push(fieldError.required(policiesPath, 'must specify at least one Policy'));
  policies.forEach((p, i) => errs.push(...scalingPolicyErrors(p, index(policiesPath, i))));
  if (rules.tolerance != null) {
    // ValidateNonnegativeQuantity.
    const q = quantityValue(rules.tolerance);
    if (q && q.nanos < 0n) errs.push(fieldError.invalid(child(path, 'tolerance'), String(rules.tolerance), IS_NEGATIVE_ERROR_MSG));
  }
  return errs;
}

/** `validateScalingPolicy`. */
function scalingPolicyErrors(policy: HPAScalingPolicy, path: string): FieldError[] {
  const errs: FieldError[] = [];
  const type = policy.type ?? '';
  if (type !== 'Pods' && type !== 'Percent') errs.push(fieldError.notSupported(child(path, 'type'), type, POLICY_TYPES));
  const value = policy.value ?? 0;
  const period = policy.periodSeconds ?? 0;
  if (value <= 0) errs.push(fieldError.invalid(child(path, 'value'), value, 'must be greater than zero'));
  if (period <= 0) errs.push(fieldError.invalid(child(path, 'periodSeconds'), period, 'must be greater than zero'));
  if (period > MAX_PERIOD_SECONDS) errs.push(fieldError.invalid(child(path, 'periodSeconds'), period, `must be less than or equal to ${MAX_PERIOD_SECONDS}`));
  return errs;
}

/** `ValidateHorizontalPodAutoscalerStatusUpdate` (without ObjectMeta). */
export function validateHorizontalPodAutoscalerStatusUpdate(hpa: Readonly<HorizontalPodAutoscaler>): FieldError[] {
  return [
    ...validateNonnegativeField(hpa.status?.currentReplicas ?? 0, 'status.currentReplicas'),
    ...validateNonnegativeField(hpa.status?.desiredReplicas ?? 0, 'status.desiredReplicas'),
  ];
}
