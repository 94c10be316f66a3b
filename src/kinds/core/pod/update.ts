/**
 * `ValidatePodUpdate`: which parts of a Pod's spec an update may change (container images,
 * activeDeadlineSeconds downwards, additional tolerations, removed scheduling gates, a negative
 * grace period set to 1, and for gated pods additions to node selection), and the Forbidden error
 * with the spec diff Kubernetes prints for anything else.
 */
import { child, fieldError, index, type FieldError } from '../../../machinery/field-errors.js';
import { inclusiveRangeError } from '../../../schema/validation/names.js';
import type { StructuralNode } from '../../../schema/structural.js';
import { Pod as PodSchema, type Container, type NodeAffinity, type NodeSelectorTerm, type Pod, type PodSpec, type Toleration } from '../../types/core-v1.js';
import { childNode, fieldNode, semanticEqual } from '../../shared/semantic-equal.js';
import { tolerationErrors } from '../../shared/pod-spec/scheduling.js';

const INT32_MAX = 2147483647;

/** The fields a pod update may change, as Kubernetes lists them (joined with `,`, no space). */
export const UPDATABLE_POD_SPEC_FIELDS = [
  '`spec.containers[*].image`',
  '`spec.initContainers[*].image`',
  '`spec.activeDeadlineSeconds`',
  '`spec.tolerations` (only additions to existing tolerations)',
  '`spec.terminationGracePeriodSeconds` (allow it to be set to 1 if it was previously negative)',
];

/** The fixed part of the Forbidden message; Kubernetes appends a newline and the spec diff. */
export const POD_UPDATE_FORBIDDEN_PREFIX = `pod updates may not change fields other than ${UPDATABLE_POD_SPEC_FIELDS.join(',')}`;

/** The structural schema of PodSpec and the parts the update rule compares on their own. */
let podSpecNode: StructuralNode | undefined;
const specNode = (): StructuralNode | undefined => (podSpecNode ??= fieldNode(PodSchema(), 'spec'));
const nodeOf = (...path: string[]) => childNode(specNode(), ...path);

/** `apiequality.Semantic.DeepEqual` of two parts of a PodSpec at `path` (an empty map or list equals an absent one). */
const same = (a: unknown, b: unknown, ...path: string[]) => semanticEqual(a, b, nodeOf(...path));

/** `ValidateContainerUpdates`: same number of containers, images present and trimmed. */
function containerUpdateErrors(next: Container[], old: Container[], path: string): { errors: FieldError[]; stop: boolean } {
  if (next.length !== old.length) return { errors: [fieldError.forbidden(path, 'pod updates may not add or remove containers')], stop: true };
  const errors: FieldError[] = [];
  next.forEach((c, i) => {
    const image = c.image ?? '';
    if (image.length === 0) errors.push(fieldError.required(child(index(path, i), 'image')));
    if (image.trim().length !== image.length)
      errors.push(fieldError.invalid(child(index(path, i), 'image'), image, 'must not have leading or trailing whitespace'));
  });
  return { errors, stop: false };
}

/** `validateOnlyAddedTolerations`. */
function onlyAddedTolerationErrors(next: Toleration[], old: Toleration[], path: string): FieldError[] {
  const same = (a: Toleration, b: Toleration) =>
    (a.key ?? '') === (b.key ?? '') &&
    (a.operator ?? '') === (b.operator ?? '') &&
    (a.value ?? '') === (b.value ?? '') &&
    (a.effect ?? '') === (b.effect ?? '');
  for (const o of old) {
    if (!next.some((n) => same(o, n))) return [fieldError.forbidden(path, 'existing toleration can not be modified except its tolerationSeconds')];
  }
  return tolerationErrors(next, path);
}

function onlyAdditions(next: NodeSelectorTerm, old: NodeSelectorTerm): boolean {
  const oldExpr = old.matchExpressions ?? [];
  const oldFields = old.matchFields ?? [];
  const newExpr = next.matchExpressions ?? [];
  const newFields = next.matchFields ?? [];
  if (oldExpr.length === 0 && oldFields.length === 0 && (newExpr.length > 0 || newFields.length > 0)) return false;
  return keepsAsPrefix(newExpr, oldExpr, 'matchExpressions') && keepsAsPrefix(newFields, oldFields, 'matchFields');
}

/** Whether `next` starts with every requirement of `old`, unchanged (nothing was removed or modified). */
function keepsAsPrefix(next: readonly unknown[], old: readonly unknown[], field: 'matchExpressions' | 'matchFields'): boolean {
  if (old.length === 0) return true;
  return (
    next.length >= old.length &&
    same(next.slice(0, old.length), old, 'affinity', 'nodeAffinity', 'requiredDuringSchedulingIgnoredDuringExecution', 'nodeSelectorTerms', '[]', field)
  );
}

function nodeAffinityMutationErrors(path: string, next: NodeAffinity | undefined, old: NodeAffinity | undefined): FieldError[] {
  const oldTerms = old?.requiredDuringSchedulingIgnoredDuringExecution?.nodeSelectorTerms;
  if (!oldTerms) return [];
  const newTerms = next?.requiredDuringSchedulingIgnoredDuringExecution?.nodeSelectorTerms ?? [];
  const termsPath = child(child(path, 'requiredDuringSchedulingIgnoredDuringExecution'), 'nodeSelectorTerms');
  if (oldTerms.length > 0 && oldTerms.length !== newTerms.length) {
    return [fieldError.invalid(termsPath, newTerms, 'no additions/deletions to non-empty NodeSelectorTerms list are allowed')];
  }
  const errs: FieldError[] = [];
  oldTerms.forEach((term, i) => {
    if (!onlyAdditions(newTerms[i]!, term))
      errs.push(fieldError.invalid(index(termsPath, i), newTerms[i], 'only additions are allowed (no mutations or deletions)'));
  });
  return errs;
}

/** `ValidatePodUpdate` without ObjectMeta and without the spec validation every write gets. */
export function validatePodUpdate(pod: Pod, oldPod: Readonly<Pod>): FieldError[] {
  const spec = pod.spec ?? { containers: [] };
  const old = oldPod.spec ?? { containers: [] };
  const errs: FieldError[] = [];
  const containers = containerUpdateErrors(spec.containers, old.containers, 'spec.containers');
  errs.push(...containers.errors);
  if (containers.stop) return errs;
  const inits = containerUpdateErrors(spec.initContainers ?? [], old.initContainers ?? [], 'spec.initContainers');
  errs.push(...inits.errors);
  if (inits.stop) return errs;

  const deadline = spec.activeDeadlineSeconds;
  if (deadline !== undefined) {
    if (deadline < 0 || deadline > INT32_MAX) return [...errs, fieldError.invalid('spec.activeDeadlineSeconds', deadline, inclusiveRangeError(0, INT32_MAX))];
    if (old.activeDeadlineSeconds !== undefined && old.activeDeadlineSeconds < deadline) {
      return [...errs, fieldError.invalid('spec.activeDeadlineSeconds', deadline, 'must be less than or equal to previous value')];
    }
  } else if (old.activeDeadlineSeconds !== undefined) {
    errs.push(fieldError.invalid('spec.activeDeadlineSeconds', null, 'must not update from a positive integer to nil value'));
  }
  errs.push(...onlyAddedTolerationErrors(spec.tolerations ?? [], old.tolerations ?? [], 'spec.tolerations'));
  const oldGates = new Set((old.schedulingGates ?? []).map((g) => g.name));
  (spec.schedulingGates ?? []).forEach((g, i) => {
    if (!oldGates.has(g.name))
      errs.push(fieldError.forbidden(child(index('spec.schedulingGates', i), 'name'), `only deletion is allowed, but found new scheduling gate '${g.name}'`));
  });
  if (same(spec, old)) return errs;

  // Munge what may change back to the old values; anything left over is forbidden.
  const munged: PodSpec = structuredClone(spec);
  munged.containers = munged.containers.map((c, i) => ({ ...c, image: old.containers[i]!.image }));
  if (munged.initContainers) munged.initContainers = munged.initContainers.map((c, i) => ({ ...c, image: old.initContainers![i]!.image }));
  setOrDelete(munged, 'activeDeadlineSeconds', old.activeDeadlineSeconds);
  setOrDelete(munged, 'schedulingGates', old.schedulingGates);
  setOrDelete(munged, 'tolerations', old.tolerations);
  if ((old.terminationGracePeriodSeconds ?? 0) < 0 && munged.terminationGracePeriodSeconds === 1)
    munged.terminationGracePeriodSeconds = old.terminationGracePeriodSeconds;
  if (old.schedulingGates?.length) {
    if (!same(munged.nodeSelector, old.nodeSelector, 'nodeSelector')) {
      for (const [k, v] of Object.entries(old.nodeSelector ?? {})) {
        if (munged.nodeSelector?.[k] !== v) {
          errs.push(
            fieldError.invalid('spec.nodeSelector', munged.nodeSelector ?? null, 'only additions to spec.nodeSelector are allowed (no mutations or deletions)'),
          );
          break;
        }
      }
      setOrDelete(munged, 'nodeSelector', old.nodeSelector);
    }
    const oldNA = old.affinity?.nodeAffinity;
    const newNA = munged.affinity?.nodeAffinity;
    if (!same(oldNA, newNA, 'affinity', 'nodeAffinity')) {
      errs.push(...nodeAffinityMutationErrors('spec.affinity.nodeAffinity', newNA, oldNA));
      if (!munged.affinity && oldNA) munged.affinity = { nodeAffinity: oldNA };
      else if (munged.affinity && !old.affinity && !munged.affinity.podAffinity && !munged.affinity.podAntiAffinity) delete munged.affinity;
      else if (munged.affinity) setOrDelete(munged.affinity, 'nodeAffinity', oldNA);
    }
  }
  if (!same(munged, old)) {
    errs.push(fieldError.forbidden('spec', `${POD_UPDATE_FORBIDDEN_PREFIX}\n${specDiff(old, munged)}`));
  }
  return errs;
}

function setOrDelete<T extends object, K extends keyof T>(obj: T, k: K, value: T[K] | undefined): void {
  if (value === undefined) delete obj[k];
  else obj[k] = structuredClone(value);
}

/** Internal (`core.PodSpec`) field names where they are not the capitalized JSON name. */
const GO_NAMES: Record<string, string> = {
  dnsPolicy: 'DNSPolicy',
  dnsConfig: 'DNSConfig',
  os: 'OS',
  setHostnameAsFQDN: 'SetHostnameAsFQDN',
  serviceAccount: 'DeprecatedServiceAccount',
  hostNetwork: 'SecurityContext.HostNetwork',
  hostPID: 'SecurityContext.HostPID',
  hostIPC: 'SecurityContext.HostIPC',
  shareProcessNamespace: 'SecurityContext.ShareProcessNamespace',
  hostUsers: 'SecurityContext.HostUsers',
};

/**
 * A go-cmp style rendering of the difference (`diff.Diff(old, new)`): one `-`/`+` pair per
 * changed top-level field with its JSON value, and a count of the identical ones. Kubernetes
 * prints the full go-cmp report of the internal struct, which memkube does not reproduce.
 */
export function specDiff(old: PodSpec, next: PodSpec): string {
  const fields = [...new Set([...Object.keys(old), ...Object.keys(next)])].sort();
  const lines = ['  core.PodSpec{'];
  let identical = 0;
  for (const f of fields) {
    const a = (old as Record<string, unknown>)[f];
    const b = (next as Record<string, unknown>)[f];
    if (same(a, b, f)) {
      identical++;
      continue;
    }
    const name = GO_NAMES[f] ?? f.charAt(0).toUpperCase() + f.slice(1);
    if (a !== undefined) lines.push(`- \t${name}: ${JSON.stringify(a)},`);
    if (b !== undefined) lines.push(`+ \t${name}: ${JSON.stringify(b)},`);
  }
  if (identical > 0) lines.push(`  \t... // ${identical} identical fields`);
  lines.push('  }');
  return lines.join('\n');
}
