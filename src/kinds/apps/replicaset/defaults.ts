/**
 * `SetObjectDefaults_ReplicaSet` of Kubernetes v1.36 (`pkg/apis/apps/v1/defaults.go`
 * `SetDefaults_ReplicaSet`, and the PodSpec defaults of the template). Idempotent: it runs on every
 * write, as decoding does.
 */
import type { ReplicaSet, ReplicaSetSpec } from '../../types/apps-v1.js';
import { applyPodTemplateDefaults } from '../../shared/pod-spec/defaults.js';

/** Applies the v1 defaults in place. Throws `QuantityDecodeError` for a malformed quantity. */
export function applyReplicaSetDefaults(rs: ReplicaSet): void {
  // An absent spec is Go's zero spec: no selector (nil), which the rules report as required.
  const spec = (rs.spec ??= {} as ReplicaSetSpec);
  spec.replicas ??= 1;
  applyPodTemplateDefaults((spec.template ??= {}));
  // ReplicaSetStatus.replicas has no omitempty: a written status always carries it.
  if (rs.status) rs.status.replicas ??= 0;
}
