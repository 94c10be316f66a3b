/** Pod (core v1). */
import { badRequest } from '../../machinery/errors.js';
import { podBinding } from './pod/binding.js';
import { podEviction } from './pod/eviction.js';
import { podLog } from './pod/log.js';
import { ephemeralContainersUpdateErrors, withEphemeralContainers } from './pod/ephemeral-containers.js';
import { resizeErrors, withResizedContainers } from './pod/resize.js';
import { defineKind } from '../../schema/define-kind.js';
import { Pod as PodSchema } from '../types/core-v1.js';
import { withZeroValues } from '../shared/zero-values.js';
import { specGeneration } from '../shared/semantic-equal.js';
import { preparePodStatus } from './pod/prepare-for-create.js';
import { applyPodDefaults } from '../shared/pod-spec/defaults.js';
import { validatePodUpdate } from './pod/update.js';
import { validatePod } from '../shared/pod-spec/validation.js';
import { podCreateWarnings } from '../shared/pod-spec/warnings.js';
import { QuantityDecodeError } from '../shared/resource-lists.js';
import { lazyVersion } from '../shared/lazy-version.js';

/** A Pod object. */
export type Pod = PodSchema;

/** Decode-time defaults; a malformed quantity fails the request as Kubernetes' decoder does (400). */
function defaultPod(pod: Pod): void {
  try {
    applyPodDefaults(pod);
  } catch (e) {
    if (e instanceof QuantityDecodeError) throw badRequest(`Pod in version "v1" cannot be handled as a Pod: ${e.message}`);
    throw e;
  }
}

/** The STATUS column of `kubectl get pods` (a simplified `printPod`). */
function podStatusText(p: Pod): string {
  let reason = p.status?.reason || p.status?.phase || '';
  for (const c of p.status?.containerStatuses ?? []) {
    if (c.state?.waiting?.reason) reason = c.state.waiting.reason;
    else if (c.state?.terminated?.reason) reason = c.state.terminated.reason;
  }
  if (p.metadata?.deletionTimestamp && p.status?.reason !== 'NodeLost') reason = 'Terminating';
  return reason;
}

/** Pod: defaults, status on create, validation and the update rule of Kubernetes v1.36 (its admission plugins are src/admission/). */
export const PodKind = defineKind<Pod>({
  group: '',
  kind: 'Pod',
  plural: 'pods',
  shortNames: ['po'],
  categories: ['all'],
  scope: 'Namespaced',
  // Generation 1 on create, one more for each change of the spec (pkg/registry/core/pod/strategy.go,
  // updatePodGeneration, for updates, /ephemeralcontainers and /resize alike; /status keeps the spec).
  generation: specGeneration(PodSchema),
  versions: [lazyVersion('v1', PodSchema, { storage: true })],
  actions: { binding: podBinding, eviction: podEviction },
  connectSubresources: { log: podLog },
  partSubresources: { ephemeralcontainers: withEphemeralContainers, resize: withResizedContainers },
  printerColumns: [
    {
      name: 'Ready',
      type: 'string',
      description: 'The aggregate readiness state of this pod for accepting traffic.',
      value: (p) => `${(p.status?.containerStatuses ?? []).filter((c) => c.ready).length}/${p.spec?.containers?.length ?? 0}`,
    },
    { name: 'Status', type: 'string', description: 'The aggregate status of the containers in this pod.', value: (p) => podStatusText(p) },
    {
      name: 'Restarts',
      type: 'string',
      description: 'The number of times the containers in this pod have been restarted and when the last container in this pod has restarted.',
      value: (p) => String((p.status?.containerStatuses ?? []).reduce((n, c) => n + (c.restartCount ?? 0), 0)),
    },
    { name: 'Age', type: 'date', value: (p) => p.metadata?.creationTimestamp },
    { name: 'IP', type: 'string', priority: 1, description: 'The IP address assigned to the pod', value: (p) => p.status?.podIP },
    { name: 'Node', type: 'string', priority: 1, description: 'The node on which the pod is scheduled', value: (p) => p.spec?.nodeName },
    { name: 'Nominated Node', type: 'string', priority: 1, value: (p) => p.status?.nominatedNodeName },
    {
      name: 'Readiness Gates',
      type: 'string',
      priority: 1,
      value: (p) => {
        const gates = p.spec?.readinessGates ?? [];
        if (!gates.length) return undefined;
        const ok = gates.filter((g) => (p.status?.conditions ?? []).some((c) => c.type === g.conditionType && c.status === 'True')).length;
        return `${ok}/${gates.length}`;
      },
    },
  ],
  statusSubresource: true,
  // Pod rules check required fields in code, with Kubernetes' own paths and messages.
  schemaRequired: false,
  strategy: {
    prepareForCreate(pod) {
      // Admission may have added volumes and mounts; they get their defaults too.
      defaultPod(pod);
      preparePodStatus(pod);
    },
    prepareForUpdate(pod) {
      defaultPod(pod);
    },
    defaults(pod) {
      defaultPod(pod);
    },
    validate(pod, ctx) {
      // The status subresource changes status only; the spec was validated when it was written.
      if (ctx.subresource === 'status') return [];
      return validatePod(withZeroValues(pod, PodSchema()), { reservedDomain: ctx.reservedDomain }, ctx.operation === 'create');
    },
    validateUpdate(pod, old, ctx) {
      if (ctx.subresource === 'ephemeralcontainers') return ephemeralContainersUpdateErrors(pod, old, `${ctx.reservedDomain}/config.mirror`);
      if (ctx.subresource === 'resize') return resizeErrors(pod, old);
      if (ctx.subresource) return [];
      return validatePodUpdate(withZeroValues(pod, PodSchema()), withZeroValues(old as Pod, PodSchema()));
    },
    warnings(pod, old, ctx) {
      // Kubernetes warns on create only (updates are a high-frequency path).
      return old ? [] : podCreateWarnings(pod, ctx.reservedDomain);
    },
  },
  deletion: {
    returnDeletedObject: true,
    gracePeriod(pod, requested) {
      // Unscheduled and finished pods have nothing to stop: they go at once.
      if (!pod.spec?.nodeName) return 0;
      if (pod.status?.phase === 'Succeeded' || pod.status?.phase === 'Failed') return 0;
      return requested ?? pod.spec?.terminationGracePeriodSeconds ?? 30;
    },
  },
  selectableFields: {
    'spec.nodeName': (p) => p.spec?.nodeName,
    'spec.restartPolicy': (p) => p.spec?.restartPolicy,
    'spec.schedulerName': (p) => p.spec?.schedulerName,
    'spec.serviceAccountName': (p) => p.spec?.serviceAccountName,
    'spec.hostNetwork': (p) => String(p.spec?.hostNetwork ?? false),
    'status.phase': (p) => p.status?.phase,
    'status.podIP': (p) => p.status?.podIP,
    'status.nominatedNodeName': (p) => p.status?.nominatedNodeName,
  },
});
