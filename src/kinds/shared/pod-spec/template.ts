/**
 * A pod template embedded in a workload (Deployment, ReplicaSet, DaemonSet, ...):
 * `ValidatePodTemplateSpec` of `pkg/apis/core/validation/validation.go` (v1.36) and
 * `GetWarningsForPodTemplate` of `pkg/api/pod/warnings.go`, with the template's own field paths.
 */
import { child, fieldError, type FieldError } from '../../../machinery/field-errors.js';
import { validateAnnotations, validateLabels } from '../../../schema/validation/object-meta.js';
import type { Pod, PodSpec, PodTemplateSpec } from '../../types/core-v1.js';
import { podAnnotationErrors, validatePodSpec } from './validation.js';
import { podCreateWarnings } from './warnings.js';

const POD_ANNOTATIONS = 'metadata.annotations';

/**
 * `ValidatePodTemplateSpec`: the template's labels (at `<path>.labels`, as Kubernetes names them),
 * annotations (`<path>.annotations`), the pod-specific annotation rules, the PodSpec
 * (`<path>.spec`) and no ephemeral containers. `template` is read as Go sees it: pass a copy with
 * the zero values of missing required fields filled (`withZeroValues`).
 */
export function validatePodTemplateSpec(template: Readonly<PodTemplateSpec>, path: string, reservedDomain: string): FieldError[] {
  const errs: FieldError[] = [];
  const labels = template.metadata?.labels;
  const annotations = template.metadata?.annotations;
  errs.push(...validateLabels(labels, child(path, 'labels')));
  const annotationsPath = child(path, 'annotations');
  errs.push(...validateAnnotations(annotations, annotationsPath));
  const spec: PodSpec = template.spec ?? { containers: [] };
  // The pod rules name their path `metadata.annotations`; in a template it is `<path>.annotations`.
  const pod: Pod = { metadata: { annotations: annotations ?? {} }, spec };
  for (const e of podAnnotationErrors(pod, { reservedDomain })) {
    errs.push({ ...e, field: annotationsPath + e.field.slice(POD_ANNOTATIONS.length) });
  }
  errs.push(...validatePodSpec(spec, undefined, child(path, 'spec')));
  if (spec.ephemeralContainers?.length) {
    errs.push(fieldError.forbidden(child(child(path, 'spec'), 'ephemeralContainers'), 'ephemeral containers not allowed in pod template'));
  }
  return errs;
}

/**
 * The warnings of a pod template (`GetWarningsForPodTemplate`): the Pod's warnings without the
 * Pod-name one, with paths under `<path>.spec` and `<path>.metadata`.
 */
export function podTemplateWarnings(template: Readonly<PodTemplateSpec> | undefined, path: string, reservedDomain: string): string[] {
  if (!template?.spec) return [];
  const { name: _name, ...metadata } = template.metadata ?? {};
  return podCreateWarnings({ metadata, spec: template.spec }, reservedDomain).map((w) =>
    w.replace(/^spec\./, `${path}.spec.`).replace(/^metadata\./, `${path}.metadata.`),
  );
}
