/**
 * The HTTP door as a Fetch-standard function, `(Request) => Promise<Response>`: it routes, decodes,
 * runs the one engine through `cluster.request`, and encodes. Runtime adapters (node:http in
 * `listen.ts`) only forward to it.
 */
import { isPromise } from '../util/maybe-promise.js';
import { isStreamedBody, type ApiRequest, type UserInfo, type Verb } from '../machinery/request.js';
import { connectVerbOf, type ConnectSubresource } from '../schema/define-kind.js';
import type { ResolvedKind } from '../schema/registry.js';
import { storedJsonLine } from '../storage/json-text.js';
import type { StoredValue } from '../storage/storage.js';
import { compactStatus } from '../machinery/errors.js';
import type { RequestSpan, TracedRequest } from '../tracing/index.js';
import { impersonatedUser } from '../auth/impersonation.js';
import { httpRequestInfo, nonResourceAttributes, resourceAttributes, type ResourceRequestInfo } from '../auth/request-attributes.js';
import type { AuthorizationAttributes } from '../machinery/auth.js';
import { decodeDeleteOptions, decodeObjectBody, decodePatchBody, MAX_BODY_BYTES, patchTypeOf, readBody } from './decode.js';
import { subresourcesOf } from './discovery.js';
import { answerResponse, encodeAnswer, isEncodedAnswer, negotiate, textAnswer, wantsPretty, type EncodedAnswer, type Negotiated } from './encode.js';
import { addWarnings, asApiError, errorHeaders, methodNotAllowed, pathNotFound } from './errors.js';
import { includeObjectOf, isWatch, optionsFor } from './query.js';
import { parseResourcePath, type ResourceRoute } from './routes.js';
import { toPartialMetadata, toTable } from './tables.js';
import { ANONYMOUS, userOf } from './users.js';
import { httpRequestMeter, watchEventRecorder, type MeteredStart } from './metrics.js';
import { proxiedRequestHeaders, streamedResponse } from './streamed.js';
import { isWatchStream, watchResponse } from './watch.js';
import { randomUuid } from '../util/uuid.js';
import type { FetchHandler, FetchHandlerOptions, HttpAnswer, HttpCluster, HttpRequest, HttpRequestHandler } from './door.js';
import { authenticate, authorizeHttp } from './access.js';
import { isResourcePath, nonResourceResponse } from './non-resource.js';
import type { RequestAudit } from '../audit/request-audit.js';
import type { RequestAuditRecorder } from '../machinery/request.js';
import { attachAudit, AuditRejectedError, auditRejectedAnswer, beginHttpAudit, finishHttpAudit, httpAuditInit, recorderOf } from './audit.js';
import { extended } from '../util/extended.js';
import { withCors } from './cors.js';

export type {
  CorsOptions,
  HttpCluster,
  IssuerDiscovery,
  HttpAccess,
  FetchHandlerOptions,
  FetchHandler,
  HttpRequest,
  HttpAnswer,
  HttpRequestHandler,
} from './door.js';

const HTTP_REQUEST_HANDLER = Symbol('memkube.httpRequestHandler');

/**
 * The handler on {@link HttpRequest}s behind a {@link FetchHandler} made by {@link createFetchHandler}
 * (undefined for any other function): node:http doors use it to serve without building Fetch objects.
 */
export function httpRequestHandlerOf(handler: FetchHandler): HttpRequestHandler | undefined {
  return (handler as FetchHandler & { [HTTP_REQUEST_HANDLER]?: HttpRequestHandler })[HTTP_REQUEST_HANDLER];
}

/** The {@link HttpRequest} of a Fetch `Request`. */
export function fetchHttpRequest(request: Request): HttpRequest {
  let impersonates: boolean | undefined;
  return {
    method: request.method,
    url: new URL(request.url),
    header: (name) => request.headers.get(name),
    get impersonates() {
      if (impersonates === undefined) {
        impersonates = false;
        for (const [name] of request.headers) if (name.startsWith('impersonate-')) impersonates = true;
      }
      return impersonates;
    },
    headers: () => request.headers,
    // Fetch joins repeated header lines with ', ': the values are split again.
    headerValues: (name) => request.headers.get(name)?.split(', ') ?? [],
    headerNames: () => [...request.headers.keys()],
    request: () => request,
    body: (limit) => readBody(request, limit),
  };
}

/** An {@link HttpAnswer} as a Fetch `Response`. */
export function answerAsResponse(answer: HttpAnswer): Response {
  return isEncodedAnswer(answer) ? answerResponse(answer) : answer;
}

/**
 * Creates the Fetch-standard handler of a cluster.
 * @category HTTP and adapters
 */
export function createFetchHandler(cluster: HttpCluster, options: FetchHandlerOptions = {}): FetchHandler {
  // Outside authentication, as DefaultBuildHandlerChain puts WithCORS: a preflight carries no credentials.
  const core = withCors(createHttpRequestHandler(cluster, options), options.cors);
  const handler: FetchHandler = async (request) => answerAsResponse(await core(fetchHttpRequest(request)));
  return Object.assign(handler, { [HTTP_REQUEST_HANDLER]: core });
}

function createHttpRequestHandler(cluster: HttpCluster, options: FetchHandlerOptions): HttpRequestHandler {
  const maxBody = options.maxBodyBytes ?? MAX_BODY_BYTES;
  const defaultUser = options.defaultUser ?? ANONYMOUS;
  const minRequestTimeout = options.minRequestTimeoutSeconds ?? 0;
  const prefix = normalizePrefix(options.prefix);
  const tracer = options.tracer;
  const audit = cluster.audit;
  const meter = httpRequestMeter(cluster.apiServerMetrics, cluster.registry);
  return async (request) => {
    const url = request.url;
    // Each read of a URL's part makes a new string: read once.
    const { pathname, search } = url;
    let route: ResourceRoute | undefined;
    let metered: MeteredStart | undefined;
    let routed = false;
    const receivedAt = audit ? cluster.clock.now() : 0;
    // WithAuditInit: every answer carries the request's Audit-ID, the client's own when it sent one.
    const auditID = request.header('audit-id') || randomUuid();
    // The request URI as audit events and traces show it; made only for them.
    const target = audit || tracer ? `${pathname}${search}` : '';
    const pretty = wantsPretty(url.searchParams, request.header('user-agent'));
    let sc: ServeContext | undefined;
    let span: RequestSpan | undefined;
    let answer: HttpAnswer;
    let audited: RequestAudit | undefined;
    let failure: unknown;
    try {
      let path = pathname;
      if (prefix) {
        const rest = stripPrefix(pathname, prefix);
        if (rest === undefined) throw pathNotFound();
        url.pathname = rest;
        path = url.pathname;
      }
      const access = cluster.access;
      let user = defaultUser;
      let authorized = false;
      route = isResourcePath(path) ? parseResourcePath(path) : undefined;
      metered = meter?.start(request, route, search);
      // Asked from the path itself, as kube-apiserver's RequestInfoFactory reads it, before any routing.
      const info = access || audit ? httpRequestInfo(request.method, path, url.searchParams) : undefined;
      const auditInit = (u: UserInfo | undefined) =>
        httpAuditInit(request, auditID, receivedAt, target, { ...attributesOf(u ?? ANONYMOUS, info, request.method, path), user: u });
      if (access) {
        const authenticating = authenticate(access, request, path, defaultUser, audit && ((message) => audit.unauthenticated(auditInit(undefined), message)));
        // Awaited only when it answers a promise, as the authorization below: most answer at once.
        const authenticated = isPromise(authenticating) ? await authenticating : authenticating;
        // WithAudit runs between authentication and impersonation: the policy sees who authenticated.
        if (audit) audited = await beginHttpAudit(audit, auditInit(authenticated));
        user = request.impersonates
          ? await impersonatedUser(authenticated, request.headerNames(), (name) => request.headerValues(name), access.authorizer)
          : authenticated;
        if (audited && user !== authenticated) audited.impersonate(user);
        // kube-apiserver's tracing filter runs after authentication: the caller's groups decide whether its trace is followed.
        span = tracer?.startRequest(tracedRequest(request, target, route, user));
        const authorizing = authorizeHttp(access.authorizer, attributesOf(user, info, request.method, path), audited);
        if (authorizing) await authorizing;
        authorized = true;
      } else {
        if (request.impersonates) user = userOf(request.headers(), defaultUser);
        if (audit) audited = await beginHttpAudit(audit, auditInit(user));
        span = tracer?.startRequest(tracedRequest(request, target, route, user));
      }
      const recorder = recorderOf(audit, audited);
      routed = true;
      const early = nonResourceResponse(cluster, request, url, pretty, prefix);
      if (early) answer = await early;
      else {
        if (!route) throw pathNotFound();
        sc = { pretty, maxBody, user, authorized, minRequestTimeout, format: 'json', audit: recorder };
        answer = await serveResource(cluster, request, url, route, sc);
      }
    } catch (e) {
      if (e instanceof AuditRejectedError) {
        span?.end(500);
        const rejected = { ...auditRejectedAnswer(target), auditID };
        if (metered) meter!.finish(metered, request, rejected, routed, route);
        return rejected;
      }
      failure = e;
      answer = errorAnswer(e, sc?.format ?? 'json', pretty);
    }
    // A watch's span ends when its answer starts, not when its stream ends.
    span?.end(answer.status);
    if (audited) answer = await finishHttpAudit(audited, answer, failure);
    if (metered) meter!.finish(metered, request, answer, routed, route);
    return withAuditID(answer, auditID);
  };
}

/** What authorization and audit see of a request by `user`: its resource, or its path. */
function attributesOf(user: UserInfo, info: ResourceRequestInfo | undefined, method: string, path: string): AuthorizationAttributes {
  return info ? resourceAttributes(user, info) : nonResourceAttributes(user, method, path);
}

/** The answer with its `Audit-Id` header. */
function withAuditID(answer: HttpAnswer, auditID: string): HttpAnswer {
  if (isEncodedAnswer(answer)) return extended(answer, { auditID });
  try {
    answer.headers.set('Audit-Id', auditID);
  } catch {
    /* a Response with immutable headers (a proxied fetch answer) keeps its own */
  }
  return answer;
}

/** What the tracer records of a request. */
function tracedRequest(request: HttpRequest, target: string, route: ResourceRoute | undefined, user: UserInfo): TracedRequest {
  return {
    method: request.method,
    target,
    header: (name) => request.header(name) ?? undefined,
    tls: request.url.protocol === 'https:',
    groups: user.groups,
    ...(route
      ? {
          resource: {
            apiGroup: route.group,
            apiVersion: route.version,
            namespace: route.namespace,
            resource: route.resource,
            name: route.name,
            subresource: route.subresource,
          },
        }
      : {}),
  };
}

/** The Status answer of a failure (as `errorResponse` in errors.ts, without a Fetch `Response`). */
function errorAnswer(e: unknown, format: 'json' | 'yaml', pretty: boolean): EncodedAnswer {
  const err = asApiError(e);
  return encodeAnswer(err.code, compactStatus(err.status), format, format === 'yaml' ? 'application/yaml' : 'application/json', pretty, errorHeaders(err));
}

/** `''` for no prefix; otherwise `/a/b`: a leading slash, no trailing one. */
export function normalizePrefix(prefix: string | undefined): string {
  const trimmed = (prefix ?? '').replace(/\/+$/, '');
  return trimmed === '' ? '' : trimmed.startsWith('/') ? trimmed : `/${trimmed}`;
}

/** The path below `prefix` (`/` for the prefix itself), or undefined when `pathname` is outside it. */
export function stripPrefix(pathname: string, prefix: string): string | undefined {
  if (pathname === prefix) return '/';
  return pathname.startsWith(`${prefix}/`) ? pathname.slice(prefix.length) : undefined;
}

interface ServeContext {
  pretty: boolean;
  maxBody: number;
  /** The request's user, authenticated (and impersonated). */
  user: UserInfo;
  /** Whether the door authorized the request already. */
  authorized: boolean;
  minRequestTimeout: number;
  /** The format the request negotiated, once it did: its failures are answered in it. */
  format: 'json' | 'yaml';
  /** The request's audit, handed to the engine (absent when the cluster does not audit). */
  audit?: RequestAuditRecorder;
}

/** The connect subresource a route names (`pods/log`, `nodes/proxy`), if any. */
function connectorOf(route: ResourceRoute, kind: ResolvedKind): ConnectSubresource | undefined {
  return route.name !== undefined && route.subresource !== undefined ? kind.definition.connectSubresources?.[route.subresource] : undefined;
}

/** The verb of a method on a route; 405 when the route does not take the method. */
function verbOf(method: string, route: ResourceRoute, kind: ResolvedKind, params: URLSearchParams): Verb {
  const connector = connectorOf(route, kind);
  if (connector) {
    if (!connector.methods.some((m) => m === method)) throw methodNotAllowed();
    // OPTIONS has no verb of its own; the engine checks the method against the subresource.
    return connectVerbOf(method) ?? 'get';
  }
  if (route.legacyWatch) {
    if (method !== 'GET' || route.subresource) throw methodNotAllowed();
    return 'watch';
  }
  if (route.name !== undefined) {
    const sub = route.subresource;
    const allowed =
      sub === undefined ? ['GET', 'PUT', 'PATCH', 'DELETE'] : (subresourcesOf(kind).find((s) => s.name === sub)?.verbs ?? []).map((v) => METHOD_OF_VERB[v]);
    if (!allowed.includes(method)) throw methodNotAllowed();
    return ({ GET: 'get', PUT: 'update', PATCH: 'patch', DELETE: 'delete', POST: 'create' } as const)[method as 'GET']!;
  }
  // A namespaced kind's collection across all namespaces is only listed and watched.
  if (kind.namespaced && route.namespace === undefined && method !== 'GET') throw methodNotAllowed();
  switch (method) {
    case 'GET':
      return isWatch(params) ? 'watch' : 'list';
    case 'POST':
      return 'create';
    case 'DELETE':
      return 'deletecollection';
    default:
      throw methodNotAllowed();
  }
}

/** The HTTP method of a subresource's verb, as discovery lists the verbs. */
const METHOD_OF_VERB: Readonly<Record<string, string>> = { get: 'GET', update: 'PUT', patch: 'PATCH', create: 'POST' };

/** Checks that the route's shape exists for the kind (scope, subresource); 404 otherwise. */
function checkShape(route: ResourceRoute, kind: ResolvedKind): void {
  if (!kind.namespaced && route.namespace !== undefined) throw pathNotFound();
  if (kind.namespaced && route.namespace === undefined && route.name !== undefined) throw pathNotFound();
  if (route.subresource !== undefined && !subresourcesOf(kind).some((s) => s.name === route.subresource)) throw pathNotFound();
  if (route.subpath && !connectorOf(route, kind)?.takesPath) throw pathNotFound();
}

async function serveResource(cluster: HttpCluster, request: HttpRequest, url: URL, route: ResourceRoute, sc: ServeContext): Promise<HttpAnswer> {
  const params = url.searchParams;
  const kind = cluster.registry.lookup({ group: route.group, version: route.version, resource: route.resource });
  if (!kind) throw pathNotFound();
  checkShape(route, kind);
  const connector = connectorOf(route, kind);
  if (connector) return serveConnect(cluster, request, route, kind, sc);
  const method = request.method === 'HEAD' ? 'GET' : request.method;
  const verb = verbOf(method, route, kind, params);
  const readVerb = verb === 'get' || verb === 'list' || verb === 'watch';
  const negotiated = negotiate(request.header('accept'), readVerb);
  sc.format = negotiated.format;

  const req: ApiRequest = {
    verb,
    resource: { group: route.group, version: route.version, resource: route.resource },
    subresource: route.subresource,
    namespace: route.namespace,
    name: route.name,
    user: sc.user,
    ...(sc.authorized ? { authorized: true } : {}),
    meteredByDoor: cluster.apiServerMetrics?.enabled === true,
    userAgent: request.header('user-agent') ?? undefined,
    ...optionsFor(verb, params),
  };
  if (route.legacyWatch && route.name !== undefined) {
    // `/watch/<resource>/<name>` watches one object: Kubernetes turns the name into a field selector.
    const byName = `metadata.name=${route.name}`;
    req.listOptions = { ...req.listOptions, fieldSelector: req.listOptions?.fieldSelector ? `${req.listOptions.fieldSelector},${byName}` : byName };
    delete req.name;
  }
  if (verb === 'watch' && !req.listOptions?.timeoutSeconds && sc.minRequestTimeout > 0) {
    // get.go ListResource: `timeout = minRequestTimeout * (rand.Float64() + 1.0)` when none is asked.
    req.listOptions = { ...req.listOptions, timeoutSeconds: sc.minRequestTimeout * (Math.random() + 1) };
  }
  const includeObject = negotiated.as === 'Table' ? includeObjectOf(params) : 'Metadata';

  const contentType = request.header('content-type');
  if (verb === 'create' || verb === 'update') {
    const decoded = decodeObjectBody(contentType, await request.body(sc.maxBody), kind.definition.kind);
    req.body = decoded.value;
    req.duplicateFields = decoded.duplicateFields;
  } else if (verb === 'patch') {
    const patchType = patchTypeOf(contentType);
    const decoded = decodePatchBody(patchType, await request.body(sc.maxBody));
    req.patchType = patchType;
    req.body = decoded.value;
    req.duplicateFields = decoded.duplicateFields;
  } else if (verb === 'delete' || verb === 'deletecollection') {
    const bytes = await request.body(sc.maxBody);
    if (bytes.length > 0) req.deleteOptions = decodeDeleteOptions(contentType, bytes);
  }

  attachAudit(req, sc.audit);
  const res = await cluster.request(req);
  let headers: Headers | undefined;
  if (res.warnings.length > 0) {
    headers = new Headers();
    addWarnings(headers, res.warnings);
  }
  if (verb === 'watch') {
    if (!isWatchStream(res.body)) throw new Error('the engine answered a watch without a stream');
    return watchResponse(res.body, {
      contentType: negotiated.contentType,
      format: negotiated.format,
      headers,
      transform: transformFor(negotiated, kind, route.version, includeObject, () => cluster.clock.now()),
      onEvent: watchEventRecorder(cluster.apiServerMetrics, kind, route.version),
    });
  }
  if (verb === 'get' && negotiated.as === 'object' && negotiated.format === 'json' && !sc.pretty && isStoredValue(res.body)) {
    return textAnswer(res.code, storedJsonLine(res.body), negotiated.contentType, headers, res.body);
  }
  const body = inNegotiatedRepresentation(negotiated, kind, route.version, res.body, includeObject, cluster.clock.now());
  return encodeAnswer(res.code, body, negotiated.format, negotiated.contentType, sc.pretty, headers);
}

/** Methods whose body a proxy passes on. */
const WITHOUT_BODY = new Set(['GET', 'HEAD', 'OPTIONS']);

/**
 * A connect subresource (`pods/log`, `nodes/proxy`): the method, query, rest of the path, body and
 * headers go to the engine as they came; its streamed answer is written as it arrives.
 */
async function serveConnect(cluster: HttpCluster, request: HttpRequest, route: ResourceRoute, kind: ResolvedKind, sc: ServeContext): Promise<HttpAnswer> {
  const params: Record<string, string[]> = {};
  for (const [name, value] of request.url.searchParams) (params[name] ??= []).push(value);
  const body = WITHOUT_BODY.has(request.method) ? undefined : await request.body(sc.maxBody);
  const req: ApiRequest = {
    verb: verbOf(request.method, route, kind, request.url.searchParams),
    resource: { group: route.group, version: route.version, resource: route.resource },
    subresource: route.subresource,
    namespace: route.namespace,
    name: route.name,
    user: sc.user,
    ...(sc.authorized ? { authorized: true } : {}),
    meteredByDoor: cluster.apiServerMetrics?.enabled === true,
    userAgent: request.header('user-agent') ?? undefined,
    connect: {
      method: request.method,
      params,
      ...(request.url.search.length > 1 ? { query: request.url.search.slice(1) } : {}),
      ...(route.subpath ? { path: route.subpath.join('/') } : {}),
      ...(body && body.length > 0 ? { body } : {}),
      headers: proxiedRequestHeaders(request.headerNames(), (name) => request.header(name)),
    },
  };
  attachAudit(req, sc.audit);
  const res = await cluster.request(req);
  if (!isStreamedBody(res.body)) throw new Error('the engine answered a connect subresource without a stream');
  const headers = new Headers();
  addWarnings(headers, res.warnings);
  return streamedResponse(res.code, res.body, headers);
}

/**
 * A get answers the stored value itself when no conversion was needed; stored values are
 * deep-frozen, so a frozen body is one and its JSON text can be cached.
 */
function isStoredValue(body: unknown): body is StoredValue {
  return typeof body === 'object' && body !== null && Object.isFrozen(body);
}

function metaVersion(n: Negotiated): string {
  return /;v=(v1beta1)/.test(n.contentType) ? 'v1beta1' : 'v1';
}

/** The body as the client asked to see it: as is, as a Table, or as PartialObjectMetadata (`Accept: ...;as=...`). */
function inNegotiatedRepresentation(
  n: Negotiated,
  kind: ResolvedKind,
  version: string,
  body: unknown,
  includeObject: 'None' | 'Metadata' | 'Object',
  now: number,
): unknown {
  if (n.as === 'Table') return toTable(kind, version, body, includeObject, now, metaVersion(n));
  if (n.as === 'PartialObjectMetadata') return toPartialMetadata(body, metaVersion(n));
  return body;
}

function transformFor(n: Negotiated, kind: ResolvedKind, version: string, includeObject: 'None' | 'Metadata' | 'Object', now: () => number) {
  if (n.as === 'object') return undefined;
  return (event: { object: unknown }, index: number) => {
    const out = inNegotiatedRepresentation(n, kind, version, event.object, includeObject, now()) as Record<string, unknown>;
    // Like Kubernetes, only the first event of a Table watch carries the column definitions.
    if (n.as === 'Table' && index > 0) out.columnDefinitions = [];
    return out;
  };
}
