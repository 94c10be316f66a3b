/**
 * EgressSelectorConfiguration: the file kube-apiserver's `--egress-selector-config-file` names,
 * saying how the server reaches the control plane, the cluster and etcd (directly, or through an
 * HTTP CONNECT or konnectivity proxy). Served as `apiserver.k8s.io/v1beta1` and
 * `apiserver.k8s.io/v1alpha1` with the same fields (k8s.io/apiserver
 * pkg/apis/apiserver/{v1beta1,v1alpha1}/types.go); there is no `apiserver.config.k8s.io/v1` of it.
 */
import { z } from 'zod';
import { lazyConfigVersion, type ConfigKind } from '../decode.js';
import { lazySchema } from '../../util/lazy-schema.js';

/** TLS to the proxy: file paths of its CA bundle and of the client certificate and key. */
export const EgressTLSConfigSchema = lazySchema(() =>
  z.object({
    /** The CA to trust the proxy with; the system roots when empty. */
    caBundle: z.string().optional(),
    /** The client key for mTLS with the proxy (required with an `https://` URL). */
    clientKey: z.string().optional(),
    /** The client certificate for mTLS with the proxy (required with an `https://` URL). */
    clientCert: z.string().optional(),
    /** The name the proxy's certificate must be valid for; the URL's host when empty. */
    tlsServerName: z.string().optional(),
  }),
);

/** The proxy reached over TCP. */
export const EgressTCPTransportSchema = lazySchema(() =>
  z.object({
    /** `http://host:port` or `https://host:port`. */
    url: z.string().optional(),
    tlsConfig: EgressTLSConfigSchema().optional(),
  }),
);

/** The proxy reached over a Unix socket. */
export const EgressUDSTransportSchema = lazySchema(() =>
  z.object({
    /** The socket's path (no `unix://` prefix). */
    udsName: z.string().optional(),
  }),
);

/** How the proxy is reached: exactly one of TCP or a Unix socket. */
export const EgressTransportSchema = lazySchema(() =>
  z.object({
    tcp: EgressTCPTransportSchema().optional(),
    uds: EgressUDSTransportSchema().optional(),
  }),
);

/** One egress selection's connection. */
export const EgressConnectionSchema = lazySchema(() =>
  z.object({
    /** `Direct`, `HTTPConnect` or `GRPC`. */
    proxyProtocol: z.string().optional(),
    /** Required for `HTTPConnect` and `GRPC`, absent for `Direct`. */
    transport: EgressTransportSchema().optional(),
  }),
);

/** One egress selection: `controlplane` (or the deprecated `master`), `cluster` or `etcd`. */
export const EgressSelectionSchema = lazySchema(() =>
  z.object({
    name: z.string().optional(),
    connection: EgressConnectionSchema().optional(),
  }),
);

function egressSelectorConfigurationSchema(apiVersion: string) {
  return z.object({
    apiVersion: z.literal(apiVersion),
    kind: z.literal('EgressSelectorConfiguration'),
    egressSelections: z.array(EgressSelectionSchema()).optional(),
  });
}

/** `apiserver.k8s.io/v1beta1`. */
export const EgressSelectorConfigurationV1beta1Schema = lazySchema(() => egressSelectorConfigurationSchema('apiserver.k8s.io/v1beta1'));
/** `apiserver.k8s.io/v1alpha1`, the same fields. */
export const EgressSelectorConfigurationV1alpha1Schema = lazySchema(() => egressSelectorConfigurationSchema('apiserver.k8s.io/v1alpha1'));

/** TLS to the proxy: file paths of its CA bundle and of the client certificate and key. */
export type EgressTLSConfig = z.infer<ReturnType<typeof EgressTLSConfigSchema>>;
/** The proxy reached over TCP: its URL and TLS settings. */
export type EgressTCPTransport = z.infer<ReturnType<typeof EgressTCPTransportSchema>>;
/** The proxy reached over a Unix socket. */
export type EgressUDSTransport = z.infer<ReturnType<typeof EgressUDSTransportSchema>>;
/** How the proxy is reached: exactly one of TCP or a Unix socket. */
export type EgressTransport = z.infer<ReturnType<typeof EgressTransportSchema>>;
/** One egress selection's connection: the proxy protocol and, unless `Direct`, its transport. */
export type EgressConnection = z.infer<ReturnType<typeof EgressConnectionSchema>>;
/** One egress selection: its name (`controlplane`, `master`, `cluster` or `etcd`) and connection. */
export type EgressSelection = z.infer<ReturnType<typeof EgressSelectionSchema>>;
/** An EgressSelectorConfiguration as written, in either served version. */
export type EgressSelectorConfiguration =
  z.infer<ReturnType<typeof EgressSelectorConfigurationV1beta1Schema>> | z.infer<ReturnType<typeof EgressSelectorConfigurationV1alpha1Schema>>;

/** The kind and its two served versions. */
export const EgressSelectorConfigurationKind: ConfigKind = {
  kind: 'EgressSelectorConfiguration',
  versions: [
    lazyConfigVersion('apiserver.k8s.io/v1beta1', EgressSelectorConfigurationV1beta1Schema),
    lazyConfigVersion('apiserver.k8s.io/v1alpha1', EgressSelectorConfigurationV1alpha1Schema),
  ],
};

/** The protocols a connection may use (`ProtocolType`). */
export const PROXY_PROTOCOLS = ['Direct', 'HTTPConnect', 'GRPC'] as const;

/** The selection names kube-apiserver knows, sorted (`validEgressSelectorNames`). */
export const EGRESS_SELECTION_NAMES = ['cluster', 'controlplane', 'etcd'] as const;

/** The egress selections a caller of memkube asks for: the control plane or the cluster. */
export type EgressSelectionName = 'controlplane' | 'cluster';

/**
 * The configuration as kube-apiserver holds it after decoding: a selection named `master` is
 * `controlplane` (the v1alpha1 and v1beta1 conversions rename it).
 */
export function internalEgressSelectorConfiguration(config: EgressSelectorConfiguration): EgressSelectorConfiguration {
  return {
    ...config,
    ...(config.egressSelections ? { egressSelections: config.egressSelections.map((s) => (s.name === 'master' ? { ...s, name: 'controlplane' } : s)) } : {}),
  };
}
