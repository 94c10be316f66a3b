/**
 * The subresources of a definition (apiextensions-apiserver validation.go
 * `ValidateCustomResourceDefinitionSubresources`): the scale subresource's paths are simple JSON
 * paths, the replicas under `.spec.` and `.status.`, the selector under either.
 */
import { GoPrinted, fieldError, type FieldError } from '../../../machinery/field-errors.js';
import { goJson } from '../../../util/go-format.js';
import type { CustomResourceSubresources } from '../../types/apiextensions-v1.js';
import { validateSimpleJSONPath } from './validate-columns.js';

/** Validates `subresources` at `path` (`spec.subresources` or `spec.versions[i].subresources`). */
export function validateSubresources(subresources: CustomResourceSubresources | undefined, path: string): FieldError[] {
  const scale = subresources?.scale;
  if (!scale) return [];
  const errors: FieldError[] = [];
  const checkPath = (value: string | undefined, name: string, prefixes: readonly string[], detail: string, shown: unknown): void => {
    const at = `${path}.scale.${name}`;
    const p = value ?? '';
    if (p === '') return;
    const errs = validateSimpleJSONPath(p, at);
    if (errs.length) errors.push(...errs);
    else if (!prefixes.some((x) => p.startsWith(x))) errors.push(fieldError.invalid(at, shown, detail));
  };
  if (!scale.specReplicasPath) errors.push(fieldError.required(`${path}.scale.specReplicasPath`, ''));
  else checkPath(scale.specReplicasPath, 'specReplicasPath', ['.spec.'], 'should be a json path under .spec', scale.specReplicasPath);
  if (!scale.statusReplicasPath) errors.push(fieldError.required(`${path}.scale.statusReplicasPath`, ''));
  else checkPath(scale.statusReplicasPath, 'statusReplicasPath', ['.status.'], 'should be a json path under .status', scale.statusReplicasPath);
  // The selector path is a *string in Go: its bad value prints as JSON.
  const selector = scale.labelSelectorPath ?? '';
  checkPath(selector, 'labelSelectorPath', ['.spec.', '.status.'], 'should be a json path under either .spec or .status', new GoPrinted(goJson(selector)));
  return errors;
}

/** Whether subresources enable `status` (`hasStatusEnabled`). */
export function hasStatus(subresources: CustomResourceSubresources | undefined): boolean {
  return subresources?.status !== undefined && subresources?.status !== null;
}
