/** Workload (scheduling v1alpha2, namespaced; gate GenericWorkload). */
import { defineKind } from '../../schema/define-kind.js';
import { Workload as V1Alpha2 } from '../types/scheduling-v1alpha2.js';
import { GENERIC_WORKLOAD } from './workload-gate.js';
import { lazyVersion } from '../shared/lazy-version.js';

/** A Workload object. */
export type Workload = V1Alpha2;

/**
 * Workload: the pod group templates of a workload (and the controller that owns it). Stored with
 * its schema and ObjectMeta rules only.
 */
export const WorkloadKind = defineKind<Workload>({
  group: 'scheduling.{api_domain}',
  kind: 'Workload',
  plural: 'workloads',
  scope: 'Namespaced',
  featureGate: GENERIC_WORKLOAD,
  generation: false,
  versions: [lazyVersion('v1alpha2', V1Alpha2, { storage: true })],
});
