/** The API server's client of node agents (kubelets). */
export { createKubeletClient } from './client.js';
export { DEFAULT_KUBELET_PORT, DEFAULT_KUBELET_TIMEOUT_MS, DEFAULT_PREFERRED_ADDRESS_TYPES, type KubeletClientOptions } from './options.js';
