/** What the pod plugins share: which requests are about a pod, and how their refusals name it. */
import type { Pod } from '../../kinds/types/core-v1.js';
import type { AdmissionAttributes } from '../attributes.js';

/** The resource the pod plugins refuse on. */
export const PODS = { group: '', resource: 'pods' };

/** The pod of a request on the main `pods` resource (plugins leave subresources alone), or undefined. */
export function podOf(attributes: AdmissionAttributes): Pod | undefined {
  const { resource, subresource, object } = attributes;
  if (resource.group !== '' || resource.resource !== 'pods' || subresource !== '' || !object) return undefined;
  return object as Pod;
}

/** The name a refusal names an object by (its generateName before a name is generated), as `admission.NewForbidden` does. */
export function admissionName(attributes: AdmissionAttributes): string {
  const meta = attributes.object?.metadata;
  return attributes.name || meta?.name || meta?.generateName || 'Unknown';
}
