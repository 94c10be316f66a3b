/**
 * Priority (kubernetes plugin/pkg/admission/priority): on pod creation, resolves
 * `priorityClassName` into `priority` and `preemptionPolicy`, or gives a pod without one the
 * global default class (the one with the lowest value if several are marked); on update, keeps
 * them when the update omits them. On PriorityClass creates and updates, refuses a second
 * `globalDefault` class.
 */
import { forbidden } from '../../machinery/errors.js';
import type { KubeObject } from '../../schema/define-kind.js';
import type { Pod } from '../../kinds/types/core-v1.js';
import type { AdmissionAttributes, AdmissionCluster } from '../attributes.js';
import type { AdmissionPlugin } from '../plugin.js';
import { admissionName, podOf, PODS } from './pod-attributes.js';

/** The priority classes every cluster has (used when the cluster does not serve PriorityClasses). */
const SYSTEM_PRIORITY_CLASSES: Record<string, number> = { 'system-node-critical': 2000001000, 'system-cluster-critical': 2000000000 };

const PRIORITY_CLASSES = { group: 'scheduling.k8s.io', resource: 'priorityclasses' };

type PriorityClass = KubeObject & { value?: number; preemptionPolicy?: string; globalDefault?: boolean };

export const priority: AdmissionPlugin = {
  name: 'Priority',
  operations: ['CREATE', 'UPDATE', 'DELETE'],
  // Neither half is async itself: a request for anything but a pod or a PriorityClass passes without a promise.
  admit(attributes, cluster) {
    const pod = podOf(attributes);
    if (!pod) return;
    if (attributes.operation === 'CREATE') return resolvePriority(pod, attributes, cluster);
    if (attributes.operation === 'UPDATE' && attributes.oldObject) keepPriority(pod, attributes.oldObject as Pod);
  },
  validate(attributes, cluster) {
    const { resource, subresource, operation, object } = attributes;
    if (resource.group !== PRIORITY_CLASSES.group || resource.resource !== PRIORITY_CLASSES.resource || subresource !== '') return;
    if ((operation !== 'CREATE' && operation !== 'UPDATE') || !object) return;
    if (!(object as PriorityClass).globalDefault) return;
    return refuseSecondDefault(attributes, cluster);
  },
};

/** A second PriorityClass marked `globalDefault` is refused. */
async function refuseSecondDefault(attributes: AdmissionAttributes, cluster: AdmissionCluster): Promise<void> {
  const { operation, object } = attributes;
  const current = await defaultPriorityClass(cluster);
  if (current && (operation === 'CREATE' || current.metadata?.name !== object?.metadata?.name)) {
    throw forbidden(
      PRIORITY_CLASSES,
      admissionName(attributes),
      `PriorityClass ${current.metadata?.name ?? ''} is already marked as default. Only one default can exist`,
    );
  }
}

/** `getDefaultPriorityClass`: of the classes marked `globalDefault`, the one with the lowest value. */
async function defaultPriorityClass(cluster: AdmissionCluster): Promise<PriorityClass | undefined> {
  let found: PriorityClass | undefined;
  for (const pc of (await cluster.list(PRIORITY_CLASSES)) as PriorityClass[]) {
    if (pc.globalDefault && (!found || (found.value ?? 0) > (pc.value ?? 0))) found = pc;
  }
  return found;
}

async function resolvePriority(pod: Pod, attributes: AdmissionAttributes, cluster: AdmissionCluster): Promise<void> {
  const spec = pod.spec!;
  let value = 0;
  let policy: string | undefined = 'PreemptLowerPriority';
  if (spec.priorityClassName) {
    const found = (await cluster.read(PRIORITY_CLASSES, '', spec.priorityClassName)) as PriorityClass | undefined;
    const system = SYSTEM_PRIORITY_CLASSES[spec.priorityClassName];
    if (found) {
      value = found.value ?? 0;
      policy = found.preemptionPolicy;
    } else if (system !== undefined) {
      value = system;
    } else {
      throw forbidden(PODS, admissionName(attributes), `no PriorityClass with name ${spec.priorityClassName} was found`);
    }
  } else {
    const fallback = await defaultPriorityClass(cluster);
    if (fallback) {
      spec.priorityClassName = fallback.metadata?.name;
      value = fallback.value ?? 0;
      policy = fallback.preemptionPolicy;
    }
  }
  if (spec.priority !== undefined && spec.priority !== value) {
    throw forbidden(
      PODS,
      admissionName(attributes),
      `the integer value of priority (${spec.priority}) must not be provided in pod spec; priority admission controller computed ${value} from the given PriorityClass name`,
    );
  }
  spec.priority = value;
  if (policy !== undefined) {
    if (spec.preemptionPolicy !== undefined && spec.preemptionPolicy !== policy) {
      throw forbidden(
        PODS,
        admissionName(attributes),
        `the string value of PreemptionPolicy (${spec.preemptionPolicy}) must not be provided in pod spec; priority admission controller computed ${policy} from the given PriorityClass name`,
      );
    }
    spec.preemptionPolicy = policy;
  }
}

/** Validation forbids changing them, so an update that omits them keeps the stored ones. */
function keepPriority(pod: Pod, old: Readonly<Pod>): void {
  const spec = pod.spec!;
  if (spec.priority === undefined && old.spec?.priority !== undefined) spec.priority = old.spec.priority;
  if (spec.preemptionPolicy === undefined && old.spec?.preemptionPolicy !== undefined) spec.preemptionPolicy = old.spec.preemptionPolicy;
}
