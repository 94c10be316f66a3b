/**
 * Pod validation as `ValidatePodCreate` / `validatePodMetadataAndSpec` / `ValidatePodSpec` run it
 * (`pkg/apis/core/validation/validation.go`, v1.36), in Kubernetes' order. ObjectMeta itself is
 * checked by the engine before this runs.
 */
import { child, fieldError, index, key, type FieldError } from '../../../machinery/field-errors.js';
import { inclusiveRangeError, isDNS1123Subdomain } from '../../../schema/validation/names.js';
import { validateLabels, validateNonnegativeField } from '../../../schema/validation/object-meta.js';
import type { Pod, PodSpec } from '../../types/core-v1.js';
import { ephemeralContainerErrors } from './ephemeral-containers.js';
import { imageWhitespaceErrors, validateContainers, validateInitContainers, type ContainerContext } from './containers.js';
import { resourceRequirementsErrors } from './resources.js';
import { aggregate } from './defaults.js';
import { dns1123LabelErrors, dns1123SubdomainErrors } from './formats.js';
import { affinityErrors, dnsConfigErrors, gateErrors, hostAliasErrors, imagePullSecretErrors, topologySpreadErrors, tolerationErrors } from './scheduling.js';
import { podSecurityContextErrors } from './security.js';
import { validateVolumes } from './volumes.js';
import { quantityText, quantityValue } from '../resource-lists.js';

const INT32_MAX = 2147483647;

/** Options the validation depends on. */
export interface PodValidationOptions {
  /** The reserved domain of well-known annotation keys (`kubernetes.io`). */
  readonly reservedDomain: string;
}

/** `ValidatePodSpecificAnnotations` (mirror pods, deletion cost, seccomp annotations). */
export function podAnnotationErrors(pod: Pod, opts: PodValidationOptions, oldPod?: Readonly<Pod>): FieldError[] {
  const errs: FieldError[] = [];
  const annotations = pod.metadata?.annotations ?? {};
  const path = 'metadata.annotations';
  const mirror = `${opts.reservedDomain}/config.mirror`;
  if (mirror in annotations && !pod.spec?.nodeName) {
    errs.push(fieldError.invalid(key(path, mirror), annotations[mirror], 'must set spec.nodeName if mirror pod annotation is set'));
  }
  const costKey = `controller.${opts.reservedDomain}/pod-deletion-cost`;
  const cost = annotations[costKey];
  const oldCost = oldPod?.metadata?.annotations?.[costKey];
  const validCost = (v: string) => /^[-+]?\d+$/.test(v) && !/^[-+]?0\d/.test(v) && Number(v) >= -2147483648 && Number(v) <= INT32_MAX;
  if (cost !== undefined && !validCost(cost) && (oldCost === undefined || validCost(oldCost))) {
    errs.push(fieldError.invalid(key(path, costKey), cost, 'must be a 32bit integer'));
  }
  const seccompPod = `seccomp.security.alpha.${opts.reservedDomain}/pod`;
  const seccompContainer = `container.seccomp.security.alpha.${opts.reservedDomain}/`;
  for (const [k, v] of Object.entries(annotations)) {
    if (k !== seccompPod && !k.startsWith(seccompContainer)) continue;
    if (v === 'runtime/default' || v === 'docker/default' || v === 'unconfined') continue;
    if (v.startsWith('localhost/')) {
      const profile = v.slice('localhost/'.length);
      if (profile.startsWith('/')) errs.push(fieldError.invalid(child(path, k), profile, 'must be a relative path'));
      if (profile.split('/').includes('..')) errs.push(fieldError.invalid(child(path, k), profile, "must not contain '..'"));
      continue;
    }
    errs.push(fieldError.invalid(child(path, k), v, 'must be a valid seccomp profile'));
  }
  return errs;
}

/** `ValidatePodSpec`. */
export function validatePodSpec(spec: PodSpec, podName: string | undefined, path = 'spec'): FieldError[] {
  const errs: FieldError[] = [];
  if (spec.terminationGracePeriodSeconds === undefined) errs.push(fieldError.required(child(path, 'terminationGracePeriodSeconds')));
  const hostUsers = spec.hostUsers ?? true;
  const volumes = validateVolumes(spec.volumes ?? [], podName, child(path, 'volumes'));
  errs.push(...volumes.errors);
  const claims = resourceClaimErrors(spec, child(path, 'resourceClaims'));
  errs.push(...claims.errors);
  const ctx: ContainerContext = {
    volumes: volumes.volumes,
    podClaimNames: claims.names,
    gracePeriod: spec.terminationGracePeriodSeconds,
    restartPolicy: spec.restartPolicy ?? '',
    hostUsers,
    os: spec.os?.name,
  };
  errs.push(...validateContainers(spec.containers, child(path, 'containers'), ctx));
  errs.push(...validateInitContainers(spec.initContainers ?? [], spec.containers, child(path, 'initContainers'), ctx));
  errs.push(...ephemeralContainerErrors(spec, child(path, 'ephemeralContainers'), ctx));
  errs.push(...podResourcesErrors(spec, path, claims.names));
  if (spec.hostNetwork) {
    spec.containers.forEach((c, i) => {
      (c.ports ?? []).forEach((port, j) => {
        if ((port.hostPort ?? 0) !== port.containerPort) {
          errs.push(
            fieldError.invalid(
              child(index(child(index(child(path, 'containers'), i), 'ports'), j), 'hostPort'),
              port.hostPort ?? 0,
              'must match `containerPort` when `hostNetwork` is true',
            ),
          );
        }
      });
    });
  }
  errs.push(...enumErrors(spec.restartPolicy, child(path, 'restartPolicy'), ['Always', 'OnFailure', 'Never']));
  errs.push(...enumErrors(spec.dnsPolicy, child(path, 'dnsPolicy'), ['ClusterFirstWithHostNet', 'ClusterFirst', 'Default', 'None']));
  errs.push(...validateLabels(spec.nodeSelector, child(path, 'nodeSelector')));
  errs.push(...podSecurityContextErrors(spec, child(path, 'securityContext')));
  errs.push(...imagePullSecretErrors(spec, child(path, 'imagePullSecrets')));
  errs.push(...affinityErrors(spec, child(path, 'affinity')));
  errs.push(...dnsConfigErrors(spec, child(path, 'dnsConfig')));
  errs.push(...gateErrors(spec, path));
  errs.push(...topologySpreadErrors(spec, child(path, 'topologySpreadConstraints')));
  if (spec.hostUsers === false) {
    if (spec.hostNetwork) errs.push(fieldError.forbidden(child(path, 'hostNetwork'), 'when `hostUsers` is false'));
    if (spec.hostPID) errs.push(fieldError.forbidden(child(path, 'HostPID'), 'when `hostUsers` is false'));
    if (spec.hostIPC) errs.push(fieldError.forbidden(child(path, 'HostIPC'), 'when `hostUsers` is false'));
    for (const [list, name] of [
      [spec.containers, 'containers'],
      [spec.initContainers ?? [], 'initContainers'],
    ] as const) {
      list.forEach((c, i) => {
        if (c.volumeDevices?.length) errs.push(fieldError.forbidden(child(index(child(path, name), i), 'volumeDevices'), 'when `hostUsers` is false'));
      });
    }
  }
  if (spec.hostnameOverride !== undefined) {
    const p = child(path, 'hostnameOverride');
    if (spec.setHostnameAsFQDN) errs.push(fieldError.forbidden(p, 'may not be specified when setHostnameAsFQDN is true'));
    if (spec.hostNetwork) errs.push(fieldError.forbidden(p, 'may not be specified when hostNetwork is true'));
    if (Buffer.byteLength(spec.hostnameOverride, 'utf8') > 64) errs.push(fieldError.tooLong(p, 64));
    errs.push(...dns1123SubdomainErrors(spec.hostnameOverride, p));
  }
  for (const f of ['serviceAccountName', 'nodeName'] as const) {
    const value = spec[f];
    if (value) for (const msg of isDNS1123Subdomain(value)) errs.push(fieldError.invalid(child(path, f), value, msg));
  }
  if (spec.activeDeadlineSeconds !== undefined && (spec.activeDeadlineSeconds < 1 || spec.activeDeadlineSeconds > INT32_MAX)) {
    errs.push(fieldError.invalid(child(path, 'activeDeadlineSeconds'), spec.activeDeadlineSeconds, inclusiveRangeError(1, INT32_MAX)));
  }
  if (spec.hostname) errs.push(...dns1123LabelErrors(spec.hostname, child(path, 'hostname')));
  if (spec.subdomain) errs.push(...dns1123LabelErrors(spec.subdomain, child(path, 'subdomain')));
  if (spec.tolerations?.length) errs.push(...tolerationErrors(spec.tolerations, child(path, 'tolerations')));
  errs.push(...hostAliasErrors(spec, child(path, 'hostAliases')));
  for (const f of ['priorityClassName', 'runtimeClassName'] as const) {
    const value = spec[f];
    if (value) for (const msg of isDNS1123Subdomain(value)) errs.push(fieldError.invalid(child(path, f), value, msg));
  }
  if (spec.preemptionPolicy !== undefined) errs.push(...enumErrors(spec.preemptionPolicy, child(path, 'preemptionPolicy'), ['PreemptLowerPriority', 'Never']));
  if (spec.overhead) errs.push(...resourceRequirementsErrors({ limits: spec.overhead }, child(path, 'overhead'), new Set()));
  if (spec.os) {
    if (!spec.os.name) errs.push(fieldError.required(child(child(path, 'os'), 'name')));
    else if (spec.os.name !== 'linux' && spec.os.name !== 'windows') errs.push(fieldError.notSupported(child(path, 'os'), spec.os.name, ['linux', 'windows']));
    else if (spec.os.name === 'linux' && spec.securityContext?.windowsOptions) {
      errs.push(fieldError.forbidden(child(child(path, 'securityContext'), 'windowsOptions'), 'windows options cannot be set for a linux pod'));
    }
  }
  if (spec.schedulingGroup) {
    const p = child(child(path, 'schedulingGroup'), 'podGroupName');
    const name = spec.schedulingGroup.podGroupName;
    if (name === undefined) errs.push(fieldError.invalid(p, null, 'must specify one of: `podGroupName`'));
    else for (const msg of isDNS1123Subdomain(name)) errs.push(fieldError.invalid(p, name, msg));
  }
  errs.push(...fileKeyRefVolumeErrors(spec, path));
  return errs;
}

/** An enum field: required when empty, `Unsupported value` when unknown. */
function enumErrors(value: string | undefined, path: string, supported: readonly string[]): FieldError[] {
  if (!value) return [fieldError.required(path)];
  return supported.includes(value) ? [] : [fieldError.notSupported(path, value, supported)];
}

/** `validatePodResourceClaims`: the errors and the claim names containers may refer to. */
function resourceClaimErrors(spec: PodSpec, path: string): { errors: FieldError[]; names: Set<string> } {
  const errors: FieldError[] = [];
  const names = new Set<string>();
  (spec.resourceClaims ?? []).forEach((claim, i) => {
    const p = index(path, i);
    if (!claim.name) errors.push(fieldError.required(child(p, 'name')));
    else if (names.has(claim.name)) errors.push(fieldError.duplicate(child(p, 'name'), claim.name));
    else {
      errors.push(...dns1123LabelErrors(claim.name, child(p, 'name')));
      names.add(claim.name);
    }
    const hasName = claim.resourceClaimName !== undefined;
    const hasTemplate = claim.resourceClaimTemplateName !== undefined;
    if (hasName && hasTemplate) errors.push(fieldError.invalid(p, claim, 'at most one of `resourceClaimName` or `resourceClaimTemplateName` may be specified'));
    if (!hasName && !hasTemplate) errors.push(fieldError.invalid(p, claim, 'must specify one of: `resourceClaimName`, `resourceClaimTemplateName`'));
    for (const f of ['resourceClaimName', 'resourceClaimTemplateName'] as const) {
      const value = claim[f];
      if (value !== undefined) for (const msg of isDNS1123Subdomain(value)) errors.push(fieldError.invalid(child(p, f), value, msg));
    }
  });
  return { errors, names };
}

/** `validatePodResources` (PodLevelResources, beta and on in v1.36). */
function podResourcesErrors(spec: PodSpec, path: string, claimNames: ReadonlySet<string>): FieldError[] {
  const resources = spec.resources;
  if (!resources) return [];
  const p = child(path, 'resources');
  if (spec.os?.name === 'windows') return [fieldError.forbidden(p, 'may not be set for a windows pod')];
  const errs: FieldError[] = [];
  if (resources.claims !== undefined) errs.push(fieldError.forbidden(child(p, 'claims'), 'claims may not be set for Resources at pod-level'));
  errs.push(...resourceRequirementsErrors(resources, p, claimNames, true));
  for (const [name, total] of aggregate(spec, (r) => r?.requests)) {
    const pod = quantityValue(resources.requests?.[name]);
    if (pod && total.nanos > pod.nanos) {
      errs.push(
        fieldError.invalid(
          key(child(p, 'requests'), name),
          quantityText(pod),
          `must be greater than or equal to aggregate container requests of ${quantityText(total)}`,
        ),
      );
    }
  }
  spec.containers.forEach((c, i) => {
    for (const [name, value] of Object.entries(c.resources?.limits ?? {})) {
      const pod = quantityValue(resources.limits?.[name]);
      const ctr = quantityValue(value);
      if (pod && ctr && ctr.nanos > pod.nanos) {
        errs.push(
          fieldError.invalid(
            child(key(index(child(p, 'containers'), i), name), 'limits'),
            quantityText(ctr),
            `must be less than or equal to pod limits of ${quantityText(pod)}`,
          ),
        );
      }
    }
  });
  return errs;
}

/** `validateFileKeyRefVolumes`: a fileKeyRef must name an emptyDir volume. */
function fileKeyRefVolumeErrors(spec: PodSpec, path: string): FieldError[] {
  const errs: FieldError[] = [];
  const volumes = new Map((spec.volumes ?? []).map((v) => [v.name, v]));
  for (const [list, name] of [
    [spec.initContainers ?? [], 'initContainers'],
    [spec.containers, 'containers'],
  ] as const) {
    list.forEach((c, i) => {
      (c.env ?? []).forEach((env, j) => {
        const ref = env.valueFrom?.fileKeyRef;
        if (!ref) return;
        const p = child(child(child(index(child(index(child(path, name), i), 'env'), j), 'valueFrom'), 'fileKeyRef'), 'volumeName');
        const volume = volumes.get(ref.volumeName);
        if (!volume) errs.push(fieldError.notFound(p, ref.volumeName));
        else if (!volume.emptyDir) errs.push(fieldError.invalid(p, ref.volumeName, 'referenced volume must be of type emptyDir'));
      });
    });
  }
  return errs;
}

/** `validatePodMetadataAndSpec` without ObjectMeta (the engine checks that), and on create the `ValidatePodCreate` extras. */
export function validatePod(pod: Pod, opts: PodValidationOptions, create: boolean, oldPod?: Readonly<Pod>): FieldError[] {
  const spec = pod.spec ?? { containers: [] };
  const errs = [...podAnnotationErrors(pod, opts, oldPod), ...validatePodSpec(spec, pod.metadata?.name || undefined)];
  if (!spec.serviceAccountName) {
    (spec.volumes ?? []).forEach((v, vi) => {
      (v.projected?.sources ?? []).forEach((s, si) => {
        if (s.serviceAccountToken) {
          errs.push(
            fieldError.forbidden(
              `spec.volumes[${vi}].projected.sources[${si}].serviceAccountToken`,
              'must not be specified when serviceAccountName is not set',
            ),
          );
        }
      });
    });
  }
  if (spec.terminationGracePeriodSeconds !== undefined)
    errs.push(...validateNonnegativeField(spec.terminationGracePeriodSeconds, 'spec.terminationGracePeriodSeconds'));
  errs.push(...imageWhitespaceErrors(spec.containers, 'spec.containers'), ...imageWhitespaceErrors(spec.initContainers ?? [], 'spec.initContainers'));
  if (create) {
    if (spec.ephemeralContainers?.length) errs.push(fieldError.forbidden('spec.ephemeralContainers', 'cannot be set on create'));
    if (spec.nodeName && spec.schedulingGates?.length)
      errs.push(fieldError.forbidden('spec.nodeName', 'cannot be set until all schedulingGates have been cleared'));
  }
  return errs;
}
