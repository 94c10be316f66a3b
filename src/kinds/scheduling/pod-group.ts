/** PodGroup (scheduling v1alpha2, namespaced, with `/status`; gate GenericWorkload). */
import { defineKind } from '../../schema/define-kind.js';
import { PodGroup as V1Alpha2 } from '../types/scheduling-v1alpha2.js';
import { GENERIC_WORKLOAD } from './workload-gate.js';
import { lazyVersion } from '../shared/lazy-version.js';

/** A PodGroup object. */
export type PodGroup = V1Alpha2;

/**
 * PodGroup: a group of pods scheduled together, made from a Workload's pod group template. Stored
 * with its schema and ObjectMeta rules only; status (conditions, resource claim statuses) through
 * `/status`. Nothing schedules it in memkube.
 */
export const PodGroupKind = defineKind<PodGroup>({
  group: 'scheduling.{api_domain}',
  kind: 'PodGroup',
  plural: 'podgroups',
  scope: 'Namespaced',
  featureGate: GENERIC_WORKLOAD,
  generation: false,
  versions: [lazyVersion('v1alpha2', V1Alpha2, { storage: true })],
  statusSubresource: true,
});
