/**
 * ReplicaSet validation of Kubernetes v1.36 (`pkg/apis/apps/validation/validation.go`:
 * `ValidateReplicaSetSpec`, `ValidatePodTemplateSpecForReplicaSet`, `ValidateReplicaSetStatus`), in
 * Kubernetes' order. ObjectMeta is checked by the engine. A Deployment's template goes through the
 * same template rules (`ValidateDeploymentSpec` calls `ValidatePodTemplateSpecForReplicaSet`).
 */
import { child, fieldError, type FieldError } from '../../../machinery/field-errors.js';
import { validateNonnegativeField } from '../../../schema/validation/object-meta.js';
import { labelSelectorFromObject, SelectorParseError, type LabelSelector } from '../../../selectors/label-selector.js';
import type { ReplicaSetSpec, ReplicaSetStatus } from '../../types/apps-v1.js';
import type { PodTemplateSpec } from '../../types/core-v1.js';
import type { LabelSelector as LabelSelectorObject } from '../../types/meta-v1.js';
import { validateLabelSelector } from '../../shared/label-selector-validation.js';
import { validatePodTemplateSpec } from '../../shared/pod-spec/template.js';
import { goLabelSelector, goStringMap } from '../workload.js';

/**
 * `ValidatePodTemplateSpecForReplicaSet`: the selector matches the template's labels, the template
 * is a valid pod template, its restart policy is `Always` and it has no active deadline.
 */
export function validatePodTemplateSpecForReplicaSet(template: PodTemplateSpec, selector: LabelSelector, path: string, reservedDomain: string): FieldError[] {
  const errs: FieldError[] = [];
  const labels = template.metadata?.labels;
  if (!selector.empty() && !selector.matches(labels ?? {})) {
    errs.push(fieldError.invalid(child(child(path, 'metadata'), 'labels'), goStringMap(labels), '`selector` does not match template `labels`'));
  }
  errs.push(...validatePodTemplateSpec(template, path, reservedDomain));
  const restartPolicy = template.spec?.restartPolicy ?? '';
  if (restartPolicy !== 'Always') errs.push(fieldError.notSupported(`${path}.spec.restartPolicy`, restartPolicy, ['Always']));
  if (template.spec?.activeDeadlineSeconds !== undefined) {
    // Kubernetes says ReplicaSet here for a Deployment's template too.
    errs.push(fieldError.forbidden(`${path}.spec.activeDeadlineSeconds`, 'activeDeadlineSeconds in ReplicaSet is not Supported'));
  }
  return errs;
}

/**
 * The selector rules of `ValidateDeploymentSpec` and `ValidateReplicaSetSpec`: required, valid,
 * not empty, and (when it parses) the template checked against it. Both kinds say `deployment`
 * in the empty-selector message.
 */
export function selectorAndTemplateErrors(sel: LabelSelectorObject | undefined, template: PodTemplateSpec, path: string, reservedDomain: string): FieldError[] {
  const errs: FieldError[] = [];
  const selectorPath = child(path, 'selector');
  if (!sel) {
    errs.push(fieldError.required(selectorPath));
  } else {
    errs.push(...validateLabelSelector(sel, selectorPath));
    if (Object.keys(sel.matchLabels ?? {}).length + (sel.matchExpressions ?? []).length === 0) {
      errs.push(fieldError.invalid(selectorPath, goLabelSelector(sel), 'empty selector is invalid for deployment'));
    }
  }
  let selector: LabelSelector;
  try {
    selector = labelSelectorFromObject(sel);
  } catch (e) {
    if (!(e instanceof SelectorParseError)) throw e;
    // The template is not checked at all when the selector does not parse.
    errs.push(fieldError.invalid(selectorPath, goLabelSelector(sel), 'invalid label selector'));
    return errs;
  }
  errs.push(...validatePodTemplateSpecForReplicaSet(template, selector, child(path, 'template'), reservedDomain));
  return errs;
}

/** `ValidateReplicaSetSpec`. `spec` has Go's zero values filled; `selector` is the raw one (nil when absent). */
export function validateReplicaSetSpec(spec: ReplicaSetSpec, selector: LabelSelectorObject | undefined, reservedDomain: string, path = 'spec'): FieldError[] {
  const errs: FieldError[] = [];
  errs.push(...validateNonnegativeField(spec.replicas ?? 0, child(path, 'replicas')));
  errs.push(...validateNonnegativeField(spec.minReadySeconds ?? 0, child(path, 'minReadySeconds')));
  errs.push(...selectorAndTemplateErrors(selector, spec.template ?? { spec: { containers: [] } }, path, reservedDomain));
  return errs;
}

/** `ValidateReplicaSetStatus`. */
export function validateReplicaSetStatus(status: ReplicaSetStatus, path = 'status'): FieldError[] {
  const n = (v: number | undefined) => v ?? 0;
  const errs: FieldError[] = [];
  for (const f of ['replicas', 'fullyLabeledReplicas', 'readyReplicas', 'availableReplicas', 'observedGeneration'] as const) {
    errs.push(...validateNonnegativeField(n(status[f]), child(path, f)));
  }
  if (status.terminatingReplicas !== undefined) errs.push(...validateNonnegativeField(status.terminatingReplicas, child(path, 'terminatingReplicas')));
  const msg = 'cannot be greater than status.replicas';
  for (const f of ['fullyLabeledReplicas', 'readyReplicas', 'availableReplicas'] as const) {
    if (n(status[f]) > n(status.replicas)) errs.push(fieldError.invalid(child(path, f), n(status[f]), msg));
  }
  if (n(status.availableReplicas) > n(status.readyReplicas)) {
    errs.push(fieldError.invalid(child(path, 'availableReplicas'), n(status.availableReplicas), 'cannot be greater than readyReplicas'));
  }
  return errs;
}
