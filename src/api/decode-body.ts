/**
 * Turning a request body into a working object of the kind: shape and type checks (400), the
 * apiVersion/kind agreement with the endpoint (400), unknown and duplicate fields handled per
 * `fieldValidation`. The result is a fresh mutable object in the storage version's shape; the
 * caller's input is never kept. It is a promise only when the kind's conversion answers one.
 */
import { decodeWithSchema, DecodeTypeError } from '../schema/decode.js';
import type { KubeObject } from '../schema/define-kind.js';
import { apiVersionOf, type KindRegistry, type ResolvedKind } from '../schema/registry.js';
import { badRequest } from '../machinery/errors.js';
import type { FieldValidation } from '../machinery/request.js';
import { isPromise, type MaybePromise } from '../util/maybe-promise.js';

/** A decoded body and the warnings decoding produced. */
export interface DecodedBody {
  object: KubeObject;
  warnings: string[];
}

function jsonKind(v: unknown): string {
  if (v === null) return 'null';
  if (Array.isArray(v)) return 'array';
  return typeof v === 'boolean' ? 'bool' : typeof v;
}

/** Kubernetes' `summarizeData`: a JSON object's first 30 bytes as text, anything else as hex. */
function summarize(body: unknown): string {
  const text = JSON.stringify(body) ?? '';
  if (!text) return '<empty>';
  const bytes = Buffer.from(text, 'utf8');
  const head = bytes.subarray(0, 30);
  const more = bytes.length > 30 ? ' ...' : '';
  return text.startsWith('{') ? `${head.toString('utf8')}${more}` : `${head.toString('hex')}${more}`;
}

/** 400 for a body whose apiVersion/kind cannot even be read. */
function unrecognized(kindName: string, body: unknown, why: string) {
  return badRequest(
    `the object provided is unrecognized (must be of type ${kindName}): couldn't get version/kind; json parse error: ${why} (${summarize(body)})`,
  );
}

const GO_TYPE_HEADER = 'struct { APIVersion string "json:\\"apiVersion,omitempty\\""; Kind string "json:\\"kind,omitempty\\"" }';

/** `v1.Secret`, as Go names the versioned type in a conversion error. */
function versionedTypeName(version: string, kind: string): string {
  return `${version}.${kind}`;
}

/** `core.ConfigMap`, `apps.StatefulSet`: the internal type Kubernetes converts into. */
function internalTypeName(group: string, kind: string): string {
  return `${group ? group.split('.')[0] : 'core'}.${kind}`;
}

/**
 * Decodes `body` as an object of `kind` at `version`. `duplicateFields` are the paths of duplicate
 * keys the transport saw in the raw text.
 */
export function decodeBody(
  registry: KindRegistry,
  kind: ResolvedKind,
  version: string,
  body: unknown,
  fieldValidation: FieldValidation,
  duplicateFields: readonly string[] = [],
): MaybePromise<DecodedBody> {
  const expectedApiVersion = apiVersionOf(kind.group, version);
  const kindName = kind.definition.kind;
  // JSON null decodes as an empty object in Go; validation then reports what is missing.
  if (body === null || body === undefined) body = {};
  if (typeof body !== 'object' || Array.isArray(body)) {
    throw unrecognized(kindName, body, `json: cannot unmarshal ${jsonKind(body)} into Go value of type ${GO_TYPE_HEADER}`);
  }
  const raw = body as Record<string, unknown>;
  for (const f of ['apiVersion', 'kind'] as const) {
    if (raw[f] !== undefined && raw[f] !== null && typeof raw[f] !== 'string') {
      throw unrecognized(kindName, body, `json: cannot unmarshal ${jsonKind(raw[f])} into Go struct field .${f} of type string`);
    }
  }
  const apiVersion = (raw.apiVersion as string | undefined) || expectedApiVersion;
  const bodyKind = (raw.kind as string | undefined) || kindName;
  if (apiVersion.split('/').length > 2) throw unrecognized(kindName, body, `unexpected GroupVersion string: ${apiVersion}`);
  if (apiVersion !== expectedApiVersion || bodyKind !== kindName) {
    const bodyVersion = apiVersion.includes('/') ? apiVersion.slice(apiVersion.indexOf('/') + 1) : apiVersion;
    const prefix = `${bodyKind} in version ${JSON.stringify(bodyVersion)} cannot be handled as a ${kindName}`;
    const other = registry.lookupKind(apiVersion, bodyKind);
    if (!other) {
      throw badRequest(
        `${prefix}: no kind ${JSON.stringify(bodyKind)} is registered for version ${JSON.stringify(apiVersion)} in scheme "k8s.io/kubernetes/pkg/api/legacyscheme/scheme.go:30"`,
      );
    }
    if (other.kind !== kind) {
      throw badRequest(
        `${prefix}: converting (${versionedTypeName(other.version, bodyKind)}) to (${internalTypeName(kind.group, kindName)}): unknown conversion`,
      );
    }
    throw badRequest(`the API version in the data (${apiVersion}) does not match the expected API version (${expectedApiVersion})`);
  }

  let decoded: { value: unknown; unknownFields: readonly string[] };
  const published = kind.published(version);
  try {
    decoded = published?.decode ? published.decode(raw) : decodeWithSchema(raw, kind.structural(version));
  } catch (e) {
    if (e instanceof DecodeTypeError) {
      throw badRequest(`${kindName} in version "${version}" cannot be handled as a ${kindName}: ${e.message}`);
    }
    throw e;
  }
  const problems = [
    ...decoded.unknownFields.map((f) => `unknown field ${JSON.stringify(f)}`),
    ...duplicateFields.map((f) => `duplicate field ${JSON.stringify(f)}`),
  ];
  if (problems.length && fieldValidation === 'Strict') {
    throw badRequest(`${kindName} in version ${JSON.stringify(version)} cannot be handled as a ${kindName}: strict decoding error: ${problems.join(', ')}`);
  }
  const warnings = fieldValidation === 'Warn' ? problems : [];
  // From here on the object is in the storage shape (another version's, or another kind's). The
  // conversion comes after every decoding error, as Kubernetes decodes at the request's version
  // and converts only on the way to storage; a conversion webhook answers later.
  const object = kind.toStorage(version, decoded.value as KubeObject);
  return isPromise(object) ? object.then((o) => ({ object: o, warnings })) : { object, warnings };
}
