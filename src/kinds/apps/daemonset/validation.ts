/**
 * DaemonSet validation of Kubernetes v1.36 (`pkg/apis/apps/validation/validation.go`:
 * `ValidateDaemonSetSpec`, `ValidateDaemonSetUpdateStrategy`, `ValidateRollingUpdateDaemonSet`,
 * `validateDaemonSetStatus`, `ValidateDaemonSetStatusUpdate`), in Kubernetes' order. ObjectMeta is
 * checked by the engine.
 */
import { child, fieldError, type FieldError } from '../../../machinery/field-errors.js';
import { IS_NEGATIVE_ERROR_MSG, validateNonnegativeField } from '../../../schema/validation/object-meta.js';
import { labelSelectorFromObject, SelectorParseError, type LabelSelector } from '../../../selectors/label-selector.js';
import type { DaemonSetSpec, DaemonSetStatus, DaemonSetUpdateStrategy, RollingUpdateDaemonSet } from '../../types/apps-v1.js';
import type { LabelSelector as LabelSelectorObject } from '../../types/meta-v1.js';
import { validateLabelSelector } from '../../shared/label-selector-validation.js';
import { validatePodTemplateSpec } from '../../shared/pod-spec/template.js';
import { intOrPercentValue, notMoreThan100Percent, validatePositiveIntOrPercent } from '../int-or-percent.js';
import { collisionCountErrors, goLabelSelector, goStringMap } from '../workload.js';

/** `ValidateRollingUpdateDaemonSet` (an unset value is the internal type's zero, the integer 0). */
function rollingUpdateErrors(ru: RollingUpdateDaemonSet, path: string): FieldError[] {
  const mu = ru.maxUnavailable ?? 0;
  const ms = ru.maxSurge ?? 0;
  const muPath = child(path, 'maxUnavailable');
  const msPath = child(path, 'maxSurge');
  const errs = [...validatePositiveIntOrPercent(mu, muPath), ...validatePositiveIntOrPercent(ms, msPath)];
  errs.push(...notMoreThan100Percent(mu, muPath), ...notMoreThan100Percent(ms, msPath));
  const hasUnavailable = intOrPercentValue(mu) !== 0;
  const hasSurge = intOrPercentValue(ms) !== 0;
  if (hasUnavailable && hasSurge) errs.push(fieldError.invalid(msPath, ms, 'may not be set when maxUnavailable is non-zero'));
  else if (!hasUnavailable && !hasSurge) errs.push(fieldError.required(muPath, 'cannot be 0 when maxSurge is 0'));
  return errs;
}

/** The strategy as Go's `json.Marshal` writes the internal struct (the bad value of an unknown type). */
function goStrategy(strategy: DaemonSetUpdateStrategy): unknown {
  const out: Record<string, unknown> = {};
  if (strategy.type) out.type = strategy.type;
  if (strategy.rollingUpdate)
    out.rollingUpdate = { maxUnavailable: strategy.rollingUpdate.maxUnavailable ?? 0, maxSurge: strategy.rollingUpdate.maxSurge ?? 0 };
  return out;
}

/** `ValidateDaemonSetUpdateStrategy`: `rollingUpdate` is allowed (and ignored) with OnDelete. */
function updateStrategyErrors(strategy: DaemonSetUpdateStrategy, path: string): FieldError[] {
  switch (strategy.type ?? '') {
    case 'OnDelete':
      return [];
    case 'RollingUpdate':
      if (!strategy.rollingUpdate) return [fieldError.required(child(path, 'rollingUpdate'))];
      return rollingUpdateErrors(strategy.rollingUpdate, child(path, 'rollingUpdate'));
    default:
      return [fieldError.notSupported(path, goStrategy(strategy), ['RollingUpdate', 'OnDelete'])];
  }
}

/**
 * `ValidateDaemonSetSpec`. `spec` has Go's zero values filled; `selector` is the raw one (nil when
 * absent: unlike the other workloads, a missing selector is only reported as not matching the labels).
 */
export function validateDaemonSetSpec(
  spec: DaemonSetSpec,
  selector: LabelSelectorObject | undefined,
  templateGeneration: bigint,
  reservedDomain: string,
  path = 'spec',
): FieldError[] {
  const errs: FieldError[] = [];
  const selectorPath = child(path, 'selector');
  errs.push(...validateLabelSelector(selector, selectorPath));
  let parsed: LabelSelector | undefined;
  try {
    parsed = labelSelectorFromObject(selector);
  } catch (e) {
    if (!(e instanceof SelectorParseError)) throw e;
  }
  const template = spec.template;
  const labels = template.metadata?.labels;
  if (parsed && !parsed.matches(labels ?? {})) {
    errs.push(fieldError.invalid(`${path}.template.metadata.labels`, goStringMap(labels), '`selector` does not match template `labels`'));
  }
  if (selector && Object.keys(selector.matchLabels ?? {}).length + (selector.matchExpressions ?? []).length === 0) {
    errs.push(fieldError.invalid(selectorPath, goLabelSelector(selector), 'empty selector is invalid for daemonset'));
  }
  errs.push(...validatePodTemplateSpec(template, child(path, 'template'), reservedDomain));
  const restartPolicy = template.spec?.restartPolicy ?? '';
  if (restartPolicy !== 'Always') errs.push(fieldError.notSupported(`${path}.template.spec.restartPolicy`, restartPolicy, ['Always']));
  if (template.spec?.activeDeadlineSeconds !== undefined) {
    errs.push(fieldError.forbidden(`${path}.template.spec.activeDeadlineSeconds`, 'activeDeadlineSeconds in DaemonSet is not Supported'));
  }
  errs.push(...validateNonnegativeField(spec.minReadySeconds ?? 0, child(path, 'minReadySeconds')));
  if (templateGeneration < 0n) errs.push(fieldError.invalid(child(path, 'templateGeneration'), templateGeneration, IS_NEGATIVE_ERROR_MSG));
  errs.push(...updateStrategyErrors(spec.updateStrategy ?? {}, child(path, 'updateStrategy')));
  if (spec.revisionHistoryLimit !== undefined) errs.push(...validateNonnegativeField(spec.revisionHistoryLimit, child(path, 'revisionHistoryLimit')));
  return errs;
}

/**
 * `ValidateDaemonSetSpecUpdate`: the template generation (the annotation's value, which the strategy
 * sets) never goes down and moves exactly when the template changes. It only fails once the
 * generation overflows int64, as in Kubernetes.
 */
export function validateDaemonSetSpecUpdate(next: bigint, prev: bigint, templateChanged: boolean, path = 'spec'): FieldError[] {
  const p = child(path, 'templateGeneration');
  const errs: FieldError[] = [];
  if (next < prev) errs.push(fieldError.invalid(p, next, 'must not be decremented'));
  if (next === prev && templateChanged) errs.push(fieldError.invalid(p, next, 'must be incremented upon template update'));
  else if (next > prev && !templateChanged) errs.push(fieldError.invalid(p, next, 'must not be incremented without template update'));
  return errs;
}

/** `validateDaemonSetStatus`. */
function validateDaemonSetStatus(status: DaemonSetStatus, path = 'status'): FieldError[] {
  const errs: FieldError[] = [];
  const fields = [
    'currentNumberScheduled',
    'numberMisscheduled',
    'desiredNumberScheduled',
    'numberReady',
    'observedGeneration',
    'updatedNumberScheduled',
    'numberAvailable',
    'numberUnavailable',
  ] as const;
  for (const f of fields) errs.push(...validateNonnegativeField(status[f] ?? 0, child(path, f)));
  if (status.collisionCount !== undefined) errs.push(...validateNonnegativeField(status.collisionCount, child(path, 'collisionCount')));
  return errs;
}

/** `ValidateDaemonSetStatusUpdate` (without ObjectMeta). */
export function validateDaemonSetStatusUpdate(status: DaemonSetStatus, old: DaemonSetStatus | undefined): FieldError[] {
  return [...validateDaemonSetStatus(status), ...collisionCountErrors(status.collisionCount, old?.collisionCount)];
}
