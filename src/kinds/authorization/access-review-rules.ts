/**
 * The rules of the access reviews (pkg/apis/authorization/validation/validation.go): exactly one of
 * resource and non-resource attributes; a SubjectAccessReview names a user or a group; the
 * metadata of a review is empty (a LocalSubjectAccessReview's but for its namespace).
 */
import { fieldError, type FieldError } from '../../machinery/field-errors.js';
import type { KubeObject } from '../../schema/define-kind.js';

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

/**
 * The answer of an authorizer that allows everything (Kubernetes' AlwaysAllow): memkube does not
 * authorize requests, so every question is answered "allowed".
 */
export const ALLOWED = { allowed: true } as const;
