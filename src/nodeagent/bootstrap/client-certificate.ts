/**
 * TLS bootstrap of the node agent's client certificate, as kubelet's `LoadClientCert`
 * (`pkg/kubelet/certificate/bootstrap/bootstrap.go`) does it: with a valid certificate in the
 * kubeconfig nothing happens; otherwise, with the credentials of the bootstrap kubeconfig, the
 * agent sends a CertificateSigningRequest for `system:node:<nodeName>` in `system:nodes` to the
 * `kubernetes.io/kube-apiserver-client-kubelet` signer, waits for the certificate, stores it with
 * its key in the certificate directory and writes the kubeconfig that uses it.
 */
import { createHash, createPrivateKey, createPublicKey, generateKeyPairSync, X509Certificate } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { mkdir, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { stringify } from 'yaml';
import { loadWebhookKubeconfig, type WebhookKubeconfig } from '../../auth/webhook/kubeconfig.js';
import type { Clock } from '../../clock.js';
import { createCertificateRequest, readCertificateRequest } from '../../pki/certificate-request.js';
import { KubeApiError, type KubeApiClient, type KubeObjectJson } from '../kube-api.js';
import { currentPair, updatePair } from './cert-store.js';

/** Where the key waits while the request is pending (reused if the agent restarts meanwhile). */
export const TMP_PRIVATE_KEY_FILE = 'kubelet-client.key.tmp';
/** The signer of kubelet client certificates. */
export const KUBELET_CLIENT_SIGNER = 'kubernetes.io/kube-apiserver-client-kubelet';
/** The usages a kubelet asks for. */
export const KUBELET_CLIENT_USAGES = ['digital signature', 'key encipherment', 'client auth'] as const;
/** How long the agent waits for its certificate, as kubelet does: an hour. */
export const DEFAULT_BOOTSTRAP_TIMEOUT_MS = 3_600_000;
const CSR_PATH = '/apis/certificates.k8s.io/v1/certificatesigningrequests';

/** The bootstrap kubeconfig as the agent reads it (what {@link BootstrapOptions.kube} may be built from). */
export type BootstrapKubeconfig = WebhookKubeconfig;

/** Options of {@link bootstrapClientCertificate}. */
export interface BootstrapOptions {
  /** The kubeconfig the agent runs with (`--kubeconfig`): used if its certificate is valid, written otherwise. */
  kubeconfigPath: string;
  /** The kubeconfig with the bootstrap credentials (`--bootstrap-kubeconfig`). */
  bootstrapKubeconfigPath: string;
  /** Where the certificates go (`--cert-dir`). */
  certDir: string;
  nodeName: string;
  /** The API server client with the bootstrap credentials, or what makes it from the bootstrap kubeconfig. */
  kube: KubeApiClient | ((bootstrap: BootstrapKubeconfig) => KubeApiClient);
  /** Now (certificate expiry, file names); real time by default. */
  clock?: Clock;
  /** How long to wait for the certificate; an hour by default. */
  timeoutMs?: number;
}

/** What {@link bootstrapClientCertificate} did. */
export interface BootstrapResult {
  /** False when the kubeconfig's certificate was still valid and nothing was requested. */
  readonly requested: boolean;
  /** The name of the CertificateSigningRequest, when one was sent. */
  readonly csrName?: string;
  /** The path of `kubelet-client-current.pem`, when a certificate was stored. */
  readonly certificatePath?: string;
}

/** Bootstrap failed; the message is kubelet's. */
export class BootstrapError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'BootstrapError';
  }
}

const readText = (path: string) => readFileSync(path, 'utf8');

/** `isClientConfigStillValid`: the kubeconfig exists, loads, and none of its certificates has expired. */
export async function isKubeconfigStillValid(path: string, now: number): Promise<boolean> {
  try {
    await stat(path);
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENOENT') return false;
    throw new BootstrapError(`error reading existing bootstrap kubeconfig ${path}: ${(e as Error).message}`);
  }
  let config: WebhookKubeconfig;
  try {
    config = loadWebhookKubeconfig(path, readText);
  } catch {
    return false;
  }
  const pem = config.endpoint.clientCertificate?.cert;
  if (!pem) return false;
  const blocks = pem.match(/-----BEGIN CERTIFICATE-----[\s\S]*?-----END CERTIFICATE-----/g) ?? [];
  if (blocks.length === 0) return false;
  try {
    return blocks.every((b) => !(now > Date.parse(new X509Certificate(b).validTo)));
  } catch {
    return false;
  }
}

/** `keyutil.LoadOrGenerateKeyFile`: the key in `path` if it parses, else a new ECDSA P-256 key written there (0600). */
async function loadOrGenerateKey(path: string): Promise<string> {
  try {
    const text = await readFile(path, 'utf8');
    createPrivateKey(text);
    return text;
  } catch {
    // missing or unreadable: make one
  }
  const { privateKey } = generateKeyPairSync('ec', {
    namedCurve: 'prime256v1',
    privateKeyEncoding: { type: 'sec1', format: 'pem' },
    publicKeyEncoding: { type: 'spki', format: 'pem' },
  });
  await mkdir(dirname(path), { recursive: true });
  await writeFile(path, privateKey, { mode: 0o600 });
  return privateKey;
}

/**
 * `digestedName`: `node-csr-` and the SHA-512/256 of the public key, subject and usages, so a
 * restarted agent finds the request it sent before instead of sending another.
 */
export function digestedCsrName(keyPem: string, commonName: string, organizations: readonly string[], usages: readonly string[]): string {
  const hash = createHash('sha512-256');
  const write = (data: Buffer | string) => {
    hash.update(Buffer.from(data).toString('base64url'));
    hash.update('|');
  };
  write(createPublicKey(keyPem).export({ type: 'spki', format: 'der' }));
  write(commonName);
  for (const o of organizations) write(o);
  for (const u of usages) write(u);
  return `node-csr-${hash.digest('base64url')}`;
}

interface Csr extends KubeObjectJson {
  spec?: { request?: string; signerName?: string };
  status?: { certificate?: string; conditions?: { type: string; reason?: string; message?: string }[] };
}

/** `ensureCompatible`: an existing request of this name is ours (same subject, signer and key) and not expired. */
function compatibilityError(existing: Csr, ours: { request: string; signerName: string }, keyPem: string, now: number): string | undefined {
  const theirs = readCertificateRequest(Buffer.from(existing.spec?.request ?? '', 'base64').toString('latin1'));
  if (typeof theirs === 'string') return `unable to parse new csr: ${theirs}`;
  const mine = readCertificateRequest(ours.request);
  if (typeof mine === 'string') return `unable to parse original csr: ${mine}`;
  if (theirs.commonName !== mine.commonName || theirs.organizations.join('\n') !== mine.organizations.join('\n')) return 'csr subjects differ';
  if (existing.spec?.signerName && existing.spec.signerName !== ours.signerName) {
    return `csr signerNames differ: new ${JSON.stringify(existing.spec.signerName)}, orig: ${JSON.stringify(ours.signerName)}`;
  }
  const theirKey = Buffer.from(theirs.request.subjectPublicKeyInfo.toSchema().toBER(false));
  if (!theirKey.equals(createPublicKey(keyPem).export({ type: 'spki', format: 'der' }))) return 'error validating signature new CSR against old key';
  if (existing.status?.certificate) {
    const cert = new X509Certificate(Buffer.from(existing.status.certificate, 'base64'));
    if (now > Date.parse(cert.validTo)) return `one of the certificates for the CSR has expired: ${cert.validTo}`;
  }
  return undefined;
}

/** `csr.RequestCertificate`: creates the request, or reuses the one of the same name if it is ours. */
async function requestCertificate(kube: KubeApiClient, name: string, request: string, keyPem: string, now: number): Promise<Csr> {
  const body = {
    apiVersion: 'certificates.k8s.io/v1',
    kind: 'CertificateSigningRequest',
    metadata: { name },
    spec: { request: Buffer.from(request).toString('base64'), signerName: KUBELET_CLIENT_SIGNER, usages: [...KUBELET_CLIENT_USAGES] },
  };
  try {
    return await kube.request<Csr>('POST', CSR_PATH, { body });
  } catch (e) {
    if (!(e instanceof KubeApiError && e.reason === 'AlreadyExists')) {
      throw new BootstrapError(`cannot create certificate signing request: ${(e as Error).message}`);
    }
  }
  let existing: Csr;
  try {
    existing = await kube.request<Csr>('GET', `${CSR_PATH}/${name}`);
  } catch (e) {
    throw new BootstrapError(`cannot retrieve certificate signing request: ${(e as Error).message}`);
  }
  const incompatible = compatibilityError(existing, { request, signerName: KUBELET_CLIENT_SIGNER }, keyPem, now);
  if (incompatible) throw new BootstrapError(`retrieved csr is not compatible: ${incompatible}`);
  return existing;
}

/**
 * What one state of the request says (`WaitForCertificate`'s condition): the certificate, an
 * error for a denied or failed request, or undefined to keep waiting.
 */
function verdict(csr: Csr, uid: string | undefined): { certificate: string } | { error: string } | undefined {
  if (uid && csr.metadata?.uid !== uid) return { error: `csr ${JSON.stringify(csr.metadata?.name)} changed UIDs` };
  let approved = false;
  for (const c of csr.status?.conditions ?? []) {
    if (c.type === 'Denied') return { error: `certificate signing request is denied, reason: ${c.reason ?? ''}, message: ${c.message ?? ''}` };
    if (c.type === 'Failed') return { error: `certificate signing request failed, reason: ${c.reason ?? ''}, message: ${c.message ?? ''}` };
    if (c.type === 'Approved') approved = true;
  }
  if (approved && csr.status?.certificate) return { certificate: Buffer.from(csr.status.certificate, 'base64').toString('utf8') };
  return undefined;
}

/**
 * The events of a watch until `signal` aborts, even when the transport does not end the stream
 * on abort (the in-process handler keeps it open until the server closes it).
 */
async function* untilAborted<T>(events: AsyncIterable<T>, signal: AbortSignal): AsyncGenerator<T> {
  const it = events[Symbol.asyncIterator]();
  const aborted = new Promise<IteratorResult<T>>((resolve) => {
    if (signal.aborted) resolve({ done: true, value: undefined });
    else signal.addEventListener('abort', () => resolve({ done: true, value: undefined }), { once: true });
  });
  try {
    for (;;) {
      const next = await Promise.race([it.next(), aborted]);
      if (next.done) return;
      yield next.value;
    }
  } finally {
    // Not awaited: a stream stuck in a read ends when its transport lets it.
    void it.return?.()?.catch(() => undefined);
  }
}

/** `csr.WaitForCertificate`: lists the request, then watches it until it is issued, denied, failed, deleted or the time is up. */
async function waitForCertificate(kube: KubeApiClient, csr: Csr, timeoutMs: number): Promise<string> {
  const name = csr.metadata?.name ?? '';
  const uid = csr.metadata?.uid;
  const abort = new AbortController();
  const timer = setTimeout(() => abort.abort(), timeoutMs);
  timer.unref?.();
  const fieldSelector = `metadata.name=${name}`;
  const timedOut = () => new BootstrapError('timed out waiting for the condition');
  try {
    for (;;) {
      let list: { metadata?: { resourceVersion?: string }; items?: Csr[] };
      try {
        list = await kube.request('GET', CSR_PATH, { query: { fieldSelector }, signal: abort.signal });
      } catch (e) {
        if (abort.signal.aborted) throw timedOut();
        throw new BootstrapError(`cannot watch on the certificate signing request: ${(e as Error).message}`);
      }
      for (const item of list.items ?? []) {
        const v = verdict(item, uid);
        if (v && 'error' in v) throw new BootstrapError(v.error);
        if (v) return v.certificate;
      }
      try {
        for await (const event of untilAborted(
          kube.watch(CSR_PATH, { query: { fieldSelector, resourceVersion: list.metadata?.resourceVersion ?? '' }, signal: abort.signal }),
          abort.signal,
        )) {
          if (event.type === 'DELETED') throw new BootstrapError(`csr ${JSON.stringify(name)} was deleted`);
          if (event.type !== 'ADDED' && event.type !== 'MODIFIED') continue;
          const v = verdict(event.object as Csr, uid);
          if (v && 'error' in v) throw new BootstrapError(v.error);
          if (v) return v.certificate;
        }
      } catch (e) {
        if (e instanceof BootstrapError) throw e;
        if (abort.signal.aborted) throw timedOut();
        throw new BootstrapError(`cannot watch on the certificate signing request: ${(e as Error).message}`);
      }
      if (abort.signal.aborted) throw timedOut();
      // The server ended the watch: list again and go on.
    }
  } finally {
    clearTimeout(timer);
    abort.abort();
  }
}

/** `writeKubeconfigFromBootstrapping`: the server and CA of the bootstrap kubeconfig, the stored pair as credentials. */
async function writeKubeconfig(path: string, bootstrap: BootstrapKubeconfig, pemPath: string): Promise<void> {
  const endpoint = bootstrap.endpoint;
  const cluster: Record<string, unknown> = { server: endpoint.url };
  if (endpoint.insecureSkipTLSVerify) cluster['insecure-skip-tls-verify'] = true;
  if (endpoint.ca?.length) cluster['certificate-authority-data'] = Buffer.from(endpoint.ca.join('')).toString('base64');
  const text = stringify({
    apiVersion: 'v1',
    kind: 'Config',
    clusters: [{ name: 'default-cluster', cluster }],
    contexts: [{ name: 'default-context', context: { cluster: 'default-cluster', namespace: 'default', user: 'default-auth' } }],
    'current-context': 'default-context',
    preferences: {},
    users: [{ name: 'default-auth', user: { 'client-certificate': pemPath, 'client-key': pemPath } }],
  });
  await mkdir(dirname(path), { recursive: true });
  await writeFile(path, text, { mode: 0o600 });
}

/** Makes sure the agent has a client certificate: kubelet's `LoadClientCert`. */
export async function bootstrapClientCertificate(options: BootstrapOptions): Promise<BootstrapResult> {
  const now = () => (options.clock ?? Date).now();
  if (await isKubeconfigStillValid(options.kubeconfigPath, now())) return { requested: false };
  let bootstrap: BootstrapKubeconfig;
  try {
    bootstrap = loadWebhookKubeconfig(options.bootstrapKubeconfigPath, readText);
  } catch (e) {
    throw new BootstrapError(`unable to load bootstrap kubeconfig: ${(e as Error).message}`);
  }
  const kube = typeof options.kube === 'function' ? options.kube(bootstrap) : options.kube;
  // The key of the current pair is reused (even if its certificate expired); else the pending one, else a new one.
  const keyPath = join(options.certDir, TMP_PRIVATE_KEY_FILE);
  const keyPem = (await currentPair(options.certDir))?.key ?? (await loadOrGenerateKey(keyPath));
  const subject = { commonName: `system:node:${options.nodeName}`, organizations: ['system:nodes'] };
  let request: string;
  try {
    request = await createCertificateRequest(keyPem, subject);
  } catch (e) {
    throw new BootstrapError(`unable to generate certificate request: ${(e as Error).message}`);
  }
  const name = digestedCsrName(keyPem, subject.commonName, subject.organizations, KUBELET_CLIENT_USAGES);
  const csr = await requestCertificate(kube, name, request, keyPem, now());
  const certificate = await waitForCertificate(kube, csr, options.timeoutMs ?? DEFAULT_BOOTSTRAP_TIMEOUT_MS);
  const { current } = await updatePair(options.certDir, certificate, keyPem, now());
  await rm(keyPath, { force: true });
  await writeKubeconfig(options.kubeconfigPath, bootstrap, current);
  return { requested: true, csrName: name, certificatePath: current };
}
