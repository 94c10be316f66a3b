/**
 * `memkube serve`: a fake cluster over HTTP (or HTTPS with `--tls`). Prints one line with the URL once it accepts
 * requests, writes a kubeconfig, loads manifests, and stops cleanly on SIGTERM/SIGINT. Its flags are
 * kube-apiserver's where it has one (`--feature-gates`, `--enable-admission-plugins`, ...).
 */
import { readFile, writeFile } from 'node:fs/promises';
import { admissionChain, type AdmissionConfig } from '../admission/chain.js';
import { createCluster } from '../cluster.js';
import { readEncryptionConfigFile } from '../config/encryption/index.js';
import { createFetchHandler } from '../http/handler.js';
import { listen } from '../http/listen.js';

/** kube-apiserver's `--min-request-timeout` default: watches without a timeout end after 30 to 60 minutes. */
export const DEFAULT_MIN_REQUEST_TIMEOUT_SECONDS = 1800;

/**
 * How long a namespace marked for deletion keeps its content under `memkube serve` before the
 * namespace controller empties it: long enough for a client to delete the objects of a manifest
 * after its Namespace, as against a real cluster.
 */
export const DEFAULT_SERVE_NAMESPACE_DELETION_DELAY_MS = 1000;

/** Options of `memkube serve`. */
export interface ServeOptions {
  port: number;
  host: string;
  kubeconfig?: string;
  load: string[];
  /** Serve HTTPS with a self-signed certificate; the kubeconfig carries its CA. */
  tls?: boolean;
  /** API group domain (`createCluster`'s `apiDomain`). */
  apiDomain?: string;
  /** Reserved domain of qualified names (`createCluster`'s `reservedDomain`). */
  reservedDomain?: string;
  /** How long the history of changes is kept (watches and reads at a past resourceVersion), in ms. */
  historyRetentionMs?: number;
  /** How long a continue token stays valid, in ms. */
  continueTokenTtlMs?: number;
  /** How often watches that allow bookmarks get one, in ms. */
  bookmarkIntervalMs?: number;
  /** Watches without `timeoutSeconds` end after a random time between this and twice this, in seconds (kube-apiserver: 1800). */
  minRequestTimeoutSeconds?: number;
  /** Feature gates switched on or off (`createCluster`'s `featureGates`); unnamed gates stay on. */
  featureGates?: Record<string, boolean>;
  /** `createCluster`'s `namespaceDeletionDelayMs`; {@link DEFAULT_SERVE_NAMESPACE_DELETION_DELAY_MS} by default. */
  namespaceDeletionDelayMs?: number;
  /** Admission plugins turned on or off (`createCluster`'s `admission`). */
  admission?: AdmissionConfig;
  /** kube-apiserver's `--encryption-provider-config`: an EncryptionConfiguration file (encryption at rest). */
  encryptionProviderConfig?: string;
}

/** The usage text. */
export const SERVE_USAGE =
  'usage: memkube serve [--port 6443] [--host 127.0.0.1] [--kubeconfig FILE] [--load FILE ...] [--tls]\n' +
  '                     [--api-domain k8s.io] [--reserved-domain kubernetes.io] [--feature-gates Name=false,...]\n' +
  '                     [--history-retention 5m] [--continue-ttl 5m] [--bookmark-interval 1m] [--min-request-timeout 30m]\n' +
  '                     [--namespace-deletion-delay 1s]\n' +
  '                     [--enable-admission-plugins Name,...] [--disable-admission-plugins Name,...]\n' +
  '                     [--encryption-provider-config FILE]\n' +
  '  durations are Go durations (300ms, 10s, 1m30s); --min-request-timeout 0 lets watches without timeoutSeconds run forever';

/**
 * kube-apiserver's `--feature-gates` value: `Name=true,Other=false` (Go's ParseBool spellings).
 * Throws for anything else.
 */
export function parseFeatureGates(text: string): Record<string, boolean> {
  const gates: Record<string, boolean> = {};
  for (const part of text.split(',')) {
    const item = part.trim();
    if (!item) continue;
    const m = /^([A-Za-z][A-Za-z0-9]*)=(1|t|T|TRUE|true|True|0|f|F|FALSE|false|False)$/.exec(item);
    if (!m) throw new Error(`invalid --feature-gates ${JSON.stringify(text)}: expected Name=true|false, comma-separated`);
    gates[m[1]!] = /^(1|t|T|TRUE|true|True)$/.test(m[2]!);
  }
  return gates;
}

const DURATION_UNITS: Record<string, number> = { ns: 1e-6, us: 1e-3, µs: 1e-3, ms: 1, s: 1000, m: 60_000, h: 3_600_000 };

/** Go's `time.ParseDuration` (non-negative), in milliseconds; throws for anything else. */
export function parseDuration(flag: string, text: string): number {
  if (text === '0') return 0;
  const re = /(\d+(?:\.\d*)?|\.\d+)(ns|us|µs|ms|s|m|h)/y;
  let total = 0;
  let at = 0;
  while (at < text.length) {
    re.lastIndex = at;
    const m = re.exec(text);
    if (!m) throw new Error(`invalid ${flag} ${JSON.stringify(text)}: a duration such as 300ms, 10s or 1m30s`);
    total += Number(m[1]) * DURATION_UNITS[m[2]!]!;
    at = re.lastIndex;
  }
  if (at === 0) throw new Error(`invalid ${flag} ${JSON.stringify(text)}: a duration such as 300ms, 10s or 1m30s`);
  return total;
}

/** A DNS subdomain (RFC 1123), lower case; throws otherwise. */
function domain(flag: string, text: string): string {
  if (text.length > 253 || !/^[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$/.test(text)) {
    throw new Error(`invalid ${flag} ${JSON.stringify(text)}: a lower-case DNS domain such as example.com`);
  }
  return text;
}

/** A kube-apiserver string-slice flag value: comma-separated names, blanks ignored. */
function nameList(text: string): string[] {
  return text
    .split(',')
    .map((name) => name.trim())
    .filter(Boolean);
}

/** Parses the arguments after `serve`; throws with a message for bad ones. */
export function parseServeArgs(args: readonly string[]): ServeOptions {
  const o: ServeOptions = { port: 6443, host: '127.0.0.1', load: [] };
  for (let i = 0; i < args.length; i++) {
    const arg = args[i]!;
    const eq = arg.indexOf('=');
    const flag = arg.startsWith('--') && eq > 0 ? arg.slice(0, eq) : arg;
    const value = (): string => {
      if (arg.startsWith('--') && eq > 0) return arg.slice(eq + 1);
      const v = args[++i];
      if (v === undefined) throw new Error(`${flag} needs a value`);
      return v;
    };
    switch (flag) {
      case '--port': {
        const v = value();
        const port = Number(v);
        if (!/^\d+$/.test(v) || port > 65535) throw new Error(`invalid --port ${JSON.stringify(v)}`);
        o.port = port;
        break;
      }
      case '--host':
        o.host = value();
        break;
      case '--kubeconfig':
        o.kubeconfig = value();
        break;
      case '--encryption-provider-config':
        o.encryptionProviderConfig = value();
        break;
      case '--tls':
        if (arg !== '--tls') throw new Error(`--tls takes no value: ${JSON.stringify(arg)}`);
        o.tls = true;
        break;
      case '--api-domain':
        o.apiDomain = domain(flag, value());
        break;
      case '--reserved-domain':
        o.reservedDomain = domain(flag, value());
        break;
      case '--load':
        o.load.push(value());
        // `--load a.yaml b.yaml`: following non-flag arguments are files too.
        while (args[i + 1] !== undefined && !args[i + 1]!.startsWith('--')) o.load.push(args[++i]!);
        break;
      case '--history-retention':
        o.historyRetentionMs = parseDuration(flag, value());
        break;
      case '--continue-ttl':
        o.continueTokenTtlMs = parseDuration(flag, value());
        break;
      case '--bookmark-interval': {
        const ms = parseDuration(flag, value());
        if (ms <= 0) throw new Error(`invalid ${flag}: must be positive`);
        o.bookmarkIntervalMs = ms;
        break;
      }
      case '--feature-gates':
        o.featureGates = { ...o.featureGates, ...parseFeatureGates(value()) };
        break;
      case '--namespace-deletion-delay':
        o.namespaceDeletionDelayMs = parseDuration(flag, value());
        break;
      case '--min-request-timeout':
        o.minRequestTimeoutSeconds = parseDuration(flag, value()) / 1000;
        break;
      case '--enable-admission-plugins':
        o.admission = { ...o.admission, enable: [...(o.admission?.enable ?? []), ...nameList(value())] };
        break;
      case '--disable-admission-plugins':
        o.admission = { ...o.admission, disable: [...(o.admission?.disable ?? []), ...nameList(value())] };
        break;
      default:
        throw new Error(`unknown argument ${JSON.stringify(arg)}\n${SERVE_USAGE}`);
    }
  }
  // Unknown plugin names fail here, with kube-apiserver's words, before anything starts.
  if (o.admission) admissionChain(o.admission);
  return o;
}

/** Runs the server until SIGTERM or SIGINT. */
export async function serve(options: ServeOptions, out: (line: string) => void = (l) => process.stdout.write(`${l}\n`)): Promise<void> {
  // Checked before anything starts, with messages naming the file as kube-apiserver's do.
  const encryption = options.encryptionProviderConfig === undefined ? undefined : await readEncryptionConfigFile(options.encryptionProviderConfig);
  const cluster = await createCluster({
    encryption,
    apiDomain: options.apiDomain,
    reservedDomain: options.reservedDomain,
    historyRetentionMs: options.historyRetentionMs,
    continueTokenTtlMs: options.continueTokenTtlMs,
    bookmarkIntervalMs: options.bookmarkIntervalMs,
    featureGates: options.featureGates,
    namespaceDeletionDelayMs: options.namespaceDeletionDelayMs ?? DEFAULT_SERVE_NAMESPACE_DELETION_DELAY_MS,
    admission: options.admission,
  });
  for (const file of options.load) {
    try {
      await cluster.load(await readFile(file, 'utf8'), { onWarning: (ws) => ws.forEach((w) => process.stderr.write(`Warning: ${file}: ${w}\n`)) });
    } catch (e) {
      await cluster.close();
      throw new Error(`--load ${file}: ${e instanceof Error ? e.message : String(e)}`);
    }
  }
  await cluster.settle();
  const handler = createFetchHandler(cluster, { minRequestTimeoutSeconds: options.minRequestTimeoutSeconds ?? DEFAULT_MIN_REQUEST_TIMEOUT_SECONDS });
  const server = await listen(handler, { port: options.port, host: options.host, tls: options.tls, now: cluster.clock.now() });
  if (options.kubeconfig) await writeFile(options.kubeconfig, server.kubeconfig(), { mode: 0o600 });
  out(`memkube serving on ${server.url}`);
  await new Promise<void>((resolve) => {
    const stop = () => {
      process.off('SIGTERM', stop);
      process.off('SIGINT', stop);
      resolve();
    };
    process.on('SIGTERM', stop);
    process.on('SIGINT', stop);
  });
  await server.close();
  await cluster.close();
}
