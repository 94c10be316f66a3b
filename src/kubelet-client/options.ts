/**
 * The settings of the API server's client of node agents: kube-apiserver's
 * `--kubelet-client-certificate`, `--kubelet-client-key`, `--kubelet-certificate-authority`,
 * `--kubelet-preferred-address-types` and `--kubelet-timeout`.
 */

/**
 * The API server's client of node agents (kubelets).
 * @category Node agent
 */
export interface KubeletClientOptions {
  /** PEM client certificate presented to node agents (`--kubelet-client-certificate` reads it from a file). */
  cert?: string;
  /** A file holding {@link cert}. */
  certFile?: string;
  /** PEM private key of the client certificate (`--kubelet-client-key`). */
  key?: string;
  /** A file holding {@link key}. */
  keyFile?: string;
  /**
   * PEM certificates of the authorities a node agent's serving certificate must chain to
   * (`--kubelet-certificate-authority`). Without one, as kube-apiserver, the agent's certificate is
   * not checked at all.
   */
  ca?: string;
  /** A file holding {@link ca}. */
  caFile?: string;
  /**
   * The node address types to use, first found wins (`--kubelet-preferred-address-types`);
   * `Hostname, InternalDNS, InternalIP, ExternalDNS, ExternalIP` by default.
   */
  preferredAddressTypes?: readonly string[];
  /** How long connecting to an agent (TCP and TLS) may take, in milliseconds (`--kubelet-timeout`); 5 s by default. */
  timeoutMs?: number;
  /** The agent's port when a Node reports none in `status.daemonEndpoints`; 10250 by default. */
  port?: number;
}

/** kube-apiserver's default `--kubelet-preferred-address-types`. */
export const DEFAULT_PREFERRED_ADDRESS_TYPES: readonly string[] = ['Hostname', 'InternalDNS', 'InternalIP', 'ExternalDNS', 'ExternalIP'];

/** kube-apiserver's default `--kubelet-timeout`. */
export const DEFAULT_KUBELET_TIMEOUT_MS = 5000;

/** The kubelet's port (`ports.KubeletPort`). */
export const DEFAULT_KUBELET_PORT = 10250;
