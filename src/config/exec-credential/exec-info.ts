/**
 * `KUBERNETES_EXEC_INFO`: the ExecCredential a client such as kubectl passes its exec credential
 * plugin, decoded strictly (unknown and duplicated fields refused) and checked for what client-go
 * sends: `spec.interactive` always in v1 (the field has no `omitempty` there), `spec.cluster` only
 * when the kubeconfig asks for cluster information (then with its `server`), and never a `status`.
 */
import { ConfigDecodeError, decodeConfig } from '../decode.js';
import { EXEC_CREDENTIAL_V1, ExecCredentialKind, type ExecCluster, type ExecCredential, type ExecCredentialApiVersion } from './types.js';

/** The name of the variable. */
export const EXEC_INFO_ENV = 'KUBERNETES_EXEC_INFO';

/** The largest `KUBERNETES_EXEC_INFO` read (bytes): a cluster's CA bundle fits many times over. */
export const MAX_EXEC_INFO_BYTES = 1024 * 1024;

/** What a plugin learns from `KUBERNETES_EXEC_INFO`. */
export interface ExecInfo {
  /** The version the client expects the answer in. */
  readonly apiVersion: ExecCredentialApiVersion;
  /** Whether the plugin may talk to the user on standard input. */
  readonly interactive: boolean;
  /** The cluster, when the kubeconfig's exec entry sets `provideClusterInfo`. */
  readonly cluster?: ExecCluster;
}

/** A `KUBERNETES_EXEC_INFO` that is not an ExecCredential a client would send. */
export class ExecInfoError extends Error {
  constructor(message: string) {
    super(`${EXEC_INFO_ENV}: ${message}`);
    this.name = 'ExecInfoError';
  }
}

/**
 * Decodes `KUBERNETES_EXEC_INFO`. Unset or empty (a client older than v1beta1, or a person running
 * the plugin) means v1 without cluster information. Throws {@link ExecInfoError} otherwise.
 */
export function decodeExecInfo(text: string | undefined): ExecInfo {
  if (text === undefined || text === '') return { apiVersion: EXEC_CREDENTIAL_V1, interactive: false };
  if (Buffer.byteLength(text) > MAX_EXEC_INFO_BYTES) throw new ExecInfoError(`larger than ${MAX_EXEC_INFO_BYTES} bytes`);
  let decoded: { apiVersion: string; value: ExecCredential };
  try {
    decoded = decodeConfig<ExecCredential>(text, ExecCredentialKind);
  } catch (e) {
    if (e instanceof ConfigDecodeError) throw new ExecInfoError(`decode: ${e.message}`);
    throw e;
  }
  const { spec, status } = decoded.value;
  const apiVersion = decoded.apiVersion as ExecCredentialApiVersion;
  if (status !== undefined) throw new ExecInfoError('status: Forbidden: a client sends only the spec');
  if (apiVersion === EXEC_CREDENTIAL_V1 && spec?.interactive === undefined) throw new ExecInfoError('spec.interactive: Required value');
  const cluster = spec?.cluster;
  if (cluster) {
    if (!cluster.server) throw new ExecInfoError('spec.cluster.server: Required value');
    const ca = cluster['certificate-authority-data'];
    if (ca !== undefined && !isStdBase64(ca)) throw new ExecInfoError('spec.cluster.certificate-authority-data: illegal base64 data');
  }
  return { apiVersion, interactive: spec?.interactive ?? false, ...(cluster ? { cluster } : {}) };
}

/** Go's `encoding/json` reads a `[]byte` as standard, padded base64. */
function isStdBase64(text: string): boolean {
  return text.length % 4 === 0 && /^[A-Za-z0-9+/]*={0,2}$/.test(text);
}

/**
 * The ExecCredential a plugin prints: `status` in `apiVersion`, with the `spec` a Go plugin
 * marshals (its `interactive` field has no `omitempty`).
 */
export function execCredentialResponse(apiVersion: ExecCredentialApiVersion, status: NonNullable<ExecCredential['status']>): ExecCredential {
  return { apiVersion, kind: 'ExecCredential', spec: { interactive: false }, status } as ExecCredential;
}
