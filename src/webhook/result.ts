/**
 * What client-go's REST client (`Request.transformResponse`, `Result.Into`, `Result.Error`) makes
 * of a webhook's HTTP answer before decoding it, for any review type: a `Content-Type` Go cannot
 * parse, a status outside 200-206 (with the Status the body may carry), an empty body. Each is
 * the error text kube-apiserver then wraps into its own message.
 */
import { parseYamlDocuments } from '../codec/yaml.js';
import { yamlMayNestDeeperThan } from '../codec/yaml-depth.js';
import { goQuote } from '../util/go-format.js';
import type { WebhookResponse } from './client.js';

/** How much of an unexpected answer's body the error quotes (`maxUnstructuredResponseTextBytes`). */
const MAX_QUOTED_BODY_BYTES = 2048;

const TSPECIALS = new Set('()<>@,;:\\"/[]?=');
const isTokenChar = (c: string) => c > ' ' && c < '\x7f' && !TSPECIALS.has(c);
const isSpace = (c: string | undefined) => c === ' ' || c === '\t' || c === '\n' || c === '\r' || c === '\v' || c === '\f';

function consumeToken(v: string): [string, string] {
  let i = 0;
  while (i < v.length && isTokenChar(v[i]!)) i++;
  return [v.slice(0, i), v.slice(i)];
}

function trimLeftSpace(v: string): string {
  let i = 0;
  while (i < v.length && isSpace(v[i])) i++;
  return v.slice(i);
}

/** A parameter value: a token or a quoted string (`consumeValue`); a backslash escapes a tspecial. */
function consumeValue(v: string): [string, string] {
  if (v[0] !== '"') return consumeToken(v);
  let out = '';
  for (let i = 1; i < v.length; i++) {
    const c = v[i]!;
    if (c === '"') return [out, v.slice(i + 1)];
    if (c === '\\' && i + 1 < v.length && TSPECIALS.has(v[i + 1]!)) {
      out += v[++i];
      continue;
    }
    if (c === '\r' || c === '\n') return ['', v];
    out += c;
  }
  return ['', v];
}

/**
 * The error of Go's `mime.ParseMediaType`, or undefined when `value` parses: one token, or
 * `type/subtype`, then `; name=value` parameters (a trailing `;` allowed, a name at most once).
 */
export function goMediaTypeError(value: string): string | undefined {
  const semi = value.indexOf(';');
  const base = semi < 0 ? value : value.slice(0, semi);
  const mediaType = base.toLowerCase().trim();
  const [type, afterType] = consumeToken(mediaType);
  if (type === '') return 'mime: no media type';
  if (afterType !== '') {
    if (!afterType.startsWith('/')) return 'mime: expected slash after first token';
    const [subtype, rest] = consumeToken(afterType.slice(1));
    if (subtype === '') return 'mime: expected token after slash';
    if (rest !== '') return 'mime: unexpected content after media subtype';
  }
  const seen = new Set<string>();
  let v = value.slice(base.length);
  while (v.length > 0) {
    v = trimLeftSpace(v);
    if (v === '') break;
    let rest = v;
    let ok = rest.startsWith(';');
    let name = '';
    if (ok) {
      rest = trimLeftSpace(rest.slice(1));
      [name, rest] = consumeToken(rest);
      rest = trimLeftSpace(rest);
      ok = name !== '' && rest.startsWith('=');
    }
    if (ok) {
      rest = trimLeftSpace(rest.slice(1));
      const [paramValue, after] = consumeValue(rest);
      ok = !(paramValue === '' && after === rest);
      rest = after;
    }
    if (!ok) {
      if (v.trim() === ';') break;
      return 'mime: invalid media parameter';
    }
    const key = name.toLowerCase();
    if (seen.has(key)) return 'mime: duplicate parameter name';
    seen.add(key);
    v = rest;
  }
  return undefined;
}

/** `errors.NewGenericServerResponse(code, "POST", {}, "", serverMessage, ...)`'s message. */
export function genericServerResponseMessage(code: number, serverMessage: string): string {
  switch (code) {
    case 409:
      return 'the server reported a conflict';
    case 404:
      return 'the server could not find the requested resource';
    case 400:
      return 'the server rejected our request for an unknown reason';
    case 401:
      return 'the server has asked for the client to provide credentials';
    case 403:
      return serverMessage;
    case 406:
      return serverMessage === '' || serverMessage === 'unknown'
        ? 'the server was unable to respond with a content type that the client supports'
        : serverMessage;
    case 415:
      return serverMessage;
    case 405:
      return 'the server does not allow this method on the requested resource';
    case 422:
      return 'the server rejected our request due to an error in our request';
    case 503:
      return 'the server is currently unable to handle the request';
    case 504:
      return 'the server was unable to return a response in the time allotted, but may still be processing the request';
    case 429:
      return 'the server has received too many requests and has asked us to try again later';
  }
  if (code >= 500) return `an error on the server (${goQuote(serverMessage)}) has prevented the request from succeeding`;
  return `the server responded with the status code ${code} but did not return more information`;
}

/** Whether the answer is text for the error to quote (`isTextResponse`). */
function isTextResponse(contentType: string): boolean {
  if (contentType === '') return true;
  if (goMediaTypeError(contentType) !== undefined) return false;
  return contentType.split(';')[0]!.trim().toLowerCase().startsWith('text/');
}

/** The body as JSON, else as the first YAML document; undefined when it is neither. */
function decodeLoosely(body: Buffer): unknown {
  const text = body.toString('utf8');
  try {
    return JSON.parse(text) as unknown;
  } catch {
    // The YAML parser recurses per level: deep nesting is refused unread.
    if (yamlMayNestDeeperThan(text, 64)) return undefined;
    try {
      return parseYamlDocuments(text)[0]?.value;
    } catch {
      return undefined;
    }
  }
}

/**
 * `Result.Error`: the message of a failed `Status` the body carries (any object of kind Status
 * whose `status` is `Failure`), else the generic message for the status code.
 */
function unexpectedStatusError(res: WebhookResponse): string {
  const decoded = res.body.length ? decodeLoosely(res.body) : undefined;
  if (decoded && typeof decoded === 'object' && !Array.isArray(decoded)) {
    const s = decoded as Record<string, unknown>;
    const message = s['message'];
    if (s['kind'] === 'Status' && s['status'] === 'Failure' && (message === undefined || message === null || typeof message === 'string')) {
      return typeof message === 'string' ? message : '';
    }
  }
  const quoted = isTextResponse(res.contentType) ? res.body.subarray(0, MAX_QUOTED_BODY_BYTES).toString('utf8').trim() : 'unknown';
  return genericServerResponseMessage(res.status, quoted);
}

/**
 * The error client-go reports for an answer before decoding it into the expected type, or
 * undefined when the body is to be decoded: an unparsable `Content-Type` (`Internal error
 * occurred: mime: ...`), a status outside 200-206, an empty body.
 */
export function responseError(res: WebhookResponse): string | undefined {
  // Without a Content-Type the client assumes the type it sent.
  const contentType = res.contentType || 'application/json';
  const mime = goMediaTypeError(contentType);
  if (mime) return `Internal error occurred: ${mime}`;
  if (res.status !== 101 && (res.status < 200 || res.status > 206)) return unexpectedStatusError(res);
  if (res.body.length === 0) return `0-length response with status code: ${res.status} and content type: ${contentType}`;
  return undefined;
}
