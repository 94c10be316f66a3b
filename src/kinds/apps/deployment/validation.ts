/**
 * Deployment validation of Kubernetes v1.36 (`pkg/apis/apps/validation/validation.go`:
 * `ValidateDeploymentSpec`, `ValidateDeploymentStrategy`, `ValidateRollingUpdateDeployment`,
 * `ValidateRollback`, `ValidateDeploymentStatus`, `ValidateDeploymentStatusUpdate`), in Kubernetes'
 * order. ObjectMeta is checked by the engine.
 */
import { child, fieldError, type FieldError } from '../../../machinery/field-errors.js';
import { validateNonnegativeField } from '../../../schema/validation/object-meta.js';
import type { DeploymentSpec, DeploymentStatus, DeploymentStrategy, RollingUpdateDeployment } from '../../types/apps-v1.js';
import type { LabelSelector as LabelSelectorObject } from '../../types/meta-v1.js';
import { intOrPercentValue, notMoreThan100Percent, validatePositiveIntOrPercent } from '../int-or-percent.js';
import { selectorAndTemplateErrors } from '../replicaset/validation.js';
import { collisionCountErrors } from '../workload.js';

/** `ValidateRollingUpdateDeployment` (an unset value is the internal type's zero, the integer 0). */
function rollingUpdateErrors(ru: RollingUpdateDeployment, path: string): FieldError[] {
  const mu = ru.maxUnavailable ?? 0;
  const ms = ru.maxSurge ?? 0;
  const muPath = child(path, 'maxUnavailable');
  const errs = [...validatePositiveIntOrPercent(mu, muPath), ...validatePositiveIntOrPercent(ms, child(path, 'maxSurge'))];
  if (intOrPercentValue(mu) === 0 && intOrPercentValue(ms) === 0) errs.push(fieldError.invalid(muPath, mu, 'may not be 0 when `maxSurge` is 0'));
  errs.push(...notMoreThan100Percent(mu, muPath));
  return errs;
}

/** The strategy as Go's `json.Marshal` writes the internal struct (the bad value of an unknown type). */
function goStrategy(strategy: DeploymentStrategy): unknown {
  const out: Record<string, unknown> = {};
  if (strategy.type) out.type = strategy.type;
  if (strategy.rollingUpdate)
    out.rollingUpdate = { maxUnavailable: strategy.rollingUpdate.maxUnavailable ?? 0, maxSurge: strategy.rollingUpdate.maxSurge ?? 0 };
  return out;
}

/** `ValidateDeploymentStrategy`. */
function strategyErrors(strategy: DeploymentStrategy, path: string): FieldError[] {
  switch (strategy.type ?? '') {
    case 'Recreate':
      return strategy.rollingUpdate ? [fieldError.forbidden(child(path, 'rollingUpdate'), "may not be specified when strategy `type` is 'Recreate'")] : [];
    case 'RollingUpdate':
      if (!strategy.rollingUpdate) return [fieldError.required(child(path, 'rollingUpdate'), 'this should be defaulted and never be nil')];
      return rollingUpdateErrors(strategy.rollingUpdate, child(path, 'rollingUpdate'));
    default:
      return [fieldError.notSupported(path, goStrategy(strategy), ['Recreate', 'RollingUpdate'])];
  }
}

/**
 * `ValidateDeploymentSpec`. `spec` has Go's zero values filled; `selector` is the raw one (nil when
 * absent); `rollback` the revision of the deprecated rollback annotation (the internal `rollbackTo`).
 */
export function validateDeploymentSpec(
  spec: DeploymentSpec,
  selector: LabelSelectorObject | undefined,
  reservedDomain: string,
  rollback: bigint | undefined,
  path = 'spec',
): FieldError[] {
  const errs: FieldError[] = [];
  errs.push(...validateNonnegativeField(spec.replicas ?? 0, child(path, 'replicas')));
  errs.push(...selectorAndTemplateErrors(selector, spec.template, path, reservedDomain));
  errs.push(...strategyErrors(spec.strategy ?? {}, child(path, 'strategy')));
  const minReady = spec.minReadySeconds ?? 0;
  errs.push(...validateNonnegativeField(minReady, child(path, 'minReadySeconds')));
  if (spec.revisionHistoryLimit !== undefined) errs.push(...validateNonnegativeField(spec.revisionHistoryLimit, child(path, 'revisionHistoryLimit')));
  if (rollback !== undefined && rollback < 0n)
    errs.push(fieldError.invalid(child(child(path, 'rollback'), 'version'), Number(rollback), 'must be greater than or equal to 0'));
  const deadline = spec.progressDeadlineSeconds;
  if (deadline !== undefined) {
    const p = child(path, 'progressDeadlineSeconds');
    errs.push(...validateNonnegativeField(deadline, p));
    if (deadline <= minReady) errs.push(fieldError.invalid(p, deadline, 'must be greater than minReadySeconds'));
  }
  return errs;
}

/** `ValidateDeploymentStatus`. */
export function validateDeploymentStatus(status: DeploymentStatus, path = 'status'): FieldError[] {
  const n = (v: number | undefined) => v ?? 0;
  const errs: FieldError[] = [];
  for (const f of ['observedGeneration', 'replicas', 'updatedReplicas', 'readyReplicas', 'availableReplicas', 'unavailableReplicas'] as const) {
    errs.push(...validateNonnegativeField(n(status[f]), child(path, f)));
  }
  if (status.terminatingReplicas !== undefined) errs.push(...validateNonnegativeField(status.terminatingReplicas, child(path, 'terminatingReplicas')));
  if (status.collisionCount !== undefined) errs.push(...validateNonnegativeField(status.collisionCount, child(path, 'collisionCount')));
  const msg = 'cannot be greater than status.replicas';
  for (const f of ['updatedReplicas', 'readyReplicas', 'availableReplicas'] as const) {
    if (n(status[f]) > n(status.replicas)) errs.push(fieldError.invalid(child(path, f), n(status[f]), msg));
  }
  if (n(status.availableReplicas) > n(status.readyReplicas)) {
    errs.push(fieldError.invalid(child(path, 'availableReplicas'), n(status.availableReplicas), 'cannot be greater than readyReplicas'));
  }
  return errs;
}

/** `ValidateDeploymentStatusUpdate` (without ObjectMeta): the status rules, and a collision count that never goes down. */
export function validateDeploymentStatusUpdate(status: DeploymentStatus, old: DeploymentStatus | undefined): FieldError[] {
  const errs = validateDeploymentStatus(status);
  errs.push(...collisionCountErrors(status.collisionCount, old?.collisionCount));
  return errs;
}
