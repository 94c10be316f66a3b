/**
 * `memkube serve`: a fake cluster over HTTP (or HTTPS with `--tls`). Prints one line with the URL once it accepts
 * requests, writes a kubeconfig, loads manifests, and stops cleanly on SIGTERM/SIGINT. Its flags are
 * kube-apiserver's where it has one (`--feature-gates`, `--enable-admission-plugins`, ...); they are
 * parsed in serve-args.ts.
 */
import { writeFile } from 'node:fs/promises';
import { goReadFile } from '../config/go-read-file.js';
import { checkSaveFile, readLoadFiles, writeSnapshotFile } from './snapshot-file.js';
import { admissionChain, type AdmissionConfig } from '../admission/chain.js';
import { resolveAuthorizationConfig } from '../config/authorization/flags.js';
import { parseTokenFile } from '../auth/authn/token-file.js';
import { loadAuthenticationConfiguration } from '../config/authentication/load.js';
import { createCluster, type Cluster } from '../cluster.js';
import type { CertificateSigningOptions } from '../controllers/certificates/signing-authorities.js';
import { loadEgressSelectorConfiguration, type EgressSelector } from '../config/egress/index.js';
import { loadTracingConfiguration, samplingFraction, type TracingConfiguration } from '../config/tracing/index.js';
import { BUILTIN_PLUGINS } from '../admission/builtin-plugins.js';
import { Logger, type LoggerEnvironment } from '../log/index.js';
import { readEncryptionConfigFile } from '../config/encryption/index.js';
import { createFetchHandler } from '../http/handler.js';
import { listen, servingCertificateOptions } from '../http/listen.js';
import { generateServingCertificate, type CertificateAndKey } from '../pki/self-signed.js';
import { apiserverIdentity, startRequestTracing, type RequestTracer } from '../tracing/index.js';
import type { KubeletClientOptions } from '../kubelet-client/index.js';
import { auditBackendsFromFlags } from '../audit/flags/backends.js';
import { DEFAULT_MIN_REQUEST_TIMEOUT_SECONDS, DEFAULT_SERVE_NAMESPACE_DELETION_DELAY_MS, type ServeOptions } from './serve-args.js';

export {
  DEFAULT_MIN_REQUEST_TIMEOUT_SECONDS,
  DEFAULT_SERVE_NAMESPACE_DELETION_DELAY_MS,
  parseDuration,
  parseFeatureGates,
  parseServeArgs,
  SERVE_USAGE,
  type ServeOptions,
} from './serve-args.js';

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
