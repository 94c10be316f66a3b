/** ComponentStatus (core v1): read-only, computed by the server. */
import { defineKind } from '../../schema/define-kind.js';
import { ComponentStatus as ComponentStatusSchema } from '../types/core-v1.js';
import { lazyVersion } from '../shared/lazy-version.js';

/** A ComponentStatus object. */
export type ComponentStatus = ComponentStatusSchema;

/** The components a v1.36 server checks (`GetServersToValidate`), all healthy in memkube. */
const COMPONENTS = ['scheduler', 'controller-manager', 'etcd-0'];

/** The statuses, as `ToConditionStatus` builds them: no stored metadata, a `Healthy` condition. */
function componentStatuses(): ComponentStatus[] {
  return COMPONENTS.map((name) => ({
    metadata: { name, creationTimestamp: null as unknown as string },
    conditions: [{ type: 'Healthy', status: 'True', message: 'ok' }],
  }));
}

/** `printComponentStatus`: the first Healthy condition, as Healthy/Unhealthy with its message and error. */
function healthy(cs: ComponentStatus): { status: string; message: string; error: string } {
  const c = (cs.conditions ?? []).find((x) => x.type === 'Healthy');
  if (!c) return { status: 'Unknown', message: '', error: '' };
  return { status: c.status === 'True' ? 'Healthy' : 'Unhealthy', message: c.message ?? '', error: c.error ?? '' };
}

/**
 * ComponentStatus: only get and list, answered from the server's health checks rather than
 * storage (pkg/registry/core/componentstatus/rest.go); deprecated since v1.19, which every request
 * is told in a warning.
 */
export const ComponentStatusKind = defineKind<ComponentStatus>({
  group: '',
  kind: 'ComponentStatus',
  plural: 'componentstatuses',
  shortNames: ['cs'],
  scope: 'Cluster',
  generation: false,
  versions: [lazyVersion('v1', ComponentStatusSchema, { storage: true })],
  unsupportedVerbs: ['create', 'update', 'patch', 'delete', 'deletecollection', 'watch'],
  computedObjects: componentStatuses,
  deprecationWarning: 'v1 ComponentStatus is deprecated in v1.19+',
  printerColumns: [
    { name: 'Status', type: 'string', description: 'Status of the component conditions', value: (cs) => healthy(cs).status },
    { name: 'Message', type: 'string', description: 'Message of the component conditions', value: (cs) => healthy(cs).message },
    { name: 'Error', type: 'string', description: 'Error of the component conditions', value: (cs) => healthy(cs).error },
  ],
  ageColumn: false,
});
