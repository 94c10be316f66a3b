/**
 * Validation of core/v1 Events: Kubernetes' `legacyValidateEvent`, the only check that
 * `ValidateEventCreate` and `ValidateEventUpdate` run for requests through `/api/v1` (the stricter
 * rules and the immutability of fields apply to events.k8s.io/v1 only).
 */
import { fieldError, type FieldError } from '../../../api/field-errors.js';
import { isDNS1123Subdomain, isQualifiedName, utf8ByteLength } from '../../../schema/validation/names.js';
import type { Event } from '../../types/core-v1.js';

export const REPORTING_INSTANCE_LENGTH_LIMIT = 128;
export const ACTION_LENGTH_LIMIT = 128;
export const REASON_LENGTH_LIMIT = 128;
export const NOTE_LENGTH_LIMIT = 1024;

/** Go's zero `time.Time`: an absent eventTime (or one that spells out year 1). */
function isZeroTime(value: string | undefined): boolean {
  return !value || /^0001-01-01T00:00:00(\.0+)?Z$/.test(value);
}

function tooLong(path: string, limit: number): FieldError {
  return fieldError.invalid(path, '', `can have at most ${limit} characters`);
}

/** `legacyValidateEvent`. */
export function validateEvent(event: Event): FieldError[] {
  const errors: FieldError[] = [];
  const namespace = event.metadata?.namespace ?? '';
  const involvedNamespace = event.involvedObject?.namespace ?? '';
  const mismatch = () => fieldError.invalid('involvedObject.namespace', involvedNamespace, 'does not match event.namespace');
  if (isZeroTime(event.eventTime)) {
    // A classic event: its namespace is the involved object's (or "default" for cluster-scoped objects).
    if (involvedNamespace === '') {
      if (namespace !== '' && namespace !== 'default') errors.push(mismatch());
    } else if (namespace !== involvedNamespace) {
      errors.push(mismatch());
    }
  } else {
    if (involvedNamespace === '' && namespace !== 'default' && namespace !== 'kube-system') errors.push(mismatch());
    // The internal field behind v1 `reportingComponent` is ReportingController, hence the path.
    const controller = event.reportingComponent ?? '';
    if (controller === '') errors.push(fieldError.required('reportingController'));
    for (const msg of isQualifiedName(controller)) errors.push(fieldError.invalid('reportingController', controller, msg));
    const instance = event.reportingInstance ?? '';
    if (instance === '') errors.push(fieldError.required('reportingInstance'));
    if (utf8ByteLength(instance) > REPORTING_INSTANCE_LENGTH_LIMIT) errors.push(tooLong('reportingInstance', REPORTING_INSTANCE_LENGTH_LIMIT));
    const action = event.action ?? '';
    if (action === '') errors.push(fieldError.required('action'));
    if (utf8ByteLength(action) > ACTION_LENGTH_LIMIT) errors.push(tooLong('action', ACTION_LENGTH_LIMIT));
    const reason = event.reason ?? '';
    if (reason === '') errors.push(fieldError.required('reason'));
    if (utf8ByteLength(reason) > REASON_LENGTH_LIMIT) errors.push(tooLong('reason', REASON_LENGTH_LIMIT));
    if (utf8ByteLength(event.message ?? '') > NOTE_LENGTH_LIMIT) errors.push(tooLong('message', NOTE_LENGTH_LIMIT));
  }
  for (const msg of isDNS1123Subdomain(namespace)) errors.push(fieldError.invalid('namespace', namespace, msg));
  return errors;
}
