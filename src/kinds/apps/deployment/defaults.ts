/**
 * `SetObjectDefaults_Deployment` of Kubernetes v1.36 (`pkg/apis/apps/v1/defaults.go`
 * `SetDefaults_Deployment`, and the PodSpec defaults of the template), with what the v1 conversion
 * does to the deprecated rollback annotation (`pkg/apis/apps/v1/conversion.go`). Idempotent: it runs
 * on every write, as decoding does.
 */
import type { Deployment, DeploymentSpec } from '../../types/apps-v1.js';
import { applyPodTemplateDefaults } from '../../shared/pod-spec/defaults.js';
import { parseGoInt64 } from '../go-int.js';

/** `appsv1.DeprecatedRollbackTo`: the annotation that carries the internal `spec.rollbackTo`. */
export const DEPRECATED_ROLLBACK_TO = 'deprecated.deployment.rollback.to';

/** A conversion failure, answered 400 as Kubernetes' decoder answers it. */
export class DeploymentDecodeError extends Error {}

/** Applies the v1 defaults in place. Throws `QuantityDecodeError` or `DeploymentDecodeError`. */
export function applyDeploymentDefaults(d: Deployment): void {
  // An absent spec is Go's zero spec: no selector (nil), which the rules report as required.
  const spec = (d.spec ??= {} as DeploymentSpec);
  spec.replicas ??= 1;
  const strategy = (spec.strategy ??= {});
  if (!strategy.type) strategy.type = 'RollingUpdate';
  if (strategy.type === 'RollingUpdate') {
    const ru = (strategy.rollingUpdate ??= {});
    ru.maxUnavailable ??= '25%';
    ru.maxSurge ??= '25%';
  }
  spec.revisionHistoryLimit ??= 10;
  spec.progressDeadlineSeconds ??= 600;
  applyPodTemplateDefaults((spec.template ??= {}));
  rollbackRevision(d);
}

/**
 * The internal `spec.rollbackTo.revision` the annotation converts to, or undefined without one.
 * An empty annotation converts to none and is dropped on the way back; one that is no int64 fails
 * the decoding (`Convert_v1_Deployment_To_apps_Deployment`).
 */
export function rollbackRevision(d: Deployment): bigint | undefined {
  const annotations = d.metadata?.annotations;
  const value = annotations?.[DEPRECATED_ROLLBACK_TO];
  if (value === undefined) return undefined;
  if (value === '') {
    delete annotations![DEPRECATED_ROLLBACK_TO];
    return undefined;
  }
  const parsed = parseGoInt64(value);
  if (typeof parsed === 'string') throw new DeploymentDecodeError(`failed to parse annotation[${DEPRECATED_ROLLBACK_TO}]=${value} as int64: ${parsed}`);
  return parsed;
}
