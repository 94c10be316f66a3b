/**
 * The rules of the access reviews (pkg/apis/authorization/validation/validation.go): exactly one of
 * resource and non-resource attributes; a SubjectAccessReview names a user or a group; the
 * metadata of a review is empty (a LocalSubjectAccessReview's but for its namespace).
 */
import { fieldError, type FieldError } from '../../machinery/field-errors.js';
import type { AuthorizationAttributes, AuthorizationResult } from '../../machinery/auth.js';
import type { UserInfo } from '../../machinery/request.js';
import type { KubeObject } from '../../schema/define-kind.js';
import type { NonResourceAttributes, ResourceAttributes, SubjectAccessReviewStatus } from '../types/authorization-v1.js';

interface AttributesSpec {
  resourceAttributes?: unknown;
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

/** `ValidateSubjectAccessReviewSpec`: the attributes, and a user or a group to ask about. */
export function subjectErrors(spec: AttributesSpec | undefined): FieldError[] {
  const errors = attributeErrors(spec);
  if (!spec?.user && !spec?.groups?.length) errors.push(fieldError.invalid('spec.user', spec?.user ?? '', 'at least one of user or group must be specified'));
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

/**
 * The authorizer's attributes of a review's question, for `user` (`authorizationutil`
 * ResourceAttributesFrom / NonResourceAttributesFrom): a field or label selector asked about
 * travels as its raw text.
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
      apiVersion: r.version ?? '',
      resource: r.resource ?? '',
      subresource: r.subresource ?? '',
      name: r.name ?? '',
      fieldSelector: r.fieldSelector?.rawSelector,
      labelSelector: r.labelSelector?.rawSelector,
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
