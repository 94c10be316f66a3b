/**
 * The `kubectl get` cells of HorizontalPodAutoscalers (`pkg/printers/internalversion/printers.go`
 * `printHorizontalPodAutoscaler`, `formatHPAMetrics`), from the stored (v2) object, as Kubernetes
 * prints the internal object whatever version was asked for.
 */
import { formatQuantity } from '../../../schema/quantity.js';
import { humanDuration } from '../../../util/human-duration.js';
import { quantityValue } from '../../shared/resource-lists.js';
import type { HorizontalPodAutoscaler, MetricSpec, MetricStatus } from '../../types/autoscaling-v2.js';

/** `Quantity.String()` of a pointer: `<nil>` when unset. */
function q(value: string | number | undefined): string {
  if (value === undefined) return '<nil>';
  if (typeof value === 'string') return value;
  const v = quantityValue(value);
  return v ? formatQuantity(v) : String(value);
}

/** One metric of the Targets cell. */
function formatMetric(spec: MetricSpec, status: MetricStatus | undefined): string {
  switch (spec.type) {
    case 'External': {
      const target = spec.external?.target;
      if (target?.averageValue != null) {
        const avg = status?.external?.current?.averageValue;
        return `${status?.external && avg != null ? q(avg) : '<unknown>'}/${q(target.averageValue)} (avg)`;
      }
      return `${status?.external ? q(status.external.current?.value) : '<unknown>'}/${q(target?.value)}`;
    }
    case 'Pods':
      return `${status?.pods ? q(status.pods.current?.averageValue) : '<unknown>'}/${q(spec.pods?.target?.averageValue)}`;
    case 'Object': {
      const target = spec.object?.target;
      if (target?.averageValue != null) {
        const avg = status?.object?.current?.averageValue;
        return `${status?.object && avg != null ? q(avg) : '<unknown>'}/${q(target.averageValue)} (avg)`;
      }
      return `${status?.object ? q(status.object.current?.value) : '<unknown>'}/${q(target?.value)}`;
    }
    case 'Resource':
    case 'ContainerResource': {
      const source = spec.type === 'Resource' ? spec.resource : spec.containerResource;
      const current = spec.type === 'Resource' ? status?.resource : status?.containerResource;
      const name = source?.name ?? '';
      const target = source?.target;
      if (target?.averageValue != null) return `${name}: ${current ? q(current.current?.averageValue) : '<unknown>'}/${q(target.averageValue)}`;
      const util = current?.current?.averageUtilization;
      const targetUtil = target?.averageUtilization;
      return `${name}: ${util != null ? `${util}%` : '<unknown>'}/${targetUtil != null ? `${targetUtil}%` : '<auto>'}`;
    }
    default:
      return '<unknown type>';
  }
}

/** `formatHPAMetrics`: at most two metrics, then `+ n more...`. */
export function formatTargets(hpa: Readonly<HorizontalPodAutoscaler>): string {
  const specs = hpa.spec?.metrics ?? [];
  if (specs.length === 0) return '<none>';
  const statuses = hpa.status?.currentMetrics ?? [];
  const list = specs.map((s, i) => formatMetric(s, statuses[i]));
  const max = 2;
  if (list.length > max) return `${list.slice(0, max).join(', ')} + ${list.length - max} more...`;
  return list.join(', ');
}

/** `translateTimestampSince`. */
export function age(timestamp: string | undefined, now: number): string {
  if (!timestamp) return '<unknown>';
  const t = Date.parse(timestamp);
  return Number.isNaN(t) ? '<unknown>' : humanDuration(now - t);
}
