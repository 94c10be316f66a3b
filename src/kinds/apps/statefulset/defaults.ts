/**
 * `SetObjectDefaults_StatefulSet` of Kubernetes v1.36 (`pkg/apis/apps/v1/defaults.go`): the
 * StatefulSet's own defaults, the pod template defaults (a PodSpec's, not a Pod's) and the
 * PersistentVolumeClaim defaults for each claim template. Idempotent: it runs on every write, as decoding does.
 */
import type { StatefulSet } from '../../types/apps-v1.js';
import { applyPodTemplateDefaults } from '../../shared/pod-spec/defaults.js';
import { defaultPersistentVolumeClaim } from '../../shared/persistent-volume-claim-rules.js';

/** Feature gate of `rollingUpdate.maxUnavailable` (beta, on by default in v1.36). */
export const MAX_UNAVAILABLE_STATEFUL_SET = 'MaxUnavailableStatefulSet';

/** Applies the v1 defaults in place. Throws `QuantityDecodeError` for a malformed quantity. */
export function applyStatefulSetDefaults(sts: StatefulSet, maxUnavailableEnabled: boolean): void {
  const spec = (sts.spec ??= { selector: {}, template: {} });
  spec.template ??= {};
  if (!spec.podManagementPolicy) spec.podManagementPolicy = 'OrderedReady';
  const strategy = (spec.updateStrategy ??= {});
  if (!strategy.type) {
    strategy.type = 'RollingUpdate';
    strategy.rollingUpdate ??= {};
  }
  if (strategy.type === 'RollingUpdate' && strategy.rollingUpdate) {
    strategy.rollingUpdate.partition ??= 0;
    if (maxUnavailableEnabled) strategy.rollingUpdate.maxUnavailable ??= 1;
  }
  const retention = (spec.persistentVolumeClaimRetentionPolicy ??= {});
  if (!retention.whenDeleted) retention.whenDeleted = 'Retain';
  if (!retention.whenScaled) retention.whenScaled = 'Retain';
  spec.replicas ??= 1;
  spec.revisionHistoryLimit ??= 10;
  applyPodTemplateDefaults(spec.template);
  for (const claim of spec.volumeClaimTemplates ?? []) defaultPersistentVolumeClaim(claim);
}
