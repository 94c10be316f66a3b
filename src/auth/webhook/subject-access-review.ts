/**
 * The SubjectAccessReview an authorization webhook is sent and what its answer means
 * (k8s.io/apiserver `plugin/pkg/authorizer/webhook/webhook.go` over client-go's REST client and
 * codec): the request's attributes as a v1 SubjectAccessReviewSpec, the body in `v1` or `v1beta1`
 * as Go encodes it, and the answer decoded as the client decodes it, each refusal with its text
 * and whether k8s.io/apiserver's `DefaultShouldRetry` would try again.
 */
import { parseYamlDocuments } from '../../codec/yaml.js';
import { yamlMayNestDeeperThan } from '../../codec/yaml-depth.js';
import { goJsonSyntaxError } from '../../kinds/shared/go-json-check.js';
import type { AuthorizationAttributes } from '../../machinery/auth.js';
import { parseFieldSelector } from '../../selectors/field-selector.js';
import { parseLabelSelector, type LabelOperator } from '../../selectors/label-selector.js';
import { compareGoStrings, goJsonString, goQuote } from '../../util/go-format.js';
import { isJsonObject } from '../../util/go-value.js';
import type { WebhookResponse } from '../../webhook/client.js';
import { responseError } from '../../webhook/result.js';

/** The SubjectAccessReview versions a webhook may speak. */
export type SubjectAccessReviewVersion = 'v1' | 'v1beta1';

const GROUP = 'authorization.k8s.io';
const SCHEME = 'k8s.io/client-go/kubernetes/scheme/register.go:84';

/** One requirement of a selector a webhook is told about (`metav1.FieldSelectorRequirement`, `LabelSelectorRequirement`). */
export interface SelectorRequirement {
  readonly key: string;
  readonly operator: 'In' | 'NotIn' | 'Exists' | 'DoesNotExist';
  /** Empty for Exists and DoesNotExist (left out of the JSON, an empty list to match conditions). */
  readonly values: readonly string[];
}

/** A v1 SubjectAccessReviewSpec (what match conditions see as `request`, and the cache key). */
export interface SubjectAccessReviewSpec {
  readonly resourceAttributes?: {
    readonly namespace: string;
    readonly verb: string;
    readonly group: string;
    readonly version: string;
    readonly resource: string;
    readonly subresource: string;
    readonly name: string;
    /** Only the parsed requirements travel, never the raw text (`resourceAttributesFrom`). */
    readonly fieldSelector?: { readonly requirements: readonly SelectorRequirement[] };
    readonly labelSelector?: { readonly requirements: readonly SelectorRequirement[] };
  };
  readonly nonResourceAttributes?: { readonly path: string; readonly verb: string };
  readonly user: string;
  readonly groups: readonly string[];
  readonly extra: Readonly<Record<string, readonly string[]>>;
  readonly uid: string;
}

/** The answer's status (`SubjectAccessReviewStatus`). */
export interface SubjectAccessReviewStatus {
  readonly allowed: boolean;
  readonly denied: boolean;
  readonly reason: string;
  readonly evaluationError: string;
}

/**
 * The field selector's requirements as `fieldSelectorToAuthorizationAPI` gives them: `=` and `==`
 * as In, `!=` as NotIn, each with its one value, in the parser's (sorted) order. A selector that
 * does not parse, or has no requirement, is not sent: selectors only narrow a request, so
 * leaving one out asks about the broader request.
 */
function fieldSelectorRequirements(text: string | undefined): SelectorRequirement[] {
  if (!text) return [];
  try {
    return parseFieldSelector(text).requirements.map((r) => ({ key: r.field, operator: r.operator === '!=' ? 'NotIn' : 'In', values: [r.value] }));
  } catch {
    return [];
  }
}

const LABEL_OPERATORS: Partial<Record<LabelOperator, SelectorRequirement['operator']>> = {
  '=': 'In',
  '==': 'In',
  in: 'In',
  '!=': 'NotIn',
  notin: 'NotIn',
  exists: 'Exists',
  '!': 'DoesNotExist',
};

/** `labelSelectorToAuthorizationAPI`: as for fields; `gt` and `lt` have no API operator and are dropped. */
function labelSelectorRequirements(text: string | undefined): SelectorRequirement[] {
  if (!text) return [];
  let requirements;
  try {
    requirements = parseLabelSelector(text).requirements;
  } catch {
    return [];
  }
  const out: SelectorRequirement[] = [];
  for (const r of requirements) {
    const operator = LABEL_OPERATORS[r.operator];
    if (operator) out.push({ key: r.key, operator, values: r.values });
  }
  return out;
}

/** The spec the webhook is asked about (`Authorize`: the user, then resource or non-resource attributes, with the selectors of a list, watch or deletecollection). */
export function subjectAccessReviewSpec(a: AuthorizationAttributes): SubjectAccessReviewSpec {
  const base = { user: a.user.username, groups: a.user.groups ?? [], extra: a.user.extra ?? {}, uid: a.user.uid ?? '' };
  if (a.resourceRequest) {
    const fields = fieldSelectorRequirements(a.fieldSelector);
    const labels = labelSelectorRequirements(a.labelSelector);
    return {
      ...base,
      resourceAttributes: {
        namespace: a.namespace ?? '',
        verb: a.verb,
        group: a.apiGroup ?? '',
        version: a.apiVersion ?? '',
        resource: a.resource ?? '',
        subresource: a.subresource ?? '',
        name: a.name ?? '',
        ...(fields.length > 0 ? { fieldSelector: { requirements: fields } } : {}),
        ...(labels.length > 0 ? { labelSelector: { requirements: labels } } : {}),
      },
    };
  }
  return { ...base, nonResourceAttributes: { path: a.path ?? '', verb: a.verb } };
}

/** `{"k":v,...}` of the members whose value is not omitted, in the given (Go struct) order. */
function goObject(members: readonly (readonly [string, string | undefined])[]): string {
  return `{${members
    .filter((m) => m[1] !== undefined)
    .map(([k, v]) => `${goJsonString(k)}:${v}`)
    .join(',')}}`;
}

const omitEmpty = (s: string): string | undefined => (s === '' ? undefined : goJsonString(s));
const stringList = (l: readonly string[]): string | undefined => (l.length === 0 ? undefined : `[${l.map(goJsonString).join(',')}]`);

/** `{"requirements":[{"key":..,"operator":..,"values":[..]}]}`: key and operator always, values when any. */
function encodeSelector(selector: { readonly requirements: readonly SelectorRequirement[] } | undefined): string | undefined {
  if (!selector) return undefined;
  const requirements = selector.requirements.map((r) =>
    goObject([
      ['key', goJsonString(r.key)],
      ['operator', goJsonString(r.operator)],
      ['values', stringList(r.values)],
    ]),
  );
  return goObject([['requirements', `[${requirements.join(',')}]`]]);
}

/** The spec as Go's encoder writes it, omitempty fields left out, `extra` keys sorted. */
function encodeSpec(spec: SubjectAccessReviewSpec, version: SubjectAccessReviewVersion): string {
  const r = spec.resourceAttributes;
  const n = spec.nonResourceAttributes;
  const extraKeys = Object.keys(spec.extra).sort(compareGoStrings);
  const extra =
    extraKeys.length === 0
      ? undefined
      : `{${extraKeys.map((k) => `${goJsonString(k)}:${spec.extra[k]!.length === 0 ? 'null' : `[${spec.extra[k]!.map(goJsonString).join(',')}]`}`).join(',')}}`;
  return goObject([
    [
      'resourceAttributes',
      r &&
        goObject([
          ['namespace', omitEmpty(r.namespace)],
          ['verb', omitEmpty(r.verb)],
          ['group', omitEmpty(r.group)],
          ['version', omitEmpty(r.version)],
          ['resource', omitEmpty(r.resource)],
          ['subresource', omitEmpty(r.subresource)],
          ['name', omitEmpty(r.name)],
          ['fieldSelector', encodeSelector(r.fieldSelector)],
          ['labelSelector', encodeSelector(r.labelSelector)],
        ]),
    ],
    [
      'nonResourceAttributes',
      n &&
        goObject([
          ['path', omitEmpty(n.path)],
          ['verb', omitEmpty(n.verb)],
        ]),
    ],
    ['user', omitEmpty(spec.user)],
    // v1beta1 names the list `group`.
    [version === 'v1' ? 'groups' : 'group', stringList(spec.groups)],
    ['extra', extra],
    ['uid', omitEmpty(spec.uid)],
  ]);
}

/** The request body, as the REST client's JSON encoder writes it (a newline at the end). */
export function subjectAccessReviewBody(spec: SubjectAccessReviewSpec, version: SubjectAccessReviewVersion): string {
  return `{"kind":"SubjectAccessReview","apiVersion":"${GROUP}/${version}","metadata":{},"spec":${encodeSpec(spec, version)},"status":{"allowed":false}}\n`;
}

/** The cache key of a spec (`json.Marshal(r.Spec)` upstream: any text unique per spec will do). */
export function cacheKey(spec: SubjectAccessReviewSpec): string {
  return encodeSpec(spec, 'v1');
}

/** An answer that could not be used; `retriable` when `DefaultShouldRetry` would call again. */
export class SubjectAccessReviewError extends Error {
  constructor(
    message: string,
    readonly retriable: boolean,
  ) {
    super(message);
    this.name = 'SubjectAccessReviewError';
  }
}

/**
 * Whether a failed HTTP answer is transient (`DefaultShouldRetry`): an internal error (500 and
 * other 5xx but 503 and 504), a timeout (504), too many requests (429), or a suggested delay
 * (`Retry-After`, or `details.retryAfterSeconds` of a returned Status).
 */
function transientStatus(res: WebhookResponse): boolean {
  let reason: string | undefined;
  let retryAfter = Number(res.retryAfter ?? '0');
  try {
    const body: unknown = res.body.length ? JSON.parse(res.body.toString('utf8')) : undefined;
    if (isJsonObject(body) && body['kind'] === 'Status' && body['status'] === 'Failure') {
      reason = typeof body['reason'] === 'string' ? body['reason'] : '';
      const details = body['details'];
      retryAfter = isJsonObject(details) && typeof details['retryAfterSeconds'] === 'number' ? details['retryAfterSeconds'] : 0;
      if (reason === 'Timeout' || reason === 'ServerTimeout') return true;
    }
  } catch {
    // Not a Status: the status code decides.
  }
  if (reason === undefined || reason === '') {
    if (res.status === 503) reason = 'ServiceUnavailable';
    else if (res.status === 504) reason = 'Timeout';
    else if (res.status === 429) reason = 'TooManyRequests';
    else if (res.status >= 500) reason = 'InternalError';
  }
  if (reason === 'InternalError' || reason === 'Timeout' || reason === 'TooManyRequests') return true;
  return Number.isInteger(retryAfter) && retryAfter > 0;
}

const FIND_KIND_TYPE = 'struct { APIVersion string "json:\\"apiVersion,omitempty\\""; Kind string "json:\\"kind,omitempty\\"" }';
const MAX_YAML_NESTING = 64;

function jsonKind(v: unknown): string {
  if (Array.isArray(v)) return 'array';
  if (v === null) return 'null';
  if (typeof v === 'object') return 'object';
  return typeof v === 'boolean' ? 'bool' : typeof v;
}

/** The body as the universal deserializer reads it: JSON when it opens with `{`, YAML otherwise. */
function decodeBody(body: Buffer): unknown {
  const text = body.toString('utf8');
  if (/^[ \t\r\n]*\{/.test(text)) {
    const syntax = goJsonSyntaxError(body);
    if (syntax) throw new SubjectAccessReviewError(`couldn't get version/kind; json parse error: ${syntax}`, false);
    return JSON.parse(text) as unknown;
  }
  if (yamlMayNestDeeperThan(text, MAX_YAML_NESTING)) {
    throw new SubjectAccessReviewError(
      `error converting YAML to JSON: yaml: memkube does not parse YAML nested more than ${MAX_YAML_NESTING} levels deep`,
      false,
    );
  }
  try {
    return parseYamlDocuments(text)[0]?.value ?? null;
  } catch (e) {
    throw new SubjectAccessReviewError(`error converting YAML to JSON: yaml: ${e instanceof Error ? e.message : String(e)}`, false);
  }
}

/** `schema.ParseGroupVersion`, or undefined for more than one slash. */
function parseGroupVersion(apiVersion: string): [string, string] | undefined {
  if (apiVersion === '' || apiVersion === '/') return ['', ''];
  const parts = apiVersion.split('/');
  if (parts.length === 1) return ['', apiVersion];
  if (parts.length === 2) return [parts[0]!, parts[1]!];
  return undefined;
}

/**
 * The status of a webhook's answer to a review sent at `version`, or a
 * {@link SubjectAccessReviewError} with the text client-go gives: the HTTP status's error
 * (`an error on the server ("boom") has prevented the request from succeeding`), a body that is
 * not JSON or YAML, another kind or version (`no kind "Foo" is registered for version ...`), a
 * field of the wrong type (`json: cannot unmarshal string into Go struct field
 * SubjectAccessReviewStatus.status.allowed of type bool`).
 */
export function subjectAccessReviewStatus(res: WebhookResponse, version: SubjectAccessReviewVersion): SubjectAccessReviewStatus {
  const failure = responseError(res);
  if (failure !== undefined) throw new SubjectAccessReviewError(failure, res.status < 200 || res.status > 206 ? transientStatus(res) : false);
  const value = decodeBody(res.body);
  if (value !== null && !isJsonObject(value)) {
    throw new SubjectAccessReviewError(
      `couldn't get version/kind; json parse error: json: cannot unmarshal ${jsonKind(value)} into Go value of type ${FIND_KIND_TYPE}`,
      false,
    );
  }
  const obj = (value ?? {}) as Record<string, unknown>;
  for (const k of ['apiVersion', 'kind']) {
    const v = obj[k];
    if (v !== undefined && v !== null && typeof v !== 'string') {
      throw new SubjectAccessReviewError(
        `couldn't get version/kind; json parse error: json: cannot unmarshal ${jsonKind(v)} into Go struct field .${k} of type string`,
        false,
      );
    }
  }
  const apiVersion = typeof obj['apiVersion'] === 'string' ? obj['apiVersion'] : '';
  const kind = typeof obj['kind'] === 'string' && obj['kind'] !== '' ? obj['kind'] : 'SubjectAccessReview';
  const gv = parseGroupVersion(apiVersion);
  if (!gv) throw new SubjectAccessReviewError(`unexpected GroupVersion string: ${apiVersion}`, false);
  let [group, ver] = gv;
  if (group === '' && ver === '') [group, ver] = [GROUP, version];
  if (ver === '' && group === GROUP) ver = version;
  if (group !== GROUP || ver !== version || kind !== 'SubjectAccessReview') {
    const other = version === 'v1' ? 'v1beta1' : 'v1';
    if (group === GROUP && ver === other && kind === 'SubjectAccessReview') {
      throw new SubjectAccessReviewError(`converting (${other}.SubjectAccessReview) to (${version}.SubjectAccessReview): unknown conversion`, false);
    }
    if (kind === 'Status') throw new SubjectAccessReviewError(`converting (v1.Status) to (${version}.SubjectAccessReview): unknown conversion`, false);
    const gvText = group === '' ? ver : `${group}/${ver}`;
    throw new SubjectAccessReviewError(`no kind ${goQuote(kind)} is registered for version ${goQuote(gvText)} in scheme ${goQuote(SCHEME)}`, false);
  }
  const status = obj['status'];
  if (status === undefined || status === null) return { allowed: false, denied: false, reason: '', evaluationError: '' };
  if (!isJsonObject(status)) {
    throw new SubjectAccessReviewError(
      `json: cannot unmarshal ${jsonKind(status)} into Go struct field SubjectAccessReview.status of type ${version}.SubjectAccessReviewStatus`,
      false,
    );
  }
  const field = (name: string, type: 'bool' | 'string'): unknown => {
    const v = status[name];
    if (v === undefined || v === null) return undefined;
    if (type === 'bool' ? typeof v !== 'boolean' : typeof v !== 'string') {
      throw new SubjectAccessReviewError(
        `json: cannot unmarshal ${jsonKind(v)} into Go struct field SubjectAccessReviewStatus.status.${name} of type ${type}`,
        false,
      );
    }
    return v;
  };
  const allowed = field('allowed', 'bool');
  const denied = field('denied', 'bool');
  const reason = field('reason', 'string');
  const evaluationError = field('evaluationError', 'string');
  return {
    allowed: allowed === true,
    denied: denied === true,
    reason: typeof reason === 'string' ? reason : '',
    evaluationError: typeof evaluationError === 'string' ? evaluationError : '',
  };
}
