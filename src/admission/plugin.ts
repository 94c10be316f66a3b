/**
 * An admission plugin: a name from kube-apiserver's list and a mutating half, a validating half,
 * or both (`admission.MutationInterface` and `admission.ValidationInterface`). A plugin decides
 * itself which operations and resources it handles; a refusal is a thrown `ApiError`.
 */
import type { AdmissionAttributes, AdmissionCluster, AdmissionOperation } from './attributes.js';

export interface AdmissionPlugin {
  /** The name kube-apiserver's `--enable-admission-plugins` knows it by. */
  readonly name: string;
  /**
   * The operations the plugin handles (upstream's `admission.Handler`), all of them when absent.
   * The plugin is still asked for every request (it filters itself); this says which requests its
   * latency is measured for, as upstream measures only a handler that `Handles` the operation.
   */
  readonly operations?: readonly AdmissionOperation[];
  /** Runs before validation and may change `attributes.object`. */
  admit?(attributes: AdmissionAttributes, cluster: AdmissionCluster): void | Promise<void>;
  /** Runs after validation and may only refuse. */
  validate?(attributes: AdmissionAttributes, cluster: AdmissionCluster): void | Promise<void>;
  /**
   * For a plugin that takes a configuration (kube-apiserver's EventRateLimit, PodSecurity, ...): the
   * plugin configured by the text the admission configuration file gives it (YAML or JSON). Called
   * only when there is one; a throw refuses the configuration. A plugin without it ignores any.
   */
  withConfiguration?(configuration: string): AdmissionPlugin;
}
