/**
 * The rules of the access reviews (pkg/apis/authorization/validation/validation.go): exactly one of
 * resource and non-resource attributes; a SubjectAccessReview names a user or a group; the
 * metadata of a review is empty (a LocalSubjectAccessReview's but for its namespace).
 */
import { child, fieldError, index, type FieldError } from '../../machinery/field-errors.js';
import type { AuthorizationAttributes, AuthorizationResult } from '../../machinery/auth.js';
import type { UserInfo } from '../../machinery/request.js';
import type { KubeObject } from '../../schema/define-kind.js';
import { escapeFieldValue } from '../../selectors/field-selector.js';
import { validateLabelSelectorRequirement } from '../shared/label-selector-validation.js';
import type { NonResourceAttributes, ResourceAttributes, SubjectAccessReviewStatus } from '../types/authorization-v1.js';

interface AttributesSpec {
  resourceAttributes?: ResourceAttributes;
  nonResourceAttributes?: unknown;
  user?: string;
  groups?: string[];
}

/** How Go's field errors show a nil pointer: the string `null`, quoted like any string. */
const GO_NIL = 'null';

/** Exactly one of `resourceAttributes` and `nonResourceAttributes` (`ValidateSelfSubjectAccessReviewSpec`). */
export function attributeErrors(spec: AttributesSpec | undefined): FieldError[] {
  const errors: FieldError[] = [];
  if (spec?.resourceAttributes !== undefined && spec.nonResourceAttributes !== undefined) {
    errors.push(fieldError.invalid('spec.nonResourceAttributes', spec.nonResourceAttributes, 'cannot be specified in combination with resourceAttributes'));
  }
  if (spec?.resourceAttributes === undefined && spec?.nonResourceAttributes === undefined) {
    errors.push(
      fieldError.invalid(
        'spec.resourceAttributes',
        spec?.nonResourceAttributes ?? GO_NIL,
        'exactly one of nonResourceAttributes or resourceAttributes must be specified',
      ),
    );
  }
  return errors;
}

/** A field or label selector of a review: raw text or requirements, exactly one of them. */
interface SelectorAttributes {
  rawSelector?: string;
  requirements?: { key: string; operator: string; values?: string[] }[];
}

/** `validateFieldSelectorAttributes` / `validateLabelSelectorAttributes`: the pairing of rawSelector and requirements. */
function selectorPairingErrors(selector: SelectorAttributes, path: string): FieldError[] {
  const errors: FieldError[] = [];
  const raw = selector.rawSelector ?? '';
  const requirements = selector.requirements ?? [];
  if (raw.length > 0 && requirements.length > 0)
    errors.push(fieldError.invalid(child(path, 'rawSelector'), raw, 'may not specified at the same time as requirements'));
  if (raw.length === 0 && requirements.length === 0) {
    errors.push(fieldError.required(child(path, 'requirements'), `when ${path} is specified, requirements or rawSelector is required`));
  }
  return errors;
}

/**
 * `validateResourceAttributes`: the field and label selectors a review asks about. Unknown
 * operators are accepted (a newer client may know more of them), as kube-apiserver accepts them.
 */
function resourceAttributeErrors(attributes: ResourceAttributes | undefined): FieldError[] {
  if (!attributes) return [];
  const errors: FieldError[] = [];
  const fields = attributes.fieldSelector;
  if (fields) {
    const path = 'spec.resourceAttributes.fieldSelector';
    errors.push(...selectorPairingErrors(fields, path));
    (fields.requirements ?? []).forEach((r, i) => {
      // ValidateFieldSelectorRequirement: a key, and one value for In and NotIn, none for Exists and DoesNotExist.
      const p = index(child(path, 'requirements'), i);
      const values = r.values ?? [];
      if (!r.key) errors.push(fieldError.required(child(p, 'key'), 'must be specified'));
      if ((r.operator === 'In' || r.operator === 'NotIn') && values.length !== 1) {
        errors.push(fieldError.invalid(child(p, 'values'), values, "must have one element when `operator` is 'In' or 'NotIn'"));
      }
      if ((r.operator === 'Exists' || r.operator === 'DoesNotExist') && values.length > 0) {
        errors.push(fieldError.forbidden(child(p, 'values'), "may not be specified when `operator` is 'Exists' or 'DoesNotExist'"));
      }
    });
  }
  const labels = attributes.labelSelector;
  if (labels) {
    const path = 'spec.resourceAttributes.labelSelector';
    errors.push(...selectorPairingErrors(labels, path));
    (labels.requirements ?? []).forEach((r, i) => {
      errors.push(...validateLabelSelectorRequirement(r, index(child(path, 'requirements'), i), { allowUnknownOperatorInRequirement: true }));
    });
  }
  return errors;
}

/** `ValidateSelfSubjectAccessReviewSpec`: the attributes, and the selectors they ask about. */
export function selfSubjectErrors(spec: AttributesSpec | undefined): FieldError[] {
  return [...attributeErrors(spec), ...resourceAttributeErrors(spec?.resourceAttributes)];
}

/** `ValidateSubjectAccessReviewSpec`: the attributes, and a user or a group to ask about. */
export function subjectErrors(spec: AttributesSpec | undefined): FieldError[] {
  const errors = attributeErrors(spec);
  if (!spec?.user && !spec?.groups?.length) errors.push(fieldError.invalid('spec.user', spec?.user ?? '', 'at least one of user or group must be specified'));
  errors.push(...resourceAttributeErrors(spec?.resourceAttributes));
  return errors;
}

/** Whether a review's metadata holds anything but `managedFields` (and, when `keepNamespace`, its namespace). */
export function metadataErrors(review: KubeObject, keepNamespace: boolean): FieldError[] {
  const { managedFields: _managed, namespace: _namespace, ...rest } = review.metadata ?? {};
  const extra = keepNamespace ? rest : { ...rest, ...(review.metadata?.namespace ? { namespace: review.metadata.namespace } : {}) };
  if (Object.keys(extra).length === 0) return [];
  return [fieldError.invalid('metadata', review.metadata, keepNamespace ? 'must be empty except for namespace' : 'must be empty')];
}

/** The resource or non-resource attributes of a review's spec. */
interface ReviewAttributes {
  resourceAttributes?: ResourceAttributes;
  nonResourceAttributes?: NonResourceAttributes;
}

/** Field requirement operators as selector text (`In` and `NotIn` of one value are `=` and `!=`). */
function fieldRequirementText(r: { key: string; operator: string; values?: string[] }): string | undefined {
  const values = r.values ?? [];
  if (values.length !== 1) return undefined;
  if (r.operator === 'In') return `${r.key}=${escapeFieldValue(values[0]!)}`;
  if (r.operator === 'NotIn') return `${r.key}!=${escapeFieldValue(values[0]!)}`;
  return undefined;
}

/** Label requirement operators as selector text. */
function labelRequirementText(r: { key: string; operator: string; values?: string[] }): string | undefined {
  const values = r.values ?? [];
  if (r.operator === 'In' && values.length) return `${r.key} in (${values.join(',')})`;
  if (r.operator === 'NotIn' && values.length) return `${r.key} notin (${values.join(',')})`;
  if (r.operator === 'Exists' && !values.length) return r.key;
  if (r.operator === 'DoesNotExist' && !values.length) return `!${r.key}`;
  return undefined;
}

/**
 * The text of a selector a review asks about: its `rawSelector`, or its `requirements` written
 * out. As `ResourceAttributesFrom` keeps no selector when one requirement cannot be read, one
 * that says nothing a selector can say drops the whole selector.
 */
function selectorText(
  selector: SelectorAttributes | undefined,
  write: (r: { key: string; operator: string; values?: string[] }) => string | undefined,
): string | undefined {
  if (!selector) return undefined;
  if (selector.rawSelector) return selector.rawSelector;
  const terms = (selector.requirements ?? []).map(write);
  return terms.length && terms.every((t) => t !== undefined) ? terms.join(',') : undefined;
}

/**
 * The authorizer's attributes of a review's question, for `user` (`authorizationutil`
 * ResourceAttributesFrom / NonResourceAttributesFrom): a field or label selector asked about,
 * given as raw text or as requirements, travels as selector text.
 */
export function reviewAttributes(user: UserInfo, spec: ReviewAttributes): AuthorizationAttributes {
  const r = spec.resourceAttributes;
  if (r) {
    return {
      user,
      verb: r.verb ?? '',
      resourceRequest: true,
      namespace: r.namespace ?? '',
      apiGroup: r.group ?? '',
      // matchAllVersionIfEmpty: a review that names no version asks about every version.
      apiVersion: r.version || '*',
      resource: r.resource ?? '',
      subresource: r.subresource ?? '',
      name: r.name ?? '',
      fieldSelector: selectorText(r.fieldSelector, fieldRequirementText),
      labelSelector: selectorText(r.labelSelector, labelRequirementText),
    };
  }
  const n = spec.nonResourceAttributes;
  return { user, verb: n?.verb ?? '', resourceRequest: false, path: n?.path ?? '' };
}

/** A SubjectAccessReview's status for an authorizer's answer (`allowed`, `denied`, `reason`, `evaluationError`). */
export function reviewStatus(result: AuthorizationResult): SubjectAccessReviewStatus {
  const status: SubjectAccessReviewStatus = { allowed: result.decision === 'Allow' };
  if (result.decision === 'Deny') status.denied = true;
  if (result.reason) status.reason = result.reason;
  if (result.evaluationError) status.evaluationError = result.evaluationError;
  return status;
}

/** The user a SubjectAccessReview asks about: its `user`, `uid`, `groups` and `extra`. */
export function subjectOf(spec: { user?: string; uid?: string; groups?: string[]; extra?: Record<string, string[]> }): UserInfo {
  const user: UserInfo = { username: spec.user ?? '', groups: [...(spec.groups ?? [])] };
  if (spec.uid) user.uid = spec.uid;
  if (spec.extra && Object.keys(spec.extra).length) user.extra = structuredClone(spec.extra);
  return user;
}
