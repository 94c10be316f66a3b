/**
 * `createCluster`: wires the registry, storage, engine, admission chain, controllers and clock into one cluster.
 */
import { admissionChain, type AdmissionConfig } from './admission/chain.js';
import { newUid, type EngineContext } from './api/context.js';
import { randomNameSuffix } from './machinery/random-suffix.js';
import { parseYamlDocuments, YamlSyntaxError } from './codec/yaml.js';
import { handle } from './api/engine.js';
import { ApiError, badRequest } from './machinery/errors.js';
import { randomBytes } from 'node:crypto';
import { createNodeAuthorizer } from './auth/node/authorizer.js';
import { createStorageRbacAuthorizer } from './auth/rbac/authorizer.js';
import { clusterAccess, type AccessEgress, type AuthenticationOptions, type AuthorizationOptions } from './auth/cluster-access.js';
import { createServiceAccountTokens, type ServiceAccountFlags, type ServiceAccountSetup, type ServiceAccountTokens } from './auth/serviceaccount/index.js';
import { serviceAccountTokensController } from './controllers/service-account-tokens.js';
import type { ApiRequest, ApiResponse, UserInfo } from './machinery/request.js';
import { ADMIN_USER, Client, type ResourceTarget, type WarningHandler } from './client/client.js';
import { CombinedClock, formatTime, type ManualClock } from './clock.js';
import { clusterRoleAggregationController } from './controllers/cluster-role-aggregation.js';
import { ControllerLoop } from './controllers/controller-loop.js';
import { garbageCollector } from './controllers/garbage-collector.js';
import { namespaceController } from './controllers/namespace.js';
import { podTerminationController } from './controllers/pod-termination.js';
import { serviceAccountController } from './controllers/service-account.js';
import { flowControlStatusController } from './controllers/flowcontrol-status.js';
import { customResourceDefinitionController, type CustomResourceServing } from './controllers/custom-resources/definition-controller.js';
import { DEFAULT_BOOTSTRAP_OBJECTS, type BootstrapObject } from './kinds/bootstrap-objects.generated.js';
import { apiApprovalCondition, builtinKinds, builtinObjectsFor, customResourceKind } from './kinds/index.js';
import type { KindDefinition, KubeObject } from './schema/define-kind.js';
import { KindRegistry, type ResolvedKind } from './schema/registry.js';
import { MemoryStorage } from './storage/memory.js';
import { encryptionAtRest, type ClusterEncryption, type EncryptionConfiguration } from './config/encryption/index.js';
import { WatchHub } from './api/watch/hub.js';
import { cloneJson } from './util/json-clone.js';
import { deepFreeze } from './storage/freeze.js';
import { DEFAULT_CONTINUE_TOKEN_TTL_MS } from './api/list-pages.js';
import { DEFAULT_BOOKMARK_INTERVAL_MS, DEFAULT_WATCH_BUFFER_SIZE } from './api/verbs/watch.js';
import { createFetchHandler, type FetchHandler, type HttpAccess, type IssuerDiscovery } from './http/handler.js';
import { errorResponse } from './http/errors.js';
import { listen, type Listening, type ListenOptions } from './http/listen.js';
import type { Storage } from './storage/storage.js';
import type { EgressDialer } from './webhook/egress-dialer.js';
import { createKubeletClient, type KubeletClientOptions } from './kubelet-client/index.js';
import type { Service } from './kinds/types/core-v1.js';
import { MetricsRegistry, type MetricsReader } from './metrics/registry.js';
import type { HealthChecks } from './metrics/health.js';
import { apiServerMetrics, type ApiServerMetrics } from './api/metrics/server-metrics.js';
import { meteredHandler } from './api/metrics/metered-handle.js';
import { countStoredObjects } from './api/metrics/storage-objects.js';
import { apiServerHealthChecks } from './api/metrics/health-checks.js';
import { csrApprovingController } from './controllers/certificates/approving.js';
import { csrSigningController } from './controllers/certificates/signing.js';
import { countCsrDuration, csrDurationCounters } from './controllers/certificates/duration-metrics.js';
import { ratchetingSeconds } from './kinds/apiextensions/custom-resources/ratcheting-metrics.js';
import { countDiscoveryAggregations } from './http/discovery.js';
import type { RatchetingObserver } from './kinds/apiextensions/custom-resources/rules.js';
import { signingAuthorities, type CertificateSigningOptions } from './controllers/certificates/signing-authorities.js';
import type { WellKnownSigner } from './controllers/certificates/signer-rules.js';
import { createAuditPipeline, type AuditOptions, type AuditPipeline } from './audit/pipeline.js';
import { defineAuditMetrics } from './audit/metrics.js';
import { extended } from './util/extended.js';
import { forkClock, snapshotMethods, snapshotsNeedMemoryStorage } from './cluster-snapshots.js';
import { snapshotState, type ClusterSnapshot } from './storage/snapshot.js';
import { Faults, interceptedRequests, RequestLog } from './api/faults/index.js';

/**
 * Options of {@link createCluster}.
 * @category Cluster
 */
export interface ClusterOptions {
  /** API group domain, `k8s.io` by default. */
  apiDomain?: string;
  /** Reserved domain of qualified names, `kubernetes.io` by default. */
  reservedDomain?: string;
  /**
   * The cluster's clock. Default: real time, movable with `cluster.clock.advance(ms)`. A `Date` or a
   * number of epoch milliseconds gives a clock frozen at that time that moves only when advanced.
   */
  clock?: ManualClock | Date | number;
  /** Storage backend; in memory by default. */
  storage?: Storage;
  /**
   * Encryption at rest, as kube-apiserver's `--encryption-provider-config`: an
   * EncryptionConfiguration (`apiserver.config.k8s.io/v1`) or its YAML/JSON text. The resources it
   * names are kept encrypted in the storage (see {@link Cluster.encryption}); a configuration
   * kube-apiserver would refuse (or one with a KMS provider) makes `createCluster` throw its message.
   */
  encryption?: EncryptionConfiguration | string;
  /**
   * Feature gates; every gate is on unless set to false here, except those kube-apiserver keeps off
   * by default ({@link FEATURE_GATES_OFF_BY_DEFAULT}: NativeHistograms), which are on only when set to true.
   */
  featureGates?: Record<string, boolean>;
  /**
   * Keep the API server's metrics (`cluster.metrics`, `GET /metrics`); true by default. With false
   * nothing is counted and `/metrics` is not served, as for a benchmark's baseline.
   */
  metrics?: boolean;
  /** Extra kinds to serve besides the built-in ones. */
  kinds?: readonly KindDefinition[];
  /**
   * How long the default in-memory storage keeps the history of changes (reads at a past
   * resourceVersion, watches from one), on the cluster clock; 5 minutes by default. Ignored when
   * `storage` is given.
   */
  historyRetentionMs?: number;
  /** How long a list's continue token stays valid, on the cluster clock; 5 minutes by default. */
  continueTokenTtlMs?: number;
  /** How often a watch with `allowWatchBookmarks` gets a BOOKMARK, on the cluster clock; 1 minute by default. */
  bookmarkIntervalMs?: number;
  /**
   * How many unread live events a watcher may fall behind before the server closes it; 1000 by
   * default. A watch's initial events and its replay from a resourceVersion do not count.
   */
  watchBufferSize?: number;
  /**
   * Real time (ms) a namespace marked for deletion stays `Terminating` with its content before the
   * namespace controller starts emptying it; 0 (at once, after the delete answers) by default.
   * `memkube serve` uses 1 s, so that clients deleting a namespace and then its objects (`kubectl
   * delete -f` of a manifest that starts with its Namespace) find them as on a real cluster.
   * `settle()` does the waiting work at once, so in-process tests stay deterministic.
   */
  namespaceDeletionDelayMs?: number;
  /**
   * Which admission plugins run, as kube-apiserver's `--enable-admission-plugins` and
   * `--disable-admission-plugins` choose them: kube-apiserver's default plugins are on (those memkube
   * implements: NamespaceLifecycle, ServiceAccount, Priority, DefaultTolerationSeconds); `disable`
   * turns some off. An unknown name throws an {@link AdmissionConfigError} with kube-apiserver's message.
   */
  admission?: AdmissionConfig;
  /**
   * How requests are authenticated, as kube-apiserver's flags configure it: anonymous requests
   * (on by default), static tokens, token authenticators of your own. The in-process client acts as
   * `system:admin` in `system:masters` whatever is set here.
   */
  authentication?: AuthenticationOptions;
  /**
   * How the cluster's own clients (authorization webhooks, JWT issuers' discovery) reach their
   * servers, as kube-apiserver's `--egress-selector-config-file` says (see
   * `loadEgressSelectorConfiguration`); directly by default.
   */
  egress?: AccessEgress;
  /**
   * How the API server reaches node agents for `pods/log` and `nodes/proxy`, as kube-apiserver's
   * `--kubelet-*` flags: the client certificate and key it presents, the authority the agents'
   * serving certificates must chain to (none: not checked, as kube-apiserver without
   * `--kubelet-certificate-authority`), the preferred node address types and the connect timeout.
   */
  kubeletClient?: KubeletClientOptions;
  /**
   * How requests are authorized, as `--authorization-mode`: `AlwaysAllow` by default, so that a
   * cluster without options serves everyone. Members of `system:masters` are always allowed.
   */
  authorization?: AuthorizationOptions;
  /**
   * Service account tokens, with kube-apiserver's flags (`--service-account-issuer`,
   * `--service-account-signing-key-file` and `--service-account-key-file` as PEM texts,
   * `--api-audiences`, `--service-account-max-token-expiration` in seconds,
   * `--service-account-jwks-uri`) and `rootCA`, the PEM CA bundle the token controller puts into
   * `kubernetes.io/service-account-token` Secrets (kube-controller-manager's `--root-ca-file`).
   * Defaults: the issuer `https://kubernetes.default.svc.cluster.local`, a generated ECDSA P-256
   * key, the issuers as API audiences. Invalid flags throw a `ServiceAccountOptionsError`.
   */
  serviceAccounts?: ServiceAccountFlags & { rootCA?: string };
  /**
   * The CSR signing controllers' CA and limits, as kube-controller-manager's
   * `--cluster-signing-cert-file`, `--cluster-signing-key-file` (PEM texts here), the per-signer
   * files and `--cluster-signing-duration`. Without a CA the cluster makes one when it first signs.
   * The CAs of the client signers are trusted for client certificates by `listen({ tls: true })`,
   * so a certificate issued to a request authenticates its holder. A CA that cannot sign makes
   * `createCluster` throw a `SigningCaError`. See docs/certificates.md.
   */
  certificateSigning?: CertificateSigningOptions;
  /**
   * Auditing, as kube-apiserver's `--audit-policy-file` with its backends: the audit.k8s.io/v1
   * Policy (or its YAML or JSON text) decides what is recorded of each request, the backends
   * receive the events (`createMemoryAuditBackend()` for tests). Requests through every HTTP door
   * and through `cluster.request`, `cluster.client` and `cluster.load` are audited; the built-in
   * controllers' own requests are not. A policy kube-apiserver refuses makes `createCluster` throw
   * an `AuditPolicyError` with its message. See docs/audit.md.
   */
  audit?: AuditOptions;
  /**
   * Start from this snapshot's stored state (`cluster.snapshot()`, `loadSnapshot()`): its objects
   * with their uids, times and resourceVersions, the revision counter where it was, the custom
   * resources its CustomResourceDefinitions define served. Not with `storage`.
   */
  from?: ClusterSnapshot;
}

/**
 * Options of {@link Cluster.load}.
 * @category Cluster
 */
export interface LoadOptions {
  fieldValidation?: 'Ignore' | 'Warn' | 'Strict';
  onWarning?: WarningHandler;
}

/**
 * A running in-memory cluster.
 * @category Cluster
 */
export interface Cluster {
  /** The in-process client, acting as a cluster administrator. */
  readonly client: Client;
  /** The cluster's clock. */
  readonly clock: ManualClock;
  /** The kinds this cluster serves. */
  readonly registry: KindRegistry;
  /** The service account token issuer, authenticator and OIDC discovery documents. */
  readonly serviceAccountTokens: ServiceAccountTokens;
  readonly apiDomain: string;
  readonly reservedDomain: string;
  /** Runs one request through the engine (what every door does). */
  request(req: ApiRequest): Promise<ApiResponse>;
  /**
   * Creates every object of a YAML (multi-document) or JSON text, including the items of
   * `kind: List`; answers the created objects. Duplicate keys and unknown fields are handled per
   * `fieldValidation` (Warn by default, warnings go to `onWarning`). An object of a kind that a
   * CustomResourceDefinition earlier in the text defines is created once the definition is established.
   */
  load(text: string, options?: LoadOptions): Promise<KubeObject[]>;
  /** Resolves once the built-in controllers have nothing left to do. */
  settle(): Promise<void>;
  /** The HTTP door as a Fetch-standard function: serves the Kubernetes API for one request. */
  fetch(request: Request): Promise<Response>;
  /**
   * Serves the Kubernetes API over HTTP (node:http) on `127.0.0.1` and a free port by default; with
   * `tls: true` over HTTPS with a self-signed certificate valid around the cluster clock's now.
   */
  listen(options?: ListenOptions): Promise<Listening>;
  /** Faults injected into caller requests (every door; not the built-in controllers'): see docs/guides/simulate-failures.md. */
  readonly faults: Faults;
  /** The log of caller requests, off until `requests.start()`. */
  readonly requests: RequestLog;
  /** How many watches are open (0 once every watch has ended or been closed). */
  readonly activeWatchers: number;
  /** Encryption at rest: the bytes stored for an object, and reloading the configuration. */
  readonly encryption: ClusterEncryption;
  /**
   * The cluster's authentication and authorization: `authenticate` answers the user of an HTTP
   * request's credentials, `authorizer` decides what a user may do (what every door asks).
   */
  readonly access: HttpAccess;
  /**
   * A bearer token of `system:admin` (group `system:masters`), made when the cluster starts: the
   * kubeconfig `listen()` writes for plain HTTP carries it.
   */
  readonly adminToken: string;
  /** The service account issuer's OIDC discovery documents, as the HTTP door serves them. */
  readonly issuerDiscovery: IssuerDiscovery;
  /** The audit pipeline (`ClusterOptions.audit`), which the doors use; undefined when the cluster does not audit. */
  readonly audit?: AuditPipeline;
  /**
   * The API server's metrics, as `GET /metrics` exposes them: read a metric's value (summed over
   * the series whose labels match) in a test, or every sample, or the Prometheus text.
   */
  readonly metrics: MetricsReader;
  /**
   * What the doors record their requests in (the registry behind {@link Cluster.metrics}); an
   * HTTP door made with `createFetchHandler(cluster)` takes it from here.
   * @internal
   */
  readonly apiServerMetrics: ApiServerMetrics;
  /** The checks of `/healthz`, `/livez` and `/readyz`, which also feed `/metrics/slis`. */
  readonly health: HealthChecks;
  /**
   * The PEM certificate of the CA a well-known signer (`kube-apiserver-client` by default) issues
   * certificates with, made first if it is the generated one; undefined when that signer does not
   * sign (another signer has its own CA configured).
   */
  signingCA(signer?: WellKnownSigner): Promise<string | undefined>;
  /**
   * Shuts the cluster down: stops the controllers, ends every watch (an in-process `for await`
   * over a watch finishes after the events it already holds, HTTP watch streams end, and
   * {@link Cluster.activeWatchers} drops to 0), closes the servers `listen()` started, then the
   * storage. Idempotent.
   *
   * A closed cluster serves nothing: every later call through {@link Cluster.client},
   * {@link Cluster.request} or {@link Cluster.load} rejects with an `ApiError` 503
   * `ServiceUnavailable` (`the cluster is closed`), {@link Cluster.fetch} answers that Status with
   * HTTP 503, and {@link Cluster.listen} rejects with it.
   */
  close(): Promise<void>;
  /**
   * The whole stored state as an immutable value, at once: it shares every stored object and
   * index with the cluster (which copies a resource's index before its next write to it), so it
   * costs microseconds whatever the store holds. Call `await cluster.settle()` first for a state
   * the controllers are done with. Throws a `TypeError` for a cluster given `storage`.
   */
  snapshot(): ClusterSnapshot;
  /**
   * A new, independent cluster with this one's options and current stored state (see
   * {@link ClusterOptions.from}) and a clock at this one's time. Writes to either are not seen by
   * the other. Close it when done.
   */
  fork(): Promise<Cluster>;
  /**
   * Puts the stored state back to `snapshot`, as restoring etcd does: every open watch ends, the
   * resourceVersion counter moves on (never back) and older resourceVersions are compacted, so a
   * watch or list resumed from one answers 410 Gone (`Expired`) and clients list again. Objects
   * keep the uids, times and resourceVersions the snapshot holds; controllers follow the restored
   * objects, and the promise resolves once they have settled.
   */
  reset(snapshot: ClusterSnapshot): Promise<void>;
}

/** What every request to a closed cluster answers: 503 ServiceUnavailable. */
function clusterClosed(): ApiError {
  return new ApiError({ code: 503, reason: 'ServiceUnavailable', message: 'the cluster is closed' });
}

/** Namespaces every Kubernetes cluster starts with. */
/** The API domain of a cluster that names none. */
const DEFAULT_API_DOMAIN = 'k8s.io';
/** The reserved domain of a cluster that names none. */
const DEFAULT_RESERVED_DOMAIN = 'kubernetes.io';

/**
 * The feature gates that are off unless `featureGates` turns them on (alpha gates kube-apiserver keeps off).
 * @category Cluster
 */
export const FEATURE_GATES_OFF_BY_DEFAULT: readonly string[] = ['NativeHistograms'];

/**
 * Whether a gate is on: as set in `gates`, else on unless it is one of {@link FEATURE_GATES_OFF_BY_DEFAULT}.
 * @category Cluster
 */
export function featureGateEnabled(gates: Readonly<Record<string, boolean>>, gate: string): boolean {
  return gates[gate] ?? !FEATURE_GATES_OFF_BY_DEFAULT.includes(gate);
}

/**
 * The namespaces `createCluster` creates (unless storage already holds them) before the cluster is handed out.
 * @category Cluster
 */
export const INITIAL_NAMESPACES = ['default', 'kube-system', 'kube-public', 'kube-node-lease'] as const;

const SYSTEM_USER: UserInfo = { username: 'system:apiserver', groups: ['system:masters'] };

function makeClock(option: ClusterOptions['clock']): ManualClock {
  if (option === undefined) return new CombinedClock();
  if (option instanceof Date || typeof option === 'number') return new CombinedClock({ frozenAt: option });
  return option;
}

/**
 * Creates a cluster with the built-in kinds and the initial namespaces.
 * @category Cluster
 */
export async function createCluster(options: ClusterOptions = {}): Promise<Cluster> {
  return startCluster(options);
}

/**
 * What a fork takes over from the cluster it came from, rather than making it again: what depends
 * on the options alone, which the two share, and never changes.
 */
interface Inherited {
  /**
   * The kinds the source resolved from its options (not those its custom resource definitions
   * added), in a registry that is never changed: each fork serves a copy of it.
   */
  readonly registry: KindRegistry;
  /** The source's service account flags, resolved: the same keys, so the tokens it issued stay valid. */
  readonly serviceAccounts: ServiceAccountSetup;
  /** Whether the source's controllers had nothing left to do when the snapshot was taken. */
  readonly settled: boolean;
}

/** {@link createCluster}, or a fork of a cluster with what it `inherited` from it. */
async function startCluster(options: ClusterOptions, inherited?: Inherited): Promise<Cluster> {
  const apiDomain = options.apiDomain ?? DEFAULT_API_DOMAIN;
  const reservedDomain = options.reservedDomain ?? DEFAULT_RESERVED_DOMAIN;
  const clock = makeClock(options.clock);
  if (options.from && options.storage) throw snapshotsNeedMemoryStorage();
  const memory = options.storage ? undefined : new MemoryStorage({ now: () => clock.now(), historyRetentionMs: options.historyRetentionMs });
  const atRest = encryptionAtRest(options.storage ?? memory!, options.encryption);
  const storage = atRest.storage;
  const watchHub = new WatchHub(storage);
  const gates = options.featureGates ?? {};
  const registry = inherited ? inherited.registry.clone() : new KindRegistry({ apiDomain });
  // A kind given again in options.kinds (e.g. a built-in) is served once. A kind whose feature gate
  // is off does not exist at all: no paths, no discovery entry, no OpenAPI schema.
  if (!inherited) {
    const builtin = new Set<KindDefinition>(builtinKinds);
    for (const kind of new Set([...builtinKinds, ...(options.kinds ?? [])])) {
      if (kind.featureGate && !featureGateEnabled(gates, kind.featureGate)) continue;
      // A built-in kind's schema is kube-apiserver's published OpenAPI: its rules live in its
      // strategy, as Kubernetes validates its own kinds in code, and what that schema says is not
      // applied to them (a Pod's env is a `map` list keyed by name, yet two variables of one name
      // are accepted). A kind declared besides them applies its schema's defaults and value
      // validations, as a custom resource does.
      registry.add(kind, { schemaRules: !builtin.has(kind) });
    }
  }
  const optionKinds = inherited ? [] : [...registry.kinds()];
  /** The kinds of the options alone, for forks; made at the first fork (custom resources may be served by then). */
  let forkRegistry = inherited?.registry;
  const optionRegistry = () => {
    if (!forkRegistry) {
      forkRegistry = new KindRegistry({ apiDomain });
      for (const kind of optionKinds) forkRegistry.adopt(kind);
    }
    return forkRegistry;
  };

  const metrics = new MetricsRegistry({ disabled: options.metrics === false, nativeHistograms: featureGateEnabled(gates, 'NativeHistograms') });
  // kube-apiserver registers the audit metrics whether or not it audits.
  defineAuditMetrics(metrics);
  const audit = options.audit ? createAuditPipeline(options.audit, { clock, metrics }) : undefined;
  const admission = admissionChain(options.admission, metrics);
  countDiscoveryAggregations(registry, metrics);
  const serviceAccountTokens = createServiceAccountTokens(options.serviceAccounts ?? {}, {
    read: async (gr, namespace, name) => (await storage.get({ bucket: `${gr.group || 'core'}/${gr.resource}`, namespace, name }))?.value as object | undefined,
    now: () => clock.now(),
    ...(inherited ? { setup: inherited.serviceAccounts } : {}),
  });
  const adminToken = randomBytes(32).toString('base64url');
  // One RBAC index for the RBAC mode and for the escalation checks, made on first use: a cluster
  // without RBAC in its chain still resolves rules from its RBAC objects when a role is written.
  let rbac: ReturnType<typeof createStorageRbacAuthorizer> | undefined;
  const rbacAuthorizer = () => (rbac ??= createStorageRbacAuthorizer(storage, { apiDomain }));
  const access = clusterAccess(
    {
      apiAudiences: serviceAccountTokens.issuer.apiAudiences,
      ...options.authentication,
      tokens: [...(options.authentication?.tokens ?? []), { token: adminToken, user: ADMIN_USER }],
    },
    options.authorization,
    {
      storage,
      modes: { RBAC: () => rbacAuthorizer(), Node: (s) => createNodeAuthorizer(s, { apiDomain }) },
      builtinTokens: [serviceAccountTokens.authenticator],
      now: () => clock.now(),
      serviceAccountIssuers: serviceAccountTokens.setup.issuers,
      egress: options.egress,
      metrics,
    },
  );
  const ctx: EngineContext = {
    registry,
    storage,
    clock,
    apiDomain,
    reservedDomain,
    featureEnabled: (gate) => featureGateEnabled(gates, gate),
    newUid,
    randomSuffix: randomNameSuffix,
    kindState: new Map(),
    admission,
    watchHub,
    continueTokenTtlMs: options.continueTokenTtlMs ?? DEFAULT_CONTINUE_TOKEN_TTL_MS,
    bookmarkIntervalMs: options.bookmarkIntervalMs ?? DEFAULT_BOOKMARK_INTERVAL_MS,
    watchBufferSize: options.watchBufferSize ?? DEFAULT_WATCH_BUFFER_SIZE,
    auth: {
      authorizer: access.authorizer,
      rbacRules: { rulesFor: (user, namespace) => rbacAuthorizer().rulesFor(user, namespace) },
      tokenAuthenticator: access.tokens,
      serviceAccountTokens: serviceAccountTokens.issuer,
    },
    nodes: createKubeletClient(options.kubeletClient),
    metrics,
  };
  let closed = false;
  const serverMetrics = apiServerMetrics(metrics);
  countStoredObjects(metrics, registry, storage);
  const health = apiServerHealthChecks({
    storage: options.storage ?? storage,
    closing: () => closed,
    slis: options.metrics !== false && featureGateEnabled(gates, 'ComponentSLIs'),
  });
  const handleInContext = (req: ApiRequest) => handle(ctx, req);
  const engine = meteredHandler(serverMetrics, ctx, handleInContext);
  const request = (req: ApiRequest) => (closed ? Promise.reject(clusterClosed()) : engine(req));
  const asSystem = (req: Omit<ApiRequest, 'user'>) => request({ ...req, user: SYSTEM_USER });
  const faults = new Faults();
  const requests = new RequestLog();
  const faultClock = {
    now: () => clock.now(),
    onAdvance: 'onAdvance' in clock ? (l: () => void) => (clock as CombinedClock).onAdvance(l) : undefined,
    realTime: (clock as Partial<CombinedClock>).realTime !== false,
  };
  // What callers send (cluster.request, the client, load, the HTTP doors) is audited once and
  // counted, then meets the faults just before the engine, so that a fault's answer is audited and
  // counted as the engine's would be. The controllers' requests skip all three.
  const callerEngine = meteredHandler(serverMetrics, ctx, interceptedRequests(handleInContext, faults, requests, faultClock));
  const callerRequest = audit
    ? (req: ApiRequest) => (closed ? Promise.reject(clusterClosed()) : audit.inProcess(req, callerEngine))
    : (req: ApiRequest) => (closed ? Promise.reject(clusterClosed()) : callerEngine(req));

  const authorities = await signingAuthorities(options.certificateSigning, () => clock.now());
  const csrDurations = csrDurationCounters(metrics);
  const csrBucket = `certificates.${apiDomain}/certificatesigningrequests`;
  const loop = new ControllerLoop([
    namespaceController(ctx, asSystem, { deletionDelayMs: options.namespaceDeletionDelayMs }),
    serviceAccountController(ctx, asSystem),
    serviceAccountTokensController(ctx, asSystem, { issuer: serviceAccountTokens.issuer, rootCA: options.serviceAccounts?.rootCA }),
    flowControlStatusController(ctx, asSystem),
    podTerminationController(ctx, asSystem),
    garbageCollector(ctx, asSystem),
    clusterRoleAggregationController(ctx, asSystem),
    csrApprovingController(ctx, asSystem),
    csrSigningController(ctx, asSystem, authorities),
    customResourceDefinitionController(
      ctx,
      asSystem,
      customResourceServing(registry, watchHub, storage, options.egress?.dialerFor('cluster'), ratchetingSeconds(metrics)),
    ),
  ]);
  const unsubscribe = storage.subscribe((event) => {
    countCsrDuration(csrDurations, csrBucket, event);
    loop.observe(event);
  });
  // Every listener is in place: the controllers learn the snapshot's objects as from an informer's
  // first list, in one piece (no watcher can be open yet, so nothing else needs to be told). Stored
  // encrypted, the objects reach them decrypted only as the storage's events.
  if (options.from && memory) {
    const state = snapshotState(options.from);
    if (storage === memory) {
      memory.restore(state, { silent: true });
      watchHub.skipTo(state.revision);
      loop.start(state, { settled: inherited?.settled ?? false });
    } else memory.restore(state);
  }
  const signingCA = async (signer: WellKnownSigner = 'kube-apiserver-client') => (await authorities.caFor(signer))?.pem;
  /** The CAs of the client signers: what a TLS server trusts besides its own `clientCA`. */
  const clientSigningCAs = async () => {
    const pems = await Promise.all((['kube-apiserver-client', 'kube-apiserver-client-kubelet'] as const).map((s) => signingCA(s)));
    return [...new Set(pems.filter((p): p is string => p !== undefined))];
  };
  const stopClock =
    'onAdvance' in clock && typeof clock.onAdvance === 'function'
      ? (clock as CombinedClock).onAdvance((now) => {
          loop.clockMoved(now);
          watchHub.clockMoved(now);
        })
      : () => undefined;

  const resolve = (target: ResourceTarget | KindDefinition) => {
    if ('kind' in target && 'versions' in target) {
      const group = registry.kinds().find((k) => k.definition === target)?.group ?? target.group;
      return {
        gvr: { group, version: target.storageVersion.name, resource: target.plural },
        namespaced: target.scope === 'Namespaced',
      };
    }
    const gvr = { group: target.group ?? '', version: target.version, resource: target.resource };
    return { gvr, namespaced: registry.lookup(gvr)?.namespaced };
  };
  const client = new Client(callerRequest, resolve, ADMIN_USER, undefined, { clock, apiDomain });

  for (const name of INITIAL_NAMESPACES) {
    const exists = await storage.get({ bucket: 'core/namespaces', namespace: '', name });
    if (!exists) {
      await asSystem({ verb: 'create', resource: { group: '', version: 'v1', resource: 'namespaces' }, body: { metadata: { name } } });
    }
  }
  const templatesKey = builtinTemplatesKey(options, apiDomain, reservedDomain);
  const fresh = await createBuiltinObjects(registry, storage, ctx, builtinTemplates.get(templatesKey), asSystem);
  await loop.settle();
  if (fresh) {
    const templates: BuiltinTemplate[] = [];
    for (const key of builtinKeys(registry, apiDomain)) {
      const stored = await storage.get(key);
      if (stored) templates.push({ key, value: templateOf(stored.value) });
    }
    builtinTemplates.set(templatesKey, templates);
  }

  let fetchHandler: FetchHandler | undefined;
  const servers = new Set<Listening>();
  const snapshots = snapshotMethods({
    memory,
    watchHub,
    settle: () => loop.settle(),
    checkOpen: () => {
      if (closed) throw clusterClosed();
    },
  });
  const cluster: Cluster = {
    ...snapshots,
    fork: async () =>
      startCluster(
        { ...options, from: snapshots.snapshot(), clock: forkClock(clock) },
        { registry: optionRegistry(), serviceAccounts: serviceAccountTokens.setup, settled: loop.idle },
      ),
    client,
    clock,
    registry,
    serviceAccountTokens,
    apiDomain,
    reservedDomain,
    request: callerRequest,
    faults,
    requests,
    ...(audit ? { audit } : {}),
    fetch: (req) => (closed ? Promise.resolve(errorResponse(clusterClosed())) : (fetchHandler ??= createFetchHandler(cluster))(req)),
    async listen(listenOptions) {
      if (closed) throw clusterClosed();
      const trusted = listenOptions?.tls ? [...(listenOptions.clientCA ? [listenOptions.clientCA] : []), ...(await clientSigningCAs())] : [];
      const { cors, ...serverOptions } = listenOptions ?? {};
      // CORS wraps the handler (it answers preflights before authentication): a handler of its own.
      const handler = cors ? createFetchHandler(cluster, { cors }) : (fetchHandler ??= createFetchHandler(cluster));
      const server = await listen(handler, {
        ...serverOptions,
        ...(trusted.length ? { clientCA: trusted.join('\n') } : {}),
        now: clock.now(),
        admin: { token: adminToken, commonName: ADMIN_USER.username, organizations: ADMIN_USER.groups.filter((g) => g !== 'system:authenticated') },
      });
      servers.add(server);
      return { ...server, close: () => (servers.delete(server), server.close()) };
    },
    load: (text, loadOptions) => loadManifests(registry, callerRequest, text, loadOptions ?? {}, () => loop.settle()),
    settle: () => loop.settle(),
    get activeWatchers() {
      return watchHub.activeWatchers;
    },
    access: { authenticate: access.authenticate, authorizer: access.authorizer },
    issuerDiscovery: {
      configuration: (externalAddress) => {
        const found = serviceAccountTokens.discovery(externalAddress);
        return found.ok ? found.document : undefined;
      },
      keySet: () => serviceAccountTokens.keySet(),
    },
    adminToken,
    metrics,
    apiServerMetrics: serverMetrics,
    health,
    signingCA,
    encryption: atRest.encryption,
    async close() {
      if (closed) return;
      // Refuse new requests first, then end the watches (their streams end cleanly, before the
      // servers drop the connections that carried them).
      closed = true;
      loop.close();
      access.close();
      rbac?.close();
      watchHub.close();
      stopClock();
      // One turn lets the ended HTTP watch streams write their last chunk before their
      // connections are closed.
      await new Promise<void>((r) => setImmediate(r));
      await Promise.all([...servers].map((s) => s.close()));
      servers.clear();
      unsubscribe();
      await audit?.shutdown();
      await storage.close();
    },
  };
  return cluster;
}

/** Where a built-in object is stored, and its stored form. */
type BuiltinTemplate = BootstrapObject;

/** What the stored form of a built-in object depends on. */
function builtinTemplatesKey(options: ClusterOptions, apiDomain: string, reservedDomain: string): string {
  return JSON.stringify([apiDomain, reservedDomain, options.featureGates ?? {}, options.admission ?? {}]);
}

/**
 * The stored forms of the built-in objects, by cluster configuration: the first cluster of a
 * configuration makes them through the engine (and its controllers, which aggregate the bootstrap
 * roles); later ones store copies with their own uids and times, which is the same result without
 * the cost (tens of milliseconds per cluster). The default configuration's are generated
 * (`npm run gen:bootstrap`, checked by test/kinds/bootstrap-objects.test.ts), so even the first
 * cluster of a process (`memkube serve`) starts without making them.
 */
const builtinTemplates = new Map<string, readonly BuiltinTemplate[]>(
  DEFAULT_BOOTSTRAP_OBJECTS.length ? [[builtinTemplatesKey({}, DEFAULT_API_DOMAIN, DEFAULT_RESERVED_DOMAIN), DEFAULT_BOOTSTRAP_OBJECTS]] : [],
);

/** A stored object without what each cluster stamps anew: uid, creation time, revision, field-manager times. */
function templateOf(stored: Readonly<Record<string, unknown>>): Record<string, unknown> {
  const value = cloneJson(stored) as KubeObject;
  const meta = value.metadata!;
  // Placeholders keep each key where the server writes it; a copy fills them in.
  meta.uid = '';
  meta.creationTimestamp = '';
  delete meta.resourceVersion;
  for (const entry of (meta.managedFields ?? []) as { time?: string }[]) if (entry.time !== undefined) entry.time = '';
  // A controller's conditions carry the time it wrote them (a FlowSchema's Dangling condition).
  for (const condition of conditionsOf(value)) if (condition.lastTransitionTime !== undefined) condition.lastTransitionTime = '';
  return value;
}

/**
 * A cluster's copy of a template: its own uid and times in new metadata (and conditions), every
 * other part shared with the template, which is frozen once. Storage keeps frozen parts as they
 * are, so a cluster copies a few small objects per built-in object rather than each whole tree.
 */
function instanceOf(template: Readonly<Record<string, unknown>>, uid: string, now: string): KubeObject {
  deepFreeze(template);
  const meta = template['metadata'] as Readonly<Record<string, unknown>>;
  const metadata: Record<string, unknown> = extended(meta, { uid, creationTimestamp: now });
  const managedFields = meta['managedFields'] as readonly object[] | undefined;
  if (managedFields) metadata['managedFields'] = managedFields.map((entry) => extended(entry, { time: now }));
  const copy: KubeObject = { ...template, metadata };
  const status = template['status'] as Readonly<Record<string, unknown>> | undefined;
  const conditions = conditionsOf(template as KubeObject);
  if (status && conditions.some((c) => c.lastTransitionTime === '')) {
    copy['status'] = { ...status, conditions: conditions.map((c) => (c.lastTransitionTime === '' ? { ...c, lastTransitionTime: now } : c)) };
  }
  return copy;
}

/** The `status.conditions` of an object, if any. */
function conditionsOf(obj: KubeObject): { lastTransitionTime?: string }[] {
  const status = obj['status'] as { conditions?: unknown } | undefined;
  return Array.isArray(status?.conditions) ? (status.conditions as { lastTransitionTime?: string }[]) : [];
}

/**
 * The stored forms the built-in objects of a cluster with `options` are copied from, once a
 * cluster of that configuration made them; undefined before. For the bootstrap generator and tests.
 */
export function builtinTemplatesFor(options: ClusterOptions = {}): readonly BootstrapObject[] | undefined {
  return builtinTemplates.get(builtinTemplatesKey(options, options.apiDomain ?? DEFAULT_API_DOMAIN, options.reservedDomain ?? DEFAULT_RESERVED_DOMAIN));
}

/** Forgets every kept stored form, so that the next cluster makes its built-in objects through the engine. For the bootstrap generator and tests. */
export function forgetBuiltinTemplates(): void {
  builtinTemplates.clear();
}

/** Where each built-in object of a served kind is stored. */
function builtinKeys(registry: KindRegistry, apiDomain: string): BuiltinTemplate['key'][] {
  const keys: BuiltinTemplate['key'][] = [];
  for (const { kind: definition, namespace, object } of builtinObjectsFor(apiDomain)) {
    const kind = registry.kinds().find((k) => k.definition === definition);
    const name = object.metadata?.name;
    if (kind && name) keys.push({ bucket: kind.bucket, namespace: kind.namespaced ? (namespace ?? 'default') : '', name });
  }
  return keys;
}

/**
 * Creates the objects every cluster starts with (`builtinObjectsFor`: the bootstrap ClusterRoles and
 * bindings, the system PriorityClasses, the flowcontrol bootstrap objects) that are not there yet, as Kubernetes' post-start hooks
 * do; objects of a kind the cluster does not serve are skipped. Answers whether it made them all
 * through the engine (then their stored forms may be kept as templates once the controllers settled).
 */
async function createBuiltinObjects(
  registry: KindRegistry,
  storage: Storage,
  ctx: EngineContext,
  templates: readonly BuiltinTemplate[] | undefined,
  asSystem: (req: Omit<ApiRequest, 'user'>) => Promise<ApiResponse>,
): Promise<boolean> {
  if (templates) {
    const now = formatTime(ctx.clock.now());
    for (const { key, value } of templates) {
      if (await storage.get(key)) continue;
      await storage.create(key, instanceOf(value, ctx.newUid(), now));
    }
    return false;
  }
  let fresh = true;
  for (const { kind: definition, namespace, object } of builtinObjectsFor(ctx.apiDomain)) {
    const kind = registry.kinds().find((k) => k.definition === definition);
    const name = object.metadata?.name;
    if (!kind || !name) continue;
    const ns = kind.namespaced ? (namespace ?? 'default') : undefined;
    if (await storage.get({ bucket: kind.bucket, namespace: ns ?? '', name })) {
      fresh = false;
      continue;
    }
    await asSystem({
      verb: 'create',
      resource: { group: kind.group, version: definition.storageVersion.name, resource: definition.plural },
      namespace: ns,
      body: cloneJson(object),
    });
  }
  return fresh;
}

/** Creates every object in a YAML or JSON text (documents, and items of `kind: List`). */
async function loadManifests(
  registry: KindRegistry,
  request: (req: ApiRequest) => Promise<ApiResponse>,
  text: string,
  options: LoadOptions,
  settle: () => Promise<void>,
): Promise<KubeObject[]> {
  let docs;
  try {
    docs = parseYamlDocuments(text);
  } catch (e) {
    if (e instanceof YamlSyntaxError) throw badRequest(`error parsing manifest: ${e.message}`);
    throw e;
  }
  const objects: { obj: unknown; duplicateFields: string[] }[] = [];
  for (const doc of docs) {
    const value = doc.value as KubeObject;
    if (value && typeof value === 'object' && typeof value.kind === 'string' && value.kind.endsWith('List') && Array.isArray(value.items)) {
      value.items.forEach((item, i) => {
        const prefix = `items[${i}].`;
        objects.push({ obj: item, duplicateFields: doc.duplicateFields.filter((f) => f.startsWith(prefix)).map((f) => f.slice(prefix.length)) });
      });
    } else {
      objects.push({ obj: value, duplicateFields: doc.duplicateFields });
    }
  }
  const created: KubeObject[] = [];
  for (const { obj: o, duplicateFields } of objects) {
    const obj = o as KubeObject;
    if (!obj || typeof obj !== 'object' || Array.isArray(obj) || typeof obj.apiVersion !== 'string' || typeof obj.kind !== 'string') {
      throw badRequest('every manifest needs apiVersion and kind');
    }
    // A kind that a CustomResourceDefinition created moments ago (earlier in this text, or by the
    // load before) defines is served once the definition controller has established it.
    const found = registry.lookupKind(obj.apiVersion, obj.kind) ?? (await settle(), registry.lookupKind(obj.apiVersion, obj.kind));
    if (!found) {
      throw new ApiError({
        code: 404,
        reason: 'NotFound',
        message: `no matches for kind ${JSON.stringify(obj.kind)} in version ${JSON.stringify(obj.apiVersion)}`,
      });
    }
    const res = await request({
      verb: 'create',
      resource: { group: found.kind.group, version: found.version, resource: found.kind.definition.plural },
      namespace: found.kind.namespaced ? obj.metadata?.namespace || 'default' : undefined,
      body: obj,
      duplicateFields,
      writeOptions: { fieldValidation: options.fieldValidation },
      user: ADMIN_USER,
    });
    if (res.warnings.length) options.onWarning?.(res.warnings);
    created.push(res.body as KubeObject);
  }
  return created;
}

/**
 * Serves the kinds CustomResourceDefinitions define: a definition's kind is added to the registry,
 * replaced when its spec or accepted names change, and removed when it goes; replaced or removed,
 * its open watches end, as Kubernetes destroys a definition's old storage.
 */
function customResourceServing(
  registry: KindRegistry,
  watchHub: WatchHub,
  storage: Storage,
  egress: EgressDialer | undefined,
  onRatcheting: RatchetingObserver,
): CustomResourceServing {
  /** What a served definition was built from: its uid, generation, spec and accepted names. */
  interface Served {
    kind: ResolvedKind;
    uid: string | undefined;
    generation: number | undefined;
    spec: string;
    names: string;
    terminating: boolean;
  }
  const served = new Map<string, Served>();
  // A conversion webhook given as a Service is resolved through the cluster's Services.
  const services = async (namespace: string, name: string) => (await storage.get({ bucket: 'core/services', namespace, name }))?.value as Service | undefined;
  const unserve = (name: string) => {
    const current = served.get(name);
    if (!current) return;
    registry.remove(current.kind);
    served.delete(name);
    watchHub.closeBucket(current.kind.bucket);
  };
  return {
    serve(crd, terminating) {
      const name = crd.metadata?.name ?? '';
      const current = served.get(name);
      const names = JSON.stringify(crd.status?.acceptedNames ?? null);
      // As Kubernetes' custom resource handler, a new uid, spec or accepted names make new storage.
      // The spec text is compared only when the generation moved (a deletion mark moves it too).
      if (current && current.uid === crd.metadata?.uid && current.names === names) {
        const sameSpec = current.generation === crd.metadata?.generation || current.spec === JSON.stringify(crd.spec);
        if (sameSpec) {
          current.generation = crd.metadata?.generation;
          current.terminating = terminating;
          return current.kind.bucket;
        }
      }
      unserve(name);
      const entry: Served = {
        kind: undefined as unknown as ResolvedKind,
        uid: crd.metadata?.uid,
        generation: crd.metadata?.generation,
        spec: JSON.stringify(crd.spec),
        names,
        terminating,
      };
      try {
        entry.kind = registry.add(customResourceKind(crd, { terminating: () => entry.terminating, services, onRatcheting, ...(egress ? { egress } : {}) }));
      } catch {
        // A built-in resource of that group and name is served instead, as Kubernetes' built-in
        // handlers come before the custom resource handler.
        return undefined;
      }
      served.set(name, entry);
      return entry.kind.bucket;
    },
    unserve,
    approvalCondition: (crd) => apiApprovalCondition(crd.spec.group, crd.metadata?.annotations),
  };
}
