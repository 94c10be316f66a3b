/**
 * The `ConversionReview` exchanged with a conversion webhook, as apiextensions-apiserver writes it
 * and reads the answer (pkg/apiserver/conversion/webhook_converter.go
 * `createConversionReviewObjects`, `getConvertedObjectsFromResponse`, over the webhook client's
 * codec): the request body byte for byte as Go encodes it, and every way an answer can be refused,
 * with the text the apiserver puts after `conversion webhook for <kind> failed: `.
 */
import { parseYamlDocuments } from '../../../codec/yaml.js';
import { yamlMayNestDeeperThan } from '../../../codec/yaml-depth.js';
import type { KubeObject } from '../../../schema/define-kind.js';
import { compareGoStrings, goJsonString, goQuote } from '../../../util/go-format.js';
import { responseError } from '../../../webhook/result.js';
import type { WebhookResponse } from '../../../webhook/client.js';
import { goJsonSyntaxError } from '../../shared/go-json-check.js';

/** The ConversionReview versions apiextensions-apiserver speaks. */
export type ReviewVersion = 'v1' | 'v1beta1';

const GROUP = 'apiextensions.k8s.io';

/** A refused answer; the message is what follows `failed: `. */
export class ConversionReviewError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ConversionReviewError';
  }
}

/** The first of `conversionReviewVersions` the server speaks, or undefined (`no supported conversion review versions`). */
export function reviewVersionOf(conversionReviewVersions: readonly string[]): ReviewVersion | undefined {
  return conversionReviewVersions.find((v): v is ReviewVersion => v === 'v1' || v === 'v1beta1');
}

/**
 * Go's `json.Marshal` of a decoded JSON value, as an unstructured object is sent: map keys in
 * byte order, `<`, `>` and `&` escaped.
 */
export function goMarshal(value: unknown): string {
  if (value === null || value === undefined) return 'null';
  if (typeof value === 'string') return goJsonString(value);
  if (typeof value === 'number') return Number.isFinite(value) ? JSON.stringify(value) : 'null';
  if (typeof value === 'boolean') return value ? 'true' : 'false';
  if (Array.isArray(value)) return `[${value.map(goMarshal).join(',')}]`;
  const obj = value as Record<string, unknown>;
  const keys = Object.keys(obj)
    .filter((k) => obj[k] !== undefined)
    .sort(compareGoStrings);
  return `{${keys.map((k) => `${goJsonString(k)}:${goMarshal(obj[k])}`).join(',')}}`;
}

/**
 * The request body: the review's fields in Go's struct order, an empty response beside the
 * request (as the apiserver allocates one), a newline at the end (`json.Encoder`).
 */
export function conversionReviewBody(version: ReviewVersion, uid: string, desiredAPIVersion: string, objects: readonly KubeObject[]): string {
  return (
    `{"kind":"ConversionReview","apiVersion":"${GROUP}/${version}",` +
    `"request":{"uid":${goJsonString(uid)},"desiredAPIVersion":${goJsonString(desiredAPIVersion)},"objects":[${objects.map(goMarshal).join(',')}]},` +
    `"response":{"uid":"","convertedObjects":null,"result":{"metadata":{}}}}\n`
  );
}

/** Go's `%T` of a decoded JSON value (`int64` for whole numbers, as apimachinery's JSON decoding keeps them). */
export function goDynamicType(v: unknown): string {
  if (v === null || v === undefined) return '<nil>';
  if (Array.isArray(v)) return '[]interface {}';
  if (typeof v === 'object') return 'map[string]interface {}';
  if (typeof v === 'number') return Number.isInteger(v) ? 'int64' : 'float64';
  return typeof v === 'boolean' ? 'bool' : 'string';
}

/** The JSON kind Go's `UnmarshalTypeError` names (`string`, `number`, `bool`, `array`, `object`). */
export function jsonKindName(v: unknown): string {
  if (Array.isArray(v)) return 'array';
  if (typeof v === 'object') return 'object';
  return typeof v === 'boolean' ? 'bool' : typeof v;
}

/** `schema.ParseGroupVersion`: `[group, version]`, or undefined for more than one slash. */
export function parseGroupVersion(apiVersion: string): [string, string] | undefined {
  if (apiVersion === '' || apiVersion === '/') return ['', ''];
  const parts = apiVersion.split('/');
  if (parts.length === 1) return ['', apiVersion];
  if (parts.length === 2) return [parts[0]!, parts[1]!];
  return undefined;
}

/** `GroupVersion.String()`. */
export function groupVersionString(group: string, version: string): string {
  return group ? `${group}/${version}` : version;
}

/** `schema.FromAPIVersionAndKind(apiVersion, kind).String()`: `example.com/v1, Kind=Widget`. */
export function gvkString(apiVersion: unknown, kind: unknown): string {
  const gv = parseGroupVersion(typeof apiVersion === 'string' ? apiVersion : '') ?? ['', ''];
  return `${gv[0]}/${gv[1]}, Kind=${typeof kind === 'string' ? kind : ''}`;
}

// ---- Go's struct decoding of the answer -------------------------------------------------------

/** The Go type a JSON member decodes into, as much as errors need. */
type GoType =
  | { readonly t: 'string'; readonly name: string }
  | { readonly t: 'int'; readonly name: 'int32' | 'int64' }
  | { readonly t: 'raw' }
  | { readonly t: 'slice'; readonly name: string; readonly elem: GoType }
  | { readonly t: 'struct'; readonly name: string; readonly typeName: string; readonly fields: Readonly<Record<string, GoType>> };

const str = (name = 'string'): GoType => ({ t: 'string', name });
const RAW_SLICE: GoType = { t: 'slice', name: '[]runtime.RawExtension', elem: { t: 'raw' } };

const STATUS: GoType = {
  t: 'struct',
  name: 'Status',
  typeName: 'v1.Status',
  fields: {
    kind: str(),
    apiVersion: str(),
    metadata: {
      t: 'struct',
      name: 'ListMeta',
      typeName: 'v1.ListMeta',
      fields: { selfLink: str(), resourceVersion: str(), continue: str(), remainingItemCount: { t: 'int', name: 'int64' } },
    },
    status: str(),
    message: str(),
    reason: str('v1.StatusReason'),
    details: {
      t: 'struct',
      name: 'StatusDetails',
      typeName: 'v1.StatusDetails',
      fields: {
        name: str(),
        group: str(),
        kind: str(),
        uid: str('types.UID'),
        causes: {
          t: 'slice',
          name: '[]v1.StatusCause',
          elem: { t: 'struct', name: 'StatusCause', typeName: 'v1.StatusCause', fields: { reason: str('v1.CauseType'), message: str(), field: str() } },
        },
        retryAfterSeconds: { t: 'int', name: 'int32' },
      },
    },
    code: { t: 'int', name: 'int32' },
  },
};

function reviewType(version: ReviewVersion): GoType {
  return {
    t: 'struct',
    name: 'ConversionReview',
    typeName: `${version}.ConversionReview`,
    fields: {
      kind: str(),
      apiVersion: str(),
      request: {
        t: 'struct',
        name: 'ConversionRequest',
        typeName: `${version}.ConversionRequest`,
        fields: { uid: str('types.UID'), desiredAPIVersion: str(), objects: RAW_SLICE },
      },
      response: {
        t: 'struct',
        name: 'ConversionResponse',
        typeName: `${version}.ConversionResponse`,
        fields: { uid: str('types.UID'), convertedObjects: RAW_SLICE, result: STATUS },
      },
    },
  };
}

const INT_RANGE = { int32: [-(2 ** 31), 2 ** 31 - 1], int64: [-(2 ** 63), 2 ** 63 - 1] } as const;

/**
 * The first `UnmarshalTypeError` Go's decoder meets decoding `value` into `type` (it goes on after
 * one and reports the first, in document order); nulls leave a field as it is.
 */
function unmarshalTypeError(value: unknown, type: GoType, path: readonly string[], struct: string): string | undefined {
  if (value === null || value === undefined || type.t === 'raw') return undefined;
  const fail = (what: string, typeName: string) =>
    path.length === 0
      ? `json: cannot unmarshal ${what} into Go value of type ${typeName}`
      : `json: cannot unmarshal ${what} into Go struct field ${struct}.${path.join('.')} of type ${typeName}`;
  switch (type.t) {
    case 'string':
      return typeof value === 'string' ? undefined : fail(jsonKindName(value), type.name);
    case 'int': {
      if (typeof value !== 'number') return fail(jsonKindName(value), type.name);
      const [lo, hi] = INT_RANGE[type.name];
      return Number.isInteger(value) && value >= lo && value <= hi ? undefined : fail(`number ${JSON.stringify(value)}`, type.name);
    }
    case 'slice':
      if (!Array.isArray(value)) return fail(jsonKindName(value), type.name);
      for (const item of value) {
        const e = unmarshalTypeError(item, type.elem, path, struct);
        if (e) return e;
      }
      return undefined;
    case 'struct': {
      if (typeof value !== 'object' || Array.isArray(value)) return fail(jsonKindName(value), type.typeName);
      for (const [k, v] of Object.entries(value as Record<string, unknown>)) {
        const field = Object.hasOwn(type.fields, k) ? type.fields[k] : undefined;
        if (!field) continue;
        const e = unmarshalTypeError(v, field, [...path, k], type.name);
        if (e) return e;
      }
      return undefined;
    }
  }
}

// ---- Decoding the answer ----------------------------------------------------------------------

/** How deeply a YAML answer may nest (memkube's bound: the YAML parser recurses per level). */
const MAX_YAML_NESTING = 64;
const FIND_KIND_TYPE = 'struct { APIVersion string "json:\\"apiVersion,omitempty\\""; Kind string "json:\\"kind,omitempty\\"" }';
const SCHEME = 'k8s.io/apiserver/pkg/util/webhook/client.go:74';
/** The kinds the webhook client's scheme knows in apiextensions.k8s.io/v1 and v1beta1, and their Go types. */
const GROUP_KINDS: Readonly<Record<string, 'own' | 'meta'>> = {
  CustomResourceDefinition: 'own',
  CustomResourceDefinitionList: 'own',
  ConversionReview: 'own',
  WatchEvent: 'meta',
  ListOptions: 'meta',
  GetOptions: 'meta',
  DeleteOptions: 'meta',
  CreateOptions: 'meta',
  UpdateOptions: 'meta',
  PatchOptions: 'meta',
};
/** metav1's unversioned kinds, which any group and version decode into. */
const UNVERSIONED = new Set(['Status', 'APIVersions', 'APIGroupList', 'APIGroup', 'APIResourceList']);

/** The Go type a registered kind decodes into (`v1beta1.ConversionReview`, `v1.Status`), or undefined. */
function registeredType(group: string, version: string, kind: string): string | undefined {
  if (group === GROUP && (version === 'v1' || version === 'v1beta1')) {
    const where = Object.hasOwn(GROUP_KINDS, kind) ? GROUP_KINDS[kind] : undefined;
    if (where === 'own') return `${version}.${kind}`;
    if (where === 'meta') return `v1.${kind}`;
  }
  return UNVERSIONED.has(kind) ? `v1.${kind}` : undefined;
}

/** The body as a JSON value, as the universal deserializer reads it (JSON when it opens with `{`, YAML otherwise). */
function decodeBody(body: Buffer): unknown {
  const text = body.toString('utf8');
  if (/^[ \t\r\n]*\{/.test(text)) {
    const syntax = goJsonSyntaxError(body);
    if (syntax) throw new ConversionReviewError(`couldn't get version/kind; json parse error: ${syntax}`);
    return JSON.parse(text) as unknown;
  }
  if (yamlMayNestDeeperThan(text, MAX_YAML_NESTING)) {
    throw new ConversionReviewError(`error converting YAML to JSON: yaml: memkube does not parse YAML nested more than ${MAX_YAML_NESTING} levels deep`);
  }
  try {
    return parseYamlDocuments(text)[0]?.value ?? null;
  } catch (e) {
    throw new ConversionReviewError(`error converting YAML to JSON: yaml: ${e instanceof Error ? e.message : String(e)}`);
  }
}

/** The review an answer carries, decoded as the webhook client decodes it into the expected version. */
function decodeReview(res: WebhookResponse, version: ReviewVersion): Record<string, unknown> {
  const value = decodeBody(res.body);
  // json.SimpleMetaFactory.Interpret
  if (value !== null && (typeof value !== 'object' || Array.isArray(value))) {
    throw new ConversionReviewError(
      `couldn't get version/kind; json parse error: json: cannot unmarshal ${jsonKindName(value)} into Go value of type ${FIND_KIND_TYPE}`,
    );
  }
  const obj = (value ?? {}) as Record<string, unknown>;
  for (const [k, v] of Object.entries(obj)) {
    if ((k === 'apiVersion' || k === 'kind') && v !== null && typeof v !== 'string') {
      throw new ConversionReviewError(
        `couldn't get version/kind; json parse error: json: cannot unmarshal ${jsonKindName(v)} into Go struct field .${k} of type string`,
      );
    }
  }
  const apiVersion = typeof obj['apiVersion'] === 'string' ? obj['apiVersion'] : '';
  const kind = typeof obj['kind'] === 'string' && obj['kind'] ? obj['kind'] : 'ConversionReview';
  const gv = parseGroupVersion(apiVersion);
  if (!gv) throw new ConversionReviewError(`unexpected GroupVersion string: ${apiVersion}`);
  // gvkWithDefaults: what the answer leaves out comes from the expected type.
  let [group, ver] = gv;
  if (ver === '' && group === '') [group, ver] = [GROUP, version];
  if (ver === '' && group === GROUP) ver = version;
  if (ver === '') throw new ConversionReviewError(`Object 'apiVersion' is missing in '${res.body.toString('utf8')}'`);
  if (group !== GROUP || ver !== version || kind !== 'ConversionReview') {
    const type = registeredType(group, ver, kind);
    if (type) throw new ConversionReviewError(`converting (${type}) to (${version}.ConversionReview): unknown conversion`);
    throw new ConversionReviewError(
      `no kind ${goQuote(kind)} is registered for version ${goQuote(groupVersionString(group, ver))} in scheme ${goQuote(SCHEME)}`,
    );
  }
  const typeError = unmarshalTypeError(obj, reviewType(version), [], 'ConversionReview');
  if (typeError) throw new ConversionReviewError(typeError);
  return obj;
}

/**
 * The converted objects of a webhook's answer to the review `uid` (sent at `version`), as JSON
 * values still to be checked one by one; throws a {@link ConversionReviewError} for an answer the
 * apiserver refuses.
 */
export function convertedObjectsOf(res: WebhookResponse, version: ReviewVersion, uid: string): unknown[] {
  const failure = responseError(res);
  if (failure !== undefined) throw new ConversionReviewError(failure);
  const review = decodeReview(res, version);
  if (version === 'v1') {
    // v1beta1 answers were never checked for their kind and uid; v1 answers are.
    const apiVersion = typeof review['apiVersion'] === 'string' ? review['apiVersion'] : '';
    const kind = typeof review['kind'] === 'string' ? review['kind'] : '';
    if (apiVersion !== `${GROUP}/v1` || kind !== 'ConversionReview') {
      throw new ConversionReviewError(`expected webhook response of ${GROUP}/v1, Kind=ConversionReview, got ${gvkString(apiVersion, kind)}`);
    }
  }
  const response = review['response'];
  if (response === null || response === undefined) throw new ConversionReviewError('no response provided');
  const r = response as Record<string, unknown>;
  if (version === 'v1') {
    const got = typeof r['uid'] === 'string' ? r['uid'] : '';
    if (got !== uid) throw new ConversionReviewError(`expected response.uid=${goQuote(uid)}, got ${goQuote(got)}`);
  }
  const result = (r['result'] ?? {}) as Record<string, unknown>;
  const status = typeof result['status'] === 'string' ? result['status'] : '';
  if (status !== 'Success') {
    const message = typeof result['message'] === 'string' ? result['message'] : '';
    throw new ConversionReviewError(message || `response.result.status was '${status}', not 'Success'`);
  }
  return Array.isArray(r['convertedObjects']) ? (r['convertedObjects'] as unknown[]) : [];
}
