/**
 * DefaultTolerationSeconds (kubernetes plugin/pkg/admission/defaulttolerationseconds), on pod
 * create and update: a pod tolerates not-ready and unreachable nodes for 300 s unless it says otherwise.
 */
import type { Toleration } from '../../kinds/types/core-v1.js';
import type { AdmissionPlugin } from '../plugin.js';
import { podOf } from './pod-attributes.js';

const DEFAULT_TOLERATION_SECONDS = 300;

export const defaultTolerationSeconds: AdmissionPlugin = {
  name: 'DefaultTolerationSeconds',
  operations: ['CREATE', 'UPDATE'],
  admit(attributes, cluster) {
    const pod = podOf(attributes);
    if (!pod || (attributes.operation !== 'CREATE' && attributes.operation !== 'UPDATE')) return;
    const spec = pod.spec!;
    const notReady = `node.${cluster.reservedDomain}/not-ready`;
    const unreachable = `node.${cluster.reservedDomain}/unreachable`;
    const tolerates = (key: string) => (spec.tolerations ?? []).some((t) => (t.key === key || !t.key) && (t.effect === 'NoExecute' || !t.effect));
    const add: Toleration[] = [];
    for (const key of [notReady, unreachable]) {
      if (!tolerates(key)) add.push({ key, operator: 'Exists', effect: 'NoExecute', tolerationSeconds: DEFAULT_TOLERATION_SECONDS });
    }
    if (add.length) spec.tolerations = [...(spec.tolerations ?? []), ...add];
  },
};
