/**
 * The command line of `memkube serve`: its options, its usage text, and the parser that turns
 * arguments into options (kube-apiserver's flag names and value syntax, its messages for bad ones).
 */
import { admissionChain, type AdmissionConfig } from '../admission/chain.js';
import { validateAuthorizationFlags, type AuthorizationFlags } from '../config/authorization/flags.js';
import type { WellKnownSigner } from '../controllers/certificates/signer-rules.js';
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
import {
  AUDIT_FLAGS_USAGE,
  defaultAuditFlags,
  isAuditFlag,
  isBooleanAuditFlag,
  setAuditFlag,
  validateAuditFlags,
  type AuditFlags,
} from '../config/audit-flags/index.js';
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
  const re = /(\d+(?:\.\d*)?|\.\d+)(ns|us|\u00b5s|ms|s|m|h)/y;
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
