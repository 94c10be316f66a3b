/**
 * ExecCredential (`client.authentication.k8s.io/v1` and `v1beta1`, k8s.io/client-go
 * pkg/apis/clientauthentication/{v1,v1beta1}/types.go): what a client passes an exec credential
 * plugin in `KUBERNETES_EXEC_INFO` (its spec) and what the plugin prints back (its status).
 */
import { z } from 'zod';
import { lazyConfigVersion, type ConfigKind } from '../decode.js';
import { lazySchema } from '../../util/lazy-schema.js';

/** The `apiVersion` of ExecCredential v1. */
export const EXEC_CREDENTIAL_V1 = 'client.authentication.k8s.io/v1';
/** The `apiVersion` of ExecCredential v1beta1. */
export const EXEC_CREDENTIAL_V1BETA1 = 'client.authentication.k8s.io/v1beta1';
/** The versions a plugin can answer in. */
export type ExecCredentialApiVersion = typeof EXEC_CREDENTIAL_V1 | typeof EXEC_CREDENTIAL_V1BETA1;

/** The cluster a credential is for, sent when the kubeconfig's exec entry sets `provideClusterInfo`. */
export const ExecClusterSchema = lazySchema(() =>
  z.object({
    server: z.string().optional(),
    'tls-server-name': z.string().optional(),
    'insecure-skip-tls-verify': z.boolean().optional(),
    /** Base64 PEM, as a Go `[]byte` is in JSON. */
    'certificate-authority-data': z.string().optional(),
    'proxy-url': z.string().optional(),
    'disable-compression': z.boolean().optional(),
    /** The exec entry's `extensions[client.authentication.k8s.io/exec]`, whatever it holds. */
    config: z.unknown().optional(),
  }),
);

/** The zod schema of an ExecCredential's `spec`: the cluster (with `provideClusterInfo`) and whether it runs at an interactive prompt (`interactive`). */
export const ExecCredentialSpecSchema = lazySchema(() =>
  z.object({
    cluster: ExecClusterSchema().optional(),
    interactive: z.boolean().optional(),
  }),
);

/** The zod schema of an ExecCredential's `status`: a bearer token or a client certificate and key, and when they expire. */
export const ExecCredentialStatusSchema = lazySchema(() =>
  z.object({
    /** RFC 3339; the client asks the plugin again after it. */
    expirationTimestamp: z.string().optional(),
    token: z.string().optional(),
    /** PEM. */
    clientCertificateData: z.string().optional(),
    /** PEM. */
    clientKeyData: z.string().optional(),
  }),
);

function execCredentialSchema(apiVersion: ExecCredentialApiVersion) {
  return z.object({
    apiVersion: z.literal(apiVersion),
    kind: z.literal('ExecCredential'),
    spec: ExecCredentialSpecSchema().optional(),
    status: ExecCredentialStatusSchema().optional(),
  });
}

/** The zod schema of a `client.authentication.k8s.io/v1` ExecCredential. */
export const ExecCredentialV1Schema = lazySchema(() => execCredentialSchema(EXEC_CREDENTIAL_V1));
/** The zod schema of a `client.authentication.k8s.io/v1beta1` ExecCredential, the same fields. */
export const ExecCredentialV1beta1Schema = lazySchema(() => execCredentialSchema(EXEC_CREDENTIAL_V1BETA1));

/** The cluster a credential is for, sent when the kubeconfig's exec entry sets `provideClusterInfo`. */
export type ExecCluster = z.infer<ReturnType<typeof ExecClusterSchema>>;
/** An ExecCredential's `spec`, what the client passes the plugin. */
export type ExecCredentialSpec = z.infer<ReturnType<typeof ExecCredentialSpecSchema>>;
/** An ExecCredential's `status`, what the plugin prints back. */
export type ExecCredentialStatus = z.infer<ReturnType<typeof ExecCredentialStatusSchema>>;
/** An ExecCredential in either version. */
export type ExecCredential = z.infer<ReturnType<typeof ExecCredentialV1Schema>> | z.infer<ReturnType<typeof ExecCredentialV1beta1Schema>>;

/** The kind and its two versions, for decoding. */
export const ExecCredentialKind: ConfigKind = {
  kind: 'ExecCredential',
  versions: [lazyConfigVersion(EXEC_CREDENTIAL_V1, ExecCredentialV1Schema), lazyConfigVersion(EXEC_CREDENTIAL_V1BETA1, ExecCredentialV1beta1Schema)],
};
