/**
 * Priority (kubernetes plugin/pkg/admission/priority): on pod creation, resolves
 * `priorityClassName` into `priority` and `preemptionPolicy`; on update, keeps them when the update
 * omits them.
 */
import { forbidden } from '../../machinery/errors.js';
import type { KubeObject } from '../../schema/define-kind.js';
import type { Pod } from '../../kinds/types/core-v1.js';
import type { AdmissionAttributes, AdmissionCluster } from '../attributes.js';
import type { AdmissionPlugin } from '../plugin.js';
import { admissionName, podOf, PODS } from './pod-attributes.js';

/** The priority classes every cluster has. */
const SYSTEM_PRIORITY_CLASSES: Record<string, number> = { 'system-node-critical': 2000001000, 'system-cluster-critical': 2000000000 };

export const priority: AdmissionPlugin = {
  name: 'Priority',
  async admit(attributes, cluster) {
    const pod = podOf(attributes);
    if (!pod) return;
    if (attributes.operation === 'CREATE') await resolvePriority(pod, attributes, cluster);
    else if (attributes.operation === 'UPDATE' && attributes.oldObject) keepPriority(pod, attributes.oldObject as Pod);
  },
};

async function resolvePriority(pod: Pod, attributes: AdmissionAttributes, cluster: AdmissionCluster): Promise<void> {
  const spec = pod.spec!;
  let value = 0;
  let policy: string | undefined = 'PreemptLowerPriority';
  if (spec.priorityClassName) {
    const found = (await cluster.read({ group: 'scheduling.k8s.io', resource: 'priorityclasses' }, '', spec.priorityClassName)) as
      (KubeObject & { value?: number; preemptionPolicy?: string }) | undefined;
    const system = SYSTEM_PRIORITY_CLASSES[spec.priorityClassName];
    if (found) {
      value = found.value ?? 0;
      policy = found.preemptionPolicy;
    } else if (system !== undefined) {
      value = system;
    } else {
      throw forbidden(PODS, admissionName(attributes), `no PriorityClass with name ${spec.priorityClassName} was found`);
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
