/**
 * `validateEphemeralContainers` (pkg/apis/core/validation): each ephemeral container is checked as
 * a container, its name is unique among all the pod's containers, its target names a regular or
 * init container, and it may set only the fields of a debugging container (no ports, probes,
 * lifecycle, resources or restart policy; no volume subpaths).
 */
import { child, fieldError, index, type FieldError } from '../../../machinery/field-errors.js';
import type { Container, EphemeralContainer, PodSpec } from '../../types/core-v1.js';
import { imageWhitespaceErrors, validateContainerCommon, type ContainerContext } from './containers.js';

/** Fields an ephemeral container may not set (the complement of upstream's `allowedEphemeralContainerFields`). */
const NOT_ALLOWED = [
  'ports',
  'resources',
  'resizePolicy',
  'livenessProbe',
  'readinessProbe',
  'startupProbe',
  'lifecycle',
  'restartPolicy',
  'restartPolicyRules',
] as const;
const FORBIDDEN = 'cannot be set for an Ephemeral Container';

/** Whether a field holds a non-zero value, as Go's reflection sees it (an empty list or object is zero). */
function isSet(v: unknown): boolean {
  if (v === undefined || v === null || v === '' || v === 0 || v === false) return false;
  if (Array.isArray(v)) return v.length > 0;
  if (typeof v === 'object') return Object.keys(v).length > 0;
  return true;
}

/** The ephemeral containers of `spec`. */
export function ephemeralContainerErrors(spec: PodSpec, path: string, ctx: ContainerContext): FieldError[] {
  const list = spec.ephemeralContainers ?? [];
  if (list.length === 0) return [];
  const others = new Set([...spec.containers, ...(spec.initContainers ?? [])].map((c) => c.name));
  const all = new Set(others);
  // Ephemeral containers only exist in pods, so the pod-only image rule applies to them all.
  const errs: FieldError[] = imageWhitespaceErrors(list as Container[], path);
  list.forEach((ec: EphemeralContainer, i) => {
    const p = index(path, i);
    errs.push(...validateContainerCommon(ec as Container, p, ctx));
    if (all.has(ec.name)) errs.push(fieldError.duplicate(child(p, 'name'), ec.name));
    else all.add(ec.name);
    if (ec.targetContainerName && !others.has(ec.targetContainerName)) errs.push(fieldError.notFound(child(p, 'targetContainerName'), ec.targetContainerName));
    for (const f of NOT_ALLOWED) if (isSet((ec as Record<string, unknown>)[f])) errs.push(fieldError.forbidden(child(p, f), FORBIDDEN));
    (ec.volumeMounts ?? []).forEach((m, j) => {
      const mp = index(child(p, 'volumeMounts'), j);
      if (m.subPath) errs.push(fieldError.forbidden(child(mp, 'subPath'), FORBIDDEN));
      if (m.subPathExpr) errs.push(fieldError.forbidden(child(mp, 'subPathExpr'), FORBIDDEN));
    });
  });
  return errs;
}
