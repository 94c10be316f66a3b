/**
 * A pod template (`core.PodTemplateSpec`) as the core kinds that embed one validate and print it:
 * `ValidatePodTemplateSpec` of Kubernetes v1.36 (`pkg/apis/core/validation/validation.go`), the
 * template warnings, and the cells `layoutContainerCells` and `labels.FormatLabels` print
 * (`pkg/printers/internalversion/printers.go`).
 */
import { child, fieldError, type FieldError } from '../../../machinery/field-errors.js';
import { validateAnnotations, validateLabels } from '../../../schema/validation/object-meta.js';
import { compareGoStrings } from '../../../selectors/label-selector.js';
import type { Container, Pod, PodTemplateSpec } from '../../types/core-v1.js';
import { podAnnotationErrors, validatePodSpec } from '../../shared/pod-spec/validation.js';
import { podCreateWarnings } from '../../shared/pod-spec/warnings.js';

/** `ValidatePodTemplateSpec`: labels, annotations, the pod-specific annotations, the PodSpec, no ephemeral containers. */
export function validatePodTemplateSpec(template: PodTemplateSpec, path: string, reservedDomain: string): FieldError[] {
  const errs: FieldError[] = [];
  const meta = template.metadata ?? {};
  errs.push(...validateLabels(meta.labels, child(path, 'labels')));
  const annotationsPath = child(path, 'annotations');
  errs.push(...validateAnnotations(meta.annotations, annotationsPath));
  const spec = template.spec ?? { containers: [] };
  // The pod rules name their path `metadata.annotations`; in a template it is `<template>.annotations`.
  const pod: Pod = { metadata: { annotations: meta.annotations ?? {} }, spec };
  for (const e of podAnnotationErrors(pod, { reservedDomain })) {
    errs.push({ ...e, field: annotationsPath + e.field.slice('metadata.annotations'.length) });
  }
  errs.push(...validatePodSpec(spec, undefined, child(path, 'spec')));
  if ((spec.ephemeralContainers ?? []).length > 0) {
    errs.push(fieldError.forbidden(child(child(path, 'spec'), 'ephemeralContainers'), 'ephemeral containers not allowed in pod template'));
  }
  return errs;
}

/** `GetWarningsForPodTemplate`: the pod warnings, their paths under the template's. */
export function podTemplateWarnings(template: PodTemplateSpec | undefined, path: string, reservedDomain: string): string[] {
  if (!template?.spec) return [];
  return podCreateWarnings({ metadata: template.metadata ?? {}, spec: template.spec }, reservedDomain).map((w) =>
    w.replace(/^spec\./, `${path}.spec.`).replace(/^metadata\./, `${path}.metadata.`),
  );
}

/** `layoutContainerCells`: container names and images, each joined with commas. */
export function containerCells(containers: readonly Container[] | undefined): { names: string; images: string } {
  const list = containers ?? [];
  return { names: list.map((c) => c.name).join(','), images: list.map((c) => c.image ?? '').join(',') };
}

/** `labels.FormatLabels`: `k=v` sorted by key, joined with commas; `<none>` when empty. */
export function formatLabels(labels: Readonly<Record<string, string>> | undefined): string {
  const keys = Object.keys(labels ?? {}).sort(compareGoStrings);
  if (keys.length === 0) return '<none>';
  return keys.map((k) => `${k}=${labels![k]}`).join(',');
}
