/**
 * `SetObjectDefaults_ReplicationController` of Kubernetes v1.36 (`pkg/apis/core/v1/defaults.go`
 * `SetDefaults_ReplicationController`, then the pod template's PodSpec defaults). Idempotent: it
 * runs on every write, as decoding does.
 */
import type { ReplicationController } from '../../types/core-v1.js';
import { applyPodTemplateDefaults } from '../../shared/pod-spec/defaults.js';

/** Applies the v1 defaults in place. Throws `QuantityDecodeError` for a malformed quantity. */
export function applyReplicationControllerDefaults(rc: ReplicationController): void {
  const spec = (rc.spec ??= {});
  const labels = spec.template?.metadata?.labels;
  // The selector and the controller's own labels default to the template's labels.
  if (labels !== undefined) {
    if (Object.keys(spec.selector ?? {}).length === 0) spec.selector = { ...labels };
    const meta = (rc.metadata ??= {});
    if (Object.keys(meta.labels ?? {}).length === 0) meta.labels = { ...labels };
  }
  spec.replicas ??= 1;
  if (spec.template) applyPodTemplateDefaults(spec.template);
}
