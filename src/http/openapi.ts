/**
 * `/openapi/v2` and `/openapi/v3[/<api/v1|apis/g/v>]`, served as kube-openapi serves them. The
 * documents are derived from the kinds' zod schemas (`src/openapi/`), built once per set of kinds
 * and cached. Each document's ETag is the upper-case hex SHA-512 of its bytes; the v3 index points
 * at `?hash=<etag>` URLs, which kubectl caches for good: with the right hash the answer is
 * `Cache-Control: public, immutable`, with a stale hash a 301 to the current one. `If-None-Match`
 * gets a 304. kubectl asks `/openapi/v2` for gnostic protobuf, which it gets.
 */
import { createHash } from 'node:crypto';
import { encodeSwaggerProtobuf } from '../openapi/protobuf.js';
import { v2Document } from '../openapi/v2.js';
import { v3Document, v3Keys } from '../openapi/v3.js';
import type { KindRegistry } from '../schema/registry.js';
import { pathNotFound } from './errors.js';
import { KUBERNETES_VERSION } from './version.js';

/** The media type kubectl asks for the gnostic `openapi.v2.Document` protobuf with. */
export const OPENAPI_V2_PROTOBUF = 'application/com.github.proto-openapi.spec.v2@v1.0+protobuf';
/**
 * The Content-Type it is answered with, as kube-openapi does: Go's `mime.ParseMediaType` (which
 * client-go runs on every response) rejects the `@` of the requested type.
 */
export const OPENAPI_V2_PROTOBUF_RETURNED = 'application/com.github.proto-openapi.spec.v2.v1.0+protobuf';

interface Served {
  body: Uint8Array;
  etag: string;
  contentType: string;
}

interface Cache {
  revision: number;
  v3: Map<string, Served | undefined>;
  v2json?: Served;
  v2proto?: Served;
}

const caches = new WeakMap<KindRegistry, Cache>();

function cacheOf(registry: KindRegistry): Cache {
  let cache = caches.get(registry);
  // The registry's revision changes whenever a kind starts or stops being served (custom resources).
  if (!cache || cache.revision !== registry.revision) {
    cache = { revision: registry.revision, v3: new Map() };
    caches.set(registry, cache);
  }
  return cache;
}

function served(body: Uint8Array, contentType: string): Served {
  return { body, etag: createHash('sha512').update(body).digest('hex').toUpperCase(), contentType };
}

const json = (doc: unknown) => new TextEncoder().encode(JSON.stringify(doc));

function v3Served(registry: KindRegistry, key: string): Served | undefined {
  const cache = cacheOf(registry);
  if (!cache.v3.has(key)) {
    const doc = v3Document(registry, key, KUBERNETES_VERSION.gitVersion);
    cache.v3.set(key, doc && served(json(doc), 'application/json'));
  }
  return cache.v3.get(key);
}

/**
 * `/openapi/v3`: the index of group-version documents, each at its `?hash=` URL. `prefix` is the
 * path the API is mounted under (`/k8s`), so the URLs work behind it; client-go reads both forms.
 */
export function openApiV3Index(registry: KindRegistry, prefix = ''): { paths: Record<string, { serverRelativeURL: string }> } {
  const paths: Record<string, { serverRelativeURL: string }> = {};
  for (const key of v3Keys(registry)) {
    const doc = v3Served(registry, key);
    if (doc) paths[key] = { serverRelativeURL: `${prefix}/openapi/v3/${key}?hash=${doc.etag}` };
  }
  return { paths };
}

/** One group-version document as JSON, or undefined when the group-version is not served. */
export function openApiV3Document(registry: KindRegistry, key: string): unknown {
  const doc = v3Served(registry, key);
  return doc && JSON.parse(new TextDecoder().decode(doc.body));
}

/** The Swagger 2.0 document as JSON. */
export function openApiV2Document(registry: KindRegistry): unknown {
  return JSON.parse(new TextDecoder().decode(v2Served(registry, false).body));
}

function v2Served(registry: KindRegistry, protobuf: boolean): Served {
  const cache = cacheOf(registry);
  if (!cache.v2json || !cache.v2proto) {
    const doc = v2Document(registry, KUBERNETES_VERSION.gitVersion);
    cache.v2json = served(json(doc), 'application/json');
    cache.v2proto = served(encodeSwaggerProtobuf(doc), OPENAPI_V2_PROTOBUF_RETURNED);
  }
  return protobuf ? cache.v2proto : cache.v2json;
}

/** Whether an Accept header prefers the v2 protobuf to JSON. */
function wantsProtobuf(accept: string | null): boolean {
  for (const clause of (accept ?? '').split(',')) {
    const type = clause.split(';')[0]!.trim().toLowerCase();
    if (type === OPENAPI_V2_PROTOBUF || type === OPENAPI_V2_PROTOBUF_RETURNED) return true;
    if (type === 'application/json' || type === '*/*' || type === 'application/*') return false;
  }
  return false;
}

function respond(doc: Served, request: Request, extra: Record<string, string> = {}): Response {
  const etag = `"${doc.etag}"`;
  const headers: Record<string, string> = { ETag: etag, Vary: 'Accept', ...extra };
  const match = request.headers.get('if-none-match');
  if (match && match.split(',').some((t) => t.trim() === etag || t.trim() === `W/${etag}` || t.trim() === '*')) {
    return new Response(null, { status: 304, headers });
  }
  headers['Content-Type'] = doc.contentType;
  headers['Content-Length'] = String(doc.body.length);
  return new Response(request.method === 'HEAD' ? null : doc.body, { status: 200, headers });
}

/**
 * The answer to an `/openapi/...` GET, or undefined for other paths. `path` is the URL path
 * without a trailing slash (and without `prefix`, the path the API is mounted under).
 */
export function openApiResponse(registry: KindRegistry, request: Request, url: URL, path: string, prefix = ''): Response | undefined {
  if (path === '/openapi/v2') return respond(v2Served(registry, wantsProtobuf(request.headers.get('accept'))), request);
  if (path === '/openapi/v3') {
    const body = json(openApiV3Index(registry, prefix));
    return new Response(request.method === 'HEAD' ? null : body, {
      status: 200,
      headers: { 'Content-Type': 'application/json', 'Content-Length': String(body.length) },
    });
  }
  if (!path.startsWith('/openapi/v3/')) return undefined;
  const key = path.slice('/openapi/v3/'.length);
  const doc = v3Served(registry, key);
  if (!doc) throw pathNotFound();
  const hash = url.searchParams.get('hash');
  if (hash !== null && hash !== '') {
    if (hash !== doc.etag) {
      return new Response(null, { status: 301, headers: { Location: `${prefix}/openapi/v3/${key}?hash=${doc.etag}` } });
    }
    const expires = new Date(Date.now() + 365 * 24 * 3600 * 1000).toUTCString();
    return respond(doc, request, { 'Cache-Control': 'public, immutable', Expires: expires });
  }
  return respond(doc, request);
}
