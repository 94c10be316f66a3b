/**
 * The node agent's HTTP servers, as kubelet's `ListenAndServeKubeletServer` and
 * `ListenAndServeKubeletReadOnlyServer` (`pkg/kubelet/server/server.go`) run them: the secured
 * HTTPS port (10250 by default) with every request authenticated and authorized, serving
 * `/healthz`, `/pods`, `/metrics`, `/metrics/slis`, `/containerLogs/...` and, behind the
 * `ContainerCheckpoint` gate, `/checkpoint/...`; and the optional read-only plain HTTP port,
 * unauthenticated, serving only `/healthz`, `/pods` and the metrics paths (the debugging paths
 * answer 405 there). Every request of either port is counted in the agent's HTTP metrics.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { createServer as createHttpsServer } from 'node:https';
import type { AddressInfo } from 'node:net';
import { hostname as osHostname } from 'node:os';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { CombinedClock, type Clock } from '../../clock.js';
import type { RuntimeService } from '../../cri/api.js';
import type { KubeApiClient } from '../kube-api.js';
import { createRequestAuthenticator, type NodeAgentAuthenticationOptions } from './authenticate.js';
import { authorizationErrorText, createNodeAuthorizer, forbiddenText, nodeRequestAttributes, type NodeAgentAuthorizationOptions } from './authorize.js';
import { checkpointHandler, createCheckpointsDir } from './checkpoint.js';
import { containerLogsHandler } from './container-logs.js';
import { healthzHandlers, nodeAgentHealthChecks } from './healthz.js';
import type { HealthChecks } from '../../metrics/health.js';
import { MetricsRegistry } from '../../metrics/registry.js';
import { writeMetrics } from '../metrics/expose.js';
import { instrumentRuntime } from '../metrics/runtime-metrics.js';
import { httpRequestLabels, httpRequestRecorder, metricPathBuckets, type ServerType } from '../metrics/http-metrics.js';
import type { NodeAgentPodSource } from './pod-containers.js';
import { httpError, writeErrorString, writeJson } from './respond.js';
import { decodePath, NodeAgentRouter, type RouteFilter } from './router.js';
import { cipherList, minTlsVersion, type GoTlsVersion } from './tls-settings.js';
import type { WebhookRetry } from './webhook-retry.js';
import { loadServingCertificate, type NodeAgentServingCertificate } from './serving-certificate.js';

/**
 * The secured port's TLS settings.
 * @category Node agent
 */
export interface NodeAgentTlsOptions {
  /** `--tls-cert-file` (with `keyFile`); without both, a self-signed pair is kept in `certDir`. */
  certFile?: string;
  /** `--tls-private-key-file`. */
  keyFile?: string;
  /** `--cert-dir`; `<rootDir>/pki` by default. */
  certDir?: string;
  /** `--tls-min-version`: Go's name (`VersionTLS12`, the default, or `VersionTLS13`, ...). */
  minVersion?: GoTlsVersion;
  /** `--tls-cipher-suites`: Go's names of the TLS 1.2 suites allowed (TLS 1.3 names are accepted and not configurable). */
  cipherSuites?: readonly string[];
}

/**
 * The feature gates the server reads.
 * @category Node agent
 */
export interface NodeAgentServerFeatureGates {
  /** `/checkpoint/...` is served; true by default (beta since v1.30). */
  ContainerCheckpoint?: boolean;
  /** `/pods`, `/healthz`, `/configz`, `/statusz` are authorized by their own subresource first, `proxy` after; true by default. */
  KubeletFineGrainedAuthz?: boolean;
  /** `/containerLogs` takes `stream=Stdout|Stderr`; false by default. */
  PodLogsQuerySplitStreams?: boolean;
  /** `/metrics/slis` is served with the health checks' SLI metrics; true by default. */
  ComponentSLIs?: boolean;
}

/**
 * Options of {@link createNodeAgentServer}.
 * @category Node agent
 */
export interface NodeAgentServerOptions {
  /** `--address`; `0.0.0.0` by default. */
  address?: string;
  /** `--port` of the secured port; 10250 by default, 0 picks a free one. */
  port?: number;
  /** `--read-only-port`; 0 (the default) serves none. A negative value picks a free one (tests). */
  readOnlyPort?: number;
  tls?: NodeAgentTlsOptions;
  /** The host name a generated certificate is for; the machine's (lower case) by default. */
  hostname?: string;
  authentication?: NodeAgentAuthenticationOptions;
  authorization?: NodeAgentAuthorizationOptions;
  featureGates?: NodeAgentServerFeatureGates;
  /** `enableDebuggingHandlers`: `/containerLogs` and `/checkpoint` are served; true by default. */
  enableDebuggingHandlers?: boolean;
  /** `--root-dir`: checkpoints go to `<rootDir>/checkpoints`, a generated certificate to `<rootDir>/pki`. */
  rootDir: string;
  /** The node's name: the object name every authorization question is about. */
  nodeName: string;
  /** The agent's pods. */
  pods: NodeAgentPodSource;
  /** The container runtime. */
  runtime: RuntimeService;
  /** The API server, for TokenReviews and SubjectAccessReviews (needed by the webhook modes). */
  kube?: KubeApiClient;
  /** The clock of cache TTLs, checkpoint names and `sinceSeconds`; real time by default. */
  clock?: Clock;
  /** The sync loop's health (`/healthz/syncloop`): undefined when healthy, else why not. */
  syncLoopHealth?: () => string | undefined;
  /** How TokenReview and SubjectAccessReview calls are retried on transient errors; k8s.io/apiserver's defaults. */
  webhookRetry?: WebhookRetry;
  /** How often a followed log looks at its container when the file does not change; 1000 ms by default. */
  followCheckMs?: number;
  /** The agent's metrics, served at `/metrics`, where both ports count their requests; a registry of its own by default. */
  metrics?: MetricsRegistry;
}

/**
 * The ports a started server listens on.
 * @category Node agent
 */
export interface NodeAgentServerAddress {
  readonly port: number;
  readonly readOnlyPort?: number;
  /** The secured port's certificate (read or generated). */
  readonly certificate: NodeAgentServingCertificate;
}

/**
 * The node agent's servers.
 * @category Node agent
 */
export interface NodeAgentServer {
  /** Loads or makes the certificate, creates the checkpoints directory, and starts listening. */
  listen(): Promise<NodeAgentServerAddress>;
  /** Stops listening and closes every connection. */
  close(): Promise<void>;
}

function podList(pods: NodeAgentPodSource): string {
  const items = pods.all();
  // Go encodes a PodList of no pods with `"items":null`.
  return `{"kind":"PodList","apiVersion":"v1","metadata":{},"items":${items.length ? JSON.stringify(items) : 'null'}}`;
}

const DEBUGGING_PATHS = ['/run/', '/exec/', '/attach/', '/portForward/', '/containerLogs/', '/runningpods/', '/debug/pprof/', '/logs/'];

/** What both ports serve from: the agent's metrics and its health checks (one SLI registry for both). */
interface Observability {
  readonly metrics: MetricsRegistry;
  readonly health: HealthChecks;
}

function routerFor(options: NodeAgentServerOptions, clock: Clock, secured: boolean, o: Observability): NodeAgentRouter {
  const router = new NodeAgentRouter();
  for (const [path, handler] of healthzHandlers(o.health)) router.handle(path, handler);
  // kubelet installs the metrics paths with /healthz on both ports ("auth not required" handlers; the secured port still authorizes them).
  router.handle('/metrics', ({ req, res }) => writeMetrics(req, res, o.metrics));
  const slis = o.health.slis;
  if (slis) {
    // component-base's SLIMetricsWithReset: DELETE empties the SLI registry.
    router.handle('/metrics/slis', ({ req, res }) => {
      if (req.method !== 'DELETE') return writeMetrics(req, res, slis);
      slis.resetMetrics();
      res.writeHead(200, { 'Content-Type': 'text/plain; charset=utf-8' });
      res.end('metrics reset\n');
    });
  }
  router.service('/pods', [{ method: 'GET', path: '', produces: 'application/json', handler: ({ res }) => writeJson(res, podList(options.pods)) }]);
  const gates = options.featureGates ?? {};
  if (secured && (options.enableDebuggingHandlers ?? true)) {
    router.service('/containerLogs', [
      {
        method: 'GET',
        path: '/{podNamespace}/{podID}/{containerName}',
        handler: containerLogsHandler({
          pods: options.pods,
          runtime: options.runtime,
          clock,
          splitStreams: gates.PodLogsQuerySplitStreams ?? false,
          ...(options.followCheckMs !== undefined ? { followCheckMs: options.followCheckMs } : {}),
        }),
      },
    ]);
    if (gates.ContainerCheckpoint ?? true) {
      router.service('/checkpoint/', [
        {
          method: 'POST',
          path: '/{podNamespace}/{podID}/{containerName}',
          produces: 'application/json',
          handler: checkpointHandler({ pods: options.pods, runtime: options.runtime, rootDir: options.rootDir, clock }),
        },
      ]);
    }
  } else {
    for (const path of DEBUGGING_PATHS) router.handle(path, ({ res }) => httpError(res, 405, 'Debug endpoints are disabled.'));
  }
  return router;
}

/** kubelet's auth filter: 401 `Unauthorized`, 500 on an authorizer error, 403 when no question is allowed. */
function authFilter(options: NodeAgentServerOptions, clock: Clock, clientCAConfigured: boolean): RouteFilter {
  const authenticate = createRequestAuthenticator(options.authentication ?? {}, { kube: options.kube, clock, clientCAConfigured, retry: options.webhookRetry });
  const authorize = createNodeAuthorizer(options.authorization ?? {}, { kube: options.kube, clock, retry: options.webhookRetry });
  const fineGrained = options.featureGates?.KubeletFineGrainedAuthz ?? true;
  return async ({ req, res, method, path }) => {
    const outcome = await authenticate(req);
    if (!('user' in outcome)) {
      writeErrorString(res, 401, 'Unauthorized');
      return false;
    }
    const questions = nodeRequestAttributes(outcome.user, method, path, options.nodeName, fineGrained);
    for (const question of questions) {
      let decision;
      try {
        decision = await authorize(question);
      } catch {
        writeErrorString(res, 500, authorizationErrorText(question));
        return false;
      }
      if (decision === 'Allow') return true;
    }
    writeErrorString(res, 403, forbiddenText(questions));
    return false;
  };
}

function onRequest(router: NodeAgentRouter, record: (req: IncomingMessage, res: ServerResponse) => void, filter?: RouteFilter) {
  return (req: IncomingMessage, res: ServerResponse) => {
    record(req, res);
    router.dispatch(req, res, filter).catch(() => {
      if (!res.headersSent) writeErrorString(res, 500, 'Internal Server Error');
      else res.end();
    });
  };
}

function listenOn(server: Server, port: number, address: string): Promise<number> {
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, address, () => {
      server.off('error', reject);
      resolve((server.address() as AddressInfo).port);
    });
  });
}

/**
 * The node agent's secured (and optionally read-only) server. Nothing is read or bound until
 * {@link NodeAgentServer.listen}.
 * @category Node agent
 */
export function createNodeAgentServer(given: NodeAgentServerOptions): NodeAgentServer {
  const metrics = given.metrics ?? new MetricsRegistry();
  // The server's own CRI calls (container status, checkpoint) count as the agent's.
  const options: NodeAgentServerOptions = { ...given, runtime: instrumentRuntime(given.runtime, metrics) };
  const clock = options.clock ?? new CombinedClock();
  const servers: Server[] = [];
  const observability: Observability = {
    metrics,
    health: nodeAgentHealthChecks({
      ...(options.syncLoopHealth ? { syncLoopHealth: options.syncLoopHealth } : {}),
      slis: options.featureGates?.ComponentSLIs ?? true,
    }),
  };
  const recordRequest = httpRequestRecorder(observability.metrics);
  const recorder = (serverType: ServerType, debugging: boolean) => {
    const buckets = metricPathBuckets(debugging, options.featureGates?.ContainerCheckpoint ?? true);
    return (req: IncomingMessage, res: ServerResponse) => {
      const target = req.url ?? '/';
      const q = target.indexOf('?');
      const escaped = q < 0 ? target : target.slice(0, q);
      // Go's URL.Path: decoded (a malformed escape is refused before any handler, its label still bounded).
      recordRequest(httpRequestLabels(req.method ?? 'GET', decodePath(escaped) ?? escaped, buckets, serverType), res);
    };
  };
  return {
    async listen() {
      const minVersion = minTlsVersion(options.tls?.minVersion);
      const ciphers = cipherList(options.tls?.cipherSuites);
      const address = options.address ?? '0.0.0.0';
      const certificate = await loadServingCertificate({
        ...(options.tls?.certFile ? { certFile: options.tls.certFile } : {}),
        ...(options.tls?.keyFile ? { keyFile: options.tls.keyFile } : {}),
        certDir: options.tls?.certDir ?? join(options.rootDir, 'pki'),
        hostname: options.hostname ?? osHostname().toLowerCase(),
        now: clock.now(),
      });
      const clientCAFile = options.authentication?.clientCAFile;
      const clientCA = clientCAFile ? await readFile(clientCAFile, 'utf8') : undefined;
      if ((options.featureGates?.ContainerCheckpoint ?? true) && (options.enableDebuggingHandlers ?? true)) await createCheckpointsDir(options.rootDir);
      const secured = createHttpsServer(
        {
          cert: certificate.cert,
          key: certificate.key,
          minVersion,
          ...(ciphers ? { ciphers } : {}),
          // Client certificates are asked for, never required: authentication decides (x509, token, anonymous).
          ...(clientCA ? { requestCert: true, rejectUnauthorized: false, ca: clientCA } : {}),
        },
        onRequest(
          routerFor(options, clock, true, observability),
          recorder('readwrite', options.enableDebuggingHandlers ?? true),
          authFilter(options, clock, clientCA !== undefined),
        ),
      );
      servers.push(secured);
      const port = await listenOn(secured, options.port ?? 10250, address);
      let readOnlyPort: number | undefined;
      if (options.readOnlyPort) {
        const readOnly = createServer(onRequest(routerFor(options, clock, false, observability), recorder('readonly', false)));
        servers.push(readOnly);
        readOnlyPort = await listenOn(readOnly, options.readOnlyPort < 0 ? 0 : options.readOnlyPort, address);
      }
      return { port, ...(readOnlyPort !== undefined ? { readOnlyPort } : {}), certificate };
    },
    async close() {
      await Promise.all(
        servers.splice(0).map(
          (server) =>
            new Promise<void>((resolve) => {
              server.close(() => resolve());
              server.closeAllConnections();
            }),
        ),
      );
    },
  };
}
