/**
 * autoscaling/v1 ↔ autoscaling/v2 HorizontalPodAutoscaler, as `pkg/apis/autoscaling/v1/conversion.go`
 * converts through the internal type (which has v2's shape). v1 only knows a CPU utilization
 * target; everything else v2 holds travels in annotations of the v1 object and comes back when a
 * v1 object is written:
 * - `autoscaling.alpha.kubernetes.io/metrics`: the metrics but a CPU utilization one, as a JSON
 *   list of v1 `MetricSpec` (the v2beta1-style fields `metricName`, `targetAverageValue`, ...);
 * - `autoscaling.alpha.kubernetes.io/current-metrics`: `status.currentMetrics`, as v1 `MetricStatus`;
 * - `autoscaling.alpha.kubernetes.io/behavior`: `spec.behavior`, as the JSON of the internal Go type
 *   (field names capitalized, unset pointers `null`);
 * - `autoscaling.alpha.kubernetes.io/conditions`: `status.conditions`.
 * A v2 object never carries them (`DropRoundTripHorizontalPodAutoscalerAnnotations`).
 */
import type { KubeObject, VersionConversion } from '../../../schema/define-kind.js';
import { compareGoStrings, goJson } from '../../../util/go-format.js';
import type {
  HorizontalPodAutoscaler as V2HPA,
  HorizontalPodAutoscalerBehavior,
  HorizontalPodAutoscalerCondition,
  HPAScalingRules,
  MetricSpec,
  MetricStatus,
} from '../../types/autoscaling-v2.js';
import type { HorizontalPodAutoscaler as V1HPA } from '../../types/autoscaling-v1.js';
import type { LabelSelector } from '../../types/meta-v1.js';
import { readQuantity } from '../../shared/resource-lists.js';

export const METRIC_SPECS_ANNOTATION = 'autoscaling.alpha.kubernetes.io/metrics';
export const METRIC_STATUSES_ANNOTATION = 'autoscaling.alpha.kubernetes.io/current-metrics';
export const BEHAVIOR_SPECS_ANNOTATION = 'autoscaling.alpha.kubernetes.io/behavior';
export const CONDITIONS_ANNOTATION = 'autoscaling.alpha.kubernetes.io/conditions';
const ROUND_TRIP = [METRIC_SPECS_ANNOTATION, BEHAVIOR_SPECS_ANNOTATION, METRIC_STATUSES_ANNOTATION, CONDITIONS_ANNOTATION];

/** `autoscaling.DefaultCPUUtilization`. */
export const DEFAULT_CPU_UTILIZATION = 80;

type Json = Record<string, unknown>;

/** `DropRoundTripHorizontalPodAutoscalerAnnotations` on an object's metadata (an emptied map goes away, as Go omits it). */
export function dropRoundTripAnnotations(obj: KubeObject): void {
  const annotations = obj.metadata?.annotations;
  if (!annotations || !ROUND_TRIP.some((k) => Object.hasOwn(annotations, k))) return;
  const kept = { ...annotations };
  for (const k of ROUND_TRIP) delete kept[k];
  if (Object.keys(kept).length > 0) obj.metadata!.annotations = kept;
  else delete obj.metadata!.annotations;
}

/** A map with Go's key order (`encoding/json` sorts map keys). */
function sortedMap(map: Record<string, string>): Record<string, string> {
  return Object.fromEntries(Object.entries(map).sort(([a], [b]) => compareGoStrings(a, b)));
}

/** Drops `undefined` members, as `omitempty` does. */
function compact<T extends Json>(o: T): T {
  for (const k of Object.keys(o)) if (o[k] === undefined) delete o[k];
  return o;
}

const ZERO = '0';

/** A label selector as Go marshals it (`matchLabels` keys sorted). */
function goSelector(sel: LabelSelector | undefined): LabelSelector | undefined {
  if (!sel) return undefined;
  return compact({ matchLabels: sel.matchLabels ? sortedMap(sel.matchLabels) : undefined, matchExpressions: sel.matchExpressions });
}

// ---------------------------------------------------------------------------------------------
// v2 (stored) → v1

function v1Ref(ref: { kind: string; name: string; apiVersion?: string } | undefined): Json {
  return compact({ kind: ref?.kind ?? '', name: ref?.name ?? '', apiVersion: ref?.apiVersion || undefined });
}

/** `Convert_autoscaling_MetricSpec_To_v1_MetricSpec`. */
function v1MetricSpec(m: MetricSpec): Json {
  const out: Json = { type: m.type ?? '' };
  if (m.object) {
    const o = m.object;
    out.object = compact({
      target: v1Ref(o.describedObject),
      metricName: o.metric?.name ?? '',
      targetValue: o.target?.value ?? ZERO,
      selector: goSelector(o.metric?.selector),
      averageValue: o.target?.averageValue,
    });
  }
  if (m.pods) {
    const p = m.pods;
    out.pods = compact({ metricName: p.metric?.name ?? '', targetAverageValue: p.target?.averageValue ?? ZERO, selector: goSelector(p.metric?.selector) });
  }
  if (m.resource) {
    const r = m.resource;
    out.resource = compact({ name: r.name ?? '', targetAverageUtilization: r.target?.averageUtilization, targetAverageValue: r.target?.averageValue });
  }
  if (m.containerResource) {
    const r = m.containerResource;
    out.containerResource = compact({
      name: r.name ?? '',
      targetAverageUtilization: r.target?.averageUtilization,
      targetAverageValue: r.target?.averageValue,
      container: r.container ?? '',
    });
  }
  if (m.external) {
    const e = m.external;
    out.external = compact({
      metricName: e.metric?.name ?? '',
      metricSelector: goSelector(e.metric?.selector),
      targetValue: e.target?.value,
      targetAverageValue: e.target?.averageValue,
    });
  }
  return out;
}

/** `Convert_autoscaling_MetricStatus_To_v1_MetricStatus`. */
function v1MetricStatus(m: MetricStatus): Json {
  const out: Json = { type: m.type ?? '' };
  if (m.object) {
    const o = m.object;
    out.object = compact({
      target: v1Ref(o.describedObject),
      metricName: o.metric?.name ?? '',
      currentValue: o.current?.value ?? ZERO,
      selector: goSelector(o.metric?.selector),
      averageValue: o.current?.averageValue,
    });
  }
  if (m.pods) {
    const p = m.pods;
    out.pods = compact({ metricName: p.metric?.name ?? '', currentAverageValue: p.current?.averageValue ?? ZERO, selector: goSelector(p.metric?.selector) });
  }
  if (m.resource) {
    const r = m.resource;
    out.resource = compact({
      name: r.name ?? '',
      currentAverageUtilization: r.current?.averageUtilization,
      currentAverageValue: r.current?.averageValue ?? ZERO,
    });
  }
  if (m.containerResource) {
    const r = m.containerResource;
    out.containerResource = compact({
      name: r.name ?? '',
      currentAverageUtilization: r.current?.averageUtilization,
      currentAverageValue: r.current?.averageValue ?? ZERO,
      container: r.container ?? '',
    });
  }
  if (m.external) {
    const e = m.external;
    out.external = compact({
      metricName: e.metric?.name ?? '',
      metricSelector: goSelector(e.metric?.selector),
      currentValue: e.current?.value ?? ZERO,
      currentAverageValue: e.current?.averageValue,
    });
  }
  return out;
}

/** The internal `HPAScalingRules` as Go's `json.Marshal` writes it (no JSON tags: Go field names, nil as null). */
function internalRules(r: HPAScalingRules | undefined): Json | null {
  if (!r) return null;
  return {
    StabilizationWindowSeconds: r.stabilizationWindowSeconds ?? null,
    SelectPolicy: r.selectPolicy ?? null,
    Policies: r.policies ? r.policies.map((p) => ({ Type: p.type ?? '', Value: p.value ?? 0, PeriodSeconds: p.periodSeconds ?? 0 })) : null,
    Tolerance: r.tolerance ?? null,
  };
}

/** The stored (v2) object as served at autoscaling/v1. */
export function toV1(obj: V2HPA): V1HPA {
  const spec = obj.spec ?? ({} as V2HPA['spec']);
  const status = obj.status;
  const metrics = spec.metrics ?? [];
  const meta = { ...(obj.metadata ?? {}) };
  const annotations: Record<string, string> = { ...(meta.annotations ?? {}) };
  for (const k of ROUND_TRIP) delete annotations[k];

  const isCpu = (m: MetricSpec) => m.type === 'Resource' && m.resource != null && m.resource.name === 'cpu';
  const other = metrics.filter((m) => !(isCpu(m) && m.resource!.target?.averageUtilization != null)).map(v1MetricSpec);
  if (other.length > 0) annotations[METRIC_SPECS_ANNOTATION] = goJson(other);
  const currentMetrics = status?.currentMetrics ?? [];
  if (currentMetrics.length > 0) annotations[METRIC_STATUSES_ANNOTATION] = goJson(currentMetrics.map(v1MetricStatus));
  if (spec.behavior != null) {
    annotations[BEHAVIOR_SPECS_ANNOTATION] = goJson({ ScaleUp: internalRules(spec.behavior.scaleUp), ScaleDown: internalRules(spec.behavior.scaleDown) });
  }
  const conditions = status?.conditions ?? [];
  if (conditions.length > 0) {
    annotations[CONDITIONS_ANNOTATION] = goJson(
      conditions.map((c) =>
        compact({
          type: c.type ?? '',
          status: c.status ?? '',
          lastTransitionTime: c.lastTransitionTime ?? null,
          reason: c.reason || undefined,
          message: c.message || undefined,
        }),
      ),
    );
  }
  if (Object.keys(annotations).length > 0) meta.annotations = sortedMap(annotations);
  else delete meta.annotations;

  // The first CPU resource metric gives the target (when it is a utilization).
  const cpu = metrics.find(isCpu);
  const v1Spec = compact({
    scaleTargetRef: compact({ kind: spec.scaleTargetRef?.kind ?? '', name: spec.scaleTargetRef?.name ?? '', apiVersion: spec.scaleTargetRef?.apiVersion }),
    minReplicas: spec.minReplicas,
    maxReplicas: spec.maxReplicas ?? 0,
    targetCPUUtilizationPercentage: cpu?.resource?.target?.averageUtilization,
  }) as V1HPA['spec'];
  let currentCpu: number | undefined;
  for (const m of currentMetrics) {
    if (m.type === 'Resource' && m.resource?.name === 'cpu' && m.resource.current?.averageUtilization != null)
      currentCpu = m.resource.current.averageUtilization;
  }
  const v1Status = compact({
    observedGeneration: status?.observedGeneration,
    lastScaleTime: status?.lastScaleTime,
    currentReplicas: status?.currentReplicas ?? 0,
    desiredReplicas: status?.desiredReplicas ?? 0,
    currentCPUUtilizationPercentage: currentCpu,
  }) as NonNullable<V1HPA['status']>;
  return { apiVersion: obj.apiVersion, kind: obj.kind, metadata: meta, spec: v1Spec, status: v1Status };
}

// ---------------------------------------------------------------------------------------------
// v1 → v2 (stored)

/** Go's `encoding/json` field lookup: the exact key, else one equal under case folding. */
function member(o: unknown, name: string): unknown {
  if (typeof o !== 'object' || o === null || Array.isArray(o)) return undefined;
  const rec = o as Json;
  if (Object.hasOwn(rec, name)) return rec[name];
  const lower = name.toLowerCase();
  for (const k of Object.keys(rec)) if (k.toLowerCase() === lower) return rec[k];
  return undefined;
}

/** A value of the annotation JSON that does not fit the Go type: the whole annotation is not used. */
class Mismatch extends Error {}

function str(v: unknown): string {
  if (v === undefined || v === null) return '';
  if (typeof v !== 'string') throw new Mismatch();
  return v;
}

function int(v: unknown): number | undefined {
  if (v === undefined || v === null) return undefined;
  if (typeof v !== 'number' || !Number.isInteger(v)) throw new Mismatch();
  return v;
}

function obj(v: unknown): Json | undefined {
  if (v === undefined || v === null) return undefined;
  if (typeof v !== 'object' || Array.isArray(v)) throw new Mismatch();
  return v as Json;
}

function list(v: unknown): unknown[] {
  if (v === undefined || v === null) return [];
  if (!Array.isArray(v)) throw new Mismatch();
  return v;
}

/** A `resource.Quantity` in annotation JSON: its text (`null` is the zero quantity), or undefined when absent. */
function quantity(v: unknown): string | undefined {
  if (v === undefined) return undefined;
  if (v === null) return ZERO;
  if (typeof v !== 'string' && typeof v !== 'number') throw new Mismatch();
  const reading = readQuantity(v);
  if (!reading.ok) throw new Mismatch();
  return reading.text;
}

function selector(v: unknown): LabelSelector | undefined {
  const o = obj(v);
  if (!o) return undefined;
  const out: LabelSelector = {};
  const matchLabels = obj(member(o, 'matchLabels'));
  if (matchLabels) out.matchLabels = Object.fromEntries(Object.entries(matchLabels).map(([k, val]) => [k, str(val)]));
  const expressions = list(member(o, 'matchExpressions'));
  if (expressions.length) {
    out.matchExpressions = expressions.map((e) => {
      const x = obj(e) ?? {};
      const values = member(x, 'values');
      return compact({ key: str(member(x, 'key')), operator: str(member(x, 'operator')), values: values == null ? undefined : list(values).map(str) });
    });
  }
  return out;
}

function v2Ref(v: unknown): { kind: string; name: string; apiVersion?: string } {
  const o = obj(v) ?? {};
  const apiVersion = str(member(o, 'apiVersion'));
  return compact({ kind: str(member(o, 'kind')), name: str(member(o, 'name')), apiVersion: apiVersion || undefined });
}

/** `Convert_v1_MetricSpec_To_autoscaling_MetricSpec` over the annotation JSON. */
function v2MetricSpec(v: unknown): MetricSpec {
  const m = obj(v) ?? {};
  const out: MetricSpec = { type: str(member(m, 'type')) };
  const object = obj(member(m, 'object'));
  if (object) {
    const averageValue = quantity(member(object, 'averageValue'));
    out.object = {
      describedObject: v2Ref(member(object, 'target')),
      target: compact({ type: averageValue === undefined ? 'Value' : 'AverageValue', value: quantity(member(object, 'targetValue')) ?? ZERO, averageValue }),
      metric: compact({ name: str(member(object, 'metricName')), selector: selector(member(object, 'selector')) }),
    };
  }
  const pods = obj(member(m, 'pods'));
  if (pods) {
    out.pods = {
      metric: compact({ name: str(member(pods, 'metricName')), selector: selector(member(pods, 'selector')) }),
      target: { type: 'AverageValue', averageValue: quantity(member(pods, 'targetAverageValue')) ?? ZERO },
    };
  }
  for (const field of ['resource', 'containerResource'] as const) {
    const r = obj(member(m, field));
    if (!r) continue;
    const utilization = int(member(r, 'targetAverageUtilization'));
    const target = compact({
      type: utilization === undefined ? 'AverageValue' : 'Utilization',
      averageValue: quantity(member(r, 'targetAverageValue')),
      averageUtilization: utilization,
    });
    if (field === 'resource') out.resource = { name: str(member(r, 'name')), target };
    else out.containerResource = { name: str(member(r, 'name')), target, container: str(member(r, 'container')) };
  }
  const external = obj(member(m, 'external'));
  if (external) {
    const value = quantity(member(external, 'targetValue'));
    out.external = {
      metric: compact({ name: str(member(external, 'metricName')), selector: selector(member(external, 'metricSelector')) }),
      target: compact({ type: value === undefined ? 'AverageValue' : 'Value', value, averageValue: quantity(member(external, 'targetAverageValue')) }),
    };
  }
  return out;
}

/** `Convert_v1_MetricStatus_To_autoscaling_MetricStatus` over the annotation JSON. */
function v2MetricStatus(v: unknown): MetricStatus {
  const m = obj(v) ?? {};
  const out: MetricStatus = { type: str(member(m, 'type')) };
  const object = obj(member(m, 'object'));
  if (object) {
    out.object = {
      metric: compact({ name: str(member(object, 'metricName')), selector: selector(member(object, 'selector')) }),
      current: compact({ value: quantity(member(object, 'currentValue')) ?? ZERO, averageValue: quantity(member(object, 'averageValue')) }),
      describedObject: v2Ref(member(object, 'target')),
    };
  }
  const pods = obj(member(m, 'pods'));
  if (pods) {
    out.pods = {
      metric: compact({ name: str(member(pods, 'metricName')), selector: selector(member(pods, 'selector')) }),
      current: { averageValue: quantity(member(pods, 'currentAverageValue')) ?? ZERO },
    };
  }
  for (const field of ['resource', 'containerResource'] as const) {
    const r = obj(member(m, field));
    if (!r) continue;
    const current = compact({
      averageValue: quantity(member(r, 'currentAverageValue')) ?? ZERO,
      averageUtilization: int(member(r, 'currentAverageUtilization')),
    });
    if (field === 'resource') out.resource = { name: str(member(r, 'name')), current };
    else out.containerResource = { name: str(member(r, 'name')), current, container: str(member(r, 'container')) };
  }
  const external = obj(member(m, 'external'));
  if (external) {
    out.external = {
      metric: compact({ name: str(member(external, 'metricName')), selector: selector(member(external, 'metricSelector')) }),
      current: compact({ value: quantity(member(external, 'currentValue')) ?? ZERO, averageValue: quantity(member(external, 'currentAverageValue')) }),
    };
  }
  return out;
}

/** The internal `HPAScalingRules` read back from the behavior annotation. */
function rulesFromInternal(v: unknown): HPAScalingRules | undefined {
  const r = obj(v);
  if (!r) return undefined;
  const selectPolicy = member(r, 'SelectPolicy');
  const policies = member(r, 'Policies');
  return compact({
    stabilizationWindowSeconds: int(member(r, 'StabilizationWindowSeconds')),
    selectPolicy: selectPolicy == null ? undefined : str(selectPolicy),
    policies:
      policies == null
        ? undefined
        : list(policies).map((p) => {
            const o = obj(p) ?? {};
            return { type: str(member(o, 'Type')), value: int(member(o, 'Value')) ?? 0, periodSeconds: int(member(o, 'PeriodSeconds')) ?? 0 };
          }),
    tolerance: member(r, 'Tolerance') == null ? undefined : quantity(member(r, 'Tolerance')),
  });
}

/** Parses an annotation; undefined when it is not JSON or does not fit the Go type (Kubernetes then ignores it). */
function parse<T>(text: string | undefined, read: (v: unknown) => T): T | undefined {
  if (text === undefined) return undefined;
  try {
    return read(JSON.parse(text) as unknown);
  } catch (e) {
    if (e instanceof Mismatch || e instanceof SyntaxError) return undefined;
    throw e;
  }
}

/** An autoscaling/v1 object in the stored (v2) shape. */
export function fromV1(v1: V1HPA): V2HPA {
  const meta = { ...(v1.metadata ?? {}) };
  const annotations = meta.annotations ?? {};
  const spec = v1.spec ?? ({} as V1HPA['spec']);
  const status = v1.status;

  let metrics: MetricSpec[] = [];
  if (spec.targetCPUUtilizationPercentage != null) {
    metrics = [{ type: 'Resource', resource: { name: 'cpu', target: { type: 'Utilization', averageUtilization: spec.targetCPUUtilizationPercentage } } }];
  }
  const other = parse(annotations[METRIC_SPECS_ANNOTATION], (v) => list(v).map(v2MetricSpec));
  // The annotation's metrics come first, then the CPU target of the v1 field.
  if (other) metrics = [...other, ...metrics];
  let behavior: HorizontalPodAutoscalerBehavior | undefined;
  const internal = parse(annotations[BEHAVIOR_SPECS_ANNOTATION], (v) => {
    const o = obj(v) ?? {};
    return compact({ scaleUp: rulesFromInternal(member(o, 'ScaleUp')), scaleDown: rulesFromInternal(member(o, 'ScaleDown')) });
  });
  if (internal && (internal.scaleUp || internal.scaleDown)) behavior = internal;

  let currentMetrics: MetricStatus[] | undefined;
  if (status?.currentCPUUtilizationPercentage != null) {
    currentMetrics = [{ type: 'Resource', resource: { name: 'cpu', current: { averageUtilization: status.currentCPUUtilizationPercentage } } }];
  }
  const annotated = parse(annotations[METRIC_STATUSES_ANNOTATION], (v) => list(v).map(v2MetricStatus));
  if (annotated) currentMetrics = annotated;
  // autoscaling/v1's implicit default: 80% CPU when no metric is given.
  if (metrics.length === 0)
    metrics = [{ type: 'Resource', resource: { name: 'cpu', target: { type: 'Utilization', averageUtilization: DEFAULT_CPU_UTILIZATION } } }];
  const conditions = parse(annotations[CONDITIONS_ANNOTATION], (v) =>
    list(v).map((c): HorizontalPodAutoscalerCondition => {
      const o = obj(c) ?? {};
      const time = member(o, 'lastTransitionTime');
      return compact({
        type: str(member(o, 'type')),
        status: str(member(o, 'status')),
        lastTransitionTime: time == null ? undefined : str(time),
        reason: str(member(o, 'reason')) || undefined,
        message: str(member(o, 'message')) || undefined,
      });
    }),
  );

  const out: V2HPA = {
    apiVersion: v1.apiVersion,
    kind: v1.kind,
    metadata: meta,
    spec: compact({
      scaleTargetRef: compact({ kind: spec.scaleTargetRef?.kind ?? '', name: spec.scaleTargetRef?.name ?? '', apiVersion: spec.scaleTargetRef?.apiVersion }),
      minReplicas: spec.minReplicas,
      maxReplicas: spec.maxReplicas,
      metrics,
      behavior,
    }) as V2HPA['spec'],
  };
  if (status) {
    out.status = compact({
      observedGeneration: status.observedGeneration,
      lastScaleTime: status.lastScaleTime,
      currentReplicas: status.currentReplicas || undefined,
      desiredReplicas: status.desiredReplicas ?? 0,
      currentMetrics,
      conditions,
    }) as V2HPA['status'];
  }
  dropRoundTripAnnotations(out);
  return out;
}

/** The conversion of the autoscaling/v1 version. */
export const autoscalingV1Conversion: VersionConversion = {
  toStorage: (o) => fromV1(o as V1HPA) as KubeObject,
  fromStorage: (o) => toV1(o as V2HPA) as KubeObject,
};
