/**
 * The API approval rule of the community's protected groups (apiextensions-apiserver validation.go
 * `validateAPIApproval`, apihelpers `IsProtectedCommunityGroup` and `GetAPIApprovalState`): a
 * definition in `k8s.io`, `kubernetes.io` or a subdomain of either needs the annotation
 * `api-approved.kubernetes.io`, set to the URL of the approval or to a reason starting with
 * `unapproved`. An update that leaves the state as it was is never refused.
 */
import { fieldError, key, type FieldError } from '../../../machinery/field-errors.js';
import { goParseURL } from '../../../util/go-url.js';

/** The annotation that records the approval. */
export const API_APPROVED_ANNOTATION = 'api-approved.kubernetes.io';

type ApprovalState = 'invalid' | 'approved' | 'bypassed' | 'missing';

/** Whether a group is reserved for the Kubernetes community. */
export function isProtectedCommunityGroup(group: string): boolean {
  return group === 'k8s.io' || group.endsWith('.k8s.io') || group === 'kubernetes.io' || group.endsWith('.kubernetes.io');
}

/** Go's `url.ParseRequestURI` as far as the approval needs: an absolute URL with a scheme and a host. */
function isApprovalURL(text: string): boolean {
  const parsed = goParseURL(text);
  return parsed.ok && parsed.url.scheme !== '' && parsed.url.host !== '' && parsed.url.opaque === '';
}

function approvalState(annotations: Readonly<Record<string, string>> | undefined): [ApprovalState, string] {
  const value = annotations && Object.hasOwn(annotations, API_APPROVED_ANNOTATION) ? (annotations[API_APPROVED_ANNOTATION] ?? '') : '';
  if (value === '')
    return ['missing', `protected groups must have approval annotation "${API_APPROVED_ANNOTATION}", see https://github.com/kubernetes/enhancements/pull/1111`];
  if (value.startsWith('unapproved')) return ['bypassed', `not approved: "${value}"`];
  if (isApprovalURL(value)) return ['approved', `approved in ${value}`];
  return [
    'invalid',
    `protected groups must have approval annotation "${API_APPROVED_ANNOTATION}" with either a URL or a reason starting with "unapproved", see https://github.com/kubernetes/enhancements/pull/1111`,
  ];
}

/** The annotations of the stored definition, on update. */
export interface StoredAnnotations {
  readonly annotations: Readonly<Record<string, string>> | undefined;
}

/** Validates the approval annotation of a definition in `group`; `old` is given on update. */
export function validateAPIApproval(group: string, annotations: Readonly<Record<string, string>> | undefined, old?: StoredAnnotations): FieldError[] {
  if (!isProtectedCommunityGroup(group)) return [];
  const [state, reason] = approvalState(annotations);
  if (old && approvalState(old.annotations)[0] === state) return [];
  const path = key('metadata.annotations', API_APPROVED_ANNOTATION);
  switch (state) {
    case 'missing':
      return [fieldError.required(path, reason)];
    case 'invalid':
      return [fieldError.invalid(path, annotations?.[API_APPROVED_ANNOTATION] ?? '', reason)];
    default:
      return [];
  }
}

/**
 * The `KubernetesAPIApprovalPolicyConformant` condition apiextensions-apiserver's API approval
 * controller keeps on a definition of a protected group (pkg/controller/apiapproval
 * `calculateCondition`); undefined for any other group.
 */
export function apiApprovalCondition(
  group: string,
  annotations: Readonly<Record<string, string>> | undefined,
): { type: string; status: string; reason: string; message: string } | undefined {
  if (!isProtectedCommunityGroup(group)) return undefined;
  const [state, message] = approvalState(annotations);
  const type = 'KubernetesAPIApprovalPolicyConformant';
  switch (state) {
    case 'approved':
      return { type, status: 'True', reason: 'ApprovedAnnotation', message };
    case 'bypassed':
      return { type, status: 'False', reason: 'UnapprovedAnnotation', message };
    case 'missing':
      return { type, status: 'False', reason: 'MissingAnnotation', message };
    default:
      return { type, status: 'False', reason: 'InvalidAnnotation', message };
  }
}
