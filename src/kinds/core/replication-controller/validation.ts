/**
 * ReplicationController validation of Kubernetes v1.36 (`pkg/apis/core/validation/validation.go`:
 * `ValidateReplicationControllerSpec`, `ValidatePodTemplateSpecForRC`,
 * `ValidateReplicationControllerStatus`), in Kubernetes' order. ObjectMeta is checked by the engine.
 */
import { child, fieldError, type FieldError } from '../../../machinery/field-errors.js';
import { validateNonnegativeField } from '../../../schema/validation/object-meta.js';
import { labelSelectorFromSet } from '../../../selectors/label-selector.js';
import type { ReplicationControllerSpec, ReplicationControllerStatus } from '../../types/core-v1.js';
import { validatePodTemplateSpec } from '../pod-template/template.js';

/** `ValidatePodTemplateSpecForRC`: present, matched by the selector, valid, restartPolicy Always, no deadline. */
function templateErrors(spec: ReplicationControllerSpec, path: string, reservedDomain: string): FieldError[] {
  const template = spec.template;
  if (!template) return [fieldError.required(path)];
  const errs: FieldError[] = [];
  const selector = spec.selector ?? {};
  const labels = template.metadata?.labels;
  if (Object.keys(selector).length > 0 && !labelSelectorFromSet(selector).matches(labels ?? {})) {
    errs.push(fieldError.invalid(`${path}.metadata.labels`, labels ?? null, '`selector` does not match template `labels`'));
  }
  errs.push(...validatePodTemplateSpec(template, path, reservedDomain));
  const restartPolicy = template.spec?.restartPolicy ?? '';
  if (restartPolicy !== 'Always') errs.push(fieldError.notSupported(`${path}.spec.restartPolicy`, restartPolicy, ['Always']));
  const deadline = template.spec?.activeDeadlineSeconds;
  if (deadline !== undefined) errs.push(fieldError.invalid(`${path}.spec.activeDeadlineSeconds`, deadline, 'must not be specified'));
  return errs;
}

/** `ValidateReplicationControllerSpec`. */
export function validateReplicationControllerSpec(spec: ReplicationControllerSpec, reservedDomain: string, path = 'spec'): FieldError[] {
  const errs: FieldError[] = [];
  errs.push(...validateNonnegativeField(spec.minReadySeconds ?? 0, child(path, 'minReadySeconds')));
  // ValidateNonEmptySelector.
  if (Object.keys(spec.selector ?? {}).length === 0) errs.push(fieldError.required(child(path, 'selector')));
  errs.push(...validateNonnegativeField(spec.replicas ?? 0, child(path, 'replicas')));
  errs.push(...templateErrors(spec, child(path, 'template'), reservedDomain));
  return errs;
}

/** `ValidateReplicationControllerStatus`. */
export function validateReplicationControllerStatus(status: ReplicationControllerStatus, path = 'status'): FieldError[] {
  const n = (v: number | undefined) => v ?? 0;
  const errs: FieldError[] = [];
  for (const f of ['replicas', 'fullyLabeledReplicas', 'readyReplicas', 'availableReplicas', 'observedGeneration'] as const) {
    errs.push(...validateNonnegativeField(n(status[f]), child(path, f)));
  }
  const msg = 'cannot be greater than status.replicas';
  for (const f of ['fullyLabeledReplicas', 'readyReplicas', 'availableReplicas'] as const) {
    if (n(status[f]) > n(status.replicas)) errs.push(fieldError.invalid(child(path, f), n(status[f]), msg));
  }
  if (n(status.availableReplicas) > n(status.readyReplicas)) {
    errs.push(fieldError.invalid(child(path, 'availableReplicas'), n(status.availableReplicas), 'cannot be greater than readyReplicas'));
  }
  return errs;
}
