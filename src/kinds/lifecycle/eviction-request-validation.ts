/**
 * EvictionRequest rules. Kubernetes v1.36 checks the kind declaratively (`+k8s:required`,
 * `+k8s:format`, `+k8s:immutable`, `+k8s:unionMember`, `+k8s:maxItems=100`, `+k8s:minimum=1`,
 * `+k8s:update=NoUnset`, monotonic `observedGeneration`), plus a custom check that reserves the
 * API and reserved domains for requesters. As declarative validation does, an update re-checks only
 * the fields it changed.
 */
import { child, fieldError, type FieldError } from '../../machinery/field-errors.js';
import { jsonEqual } from '../../util/json-equal.js';
import type { KindContext } from '../../schema/define-kind.js';
import { immutableFieldError } from '../../schema/validation/immutable-fields.js';
import { validateMetaConditions, type MetaCondition } from '../shared/conditions.js';
import { GO_NIL, isUnset, longName, minError, prefixedLabelKey, uuid } from '../shared/declarative.js';
import type { EvictionRequest, EvictionRequestSpec, EvictionRequestStatus } from './eviction-request-schema.js';

/** `spec.intent` values. */
export const EVICTION_REQUEST_INTENTS = ['Eviction', 'Withdrawn'] as const;
/** At most this many `status.conditions`. */
export const MAX_EVICTION_REQUEST_CONDITIONS = 100;

const SPEC = 'spec';
const STATUS = 'status';

/**
 * `ValidateForbiddenReservedDomainSuffixes`: the requester's domain (before `/`, lower-cased,
 * trailing dots dropped) may not be a reserved domain or end in `.` + one.
 */
function reservedRequesterDomain(path: string, value: string, ctx: KindContext): FieldError[] {
  const suffixes = [`.${ctx.apiDomain}`, `.${ctx.reservedDomain}`];
  const domain = (value.split('/', 1)[0] ?? '').toLowerCase().trim().replace(/\.+$/, '');
  const reserved = suffixes.some((s) => domain.endsWith(s) || domain === s.slice(1));
  return reserved ? [fieldError.invalid(path, value, `domain names ${suffixes.map((s) => `*${s}`).join(', ')} are reserved`)] : [];
}

function validateTarget(spec: Partial<EvictionRequestSpec>, old: Partial<EvictionRequestSpec> | undefined): FieldError[] {
  const path = child(SPEC, 'target');
  const target = spec.target ?? {};
  if (old && jsonEqual(spec.target ?? {}, old.target ?? {})) return [];
  if (old) return [immutableFieldError(path, GO_NIL)];
  if (isUnset(target.pod)) return [fieldError.invalid(path, '', 'must specify one of: `pod`')];
  const pod = child(path, 'pod');
  const errs: FieldError[] = [];
  const name = target.pod.name ?? '';
  if (name === '') errs.push(fieldError.required(child(pod, 'name')));
  else errs.push(...longName(child(pod, 'name'), name));
  const uid = target.pod.uid ?? '';
  if (uid === '') errs.push(fieldError.required(child(pod, 'uid')));
  else errs.push(...uuid(child(pod, 'uid'), uid));
  return errs;
}

function validateRequester(spec: Partial<EvictionRequestSpec>, old: Partial<EvictionRequestSpec> | undefined, ctx: KindContext): FieldError[] {
  const path = child(SPEC, 'requester');
  const value = spec.requester ?? '';
  if (old && value === (old.requester ?? '')) return [];
  const errs: FieldError[] = [];
  if (old) errs.push(immutableFieldError(path, GO_NIL));
  if (value === '') errs.push(fieldError.required(path));
  if (errs.length) return errs;
  return [...reservedRequesterDomain(path, value, ctx), ...prefixedLabelKey(path, value)];
}

function validateIntent(spec: Partial<EvictionRequestSpec>, old: Partial<EvictionRequestSpec> | undefined): FieldError[] {
  const path = child(SPEC, 'intent');
  const value = spec.intent ?? '';
  if (old && value === (old.intent ?? '')) return [];
  if (value === '') return [fieldError.required(path)];
  return (EVICTION_REQUEST_INTENTS as readonly string[]).includes(value) ? [] : [fieldError.notSupported(path, value, EVICTION_REQUEST_INTENTS)];
}

/** The rules of the spec, on create (`old` undefined) or on an update of the main resource. */
export function validateEvictionRequestSpec(er: EvictionRequest, old: Readonly<EvictionRequest> | undefined, ctx: KindContext): FieldError[] {
  const spec: Partial<EvictionRequestSpec> = er.spec ?? {};
  const oldSpec: Partial<EvictionRequestSpec> | undefined = old ? (old.spec ?? {}) : undefined;
  if (oldSpec && jsonEqual(spec, oldSpec)) return [];
  return [...validateTarget(spec, oldSpec), ...validateRequester(spec, oldSpec, ctx), ...validateIntent(spec, oldSpec)];
}

function validateObservedGeneration(status: Partial<EvictionRequestStatus>, old: Partial<EvictionRequestStatus>): FieldError[] {
  const path = child(STATUS, 'observedGeneration');
  const value = status.observedGeneration;
  const prev = old.observedGeneration;
  if (value === prev) return [];
  if (isUnset(value)) return isUnset(prev) ? [] : [fieldError.invalid(path, GO_NIL, 'field cannot be cleared once set')];
  const errs: FieldError[] = [];
  if (value < 1) errs.push(fieldError.invalid(path, value, minError(1)));
  if (!isUnset(prev) && value < prev) errs.push(fieldError.invalid(path, value, `may not be decreased from ${prev}`));
  return errs;
}

function validateConditions(status: Partial<EvictionRequestStatus>, old: Partial<EvictionRequestStatus>): FieldError[] {
  const path = child(STATUS, 'conditions');
  const conditions = status.conditions ?? [];
  if (jsonEqual(conditions, old.conditions ?? [])) return [];
  if (conditions.length > MAX_EVICTION_REQUEST_CONDITIONS) return [fieldError.tooMany(path, conditions.length, MAX_EVICTION_REQUEST_CONDITIONS)];
  return validateMetaConditions(conditions as MetaCondition[], path);
}

/** The status rules of a `/status` write: conditions and a never-decreasing `observedGeneration`. */
export function validateEvictionRequestStatus(er: EvictionRequest, old: Readonly<EvictionRequest>): FieldError[] {
  const status: Partial<EvictionRequestStatus> = er.status ?? {};
  const oldStatus: Partial<EvictionRequestStatus> = old.status ?? {};
  return [...validateConditions(status, oldStatus), ...validateObservedGeneration(status, oldStatus)];
}
