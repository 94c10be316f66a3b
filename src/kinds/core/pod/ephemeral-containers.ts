/**
 * A Pod's `ephemeralcontainers` subresource (`kubectl debug`): only `spec.ephemeralContainers`
 * changes through it, and only by adding containers (pkg/registry/core/pod/strategy.go's
 * ephemeral-containers strategy and pkg/apis/core/validation's
 * `ValidatePodEphemeralContainersUpdate`).
 */
import { cloneJson } from '../../../util/json-clone.js';
import { fieldError, type FieldError } from '../../../machinery/field-errors.js';
import { Pod as PodSchema, type Pod } from '../../types/core-v1.js';
import { fieldNode, semanticEqual } from '../../shared/semantic-equal.js';

/** The stored pod with the request's ephemeral containers: nothing else changes through this subresource. */
export function withEphemeralContainers(body: Pod, old: Readonly<Pod>): Pod {
  const next = cloneJson(old) as Pod;
  next.metadata = { ...next.metadata, resourceVersion: body.metadata?.resourceVersion };
  const added = body.spec?.ephemeralContainers;
  if (added === undefined) delete next.spec!.ephemeralContainers;
  else next.spec!.ephemeralContainers = added;
  return next;
}

let node: ReturnType<typeof fieldNode>;

/** Existing ephemeral containers may be neither removed nor changed; a static pod has none. */
export function ephemeralContainersUpdateErrors(pod: Pod, old: Readonly<Pod>, mirrorAnnotation: string): FieldError[] {
  if (old.metadata?.annotations?.[mirrorAnnotation] !== undefined) return [fieldError.forbidden('', 'static pods do not support ephemeral containers')];
  node ??= fieldNode(PodSchema(), 'spec', 'ephemeralContainers');
  const item = node?.type === 'array' ? node.items : undefined;
  const byName = new Map((pod.spec?.ephemeralContainers ?? []).map((c) => [c.name, c]));
  const errors: FieldError[] = [];
  for (const was of old.spec?.ephemeralContainers ?? []) {
    const now = byName.get(was.name);
    if (!now) errors.push(fieldError.forbidden('spec.ephemeralContainers', `existing ephemeral containers ${JSON.stringify(was.name)} may not be removed\n`));
    else if (!semanticEqual(was, now, item)) {
      errors.push(fieldError.forbidden('spec.ephemeralContainers', `existing ephemeral containers ${JSON.stringify(was.name)} may not be changed\n`));
    }
  }
  return errors;
}
