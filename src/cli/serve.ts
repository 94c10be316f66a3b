/**
 * `memkube serve`: a fake cluster over HTTP (or HTTPS with `--tls`). Prints one line with the URL once it accepts
 * requests, writes a kubeconfig, loads manifests, and stops cleanly on SIGTERM/SIGINT. Its flags are
 * kube-apiserver's where it has one (`--feature-gates`, `--enable-admission-plugins`, ...).
 */
import { writeFile } from 'node:fs/promises';
import { goReadFile } from '../config/go-read-file.js';
import { checkSaveFile, readLoadFiles, writeSnapshotFile } from './snapshot-file.js';
import { admissionChain, type AdmissionConfig } from '../admission/chain.js';
import { resolveAuthorizationConfig, validateAuthorizationFlags, type AuthorizationFlags } from '../config/authorization/flags.js';
import { parseTokenFile } from '../auth/authn/token-file.js';
import { loadAuthenticationConfiguration } from '../config/authentication/load.js';
import { createCluster, type Cluster } from '../cluster.js';
import type { CertificateSigningOptions } from '../controllers/certificates/signing-authorities.js';
import type { WellKnownSigner } from '../controllers/certificates/signer-rules.js';
import { loadEgressSelectorConfiguration, type EgressSelector } from '../config/egress/index.js';
import { loadTracingConfiguration, samplingFraction, type TracingConfiguration } from '../config/tracing/index.js';
import { BUILTIN_PLUGINS } from '../admission/builtin-plugins.js';
import {
  applyLoggingFlag,
  BOOLEAN_LOGGING_FLAGS,
  LOGGING_FLAGS,
  validateLoggingConfiguration,
  withLoggingDefaults,
  type LoggingConfiguration,
  type LoggingFlag,
} from '../config/logging/index.js';
import { aggregateMessage } from '../machinery/field-errors.js';
import { Logger, type LoggerEnvironment } from '../log/index.js';
import { readEncryptionConfigFile } from '../config/encryption/index.js';
import { createFetchHandler } from '../http/handler.js';
import { listen, servingCertificateOptions } from '../http/listen.js';
import { generateServingCertificate, type CertificateAndKey } from '../pki/self-signed.js';
import { apiserverIdentity, startRequestTracing, type RequestTracer } from '../tracing/index.js';
import type { KubeletClientOptions } from '../kubelet-client/index.js';
import {
  AUDIT_FLAGS_USAGE,
  defaultAuditFlags,
  isAuditFlag,
  isBooleanAuditFlag,
  setAuditFlag,
  validateAuditFlags,
  type AuditFlags,
} from '../config/audit-flags/index.js';
import { auditBackendsFromFlags } from '../audit/flags/backends.js';
import { checkCorsOptions } from '../http/cors.js';
import { parseCsvLine } from '../nodeagent/config/flag-values.js';

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
  /** Manifests to create at start, and at most one cluster snapshot (a `--save` file) to start from. */
  load: string[];
  /** Where to write the cluster's snapshot when it stops (SIGTERM, SIGINT). */
  save?: string;
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
  /** `--anonymous-auth`: serve requests without credentials as `system:anonymous` (true by default). */
  anonymousAuth?: boolean;
  /** `--client-ca-file`: the CAs whose client certificates authenticate users (needs `--tls`). */
  clientCaFile?: string;
  /** `--token-auth-file`: a CSV file of static bearer tokens. */
  tokenAuthFile?: string;
  /** `--authentication-config`: an AuthenticationConfiguration file (JWT authenticators, anonymous rules). */
  authenticationConfigFile?: string;
  /**
   * kube-apiserver's authorization flags as given: `--authorization-mode`, `--authorization-config`,
   * `--authorization-webhook-config-file`, `--authorization-webhook-version`,
   * `--authorization-webhook-cache-authorized-ttl`, `--authorization-webhook-cache-unauthorized-ttl`.
   */
  authorization?: AuthorizationFlags;
  /** kube-apiserver's service account flags, key files by name (`createCluster`'s `serviceAccounts`). */
  serviceAccounts?: {
    issuers?: string[];
    signingKeyFile?: string;
    keyFiles?: string[];
    apiAudiences?: string[];
    maxTokenExpirationSeconds?: number;
    jwksUri?: string;
  };
  /** kube-apiserver's `--egress-selector-config-file`: an EgressSelectorConfiguration. */
  egressSelectorConfigFile?: string;
  /** kube-apiserver's `--tracing-config-file`: a TracingConfiguration. */
  tracingConfigFile?: string;
  /** The logging flags (`--logging-format`, `-v`, `--vmodule`, ...), validated as kube-apiserver validates them. */
  logging?: LoggingConfiguration;
  /** kube-apiserver's `--encryption-provider-config`: an EncryptionConfiguration file (encryption at rest). */
  encryptionProviderConfig?: string;
  /**
   * kube-apiserver's kubelet client flags: `--kubelet-client-certificate`, `--kubelet-client-key`,
   * `--kubelet-certificate-authority` (files), `--kubelet-preferred-address-types`, `--kubelet-timeout`.
   */
  kubelet?: {
    clientCertificateFile?: string;
    clientKeyFile?: string;
    certificateAuthorityFile?: string;
    preferredAddressTypes?: string[];
    timeoutMs?: number;
  };
  /** kube-apiserver's `--enable-bootstrap-token-auth`. */
  enableBootstrapTokenAuth?: boolean;
  /**
   * kube-controller-manager's CSR signing flags: `--cluster-signing-cert-file`,
   * `--cluster-signing-key-file`, the per-signer `--cluster-signing-<signer>-{cert,key}-file`
   * and `--cluster-signing-duration`. Without files the `--tls` serving CA signs.
   */
  clusterSigning?: {
    certFile?: string;
    keyFile?: string;
    durationMs?: number;
    signers?: Partial<Record<WellKnownSigner, { certFile?: string; keyFile?: string }>>;
  };
  /** kube-apiserver's `--audit-*` flags (docs/audit-backends.md); absent when none is given. */
  audit?: AuditFlags;
  /**
   * kube-apiserver's `--cors-allowed-origins`: regular expressions of the browser origins served
   * cross-origin (see `CorsOptions`); none (no CORS) by default.
   */
  corsAllowedOrigins?: string[];
  /** pflag's warnings of deprecated flags given, printed at start. */
  flagWarnings?: string[];
}

/** The per-signer flag names of kube-controller-manager, by signer. */
const SIGNER_FLAGS: Readonly<Record<string, WellKnownSigner>> = {
  'kubelet-serving': 'kubelet-serving',
  'kubelet-client': 'kube-apiserver-client-kubelet',
  'kube-apiserver-client': 'kube-apiserver-client',
  'legacy-unknown': 'legacy-unknown',
};

/** A pflag boolean: alone it is true; `=false` (Go's ParseBool spellings) turns it off. */
function boolFlag(flag: string, arg: string, eq: number): boolean {
  const text = eq > 0 ? arg.slice(eq + 1) : 'true';
  if (!/^(1|t|T|TRUE|true|True|0|f|F|FALSE|false|False)$/.test(text))
    throw new Error(`invalid argument ${JSON.stringify(text)} for "${flag}" flag: strconv.ParseBool: parsing ${JSON.stringify(text)}: invalid syntax`);
  return /^(1|t|T|TRUE|true|True)$/.test(text);
}

/** The node address types `--kubelet-preferred-address-types` may name. */
const NODE_ADDRESS_TYPES = ['Hostname', 'InternalDNS', 'InternalIP', 'ExternalDNS', 'ExternalIP'];

/** The usage text. */
export const SERVE_USAGE =
  'usage: memkube serve [--port 6443] [--host 127.0.0.1] [--kubeconfig FILE] [--load FILE ...] [--save FILE] [--tls]\n' +
  '                     [--api-domain k8s.io] [--reserved-domain kubernetes.io] [--feature-gates Name=false,...]\n' +
  '                     [--history-retention 5m] [--continue-ttl 5m] [--bookmark-interval 1m] [--min-request-timeout 30m]\n' +
  '                     [--namespace-deletion-delay 1s]\n' +
  '                     [--enable-admission-plugins Name,...] [--disable-admission-plugins Name,...]\n' +
  '                     [--anonymous-auth=true|false] [--client-ca-file FILE] [--token-auth-file FILE] [--authentication-config FILE]\n' +
  '                     [--authorization-mode AlwaysAllow|AlwaysDeny|RBAC|Webhook|Node,...] [--authorization-config FILE]\n' +
  '                     [--authorization-webhook-config-file FILE] [--authorization-webhook-version v1|v1beta1]\n' +
  '                     [--authorization-webhook-cache-authorized-ttl 5m] [--authorization-webhook-cache-unauthorized-ttl 30s]\n' +
  '                     [--service-account-issuer URL ...] [--service-account-signing-key-file FILE] [--service-account-key-file FILE ...]\n' +
  '                     [--api-audiences a,b] [--service-account-max-token-expiration 48h] [--service-account-jwks-uri URL]\n' +
  '                     [--egress-selector-config-file FILE] [--tracing-config-file FILE]\n' +
  '                     [--admission-control-config-file FILE]\n' +
  '                     [--logging-format text|json] [-v N] [--vmodule pattern=N,...] [--log-flush-frequency 5s]\n' +
  '                     [--log-text-split-stream] [--log-json-split-stream] [--log-text-info-buffer-size 0] [--log-json-info-buffer-size 0]\n' +
  '                     [--encryption-provider-config FILE] [--enable-bootstrap-token-auth] [--cors-allowed-origins REGEXP,...]\n' +
  '                     [--kubelet-client-certificate FILE] [--kubelet-client-key FILE] [--kubelet-certificate-authority FILE]\n' +
  '                     [--kubelet-preferred-address-types Hostname,InternalDNS,InternalIP,ExternalDNS,ExternalIP] [--kubelet-timeout 5s]\n' +
  '                     [--cluster-signing-cert-file FILE --cluster-signing-key-file FILE] [--cluster-signing-duration 8760h]\n' +
  '                     [--cluster-signing-{kubelet-serving,kubelet-client,kube-apiserver-client,legacy-unknown}-{cert,key}-file FILE]\n' +
  `                     ${AUDIT_FLAGS_USAGE}\n` +
  '  --load takes manifests and at most one snapshot file, which --save writes when the server stops\n' +
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
    // The logging flags, pflag style: `-v 3`, `-v=3`, `-v3`, `--v=3`; a boolean alone is true.
    const logging = /^(?:-v(?=$|=|\d)|--(v|logging-format|vmodule|log-flush-frequency|log-(?:text|json)-(?:split-stream|info-buffer-size))(?=$|=))/.exec(arg);
    if (logging) {
      const name = (logging[1] ?? 'v') as LoggingFlag;
      let rest = arg.slice(logging[0].length);
      if (rest.startsWith('=')) rest = rest.slice(1);
      else if (rest === '') {
        if (BOOLEAN_LOGGING_FLAGS.has(name)) rest = 'true';
        else {
          const next = args[++i];
          if (next === undefined) throw new Error(`flag needs an argument: ${name === 'v' ? "'v' in -v" : `--${name}`}`);
          rest = next;
        }
      }
      if (!(LOGGING_FLAGS as readonly string[]).includes(name)) throw new Error(`unknown argument ${JSON.stringify(arg)}`);
      o.logging = applyLoggingFlag(o.logging ?? {}, name, rest);
      continue;
    }
    const eq = arg.indexOf('=');
    const flag = arg.startsWith('--') && eq > 0 ? arg.slice(0, eq) : arg;
    const value = (): string => {
      if (arg.startsWith('--') && eq > 0) return arg.slice(eq + 1);
      const v = args[++i];
      if (v === undefined) throw new Error(`${flag} needs a value`);
      return v;
    };
    if (isAuditFlag(flag)) {
      // pflag: a boolean alone is true; other flags take `=value` or the next argument.
      const warning = setAuditFlag((o.audit ??= defaultAuditFlags()), flag, isBooleanAuditFlag(flag) && eq < 0 ? 'true' : value());
      if (warning) (o.flagWarnings ??= []).push(warning);
      continue;
    }
    const perSigner = /^--cluster-signing-(kubelet-serving|kubelet-client|kube-apiserver-client|legacy-unknown)-(cert|key)-file$/.exec(flag);
    if (perSigner) {
      const signer = SIGNER_FLAGS[perSigner[1]!]!;
      const files = { ...o.clusterSigning?.signers?.[signer], [perSigner[2] === 'cert' ? 'certFile' : 'keyFile']: value() };
      o.clusterSigning = { ...o.clusterSigning, signers: { ...o.clusterSigning?.signers, [signer]: files } };
      continue;
    }
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
      case '--save':
        o.save = value();
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
      case '--anonymous-auth': {
        // A boolean flag: `--anonymous-auth` alone is true, `--anonymous-auth=false` turns it off.
        const text = eq > 0 ? arg.slice(eq + 1) : 'true';
        if (!/^(1|t|T|TRUE|true|True|0|f|F|FALSE|false|False)$/.test(text))
          throw new Error(
            `invalid argument ${JSON.stringify(text)} for "--anonymous-auth" flag: strconv.ParseBool: parsing ${JSON.stringify(text)}: invalid syntax`,
          );
        o.anonymousAuth = /^(1|t|T|TRUE|true|True)$/.test(text);
        break;
      }
      case '--client-ca-file':
        o.clientCaFile = value();
        break;
      case '--enable-bootstrap-token-auth':
        o.enableBootstrapTokenAuth = boolFlag(flag, arg, eq);
        break;
      case '--cluster-signing-cert-file':
        o.clusterSigning = { ...o.clusterSigning, certFile: value() };
        break;
      case '--cluster-signing-key-file':
        o.clusterSigning = { ...o.clusterSigning, keyFile: value() };
        break;
      case '--cluster-signing-duration':
        o.clusterSigning = { ...o.clusterSigning, durationMs: parseDuration(flag, value()) };
        break;
      case '--token-auth-file':
        o.tokenAuthFile = value();
        break;
      case '--authentication-config':
        o.authenticationConfigFile = value();
        break;
      case '--authorization-mode':
        o.authorization = { ...o.authorization, authorizationMode: value() };
        break;
      case '--authorization-config':
        o.authorization = { ...o.authorization, authorizationConfig: value() };
        break;
      case '--authorization-webhook-config-file':
        o.authorization = { ...o.authorization, authorizationWebhookConfigFile: value() };
        break;
      case '--authorization-webhook-version':
        o.authorization = { ...o.authorization, authorizationWebhookVersion: value() };
        break;
      case '--authorization-webhook-cache-authorized-ttl':
        o.authorization = { ...o.authorization, authorizationWebhookCacheAuthorizedTtl: value() };
        break;
      case '--authorization-webhook-cache-unauthorized-ttl':
        o.authorization = { ...o.authorization, authorizationWebhookCacheUnauthorizedTtl: value() };
        break;
      case '--service-account-issuer':
        o.serviceAccounts = { ...o.serviceAccounts, issuers: [...(o.serviceAccounts?.issuers ?? []), value()] };
        break;
      case '--service-account-signing-key-file':
        o.serviceAccounts = { ...o.serviceAccounts, signingKeyFile: value() };
        break;
      case '--service-account-key-file':
        o.serviceAccounts = { ...o.serviceAccounts, keyFiles: [...(o.serviceAccounts?.keyFiles ?? []), value()] };
        break;
      case '--api-audiences':
        o.serviceAccounts = { ...o.serviceAccounts, apiAudiences: nameList(value()) };
        break;
      case '--service-account-max-token-expiration':
        o.serviceAccounts = { ...o.serviceAccounts, maxTokenExpirationSeconds: parseDuration(flag, value()) / 1000 };
        break;
      case '--service-account-jwks-uri':
        o.serviceAccounts = { ...o.serviceAccounts, jwksUri: value() };
        break;
      case '--egress-selector-config-file':
        o.egressSelectorConfigFile = value();
        break;
      case '--tracing-config-file':
        o.tracingConfigFile = value();
        break;
      case '--admission-control-config-file':
        o.admission = { ...o.admission, configFile: value() };
        break;
      case '--kubelet-client-certificate':
        o.kubelet = { ...o.kubelet, clientCertificateFile: value() };
        break;
      case '--kubelet-client-key':
        o.kubelet = { ...o.kubelet, clientKeyFile: value() };
        break;
      case '--kubelet-certificate-authority':
        o.kubelet = { ...o.kubelet, certificateAuthorityFile: value() };
        break;
      case '--kubelet-preferred-address-types': {
        const types = nameList(value());
        const invalid = types.filter((t) => !NODE_ADDRESS_TYPES.includes(t));
        if (types.length === 0) throw new Error('--kubelet-preferred-address-types is required');
        if (invalid.length) throw new Error(`--kubelet-preferred-address-types contains invalid value(s): ${invalid.join(',')}`);
        o.kubelet = { ...o.kubelet, preferredAddressTypes: types };
        break;
      }
      case '--cors-allowed-origins': {
        // pflag's string slice: a CSV line; the first use replaces the default, later ones append.
        const v = value();
        let items: string[];
        try {
          items = parseCsvLine(v);
        } catch (e) {
          throw new Error(`invalid argument ${JSON.stringify(v)} for "--cors-allowed-origins" flag: ${e instanceof Error ? e.message : String(e)}`);
        }
        o.corsAllowedOrigins = [...(o.corsAllowedOrigins ?? []), ...items];
        break;
      }
      case '--kubelet-timeout':
        o.kubelet = { ...o.kubelet, timeoutMs: parseDuration(flag, value()) };
        break;
      default:
        throw new Error(`unknown argument ${JSON.stringify(arg)}`);
    }
  }
  // Unknown plugin names fail here, with kube-apiserver's words, before anything starts.
  if (o.admission) admissionChain(o.admission);
  if (o.authorization) {
    const errors = validateAuthorizationFlags(o.authorization);
    if (errors.length) throw new Error(errors.length === 1 ? errors[0] : `[${errors.join(', ')}]`);
  }
  if ((o.kubelet?.clientCertificateFile === undefined) !== (o.kubelet?.clientKeyFile === undefined)) {
    throw new Error('--kubelet-client-certificate and --kubelet-client-key must be given together');
  }
  if (o.audit) {
    const errors = validateAuditFlags(o.audit);
    if (errors.length) throw new Error(errors.length === 1 ? errors[0] : `[${errors.join(', ')}]`);
  }
  if (o.corsAllowedOrigins) {
    // ServerRunOptions.Validate: an invalid pattern stops the server before it starts.
    checkCorsOptions({ allowedOrigins: o.corsAllowedOrigins });
  }
  if (o.clientCaFile && !o.tls) throw new Error('--client-ca-file needs --tls: client certificates come with TLS');
  if (o.logging) {
    const gates = { LoggingAlphaOptions: o.featureGates?.LoggingAlphaOptions, LoggingBetaOptions: o.featureGates?.LoggingBetaOptions };
    const errs = validateLoggingConfiguration(withLoggingDefaults(o.logging), gates);
    if (errs.length) throw new Error(aggregateMessage(errs));
  }
  return o;
}

/** What the configuration files of `memkube serve` give, loaded and validated. */
export interface ServeConfigFiles {
  /** The dialers of `--egress-selector-config-file`; undefined without it (every connection direct). */
  readonly egress?: EgressSelector;
  /** `--tracing-config-file`'s configuration; undefined without it (no tracing). */
  readonly tracing?: TracingConfiguration;
}

/**
 * Reads, decodes and validates the configuration files named by the flags, as kube-apiserver does
 * at start; throws with its loader's message (`failed to validate tracing configuration: ...`).
 */
export function loadServeConfigFiles(options: Pick<ServeOptions, 'egressSelectorConfigFile' | 'tracingConfigFile'>): ServeConfigFiles {
  return {
    ...(options.egressSelectorConfigFile !== undefined ? { egress: loadEgressSelectorConfiguration(options.egressSelectorConfigFile) } : {}),
    ...(options.tracingConfigFile !== undefined ? { tracing: loadTracingConfiguration(options.tracingConfigFile) } : {}),
  };
}

/** Starts tracing when configured (OpenTelemetry is loaded only then). */
async function startTracing(config: TracingConfiguration | undefined): Promise<RequestTracer | undefined> {
  if (!config) return undefined;
  return startRequestTracing({
    ...(config.endpoint !== undefined ? { endpoint: config.endpoint } : {}),
    samplingFraction: samplingFraction(config),
    serviceInstanceId: apiserverIdentity(),
  });
}

/**
 * The lines kube-apiserver writes as it starts, at the verbosities it writes them: each admission
 * plugin registered (V(1), `Plugins.Register`), the chains loaded (`Plugins.NewFromPlugins`).
 */
function logAdmissionPlugins(logger: Logger, admission: AdmissionConfig | undefined): void {
  const registered = logger.V(1);
  if (registered.enabled) for (const plugin of BUILTIN_PLUGINS) registered.infoS('Registered admission plugin', 'plugin', plugin.name);
  const chain = admissionChain(admission);
  const mutating = chain.plugins.filter((p) => p.admit).map((p) => p.name);
  const validating = chain.plugins.filter((p) => p.validate).map((p) => p.name);
  if (mutating.length) logger.info(`Loaded ${mutating.length} mutating admission controller(s) successfully in the following order: ${mutating.join(',')}.`);
  if (validating.length)
    logger.info(`Loaded ${validating.length} validating admission controller(s) successfully in the following order: ${validating.join(',')}.`);
}

/**
 * The text of a file an authentication flag names, or an error with Go's `os.ReadFile` words
 * (`open tokens.csv: no such file or directory`), which kube-apiserver stops with.
 */
function readFlagFile(path: string): string {
  const read = goReadFile(path);
  if (!read.ok) throw new Error(read.error);
  return read.data.toString('utf8');
}

/** The kubelet client of the `--kubelet-*` flags, its files read now (a missing one fails with Go's words). */
function kubeletClientOptions(flags: ServeOptions['kubelet']): KubeletClientOptions | undefined {
  if (!flags) return undefined;
  return {
    ...(flags.clientCertificateFile !== undefined ? { cert: readFlagFile(flags.clientCertificateFile) } : {}),
    ...(flags.clientKeyFile !== undefined ? { key: readFlagFile(flags.clientKeyFile) } : {}),
    ...(flags.certificateAuthorityFile !== undefined ? { ca: readFlagFile(flags.certificateAuthorityFile) } : {}),
    ...(flags.preferredAddressTypes ? { preferredAddressTypes: flags.preferredAddressTypes } : {}),
    ...(flags.timeoutMs !== undefined ? { timeoutMs: flags.timeoutMs } : {}),
  };
}

/**
 * The signing settings of the flags, the files read; the `--tls` serving CA when no file is named
 * (as a kubeadm cluster signs with the CA its API server trusts for client certificates).
 */
function clusterSigningOptions(flags: ServeOptions['clusterSigning'], servingCa: CertificateAndKey | undefined): CertificateSigningOptions | undefined {
  const read = (path: string | undefined) => (path === undefined ? undefined : readFlagFile(path));
  const signers = Object.entries(flags?.signers ?? {}).map(([signer, files]) => {
    if (!files?.certFile || !files.keyFile) throw new Error(`--cluster-signing-*-cert-file and --cluster-signing-*-key-file of ${signer} go together`);
    return [signer, { caCert: read(files.certFile)!, caKey: read(files.keyFile)! }] as const;
  });
  const general = flags?.certFile !== undefined || flags?.keyFile !== undefined;
  const ca = general
    ? { caCert: read(flags?.certFile), caKey: read(flags?.keyFile) }
    : signers.length === 0 && servingCa
      ? { caCert: servingCa.cert, caKey: servingCa.key }
      : {};
  return {
    ...ca,
    ...(signers.length ? { signers: Object.fromEntries(signers) } : {}),
    ...(flags?.durationMs !== undefined ? { durationMs: flags.durationMs } : {}),
  };
}

/**
 * What a TLS server trusts for client certificates besides its own CA: `--client-ca-file` and the
 * CAs of the client signers, so that a certificate issued to a CSR authenticates its holder.
 */
async function trustedClientCAs(cluster: Cluster, clientCa: string | undefined, tls: boolean | undefined): Promise<string | undefined> {
  if (!tls) return clientCa;
  const signers = await Promise.all((['kube-apiserver-client', 'kube-apiserver-client-kubelet'] as const).map((s) => cluster.signingCA(s)));
  const all = [...new Set([...(clientCa ? [clientCa] : []), ...signers.filter((p): p is string => p !== undefined)])];
  return all.length ? all.join('\n') : undefined;
}

/**
 * Runs the server until SIGTERM or SIGINT. `out` gets the one line with the URL (stdout: scripts
 * read it); the log lines go where the logging flags send them (stderr unless streams are split).
 */
export async function serve(
  options: ServeOptions,
  out: (line: string) => void = (l) => process.stdout.write(`${l}\n`),
  logEnvironment: LoggerEnvironment = {},
): Promise<void> {
  const logger = new Logger(options.logging, logEnvironment);
  logAdmissionPlugins(logger, options.admission);
  const sa = options.serviceAccounts;
  const files = loadServeConfigFiles(options);
  // The HTTP door makes a span per request with it (tracer.startRequest); the webhook and OIDC
  // clients dial through files.egress (dialerFor / agentFor).
  const tracer = await startTracing(files.tracing);
  // Checked before anything starts, with messages naming the file as kube-apiserver's do.
  const encryption = options.encryptionProviderConfig === undefined ? undefined : await readEncryptionConfigFile(options.encryptionProviderConfig);
  // The audit policy is read and the backends made (log file checked, kubeconfig loaded) as kube-apiserver does at start.
  for (const warning of options.flagWarnings ?? []) logger.warning(warning);
  const auditEgress = files.egress?.dialerFor('controlplane');
  // Events a backend lost are logged as audit.HandlePluginError logs them.
  const onAuditError = (plugin: string, events: number, e: Error) =>
    logger.error(`Error in audit plugin '${plugin}' affecting ${events} audit events: ${e.message}`);
  const audit = options.audit ? auditBackendsFromFlags(options.audit, { onError: onAuditError, ...(auditEgress ? { egress: auditEgress } : {}) }) : undefined;
  for (const note of audit?.notes ?? []) logger.V(2).info(note);
  // The serving CA is made first: kube-controller-manager puts the CA its kubeconfig trusts into
  // every token Secret's ca.crt (its --root-ca-file defaults to that), and here that is this CA.
  // A snapshot is read and checked whole before anything starts; so is where --save will write.
  const loadFiles = await readLoadFiles(options.load);
  if (options.save !== undefined) await checkSaveFile(options.save);
  const certificates = options.tls ? await generateServingCertificate(servingCertificateOptions(options.host ?? '127.0.0.1', Date.now())) : undefined;
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
    authentication: {
      ...(options.anonymousAuth !== undefined ? { anonymous: options.anonymousAuth } : {}),
      ...(options.enableBootstrapTokenAuth ? { bootstrapTokens: true } : {}),
      tokens: options.tokenAuthFile ? parseTokenFile(readFlagFile(options.tokenAuthFile), options.tokenAuthFile) : undefined,
      config: options.authenticationConfigFile
        ? loadAuthenticationConfiguration(readFlagFile(options.authenticationConfigFile), {
            anonymousFlagSet: options.anonymousAuth !== undefined,
            file: options.authenticationConfigFile,
            disallowedIssuers: sa?.issuers,
            egressSelectorEnabled: files.egress !== undefined,
          })
        : undefined,
    },
    egress: files.egress,
    kubeletClient: kubeletClientOptions(options.kubelet),
    authorization: options.authorization ? { config: resolveAuthorizationConfig(options.authorization) } : undefined,
    serviceAccounts: {
      issuers: sa?.issuers,
      apiAudiences: sa?.apiAudiences,
      maxTokenExpirationSeconds: sa?.maxTokenExpirationSeconds,
      jwksUri: sa?.jwksUri,
      // Read by the service account setup, so a missing or bad file fails with kube-apiserver's text.
      signingKeyFile: sa?.signingKeyFile,
      keyFiles: sa?.keyFiles,
      rootCA: certificates?.ca.cert,
    },
    certificateSigning: clusterSigningOptions(options.clusterSigning, certificates?.ca),
    ...(audit?.policy !== undefined ? { audit: { policy: audit.policy, backends: audit.backends } } : {}),
    ...(loadFiles.snapshot ? { from: loadFiles.snapshot } : {}),
  });
  for (const { file, text } of loadFiles.manifests) {
    try {
      await cluster.load(text, { onWarning: (ws) => ws.forEach((w) => process.stderr.write(`Warning: ${file}: ${w}\n`)) });
    } catch (e) {
      await cluster.close();
      throw new Error(`--load ${file}: ${e instanceof Error ? e.message : String(e)}`);
    }
  }
  await cluster.settle();
  const handler = createFetchHandler(cluster, {
    minRequestTimeoutSeconds: options.minRequestTimeoutSeconds ?? DEFAULT_MIN_REQUEST_TIMEOUT_SECONDS,
    ...(tracer ? { tracer } : {}),
    ...(options.corsAllowedOrigins?.length ? { cors: { allowedOrigins: options.corsAllowedOrigins } } : {}),
  });
  const server = await listen(handler, {
    port: options.port,
    host: options.host,
    tls: options.tls,
    clientCA: await trustedClientCAs(cluster, options.clientCaFile ? readFlagFile(options.clientCaFile) : undefined, options.tls),
    now: cluster.clock.now(),
    certificates,
    admin: { token: cluster.adminToken, commonName: 'system:admin', organizations: ['system:masters'] },
    logger,
  });
  if (options.kubeconfig) await writeFile(options.kubeconfig, server.kubeconfig(), { mode: 0o600 });
  // secure_serving.go (and the insecure serving kube-apiserver once had) says where it listens.
  logger.info(`Serving ${options.tls ? 'securely' : 'insecurely'} on ${new URL(server.url).host}`);
  if (!options.tls && (options.authorization || options.anonymousAuth === false)) {
    // client-go sends a kubeconfig's credentials only over TLS: kubectl would be anonymous here.
    logger.warning('kubectl and client-go send no credentials over plain HTTP: serve with --tls to authenticate them');
  }
  logger.flush();
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
  // What the controllers were doing when the server stopped is finished before the state is saved.
  const saved = options.save === undefined ? undefined : (await cluster.settle(), cluster.snapshot());
  await cluster.close();
  // What the backends still hold (a webhook batch, a log file) is written before the process ends.
  await Promise.all((audit?.backends ?? []).map((b) => b.shutdown()));
  await tracer?.shutdown();
  logger.close();
  if (saved && options.save !== undefined) await writeSnapshotFile(options.save, saved);
}
