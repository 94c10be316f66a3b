/** Pod (core v1). */
import { defineKind } from '../../schema/define-kind.js';
import { Pod as PodSchema } from '../types/core-v1.js';

/** A Pod object. */
export type Pod = PodSchema;

/** Pod. */
export const PodKind = defineKind<Pod>({
  group: '',
  kind: 'Pod',
  plural: 'pods',
  shortNames: ['po'],
  categories: ['all'],
  scope: 'Namespaced',
  versions: [{ name: 'v1', schema: PodSchema, served: true, storage: true }],
  statusSubresource: true,
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
