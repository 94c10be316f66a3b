/**
 * Request bodies: read with Kubernetes' 3 MiB limit, decoded by content type (JSON with duplicate
 * keys reported, YAML, Kubernetes protobuf for the built-in kinds, the four patch types), with
 * Kubernetes' 400/413/415 answers.
 */
import { ApiError, badRequest } from '../machinery/errors.js';
import type { DeleteOptions, PatchType } from '../machinery/request.js';
import { JsonSyntaxError, parseJson } from '../codec/json.js';
import { parseYamlDocuments, YamlSyntaxError } from '../codec/yaml.js';
import { decodeProtobufObject, PROTOBUF_MEDIA_TYPE, ProtobufError, UnknownProtobufKindError } from './protobuf/index.js';

/** Kubernetes' `MaxRequestBodyBytes`: 3 MiB. */
export const MAX_BODY_BYTES = 3 * 1024 * 1024;

/** A decoded body. */
export interface DecodedRequestBody {
  value: unknown;
  duplicateFields: string[];
}

/** 413 `Request entity too large: limit is 3145728`. */
export function entityTooLarge(limit: number): ApiError {
  return new ApiError({ code: 413, reason: 'RequestEntityTooLarge', message: `Request entity too large: limit is ${limit}` });
}

/** Reads the whole body, refusing more than `limit` bytes without reading them all. */
export async function readBody(request: Request, limit = MAX_BODY_BYTES): Promise<Uint8Array> {
  const declared = Number(request.headers.get('content-length'));
  if (Number.isFinite(declared) && declared > limit) throw entityTooLarge(limit);
  if (!request.body) return new Uint8Array(0);
  const reader = request.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > limit) {
      await reader.cancel().catch(() => undefined);
      throw entityTooLarge(limit);
    }
    chunks.push(value);
  }
  const out = new Uint8Array(size);
  let at = 0;
  for (const c of chunks) {
    out.set(c, at);
    at += c.byteLength;
  }
  return out;
}

/** The media type of a Content-Type header, lowercased, without parameters; `''` when absent. */
export function mediaTypeOf(contentType: string | null): string {
  return (contentType ?? '').split(';')[0]!.trim().toLowerCase();
}

const OBJECT_MEDIA_TYPES = ['application/json', 'application/yaml'];

/** 415 for a create/update/delete body in a format the server does not read. */
export function unsupportedMediaType(): ApiError {
  return new ApiError({
    code: 415,
    reason: 'UnsupportedMediaType',
    message: 'the body of the request was in an unknown format - accepted media types include: application/json, application/yaml',
  });
}

/** 415 for a patch whose content type names no patch type. */
export function unsupportedPatchMediaType(): ApiError {
  return new ApiError({
    code: 415,
    reason: 'UnsupportedMediaType',
    message:
      'the body of the request was in an unknown format - accepted media types include: application/json-patch+json, application/merge-patch+json, application/apply-patch+yaml, application/strategic-merge-patch+json',
  });
}

const PATCH_TYPES: Record<string, PatchType> = {
  'application/json-patch+json': 'json',
  'application/merge-patch+json': 'merge',
  'application/strategic-merge-patch+json': 'strategic',
  'application/apply-patch+yaml': 'apply',
};

/** The patch type a PATCH's Content-Type names; 415 for any other. */
export function patchTypeOf(contentType: string | null): PatchType {
  const t = PATCH_TYPES[mediaTypeOf(contentType)];
  if (!t) throw unsupportedPatchMediaType();
  return t;
}

/** Go's `invalid character 'x' ...` / `unexpected end of JSON input`, from a JS JSON.parse failure. */
export function goJsonError(text: string, e: Error): string {
  if (text.trim() === '') return 'unexpected end of JSON input';
  const at = /position (\d+)/.exec(e.message);
  if (at) {
    const ch = text[Number(at[1])];
    if (ch === undefined) return 'unexpected end of JSON input';
    return `invalid character ${goQuoteRune(ch)} looking for beginning of value`;
  }
  const token = /Unexpected token '?(.)'?/.exec(e.message);
  if (token) return `invalid character ${goQuoteRune(token[1]!)} looking for beginning of value`;
  if (/end of (JSON|data)/i.test(e.message)) return 'unexpected end of JSON input';
  return e.message;
}

function goQuoteRune(ch: string): string {
  if (ch === "'") return "'\\''";
  if (ch === '\n') return "'\\n'";
  if (ch === '\t') return "'\\t'";
  if (ch === '\r') return "'\\r'";
  return `'${ch}'`;
}

/** Kubernetes' `summarizeData`: the first 30 bytes, as text for `{...`, else in hex. */
function summarize(bytes: Uint8Array): string {
  if (bytes.length === 0) return '<empty>';
  const head = bytes.subarray(0, 30);
  const more = bytes.length > 30 ? ' ...' : '';
  if (bytes[0] === 0x7b) return Buffer.from(head).toString('utf8') + more;
  return Buffer.from(head).toString('hex') + more;
}

function parseText(text: string, yaml: boolean, rawScalars = false): DecodedRequestBody {
  if (yaml) {
    const docs = parseYamlDocuments(text);
    return docs[0] ?? { value: null, duplicateFields: [] };
  }
  return parseJson(text, { rawScalars });
}

/**
 * Decodes the body of a create or update (JSON or YAML). A syntax error is a 400 with the message
 * Kubernetes' decoder gives (`the object provided is unrecognized (must be of type ConfigMap): ...`).
 */
export function decodeObjectBody(contentType: string | null, bytes: Uint8Array, kind: string): DecodedRequestBody {
  const media = mediaTypeOf(contentType) || 'application/json';
  if (media === PROTOBUF_MEDIA_TYPE) return decodeProtobufBody(bytes, kind);
  if (!OBJECT_MEDIA_TYPES.includes(media)) throw unsupportedMediaType();
  const text = Buffer.from(bytes).toString('utf8');
  try {
    return parseText(text, media === 'application/yaml');
  } catch (e) {
    if (e instanceof JsonSyntaxError) {
      throw badRequest(
        `the object provided is unrecognized (must be of type ${kind}): couldn't get version/kind; json parse error: ${goJsonError(text, e)} (${summarize(bytes)})`,
      );
    }
    if (e instanceof YamlSyntaxError) {
      throw badRequest(
        `the object provided is unrecognized (must be of type ${kind}): error converting YAML to JSON: yaml: ${e.message} (${summarize(bytes)})`,
      );
    }
    throw e;
  }
}

/** A protobuf body (`k8s\0` + `runtime.Unknown`) as the JSON object; 415 for a kind without a descriptor. */
function decodeProtobufBody(bytes: Uint8Array, kind: string): DecodedRequestBody {
  try {
    return { value: decodeProtobufObject(bytes), duplicateFields: [] };
  } catch (e) {
    if (e instanceof UnknownProtobufKindError) throw unsupportedMediaType();
    if (e instanceof ProtobufError) throw badRequest(`the object provided is unrecognized (must be of type ${kind}): ${e.message} (${summarize(bytes)})`);
    throw e;
  }
}

/**
 * Decodes a patch body: JSON for the three JSON patch types, YAML (or JSON) for apply. A JSON
 * body keeps the raw text of its unusual scalars beside the value (util/json-raw.ts): a JSON
 * patch `test` compares raw text and a strategic merge key written `80.0` is a float64, as in Go.
 */
export function decodePatchBody(patchType: PatchType, bytes: Uint8Array): DecodedRequestBody {
  const text = Buffer.from(bytes).toString('utf8');
  try {
    return parseText(text, patchType === 'apply', patchType !== 'apply');
  } catch (e) {
    if (e instanceof JsonSyntaxError) throw badRequest(`error decoding patch: ${goJsonError(text, e)}`);
    if (e instanceof YamlSyntaxError) throw badRequest(`error decoding YAML: yaml: ${e.message}`);
    throw e;
  }
}

function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** Decodes `metav1.DeleteOptions` sent as the body of a DELETE. */
export function decodeDeleteOptions(contentType: string | null, bytes: Uint8Array): DeleteOptions {
  const { value } = decodeObjectBody(contentType, bytes, 'DeleteOptions');
  if (!isRecord(value)) throw badRequest('decoded object cannot be converted to DeleteOptions');
  const out: DeleteOptions = {};
  const type = (field: string, want: string) => {
    throw badRequest(`json: cannot unmarshal ${describe(value[field])} into Go struct field DeleteOptions.${field} of type ${want}`);
  };
  if (value.dryRun !== undefined && value.dryRun !== null) {
    if (!Array.isArray(value.dryRun) || value.dryRun.some((x) => typeof x !== 'string')) type('dryRun', '[]string');
    out.dryRun = value.dryRun as string[];
  }
  if (value.gracePeriodSeconds !== undefined && value.gracePeriodSeconds !== null) {
    if (typeof value.gracePeriodSeconds !== 'number' || !Number.isInteger(value.gracePeriodSeconds)) type('gracePeriodSeconds', 'int64');
    out.gracePeriodSeconds = value.gracePeriodSeconds as number;
  }
  if (value.propagationPolicy !== undefined && value.propagationPolicy !== null) {
    if (typeof value.propagationPolicy !== 'string') type('propagationPolicy', 'v1.DeletionPropagation');
    out.propagationPolicy = value.propagationPolicy as string;
  }
  if (value.orphanDependents !== undefined && value.orphanDependents !== null) {
    if (typeof value.orphanDependents !== 'boolean') type('orphanDependents', 'bool');
    out.orphanDependents = value.orphanDependents as boolean;
  }
  if (isRecord(value.preconditions)) {
    const p = value.preconditions;
    out.preconditions = {};
    if (typeof p.uid === 'string') out.preconditions.uid = p.uid;
    if (typeof p.resourceVersion === 'string') out.preconditions.resourceVersion = p.resourceVersion;
  }
  return out;
}

function describe(v: unknown): string {
  if (Array.isArray(v)) return 'array';
  if (v === null) return 'null';
  if (typeof v === 'object') return 'object';
  return typeof v;
}
