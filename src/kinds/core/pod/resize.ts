/**
 * A Pod's `resize` subresource (in-place resize): only the containers' `resources` and
 * `resizePolicy` change through it (pkg/registry/core/pod/strategy.go, `dropNonResizeUpdates`),
 * and only so far as pkg/apis/core/validation's `ValidatePodResize` allows: the QoS class stays,
 * limits are not removed, and only cpu and memory change.
 */
import { cloneJson } from '../../../util/json-clone.js';
import { fieldError, type FieldError } from '../../../machinery/field-errors.js';
import type { Container, Pod } from '../../types/core-v1.js';
import { semanticEqual } from '../../shared/semantic-equal.js';
import { computeQOSClass } from './prepare-for-create.js';

/** The containers' resources and resize policies from `from`, matched by name, written into `into`. */
function takeResizable(into: Container[] | undefined, from: readonly Container[] | undefined): void {
  if (!into) return;
  const byName = new Map(into.map((c) => [c.name, c]));
  for (const c of from ?? []) {
    const target = byName.get(c.name);
    if (!target) continue;
    if (c.resources === undefined) delete target.resources;
    else target.resources = c.resources;
    if (c.resizePolicy === undefined) delete target.resizePolicy;
    else target.resizePolicy = c.resizePolicy;
  }
}

/** The stored pod with the request's container resources: nothing else changes through this subresource. */
export function withResizedContainers(body: Pod, old: Readonly<Pod>): Pod {
  const next = cloneJson(old) as Pod;
  next.metadata = { ...next.metadata, resourceVersion: body.metadata?.resourceVersion };
  takeResizable(next.spec?.containers, body.spec?.containers);
  takeResizable(next.spec?.initContainers, body.spec?.initContainers);
  return next;
}

const RESIZABLE = ['cpu', 'memory'];

/** The resources without cpu and memory, to compare what else changed. */
function otherResources(c: Container): unknown {
  const strip = (list: Record<string, unknown> | undefined) =>
    list ? Object.fromEntries(Object.entries(list).filter(([k]) => !RESIZABLE.includes(k))) : undefined;
  return { requests: strip(c.resources?.requests), limits: strip(c.resources?.limits), claims: c.resources?.claims };
}

/** Limits of cpu and memory may change but not go away (`validateContainerResize`). */
function removedLimitErrors(next: Container, old: Container, path: string): FieldError[] {
  return RESIZABLE.filter((r) => old.resources?.limits?.[r] !== undefined && next.resources?.limits?.[r] === undefined).map((r) =>
    fieldError.forbidden(`${path}.resources.limits[${r}]`, 'resource limits cannot be removed'),
  );
}

/** `ValidatePodResize`'s transition rules, over the pod the subresource made. */
export function resizeErrors(pod: Pod, old: Readonly<Pod>): FieldError[] {
  const errors: FieldError[] = [];
  const oldClass = old.status?.qosClass ?? computeQOSClass(old as Pod);
  if (oldClass !== computeQOSClass(pod)) {
    errors.push(fieldError.invalid('spec', pod.status?.qosClass ?? oldClass, 'Pod QOS Class may not change as a result of resizing'));
  }
  let otherChanged = false;
  for (const [list, field] of [
    [pod.spec?.containers, 'containers'],
    [pod.spec?.initContainers, 'initContainers'],
  ] as const) {
    (list ?? []).forEach((c, i) => {
      const was = (field === 'containers' ? old.spec?.containers : old.spec?.initContainers)?.[i];
      if (!was) return;
      errors.push(...removedLimitErrors(c, was, `spec.${field}[${i}]`));
      if (!semanticEqual(otherResources(c), otherResources(was))) otherChanged = true;
    });
  }
  if (otherChanged) errors.push(fieldError.forbidden('spec', 'only cpu and memory resources are mutable'));
  return errors;
}
