/**
 * The little of a kubeconfig `memkube credential --kubeconfig` needs: the current context's server,
 * whom to trust, and the user's credentials (token, token file, or client certificate), files
 * resolved against the kubeconfig's directory as client-go resolves them.
 */
import { readFileSync } from 'node:fs';
import { dirname, isAbsolute, join } from 'node:path';
import { parseYamlDocuments } from '../codec/yaml.js';

/** Where to send requests and with which credentials. */
export interface KubeconfigTarget {
  readonly server: string;
  /** PEM of the authorities to trust; the system's when absent. */
  readonly ca?: string;
  readonly insecureSkipTlsVerify: boolean;
  readonly tlsServerName?: string;
  readonly token?: string;
  readonly clientCertificate?: string;
  readonly clientKey?: string;
}

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => v !== null && typeof v === 'object' && !Array.isArray(v);
const str = (o: Obj, k: string): string | undefined => (typeof o[k] === 'string' && o[k] !== '' ? (o[k] as string) : undefined);

function named(list: unknown, name: string, what: string, path: string): Obj {
  const entry = Array.isArray(list) ? list.find((e) => isObj(e) && e.name === name) : undefined;
  if (!isObj(entry)) throw new Error(`${path}: ${what} ${JSON.stringify(name)} not found`);
  const inner = entry[what];
  return isObj(inner) ? inner : {};
}

/** Reads the current context of the kubeconfig at `path`; throws with a message naming the file for anything missing. */
export function readKubeconfig(path: string, read: (file: string) => string = (f) => readFileSync(f, 'utf8')): KubeconfigTarget {
  const text = read(path);
  const doc = parseYamlDocuments(text)[0]?.value;
  if (!isObj(doc)) throw new Error(`${path}: not a kubeconfig`);
  const contextName = str(doc, 'current-context');
  if (!contextName) throw new Error(`${path}: no current-context`);
  const context = named(doc.contexts, contextName, 'context', path);
  const cluster = named(doc.clusters, str(context, 'cluster') ?? '', 'cluster', path);
  const user = str(context, 'user') === undefined ? {} : named(doc.users, str(context, 'user')!, 'user', path);
  const server = str(cluster, 'server');
  if (!server) throw new Error(`${path}: cluster ${JSON.stringify(context.cluster)} has no server`);
  const base = dirname(path);
  const file = (name: string) => read(isAbsolute(name) ? name : join(base, name));
  const data = (o: Obj, dataKey: string, fileKey: string): string | undefined => {
    const inline = str(o, dataKey);
    if (inline) return Buffer.from(inline, 'base64').toString('utf8');
    const f = str(o, fileKey);
    return f ? file(f) : undefined;
  };
  const tokenFile = str(user, 'tokenFile');
  const token = str(user, 'token') ?? (tokenFile ? file(tokenFile).trim() : undefined);
  const ca = data(cluster, 'certificate-authority-data', 'certificate-authority');
  const clientCertificate = data(user, 'client-certificate-data', 'client-certificate');
  const clientKey = data(user, 'client-key-data', 'client-key');
  const tlsServerName = str(cluster, 'tls-server-name');
  return {
    server,
    insecureSkipTlsVerify: cluster['insecure-skip-tls-verify'] === true,
    ...(ca ? { ca } : {}),
    ...(tlsServerName ? { tlsServerName } : {}),
    ...(token ? { token } : {}),
    ...(clientCertificate ? { clientCertificate } : {}),
    ...(clientKey ? { clientKey } : {}),
  };
}
