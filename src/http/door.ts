/**
 * What the HTTP door is made of and works on: the cluster it serves (`HttpCluster`), the request as
 * it reads it (`HttpRequest`), its options and its answers. Kept apart from the handler so that the
 * door's parts (access, non-resource paths) share them without importing the handler.
 */
import type { Clock } from '../clock.js';
import type { ApiRequest, ApiResponse, UserInfo } from '../machinery/request.js';
import type { KindRegistry } from '../schema/registry.js';
import type { RequestTracer } from '../tracing/index.js';
import type { AuthenticationRequest, ClientCertificate } from '../auth/authn/request-authenticator.js';
import type { Authorizer } from '../machinery/auth.js';
import type { ApiServerMetrics } from '../api/metrics/server-metrics.js';
import type { HealthChecks } from '../metrics/health.js';
import type { AuditPipeline } from '../audit/pipeline.js';
import type { EncodedAnswer } from './encode.js';

/**
 * What the HTTP door needs of a cluster. Declared here rather than taken from `Cluster` so that the
 * door does not depend on the module that wires it: a `Cluster` fits it as it is.
 * @category HTTP and adapters
 */
export interface HttpCluster {
  /** The kinds served: routes, discovery and the OpenAPI documents come from it. */
  readonly registry: KindRegistry;
  /** Runs one request through the engine. */
  request(req: ApiRequest): Promise<ApiResponse>;
  /** The now that the ages in tables (`kubectl get`, also of watch events) count from. */
  readonly clock: Clock;
  /**
   * Who sent a request and what they may do. Without it every request acts as the handler's
   * `defaultUser` (impersonation headers taken as they are) and the engine authorizes it.
   */
  readonly access?: HttpAccess;
  /**
   * The service account issuer's OIDC discovery documents (`/.well-known/openid-configuration`,
   * `/openid/v1/jwks`); not served without it, or when the issuer cannot have them.
   */
  readonly issuerDiscovery?: IssuerDiscovery;
  /** The audit policy and backends (`createCluster({ audit })`); requests are not audited without it. */
  readonly audit?: AuditPipeline;
  /**
   * The API server's metrics: served at `/metrics`, and what this door records its requests in. None: not served, nothing counted.
   * @internal
   */
  readonly apiServerMetrics?: ApiServerMetrics;
  /** The checks of `/healthz`, `/livez` and `/readyz` (and the SLIs of `/metrics/slis`); `ping` alone without them. */
  readonly health?: HealthChecks;
}

/**
 * The service account issuer's discovery documents.
 * @category Authentication and authorization
 */
export interface IssuerDiscovery {
  /** The OpenID configuration for a server reached at `externalAddress` (`host:port`), or undefined when not served. */
  configuration(externalAddress: string): object | undefined;
  /** The JSON Web Key Set of the keys that verify tokens. */
  keySet(): object;
}

/**
 * Authentication and authorization of HTTP requests, as a cluster configures them.
 * @category HTTP and adapters
 */
export interface HttpAccess {
  /** The user of a request (at once, or as a promise); throws or rejects with {@link AuthenticationError} for a 401. */
  authenticate(request: AuthenticationRequest): UserInfo | Promise<UserInfo>;
  /** The authorizer chain: non-resource paths, impersonation and resource requests are asked here. */
  readonly authorizer: Authorizer;
}

/**
 * Options of CORS (`cors` of `cluster.listen()` and of `createFetchHandler`).
 * @category HTTP and adapters
 */
export interface CorsOptions {
  /**
   * kube-apiserver's `--cors-allowed-origins`: Go (RE2) regular expressions matched against the
   * request's whole `Origin` header. Each must pin the host at both ends: start with `^` or
   * contain `//`, and end with `$` or contain `:` (e.g. `^https?://localhost(:|$)`,
   * `//example\.com(:|$)`). An empty list serves no CORS.
   */
  readonly allowedOrigins: readonly string[];
}

/**
 * Options of {@link createFetchHandler}.
 * @category HTTP and adapters
 */
export interface FetchHandlerOptions {
  /** Largest request body accepted; Kubernetes' 3 MiB by default. */
  maxBodyBytes?: number;
  /**
   * The user of requests without credentials, in place of `system:anonymous` (only when the
   * cluster allows anonymous requests); anonymous by default.
   */
  defaultUser?: UserInfo;
  /**
   * kube-apiserver's `--min-request-timeout`, in seconds: a watch without `timeoutSeconds` ends
   * after a random time between this and twice this, so clients re-list or resume now and then.
   * Unset or 0: such watches run until the client leaves.
   */
  minRequestTimeoutSeconds?: number;
  /**
   * The path the API is served under, e.g. `/k8s`: `/k8s/api/v1/namespaces` serves
   * `/api/v1/namespaces`, paths outside it are 404, and the URLs the server hands out (the OpenAPI
   * v3 index's `serverRelativeURL`s, its redirects) carry it. None by default.
   */
  prefix?: string;
  /** Makes a span of each request (`--tracing-config-file`; see `startRequestTracing`); none by default. */
  tracer?: RequestTracer;
  /**
   * Cross-origin requests from browsers (kube-apiserver's `--cors-allowed-origins`): an allowed
   * `Origin` gets the CORS headers and its preflight `OPTIONS` a 204 before authentication. None by
   * default; an invalid pattern throws.
   */
  cors?: CorsOptions;
}

/**
 * A Fetch-standard handler serving the Kubernetes API of `cluster`.
 * @category HTTP and adapters
 */
export type FetchHandler = (request: Request) => Promise<Response>;

/**
 * A request as the handler reads it. A Fetch `Request` makes one ({@link fetchHttpRequest}); the
 * node:http bridge makes a lighter one straight from node's request, so that a plain read or
 * write over node:http builds no Fetch `Request` or `Response` at all.
 */
export interface HttpRequest {
  readonly method: string;
  /** The whole URL; the handler may change its pathname (prefix). */
  readonly url: URL;
  /** A header's value (several joined with `, `, as Fetch `Headers` joins them), or null. */
  header(name: string): string | null;
  /** True when some header name starts with `impersonate-`: only then is the user read from the headers. */
  readonly impersonates: boolean;
  /** All headers as Fetch `Headers` (impersonation). */
  headers(): Headers;
  /** Every value of a header (lower-cased name), one per header line where the door can tell them apart. */
  headerValues(name: string): string[];
  /** The names of the request's headers, lower-cased. */
  headerNames(): string[];
  /** The TLS client certificate, when the connection presented one. */
  readonly clientCertificate?: ClientCertificate;
  /** The address of the client's end of the connection, where the door knows it (node:http). */
  readonly remoteAddress?: string;
  /** The request as a Fetch `Request`, for the few paths that take one (OpenAPI). */
  request(): Request;
  /** The whole body, refusing more than `limit` bytes (413) without reading them all. */
  body(limit: number): Promise<Uint8Array>;
}

/** What the handler answers: a Fetch `Response` (streams, OpenAPI, health) or an encoded body. */
export type HttpAnswer = Response | EncodedAnswer;

/** The handler behind a {@link FetchHandler}, on {@link HttpRequest}s. */
export type HttpRequestHandler = (request: HttpRequest) => Promise<HttpAnswer>;
