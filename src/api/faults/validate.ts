/** Checks of what a caller hands `cluster.faults.add`: anything unusable is a TypeError that says why, and nothing is added. */
import type { FaultSpec } from './types.js';

const REASONS = new Set(['Conflict', 'TooManyRequests', 'InternalError', 'Timeout', 'ServerTimeout', 'ServiceUnavailable']);
const VERBS = new Set(['get', 'list', 'watch', 'create', 'update', 'patch', 'delete', 'deletecollection']);
const STRING_FIELDS = ['resource', 'group', 'namespace', 'name', 'user', 'subresource'] as const;

function nonNegativeInteger(value: unknown, what: string): void {
  if (typeof value !== 'number' || !Number.isSafeInteger(value) || value < 0)
    throw new TypeError(`faults.add: ${what} must be a non-negative integer, not ${String(value)}`);
}

/** Throws a TypeError when `spec` is not a fault memkube can apply. */
export function validateFaultSpec(spec: FaultSpec): void {
  if (typeof spec !== 'object' || spec === null) throw new TypeError('faults.add: expected { match?, times?, answer }');
  if (spec.times !== undefined) {
    nonNegativeInteger(spec.times, 'times');
    if (spec.times === 0) throw new TypeError('faults.add: times must be at least 1 (leave it out to apply to every request)');
  }
  const match: unknown = spec.match;
  if (match !== undefined) {
    if (typeof match !== 'object' || match === null) throw new TypeError('faults.add: match must be an object');
    const m = match as Record<string, unknown>;
    for (const field of STRING_FIELDS) {
      if (m[field] !== undefined && typeof m[field] !== 'string') throw new TypeError(`faults.add: match.${field} must be a string`);
    }
    if (m.verb !== undefined) {
      const verbs: unknown[] = Array.isArray(m.verb) ? (m.verb as unknown[]) : [m.verb];
      for (const v of verbs) if (typeof v !== 'string' || !VERBS.has(v)) throw new TypeError(`faults.add: match.verb ${String(v)} is not a Kubernetes verb`);
    }
    if (m.when !== undefined && typeof m.when !== 'function') throw new TypeError('faults.add: match.when must be a function');
  }
  const answer: unknown = spec.answer;
  if (typeof answer === 'function') return;
  if (typeof answer !== 'object' || answer === null) throw new TypeError('faults.add: answer must be an error, a delay, a watch fault or a function');
  const a = answer as Record<string, unknown>;
  if ('error' in a) {
    if (typeof a.error !== 'string' || !REASONS.has(a.error))
      throw new TypeError(`faults.add: answer.error must be one of ${[...REASONS].join(', ')}, not ${String(a.error)}`);
    if (a.message !== undefined && typeof a.message !== 'string') throw new TypeError('faults.add: answer.message must be a string');
    if (a.retryAfterSeconds !== undefined) nonNegativeInteger(a.retryAfterSeconds, 'answer.retryAfterSeconds');
  } else if ('delayMs' in a) {
    if (typeof a.delayMs !== 'number' || !Number.isFinite(a.delayMs) || a.delayMs < 0)
      throw new TypeError(`faults.add: answer.delayMs must be a non-negative number, not ${String(a.delayMs)}`);
  } else if ('watch' in a) {
    if (a.watch !== 'drop' && a.watch !== 'expire') throw new TypeError(`faults.add: answer.watch must be 'drop' or 'expire', not ${String(a.watch)}`);
    if (a.afterEvents !== undefined) nonNegativeInteger(a.afterEvents, 'answer.afterEvents');
  } else {
    throw new TypeError('faults.add: answer must have error, delayMs or watch, or be a function');
  }
}
