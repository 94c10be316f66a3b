/**
 * The autoscaling/v2 defaults of Kubernetes v1.36 (`pkg/apis/autoscaling/v2/defaults.go`:
 * `SetDefaults_HorizontalPodAutoscaler`, `SetDefaults_HorizontalPodAutoscalerBehavior`,
 * `GenerateHPAScaleUpRules`, `GenerateHPAScaleDownRules`), applied to the stored (v2) shape; an
 * autoscaling/v1 object gets the same through its conversion (`minReplicas: 1`, 80% CPU when no
 * target is given). Quantities are rewritten as Kubernetes stores them. Idempotent.
 */
import type { HorizontalPodAutoscaler, HPAScalingRules, MetricTarget, MetricValueStatus } from '../../types/autoscaling-v2.js';
import { normalizeQuantity } from '../../shared/resource-lists.js';
import { DEFAULT_CPU_UTILIZATION, dropRoundTripAnnotations } from './conversion.js';

const DEFAULT_SCALE_UP: HPAScalingRules = {
  stabilizationWindowSeconds: 0,
  selectPolicy: 'Max',
  policies: [
    { type: 'Pods', value: 4, periodSeconds: 15 },
    { type: 'Percent', value: 100, periodSeconds: 15 },
  ],
};

/** Scale down has no default stabilization window: the controller's flag decides it. */
const DEFAULT_SCALE_DOWN: HPAScalingRules = {
  selectPolicy: 'Max',
  policies: [{ type: 'Percent', value: 100, periodSeconds: 15 }],
};

/** `copyHPAScalingRules` over a copy of the defaults: each field set in `rules` wins. */
function withDefaults(rules: HPAScalingRules | undefined, defaults: HPAScalingRules): HPAScalingRules {
  const out: HPAScalingRules = structuredClone(defaults);
  if (!rules) return out;
  if (rules.selectPolicy != null) out.selectPolicy = rules.selectPolicy;
  if (rules.stabilizationWindowSeconds != null) out.stabilizationWindowSeconds = rules.stabilizationWindowSeconds;
  if (rules.policies != null) out.policies = rules.policies;
  if (rules.tolerance != null) out.tolerance = rules.tolerance;
  // Keep Go's field order: stabilizationWindowSeconds, selectPolicy, policies, tolerance.
  return Object.fromEntries(
    (['stabilizationWindowSeconds', 'selectPolicy', 'policies', 'tolerance'] as const).filter((k) => out[k] !== undefined).map((k) => [k, out[k]]),
  ) as HPAScalingRules;
}

function normalizeTarget(t: MetricTarget | MetricValueStatus | undefined): void {
  if (!t) return;
  if (t.value != null) t.value = normalizeQuantity(t.value, false);
  if (t.averageValue != null) t.averageValue = normalizeQuantity(t.averageValue, false);
}

/** Applies the defaults in place. Throws `QuantityDecodeError` for a malformed quantity. */
export function applyHorizontalPodAutoscalerDefaults(hpa: HorizontalPodAutoscaler): void {
  // A v2 object never carries the v1 round-trip annotations (pkg/apis/autoscaling/v2/conversion.go).
  dropRoundTripAnnotations(hpa);
  const spec = (hpa.spec ??= {} as HorizontalPodAutoscaler['spec']);
  spec.minReplicas ??= 1;
  if (!spec.metrics || spec.metrics.length === 0) {
    spec.metrics = [{ type: 'Resource', resource: { name: 'cpu', target: { type: 'Utilization', averageUtilization: DEFAULT_CPU_UTILIZATION } } }];
  }
  if (spec.behavior) {
    spec.behavior.scaleUp = withDefaults(spec.behavior.scaleUp, DEFAULT_SCALE_UP);
    spec.behavior.scaleDown = withDefaults(spec.behavior.scaleDown, DEFAULT_SCALE_DOWN);
    for (const rules of [spec.behavior.scaleUp, spec.behavior.scaleDown]) {
      if (rules.tolerance != null) rules.tolerance = normalizeQuantity(rules.tolerance, false);
    }
  }
  for (const m of spec.metrics) {
    normalizeTarget(m.object?.target);
    normalizeTarget(m.pods?.target);
    normalizeTarget(m.resource?.target);
    normalizeTarget(m.containerResource?.target);
    normalizeTarget(m.external?.target);
  }
  for (const m of hpa.status?.currentMetrics ?? []) {
    normalizeTarget(m.object?.current);
    normalizeTarget(m.pods?.current);
    normalizeTarget(m.resource?.current);
    normalizeTarget(m.containerResource?.current);
    normalizeTarget(m.external?.current);
  }
  // DesiredReplicas is no pointer and never omitted.
  if (hpa.status) hpa.status.desiredReplicas ??= 0;
}
