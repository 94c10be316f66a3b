/**
 * Response encoding: content negotiation on `Accept` (JSON, YAML, Table, PartialObjectMetadata;
 * protobuf is answered in JSON so clients fall back), `pretty`, and the body itself.
 */
import { stringify } from 'yaml';
import { ApiError } from '../machinery/errors.js';
import { setOwn } from '../util/own.js';
import { parseGoBool } from './query.js';

/** One clause of an Accept header. */
export interface MediaRange {
  type: string;
  params: Record<string, string>;
  q: number;
}

/** Parses an Accept header into clauses, best first (by q, then order). */
export function parseAccept(accept: string | null): MediaRange[] {
  if (!accept) return [];
  const out: MediaRange[] = [];
  for (const clause of accept.split(',')) {
    const [type, ...rest] = clause.split(';');
    const t = type!.trim().toLowerCase();
    if (!t) continue;
    const params: Record<string, string> = {};
    let q = 1;
    for (const p of rest) {
      const eq = p.indexOf('=');
      if (eq < 0) continue;
      const k = p.slice(0, eq).trim().toLowerCase();
      const v = p
        .slice(eq + 1)
        .trim()
        .replace(/^"(.*)"$/, '$1');
      if (k === 'q') q = Number(v) || 0;
      else setOwn(params, k, v);
    }
    out.push({ type: t, params, q });
  }
  return out
    .map((m, i) => ({ m, i }))
    .filter(({ m }) => m.q > 0)
    .sort((a, b) => b.m.q - a.m.q || a.i - b.i)
    .map(({ m }) => m);
}

/** The shape of the answer. */
export type Representation = 'object' | 'Table' | 'PartialObjectMetadata';

/** What to send. */
export interface Negotiated {
  format: 'json' | 'yaml';
  as: Representation;
  /** The Content-Type to answer with. */
  contentType: string;
}

const SUPPORTED = 'application/json, application/yaml, application/vnd.kubernetes.protobuf';

/** 406 NotAcceptable, as Kubernetes words it. */
export function notAcceptable(): ApiError {
  return new ApiError({ code: 406, reason: 'NotAcceptable', message: `only the following media types are accepted: ${SUPPORTED}` });
}

function formatOf(type: string): 'json' | 'yaml' | undefined {
  switch (type) {
    case 'application/json':
    case 'application/vnd.kubernetes.protobuf': // answered in JSON: clients decode by Content-Type
    case 'application/*':
    case '*/*':
      return 'json';
    case 'application/yaml':
      return 'yaml';
    default:
      return undefined;
  }
}

const MIME: Record<'json' | 'yaml', string> = { json: 'application/json', yaml: 'application/yaml' };

/**
 * Picks the representation. `transforms` says which `as=` forms the endpoint can give (Table and
 * PartialObjectMetadata for get and list); a clause asking for another is skipped, and when none
 * is left the answer is 406.
 */
export function negotiate(accept: string | null, transforms: boolean): Readonly<Negotiated> {
  // Clients send the same few Accept headers on every request: each is parsed once.
  const cache = transforms ? negotiatedForReads : negotiatedForWrites;
  const key = accept ?? '';
  if (key.length > MAX_CACHED_ACCEPT) return negotiateNow(accept, transforms);
  let found = cache.get(key);
  if (found === undefined) {
    found = Object.freeze(negotiateNow(accept, transforms));
    if (cache.size >= MAX_NEGOTIATED) cache.clear();
    cache.set(key, found);
  }
  return found;
}

/** Negotiated answers by Accept header, for endpoints with and without `as=` forms (bounded: cleared when full). */
const negotiatedForReads = new Map<string, Readonly<Negotiated>>();
const negotiatedForWrites = new Map<string, Readonly<Negotiated>>();
const MAX_NEGOTIATED = 256;
/** Longer Accept headers are parsed each time, so the cache stays small whatever clients send. */
const MAX_CACHED_ACCEPT = 256;

function negotiateNow(accept: string | null, transforms: boolean): Negotiated {
  const ranges = parseAccept(accept);
  if (ranges.length === 0) return { format: 'json', as: 'object', contentType: MIME.json };
  for (const r of ranges) {
    const format = formatOf(r.type);
    if (!format) continue;
    const as = r.params.as;
    if (as === undefined) return { format, as: 'object', contentType: MIME[format] };
    if (!transforms || r.params.g !== 'meta.k8s.io' || (r.params.v !== 'v1' && r.params.v !== 'v1beta1')) continue;
    if (as === 'Table' || as === 'PartialObjectMetadata' || as === 'PartialObjectMetadataList') {
      const shape: Representation = as === 'Table' ? 'Table' : 'PartialObjectMetadata';
      const name = as === 'Table' ? 'Table' : as;
      return { format, as: shape, contentType: `${MIME[format]};as=${name};v=${r.params.v};g=meta.k8s.io` };
    }
  }
  throw notAcceptable();
}

/** Whether to indent: `?pretty=` (Go's ParseBool), else for browsers, curl and wget. */
export function wantsPretty(params: URLSearchParams, userAgent: string | null): boolean {
  const p = params.get('pretty');
  if (p) return parseGoBool(p) ?? false;
  const ua = userAgent ?? '';
  return ua.startsWith('curl') || ua.startsWith('Wget') || ua.startsWith('Mozilla/5.0');
}

/** Serializes a body. */
export function encodeBody(body: unknown, format: 'json' | 'yaml', pretty: boolean): string {
  if (format === 'yaml') return stringify(body, { lineWidth: 0 });
  return (pretty ? JSON.stringify(body, null, 2) : JSON.stringify(body)) + '\n';
}

/**
 * An encoded answer that is not a stream: what most requests get. The node:http bridge writes it
 * as it is (no Fetch `Response` in between); {@link answerResponse} makes it a Fetch `Response`.
 */
export interface EncodedAnswer {
  readonly status: number;
  readonly contentType: string;
  /** The body: text, or its UTF-8 bytes when they were made already (a stored object's cached JSON). */
  readonly body: string | Uint8Array;
  /** Headers besides Content-Type and Cache-Control (Warning). */
  readonly headers?: Headers;
  /** The body before encoding (what an audit event at RequestResponse level records), when there is one. */
  readonly value?: unknown;
  /** The `Audit-Id` response header. */
  readonly auditID?: string;
}

/**
 * Whether a handler's answer is an {@link EncodedAnswer} rather than a Fetch `Response`. It never
 * touches the global `Response`: Node loads its whole Fetch implementation on first access of that
 * global, about 20 ms on a first request that needs none of it.
 */
export function isEncodedAnswer(answer: EncodedAnswer | Response): answer is EncodedAnswer {
  return typeof (answer as Partial<EncodedAnswer>).contentType === 'string';
}

/** Encodes a complete answer. */
export function encodeAnswer(code: number, body: unknown, format: 'json' | 'yaml', contentType: string, pretty: boolean, headers?: Headers): EncodedAnswer {
  return { status: code, contentType, body: encodeBody(body, format, pretty), headers, value: body };
}

/** An encoded answer with a body already serialized (e.g. a stored object's cached JSON text). */
export function textAnswer(code: number, text: string | Uint8Array, contentType: string, headers?: Headers, value?: unknown): EncodedAnswer {
  return { status: code, contentType, body: text, headers, value };
}

/** The Fetch `Response` of an encoded answer. */
export function answerResponse(answer: EncodedAnswer): Response {
  const h = answer.headers ?? new Headers();
  h.set('Content-Type', answer.contentType);
  // genericfilters.WithCacheControl: the default unless the handler chose (the issuer discovery documents do).
  if (!h.has('Cache-Control')) h.set('Cache-Control', 'no-cache, private');
  if (answer.auditID !== undefined) h.set('Audit-Id', answer.auditID);
  return new Response(answer.body, { status: answer.status, headers: h });
}

/** A complete response. */
export function encodeResponse(code: number, body: unknown, format: 'json' | 'yaml', contentType: string, pretty: boolean, headers?: Headers): Response {
  return answerResponse(encodeAnswer(code, body, format, contentType, pretty, headers));
}
