/**
 * `SetObjectDefaults_DaemonSet` of Kubernetes v1.36 (`pkg/apis/apps/v1/defaults.go`
 * `SetDefaults_DaemonSet`, and the PodSpec defaults of the template), with what the v1 conversion
 * does with the template generation annotation (`pkg/apis/apps/v1/conversion.go`). Idempotent: it
 * runs on every write, as decoding does.
 */
import type { DaemonSet, DaemonSetSpec } from '../../types/apps-v1.js';
import { applyPodTemplateDefaults } from '../../shared/pod-spec/defaults.js';
import { parseGoInt64 } from '../go-int.js';

/**
 * `appsv1.DeprecatedTemplateGeneration`: apps/v1 has no `spec.templateGeneration`; the internal
 * field travels in this annotation, which every DaemonSet read from the server carries.
 */
export const DEPRECATED_TEMPLATE_GENERATION = 'deprecated.daemonset.template.generation';

/** A conversion failure, answered 400 as Kubernetes' decoder answers it. */
export class DaemonSetDecodeError extends Error {}

/** Applies the v1 defaults in place. Throws `QuantityDecodeError` or `DaemonSetDecodeError`. */
export function applyDaemonSetDefaults(ds: DaemonSet): void {
  // An absent spec is Go's zero spec: no selector (nil).
  const spec = (ds.spec ??= {} as DaemonSetSpec);
  const strategy = (spec.updateStrategy ??= {});
  if (!strategy.type) strategy.type = 'RollingUpdate';
  if (strategy.type === 'RollingUpdate') {
    const ru = (strategy.rollingUpdate ??= {});
    ru.maxUnavailable ??= 1;
    ru.maxSurge ??= 0;
  }
  spec.revisionHistoryLimit ??= 10;
  applyPodTemplateDefaults((spec.template ??= {}));
  templateGeneration(ds);
  // The counts of DaemonSetStatus without omitempty: a written status always carries them.
  if (ds.status) {
    ds.status.currentNumberScheduled ??= 0;
    ds.status.numberMisscheduled ??= 0;
    ds.status.desiredNumberScheduled ??= 0;
    ds.status.numberReady ??= 0;
  }
}

/**
 * The internal `spec.templateGeneration` the annotation converts to (undefined without one: 0); one
 * that is no int64 fails the decoding with Go's `strconv.ParseInt` error (`Convert_v1_DaemonSet_To_apps_DaemonSet`).
 */
export function templateGeneration(ds: Readonly<DaemonSet>): bigint | undefined {
  const value = ds.metadata?.annotations?.[DEPRECATED_TEMPLATE_GENERATION];
  if (value === undefined) return undefined;
  const parsed = parseGoInt64(value);
  if (typeof parsed === 'string') throw new DaemonSetDecodeError(parsed);
  return parsed;
}

/** Writes the template generation back as the annotation (`Convert_apps_DaemonSet_To_v1_DaemonSet`). */
export function setTemplateGeneration(ds: DaemonSet, generation: bigint): void {
  const metadata = (ds.metadata ??= {});
  (metadata.annotations ??= {})[DEPRECATED_TEMPLATE_GENERATION] = generation.toString();
}
