/**
 * `memkube credential`: an exec credential plugin for kubectl and client-go. It prints one
 * ExecCredential, in the version `KUBERNETES_EXEC_INFO` asks for (v1 when unset), holding a token
 * or a client certificate and key for a user of the cluster:
 *
 * - `--token TOKEN` / `--token-file FILE`: a token as is;
 * - `--client-certificate FILE --client-key FILE`: a certificate and its key as they are;
 * - `--ca-cert FILE --ca-key FILE --user NAME [--group G ...]`: a fresh short-lived client
 *   certificate for that user, signed by the cluster's client CA;
 * - `--kubeconfig ADMIN --service-account NS/NAME [--audience A ...]`: a service account token
 *   the cluster issues (its `serviceaccounts/<name>/token` subresource).
 */
import { X509Certificate, createPrivateKey } from 'node:crypto';
import { readFileSync, statSync } from 'node:fs';
import { decodeExecInfo, EXEC_INFO_ENV, execCredentialResponse, type ExecCredentialStatus } from '../config/exec-credential/index.js';
import { signClientCertificate, SigningCaError } from '../pki/self-signed.js';
import { readKubeconfig } from './kubeconfig.js';
import { parseDuration } from './serve.js';
import { requestServiceAccountToken } from './token-request.js';

/** The usage text. */
export const CREDENTIAL_USAGE =
  'usage: memkube credential --token TOKEN | --token-file FILE\n' +
  '       memkube credential --client-certificate FILE --client-key FILE\n' +
  '       memkube credential --ca-cert FILE --ca-key FILE --user NAME [--group GROUP ...] [--duration 1h]\n' +
  '       memkube credential --kubeconfig FILE --service-account NAMESPACE/NAME [--audience AUDIENCE ...] [--duration 1h]\n' +
  '  an exec credential plugin: prints an ExecCredential (client.authentication.k8s.io/v1, or the version\n' +
  '  KUBERNETES_EXEC_INFO asks for) with a token or a client certificate and key';

/** The largest token, certificate or key file read. */
export const MAX_CREDENTIAL_FILE_BYTES = 1024 * 1024;

/** How long a signed client certificate lasts when `--duration` is not given. */
export const DEFAULT_CERTIFICATE_DURATION_MS = 3_600_000;

/** The parsed command line: one of the four ways to get a credential. */
export type CredentialOptions =
  | { readonly mode: 'token'; readonly token: string }
  | { readonly mode: 'token-file'; readonly tokenFile: string }
  | { readonly mode: 'client-certificate'; readonly certFile: string; readonly keyFile: string }
  | {
      readonly mode: 'sign';
      readonly caCertFile: string;
      readonly caKeyFile: string;
      readonly user: string;
      readonly groups: readonly string[];
      readonly durationMs: number;
    }
  | {
      readonly mode: 'service-account';
      readonly kubeconfig: string;
      readonly namespace: string;
      readonly name: string;
      readonly audiences: readonly string[];
      readonly durationMs?: number;
    };

/** A command line or input the plugin refuses; the message says why. */
export class CredentialError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'CredentialError';
  }
}

const SINGLE = new Set([
  '--token',
  '--token-file',
  '--client-certificate',
  '--client-key',
  '--ca-cert',
  '--ca-key',
  '--user',
  '--kubeconfig',
  '--service-account',
  '--duration',
]);
const REPEATED = new Set(['--group', '--audience']);

/** Parses the arguments after `credential`; throws {@link CredentialError}. */
export function parseCredentialArgs(args: readonly string[]): CredentialOptions {
  const single = new Map<string, string>();
  const repeated = new Map<string, string[]>();
  for (let i = 0; i < args.length; i++) {
    const arg = args[i]!;
    const eq = arg.indexOf('=');
    const flag = arg.startsWith('--') && eq > 0 ? arg.slice(0, eq) : arg;
    if (!SINGLE.has(flag) && !REPEATED.has(flag)) throw new CredentialError(`unknown argument ${JSON.stringify(arg)}\n${CREDENTIAL_USAGE}`);
    let value: string;
    if (eq > 0 && arg.startsWith('--')) value = arg.slice(eq + 1);
    else {
      const next = args[++i];
      if (next === undefined) throw new CredentialError(`${flag} needs a value`);
      value = next;
    }
    if (REPEATED.has(flag)) repeated.set(flag, [...(repeated.get(flag) ?? []), value]);
    else if (single.has(flag)) throw new CredentialError(`${flag} given twice`);
    else single.set(flag, value);
  }
  const has = (f: string) => single.has(f) || repeated.has(f);
  const modes = [
    has('--token') && '--token',
    has('--token-file') && '--token-file',
    (has('--client-certificate') || has('--client-key')) && '--client-certificate',
    (has('--ca-cert') || has('--ca-key') || has('--user')) && '--ca-cert',
    (has('--kubeconfig') || has('--service-account')) && '--service-account',
  ].filter((m): m is string => Boolean(m));
  if (modes.length === 0) throw new CredentialError(`no credential chosen\n${CREDENTIAL_USAGE}`);
  if (modes.length > 1) throw new CredentialError(`choose one credential, not ${modes.join(' and ')}\n${CREDENTIAL_USAGE}`);
  const need = (...flags: string[]) => {
    const missing = flags.filter((f) => !single.has(f));
    if (missing.length) throw new CredentialError(`${modes[0]} needs ${missing.join(' and ')}`);
  };
  const onlyWith = (flag: string, mode: string) => {
    if (has(flag) && modes[0] !== mode)
      throw new CredentialError(`${flag} goes only with ${mode === '--ca-cert' ? '--ca-cert/--ca-key/--user' : '--service-account'}`);
  };
  onlyWith('--group', '--ca-cert');
  onlyWith('--audience', '--service-account');
  if (has('--duration') && modes[0] !== '--ca-cert' && modes[0] !== '--service-account') {
    throw new CredentialError('--duration goes only with --ca-cert or --service-account');
  }
  let duration: number | undefined;
  try {
    duration = single.has('--duration') ? parseDuration('--duration', single.get('--duration')!) : undefined;
  } catch (e) {
    throw new CredentialError(e instanceof Error ? e.message : String(e));
  }
  if (duration !== undefined && duration < 1000) throw new CredentialError(`invalid --duration ${JSON.stringify(single.get('--duration'))}: at least 1s`);
  switch (modes[0]) {
    case '--token':
      return { mode: 'token', token: checkToken(single.get('--token')!, '--token') };
    case '--token-file':
      return { mode: 'token-file', tokenFile: single.get('--token-file')! };
    case '--client-certificate':
      need('--client-certificate', '--client-key');
      return { mode: 'client-certificate', certFile: single.get('--client-certificate')!, keyFile: single.get('--client-key')! };
    case '--ca-cert': {
      need('--ca-cert', '--ca-key', '--user');
      const user = single.get('--user')!;
      if (user === '') throw new CredentialError('--user must not be empty');
      const groups = repeated.get('--group') ?? [];
      if (groups.some((g) => g === '')) throw new CredentialError('--group must not be empty');
      return {
        mode: 'sign',
        caCertFile: single.get('--ca-cert')!,
        caKeyFile: single.get('--ca-key')!,
        user,
        groups,
        durationMs: duration ?? DEFAULT_CERTIFICATE_DURATION_MS,
      };
    }
    default: {
      need('--kubeconfig', '--service-account');
      const sa = single.get('--service-account')!;
      const m = /^([a-z0-9]([-a-z0-9]*[a-z0-9])?)\/([a-z0-9]([-a-z0-9.]*[a-z0-9])?)$/.exec(sa);
      if (!m || m[1]!.length > 63 || m[3]!.length > 253) {
        throw new CredentialError(`invalid --service-account ${JSON.stringify(sa)}: NAMESPACE/NAME, such as default/builder`);
      }
      return {
        mode: 'service-account',
        kubeconfig: single.get('--kubeconfig')!,
        namespace: m[1]!,
        name: m[3]!,
        audiences: repeated.get('--audience') ?? [],
        ...(duration !== undefined ? { durationMs: duration } : {}),
      };
    }
  }
}

/** A bearer token goes into an HTTP header: no whitespace or control characters, and not empty. */
function checkToken(token: string, from: string): string {
  if (token === '') throw new CredentialError(`${from}: the token is empty`);
  // eslint-disable-next-line no-control-regex
  if (/[\s\x00-\x1f\x7f]/.test(token)) throw new CredentialError(`${from}: a token has no whitespace or control characters`);
  return token;
}

/** Reads a file of at most {@link MAX_CREDENTIAL_FILE_BYTES}, naming the flag when it fails. */
function readSmallFile(flag: string, path: string): string {
  try {
    const size = statSync(path).size;
    if (size > MAX_CREDENTIAL_FILE_BYTES) throw new CredentialError(`${flag} ${path}: larger than ${MAX_CREDENTIAL_FILE_BYTES} bytes`);
    return readFileSync(path, 'utf8');
  } catch (e) {
    if (e instanceof CredentialError) throw e;
    const code = (e as { code?: string }).code;
    const why = code === 'ENOENT' ? 'no such file or directory' : code === 'EACCES' ? 'permission denied' : code === 'EISDIR' ? 'is a directory' : String(e);
    throw new CredentialError(`${flag} ${path}: ${why}`);
  }
}

/** metav1.Time as JSON: RFC 3339 in UTC, whole seconds. */
function rfc3339(ms: number): string {
  return new Date(Math.floor(ms / 1000) * 1000).toISOString().replace('.000Z', 'Z');
}

/** A certificate and key that belong together, and when the certificate expires. */
function checkKeyPair(certPem: string, keyPem: string): number {
  let cert: X509Certificate;
  try {
    cert = new X509Certificate(certPem);
  } catch {
    throw new CredentialError('--client-certificate: not a PEM certificate');
  }
  let matches: boolean;
  try {
    matches = cert.checkPrivateKey(createPrivateKey(keyPem));
  } catch {
    throw new CredentialError('--client-key: not a PEM private key');
  }
  if (!matches) throw new CredentialError('--client-key does not match --client-certificate (tls: private key does not match public key)');
  return Date.parse(cert.validTo);
}

/** Everything the plugin reads from outside, so tests can run it in process. */
export interface CredentialEnvironment {
  /** `process.env` by default. */
  readonly env?: Readonly<Record<string, string | undefined>>;
  /** The current time, epoch ms. */
  readonly now?: () => number;
}

/**
 * Runs the plugin: decodes `KUBERNETES_EXEC_INFO` first (a malformed one fails before anything is
 * read or asked), gets the credential, and answers the ExecCredential's JSON text (one line).
 */
export async function credential(options: CredentialOptions, environment: CredentialEnvironment = {}): Promise<string> {
  const env = environment.env ?? process.env;
  const now = environment.now ?? Date.now;
  const info = decodeExecInfo(env[EXEC_INFO_ENV]);
  let status: ExecCredentialStatus;
  switch (options.mode) {
    case 'token':
      status = { token: options.token };
      break;
    case 'token-file':
      // client-go trims a token file's surrounding whitespace.
      status = { token: checkToken(readSmallFile('--token-file', options.tokenFile).trim(), `--token-file ${options.tokenFile}`) };
      break;
    case 'client-certificate': {
      const cert = readSmallFile('--client-certificate', options.certFile);
      const key = readSmallFile('--client-key', options.keyFile);
      const notAfter = checkKeyPair(cert, key);
      status = { clientCertificateData: cert, clientKeyData: key, expirationTimestamp: rfc3339(notAfter) };
      break;
    }
    case 'sign': {
      const ca = { cert: readSmallFile('--ca-cert', options.caCertFile), key: readSmallFile('--ca-key', options.caKeyFile) };
      try {
        const issued = await signClientCertificate({ ca, commonName: options.user, organizations: options.groups, now: now(), validityMs: options.durationMs });
        status = { clientCertificateData: issued.cert, clientKeyData: issued.key, expirationTimestamp: rfc3339(issued.notAfter) };
      } catch (e) {
        if (e instanceof SigningCaError) throw new CredentialError(`--ca-cert/--ca-key: ${e.message}`);
        throw e;
      }
      break;
    }
    case 'service-account': {
      let target;
      try {
        target = readKubeconfig(options.kubeconfig, (file) => readSmallFile('--kubeconfig', file));
      } catch (e) {
        throw e instanceof CredentialError ? e : new CredentialError(`--kubeconfig ${e instanceof Error ? e.message : String(e)}`);
      }
      const issued = await requestServiceAccountToken(target, {
        namespace: options.namespace,
        name: options.name,
        audiences: options.audiences,
        ...(options.durationMs !== undefined ? { expirationSeconds: Math.floor(options.durationMs / 1000) } : {}),
      });
      status = { token: issued.token, expirationTimestamp: issued.expirationTimestamp };
      break;
    }
  }
  return JSON.stringify(execCredentialResponse(info.apiVersion, status));
}
