/**
 * The kubeconfig file that says where an authorization webhook is and how to reach it
 * (`--authorization-webhook-config-file`, `connectionInfo.kubeConfigFile`), read as client-go's
 * `clientcmd` reads it for k8s.io/apiserver's `webhook.LoadKubeconfig`: the current context's
 * cluster (`server`, `certificate-authority(-data)`, `insecure-skip-tls-verify`, `tls-server-name`)
 * and user (`token`, `token-file`, `client-certificate(-data)`, `client-key(-data)`), file paths
 * relative to the kubeconfig's own directory, and `ConfirmUsable`'s messages for a file that will
 * not do (`invalid configuration: ...`).
 */
import { createPrivateKey, X509Certificate } from 'node:crypto';
import { dirname, isAbsolute, join } from 'node:path';
import { parseYamlDocuments, YamlSyntaxError } from '../../codec/yaml.js';
import { goQuote } from '../../util/go-format.js';
import { isJsonObject } from '../../util/go-value.js';
import type { WebhookEndpoint } from '../../webhook/client.js';

/** A kubeconfig that cannot be used; the message is client-go's. */
export class KubeconfigError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'KubeconfigError';
  }
}

/** Where the webhook is and the credentials to present. */
export interface WebhookKubeconfig {
  readonly endpoint: WebhookEndpoint;
  /** A bearer token (`token`, or the first read of `token-file`). */
  readonly token?: string;
  /** `token-file`, absolute: re-read for each call, as client-go's token source refreshes it. */
  readonly tokenFile?: string;
}

/**
 * Reads a file; throws Node's error (its `code` decides Go's wording).
 * @category Node agent
 */
export type ReadFile = (path: string) => string;

type Json = Record<string, unknown>;

/** Go's text for a failed `os.Open` / `os.ReadFile`. */
export function goOpenError(path: string, e: unknown): string {
  const code = (e as NodeJS.ErrnoException | undefined)?.code;
  const reason =
    code === 'ENOENT'
      ? 'no such file or directory'
      : code === 'EACCES'
        ? 'permission denied'
        : code === 'EISDIR'
          ? 'is a directory'
          : code === 'ENOTDIR'
            ? 'not a directory'
            : e instanceof Error
              ? e.message
              : String(e);
  return code === 'EISDIR' ? `read ${path}: ${reason}` : `open ${path}: ${reason}`;
}

const FIELD_TYPES: Readonly<Record<string, Readonly<Record<string, 'string' | 'bool'>>>> = {
  Cluster: {
    server: 'string',
    'tls-server-name': 'string',
    'certificate-authority': 'string',
    'certificate-authority-data': 'string',
    'insecure-skip-tls-verify': 'bool',
    'proxy-url': 'string',
  },
  AuthInfo: {
    token: 'string',
    tokenFile: 'string',
    'client-certificate': 'string',
    'client-certificate-data': 'string',
    'client-key': 'string',
    'client-key-data': 'string',
    username: 'string',
    password: 'string',
  },
  Context: { cluster: 'string', user: 'string', namespace: 'string' },
};

function jsonKind(v: unknown): string {
  if (Array.isArray(v)) return 'array';
  if (v === null) return 'null';
  if (typeof v === 'object') return 'object';
  return typeof v === 'boolean' ? 'bool' : typeof v;
}

/** A named list (`clusters`, `users`, `contexts`) as a map, type-checked as Go's decoder would. */
function namedList(config: Json, list: string, entry: 'cluster' | 'user' | 'context', type: 'Cluster' | 'AuthInfo' | 'Context'): Map<string, Json> {
  const out = new Map<string, Json>();
  const value = config[list];
  if (value === undefined || value === null) return out;
  const named = `Named${type}`;
  if (!Array.isArray(value)) throw new KubeconfigError(`json: cannot unmarshal ${jsonKind(value)} into Go struct field Config.${list} of type []v1.${named}`);
  for (const item of value) {
    if (item === null) continue;
    if (!isJsonObject(item)) throw new KubeconfigError(`json: cannot unmarshal ${jsonKind(item)} into Go struct field Config.${list} of type v1.${named}`);
    const name = item['name'] ?? '';
    if (typeof name !== 'string')
      throw new KubeconfigError(`json: cannot unmarshal ${jsonKind(name)} into Go struct field ${named}.${list}.name of type string`);
    const body = item[entry] ?? {};
    if (!isJsonObject(body))
      throw new KubeconfigError(`json: cannot unmarshal ${jsonKind(body)} into Go struct field ${named}.${list}.${entry} of type v1.${type}`);
    for (const [field, want] of Object.entries(FIELD_TYPES[type]!)) {
      const v = body[field];
      if (v === undefined || v === null) continue;
      if (want === 'bool' ? typeof v !== 'boolean' : typeof v !== 'string') {
        throw new KubeconfigError(`json: cannot unmarshal ${jsonKind(v)} into Go struct field ${type}.${list}.${entry}.${field} of type ${want}`);
      }
    }
    out.set(name, body);
  }
  return out;
}

/** Decodes the text; an empty file is an empty configuration. */
function decode(text: string): Json {
  let docs;
  try {
    docs = parseYamlDocuments(text);
  } catch (e) {
    throw new KubeconfigError(`error converting YAML to JSON: yaml: ${e instanceof YamlSyntaxError ? e.message : String(e)}`);
  }
  const value = docs[0]?.value ?? {};
  if (value === null) return {};
  if (!isJsonObject(value)) throw new KubeconfigError(`json: cannot unmarshal ${jsonKind(value)} into Go value of type v1.Config`);
  const current = value['current-context'];
  if (current !== undefined && current !== null && typeof current !== 'string') {
    throw new KubeconfigError(`json: cannot unmarshal ${jsonKind(current)} into Go struct field Config.current-context of type string`);
  }
  return value;
}

const str = (o: Json, k: string): string => (typeof o[k] === 'string' ? (o[k] as string) : '');

/** Go's base64 decoding of a `[]byte` field; the error of `illegal base64 data`. */
function base64Field(value: string): string {
  const clean = value.replace(/[\r\n]/g, '');
  if (clean.length % 4 !== 0 || !/^[A-Za-z0-9+/]*={0,2}$/.test(clean)) {
    let i = 0;
    while (i < clean.length && /[A-Za-z0-9+/]/.test(clean[i]!)) i++;
    throw new KubeconfigError(`illegal base64 data at input byte ${Math.min(i, clean.length)}`);
  }
  return Buffer.from(clean, 'base64').toString('utf8');
}

/** The PEM certificates of a CA bundle, or client-go's error when there are none. */
function caCertificates(pem: string): string[] {
  const blocks = pem.match(/-----BEGIN CERTIFICATE-----[\s\S]*?-----END CERTIFICATE-----/g) ?? [];
  const certs = blocks.filter((b) => {
    try {
      new X509Certificate(b);
      return true;
    } catch {
      return false;
    }
  });
  if (certs.length === 0) throw new KubeconfigError('unable to load root certificates: unable to parse bytes as PEM block');
  return certs;
}

/** `tls.X509KeyPair`'s checks, with its messages. */
function keyPair(cert: string, key: string): { cert: string; key: string } {
  if (!/-----BEGIN [A-Z ]*CERTIFICATE-----/.test(cert)) throw new KubeconfigError('tls: failed to find any PEM data in certificate input');
  if (!/-----BEGIN [A-Z ]*PRIVATE KEY-----/.test(key)) throw new KubeconfigError('tls: failed to find any PEM data in key input');
  let x509: X509Certificate;
  try {
    x509 = new X509Certificate(cert);
  } catch (e) {
    throw new KubeconfigError(`x509: malformed certificate: ${(e as Error).message}`);
  }
  let privateKey;
  try {
    privateKey = createPrivateKey(key);
  } catch {
    throw new KubeconfigError('tls: failed to parse private key');
  }
  if (!x509.checkPrivateKey(privateKey)) throw new KubeconfigError('tls: private key does not match public key');
  return { cert, key };
}

/**
 * Loads a webhook's kubeconfig. Throws a {@link KubeconfigError} with client-go's message: `stat
 * <path>: no such file or directory`, `error loading config file "<path>": ...`, `invalid
 * configuration: ...`, or the TLS setup's errors. memkube calls webhooks over HTTPS only and
 * refuses credentials it cannot present (basic auth, exec and auth-provider plugins).
 */
export function loadWebhookKubeconfig(path: string, readFile: ReadFile): WebhookKubeconfig {
  let text: string;
  try {
    text = readFile(path);
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENOENT') throw new KubeconfigError(`stat ${path}: no such file or directory`);
    throw new KubeconfigError(`error loading config file ${goQuote(path)}: ${goOpenError(path, e)}`);
  }
  let config: Json;
  let clusters: Map<string, Json>;
  let users: Map<string, Json>;
  let contexts: Map<string, Json>;
  try {
    config = decode(text);
    clusters = namedList(config, 'clusters', 'cluster', 'Cluster');
    users = namedList(config, 'users', 'user', 'AuthInfo');
    contexts = namedList(config, 'contexts', 'context', 'Context');
  } catch (e) {
    if (e instanceof KubeconfigError) throw new KubeconfigError(`error loading config file ${goQuote(path)}: ${e.message}`);
    throw e;
  }
  const base = dirname(path);
  const resolve = (p: string) => (p === '' || isAbsolute(p) ? p : join(base, p));
  const readRelative = (p: string): { text?: string; error?: string } => {
    try {
      return { text: readFile(p) };
    } catch (e) {
      return { error: goOpenError(p, e) };
    }
  };

  const contextName = str(config, 'current-context');
  const errors: string[] = [];
  const context = contexts.get(contextName);
  if (contextName !== '' && !context) errors.push(`context was not found for specified context: ${contextName}`);
  const userName = context ? str(context, 'user') : '';
  const clusterName = context ? str(context, 'cluster') : '';
  const user = users.get(userName) ?? {};
  const cluster = clusters.get(clusterName) ?? {};

  // validateAuthInfo
  const methods: string[] = [];
  if (str(user, 'token') !== '') methods.push('token');
  if (str(user, 'username') !== '' || str(user, 'password') !== '') methods.push('basicAuth');
  const certFile = resolve(str(user, 'client-certificate'));
  const keyFile = resolve(str(user, 'client-key'));
  let certPem = str(user, 'client-certificate-data');
  let keyPem = str(user, 'client-key-data');
  try {
    if (certPem !== '') certPem = base64Field(certPem);
    if (keyPem !== '') keyPem = base64Field(keyPem);
  } catch (e) {
    throw new KubeconfigError(`error loading config file ${goQuote(path)}: ${(e as Error).message}`);
  }
  if (certFile !== '' || certPem !== '') {
    if (certFile !== '' && certPem !== '') errors.push(`client-cert-data and client-cert are both specified for ${userName}. client-cert-data will override.`);
    if (keyFile !== '' && keyPem !== '') errors.push(`client-key-data and client-key are both specified for ${userName}; client-key-data will override`);
    if (keyFile === '' && keyPem === '')
      errors.push(`client-key-data or client-key must be specified for ${userName} to use the clientCert authentication method.`);
    if (certFile !== '') {
      const r = readRelative(certFile);
      if (r.error) errors.push(`unable to read client-cert ${certFile} for ${userName} due to ${r.error}`);
      else if (certPem === '') certPem = r.text!;
    }
    if (keyFile !== '') {
      const r = readRelative(keyFile);
      if (r.error) errors.push(`unable to read client-key ${keyFile} for ${userName} due to ${r.error}`);
      else if (keyPem === '') keyPem = r.text!;
    }
  }
  if (methods.length > 1) errors.push(`more than one authentication method found for ${userName}; found [${methods.join(' ')}], only one is allowed`);

  // validateClusterInfo
  const server = str(cluster, 'server');
  const caFile = resolve(str(cluster, 'certificate-authority'));
  let caPem = str(cluster, 'certificate-authority-data');
  try {
    if (caPem !== '') caPem = base64Field(caPem);
  } catch (e) {
    throw new KubeconfigError(`error loading config file ${goQuote(path)}: ${(e as Error).message}`);
  }
  const emptyCluster = Object.keys(cluster).every((k) => cluster[k] === undefined || cluster[k] === null || cluster[k] === '' || cluster[k] === false);
  if (emptyCluster) {
    errors.push('cluster has no server defined');
  } else {
    if (server === '') errors.push(clusterName === '' ? 'default cluster has no server defined' : `no server found for cluster ${goQuote(clusterName)}`);
    if (caFile !== '' && caPem !== '')
      errors.push(`certificate-authority-data and certificate-authority are both specified for ${clusterName}. certificate-authority-data will override.`);
    if (caFile !== '') {
      const r = readRelative(caFile);
      if (r.error) errors.push(`unable to read certificate-authority ${caFile} for ${clusterName} due to ${r.error}`);
      else if (caPem === '') caPem = r.text!;
    }
  }
  if (errors.length === 1 && errors[0] === 'cluster has no server defined') {
    throw new KubeconfigError('invalid configuration: no configuration has been provided, try setting KUBERNETES_MASTER environment variable');
  }
  if (errors.length > 0) throw new KubeconfigError(`invalid configuration: ${errors.length === 1 ? errors[0] : `[${errors.join(', ')}]`}`);

  if (methods.includes('basicAuth')) throw new KubeconfigError(`user ${goQuote(userName)}: memkube does not send basic auth credentials to webhooks`);
  if (user['exec'] !== undefined || user['auth-provider'] !== undefined) {
    throw new KubeconfigError(`user ${goQuote(userName)}: memkube does not run exec or auth-provider credential plugins for webhooks`);
  }
  if (!/^https:\/\//i.test(server)) throw new KubeconfigError(`memkube calls authorization webhooks over HTTPS only, not ${goQuote(server)}`);
  const insecure = cluster['insecure-skip-tls-verify'] === true;
  if (insecure && caPem !== '') throw new KubeconfigError('specifying a root certificates file with the insecure flag is not allowed');

  const tlsServerName = str(cluster, 'tls-server-name');
  const endpoint: WebhookEndpoint = {
    url: server,
    ...(caPem !== '' ? { ca: caCertificates(caPem) } : {}),
    ...(insecure ? { insecureSkipTLSVerify: true } : {}),
    ...(tlsServerName !== '' ? { serverName: tlsServerName } : {}),
    ...(certPem !== '' && keyPem !== '' ? { clientCertificate: keyPair(certPem, keyPem) } : {}),
  };
  const tokenFile = resolve(str(user, 'tokenFile'));
  let token = str(user, 'token');
  if (tokenFile !== '') {
    const r = readRelative(tokenFile);
    if (r.error) throw new KubeconfigError(r.error);
    token = r.text!.trim();
  }
  return { endpoint, ...(token !== '' ? { token } : {}), ...(tokenFile !== '' ? { tokenFile } : {}) };
}
