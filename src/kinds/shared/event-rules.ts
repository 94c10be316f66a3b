/**
 * Validation of Events, core/v1 and events.k8s.io/v1 alike (both are stored as core Events).
 * Kubernetes runs the legacy checks for every request and the strict ones only for requests through
 * `events.k8s.io/v1`; paths name the core fields, except `reportingController`, which a core
 * request sees as `reportingComponent`.
 */
import { fieldError, GoPrinted, type FieldError } from '../../machinery/field-errors.js';
import { jsonEqual } from '../../util/json-equal.js';
import { isDNS1123Subdomain, isQualifiedName, utf8ByteLength } from '../../schema/validation/names.js';
import { immutableFieldError } from '../../schema/validation/immutable-fields.js';
import { goQuote } from '../../util/go-format.js';
import type { Event } from '../types/core-v1.js';

export const REPORTING_INSTANCE_LENGTH_LIMIT = 128;
export const ACTION_LENGTH_LIMIT = 128;
export const REASON_LENGTH_LIMIT = 128;
export const NOTE_LENGTH_LIMIT = 1024;

/** Which door a request came through: the strict rules apply to `events.k8s.io/v1` only. */
export type EventApi = 'core' | 'events';

/** Go's zero `time.Time`: an absent time (or one that spells out year 1). */
function isZeroTime(value: string | null | undefined): boolean {
  return !value || /^0001-01-01T00:00:00(\.0+)?Z$/.test(value);
}

function tooLong(path: string, limit: number): FieldError {
  return fieldError.invalid(path, '', `can have at most ${limit} characters`);
}

/** `legacyValidateEvent`: every Event, whichever door it came through. */
export function validateEvent(event: Event, api: EventApi = 'core'): FieldError[] {
  const errors: FieldError[] = [];
  const controllerPath = api === 'core' ? 'reportingComponent' : 'reportingController';
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
    const controller = event.reportingComponent ?? '';
    if (controller === '') errors.push(fieldError.required(controllerPath));
    for (const msg of isQualifiedName(controller)) errors.push(fieldError.invalid(controllerPath, controller, msg));
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

/** The series rules of events.k8s.io: a series counts at least two occurrences and has a last time. */
function validateSeries(event: Event): FieldError[] {
  const series = event.series;
  if (!series) return [];
  const errors: FieldError[] = [];
  if ((series.count ?? 0) < 2) errors.push(fieldError.invalid('series.count', '', 'should be at least 2'));
  if (isZeroTime(series.lastObservedTime)) errors.push(fieldError.required('series.lastObservedTime'));
  return errors;
}

/** The strict rules for an Event created through events.k8s.io/v1 (on top of the legacy ones). */
export function validateStrictEventCreate(event: Event): FieldError[] {
  const errors = validateSeries(event);
  if (isZeroTime(event.eventTime)) errors.push(fieldError.required('eventTime'));
  if (event.type !== 'Normal' && event.type !== 'Warning') errors.push(fieldError.invalid('type', '', `has invalid value: ${event.type ?? ''}`));
  if (!isZeroTime(event.firstTimestamp)) errors.push(fieldError.invalid('firstTimestamp', '', 'needs to be unset'));
  if (!isZeroTime(event.lastTimestamp)) errors.push(fieldError.invalid('lastTimestamp', '', 'needs to be unset'));
  if ((event.count ?? 0) !== 0) errors.push(fieldError.invalid('count', '', 'needs to be unset'));
  if (event.source?.component || event.source?.host) errors.push(fieldError.invalid('source', '', 'needs to be unset'));
  return errors;
}

type ObjectReference = NonNullable<Event['related']>;

/** `%#v` of an internal `core.ObjectReference`, as Kubernetes shows it in an immutability error. */
function goObjectReference(ref: ObjectReference | undefined): string {
  const r = ref ?? {};
  const fields: [string, string | undefined][] = [
    ['Kind', r.kind],
    ['Namespace', r.namespace],
    ['Name', r.name],
    ['UID', r.uid],
    ['APIVersion', r.apiVersion],
    ['ResourceVersion', r.resourceVersion],
    ['FieldPath', r.fieldPath],
  ];
  return `core.ObjectReference{${fields.map(([k, v]) => `${k}:${goQuote(String(v ?? ''))}`).join(', ')}}`;
}

/** `time.Time.String()` of an RFC 3339 timestamp (`0001-01-01 00:00:00 +0000 UTC` when unset). */
function goTimeString(value: string | null | undefined): string {
  const m = /^(\d{4}-\d{2}-\d{2})T(\d{2}:\d{2}:\d{2})(?:\.(\d+))?Z$/.exec(value ?? '');
  if (!m) return '0001-01-01 00:00:00 +0000 UTC';
  const fraction = (m[3] ?? '').replace(/0+$/, '');
  return `${m[1]} ${m[2]}${fraction ? `.${fraction}` : ''} +0000 UTC`;
}

/** Equal as values (Go compares structs field by field), whatever order the keys came in. */
const same = (a: unknown, b: unknown) => jsonEqual(a ?? null, b ?? null);

/**
 * The strict rules for an update through events.k8s.io/v1: what the event reports is immutable
 * (eventTime up to microsecond precision), a changed series must be valid.
 */
export function validateStrictEventUpdate(event: Event, old: Readonly<Event>): FieldError[] {
  const errors: FieldError[] = [];
  if (!same(event.series, old.series)) errors.push(...validateSeries(event));
  const immutable = (path: string, changed: boolean, shown: unknown) => {
    if (changed) errors.push(immutableFieldError(path, shown));
  };
  const source = event.source ?? {};
  immutable('involvedObject', !same(event.involvedObject, old.involvedObject), new GoPrinted(goObjectReference(event.involvedObject)));
  immutable('reason', (event.reason ?? '') !== (old.reason ?? ''), event.reason ?? '');
  immutable('message', (event.message ?? '') !== (old.message ?? ''), event.message ?? '');
  immutable(
    'source',
    !same(event.source ?? {}, old.source ?? {}),
    new GoPrinted(`core.EventSource{Component:${goQuote(source.component ?? '')}, Host:${goQuote(source.host ?? '')}}`),
  );
  immutable('firstTimestamp', goTimeString(event.firstTimestamp) !== goTimeString(old.firstTimestamp), new GoPrinted(goTimeString(event.firstTimestamp)));
  immutable('lastTimestamp', goTimeString(event.lastTimestamp) !== goTimeString(old.lastTimestamp), new GoPrinted(goTimeString(event.lastTimestamp)));
  immutable('count', (event.count ?? 0) !== (old.count ?? 0), event.count ?? 0);
  immutable('type', (event.type ?? '') !== (old.type ?? ''), event.type ?? '');
  immutable('eventTime', truncatedMicros(event.eventTime) !== truncatedMicros(old.eventTime), new GoPrinted(goTimeString(event.eventTime)));
  immutable('action', (event.action ?? '') !== (old.action ?? ''), event.action ?? '');
  immutable('related', !same(event.related, old.related), event.related ? new GoPrinted(goObjectReference(event.related)) : null);
  immutable('reportingController', (event.reportingComponent ?? '') !== (old.reportingComponent ?? ''), event.reportingComponent ?? '');
  immutable('reportingInstance', (event.reportingInstance ?? '') !== (old.reportingInstance ?? ''), event.reportingInstance ?? '');
  return errors;
}

/** A MicroTime cut to whole microseconds, the precision Kubernetes compares eventTime at. */
function truncatedMicros(value: string | null | undefined): string {
  const m = /^(.*?:\d{2})(?:\.(\d+))?Z$/.exec(value ?? '');
  if (!m) return '';
  return `${m[1]}.${(m[2] ?? '').padEnd(6, '0').slice(0, 6)}`;
}
