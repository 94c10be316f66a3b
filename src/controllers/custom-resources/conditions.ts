/**
 * Setting a CustomResourceDefinition condition as apiextensions-apiserver's `SetCRDCondition` does:
 * a new type is appended with the transition time now; an existing one keeps its place and its
 * transition time unless its status changes; reason and message are always replaced.
 */
import type { CustomResourceDefinitionCondition } from '../../kinds/types/apiextensions-v1.js';
import type { CrdCondition } from './names.js';

/** `conditions` with `condition` set; `now` is the transition time text (RFC 3339, seconds). */
export function setCondition(
  conditions: readonly CustomResourceDefinitionCondition[] | undefined,
  condition: CrdCondition,
  now: string,
): CustomResourceDefinitionCondition[] {
  const list = [...(conditions ?? [])];
  const at = list.findIndex((c) => c.type === condition.type);
  // Fields in the order Go encodes them: type, status, lastTransitionTime, reason, message.
  if (at < 0) return [...list, { type: condition.type, status: condition.status, lastTransitionTime: now, ...reasonAndMessage(condition) }];
  const old = list[at]!;
  const time = old.status === condition.status ? old.lastTransitionTime : now;
  list[at] = { type: condition.type, status: condition.status, ...(time !== undefined ? { lastTransitionTime: time } : {}), ...reasonAndMessage(condition) };
  return list;
}

function reasonAndMessage(c: CrdCondition): Pick<CrdCondition, 'reason' | 'message'> {
  return { ...(c.reason !== undefined ? { reason: c.reason } : {}), ...(c.message !== undefined ? { message: c.message } : {}) };
}

/** Whether a condition of `type` is there with status True. */
export function isConditionTrue(conditions: readonly CustomResourceDefinitionCondition[] | undefined, type: string): boolean {
  return (conditions ?? []).some((c) => c.type === type && c.status === 'True');
}

/** Upstream's `IsCRDConditionEquivalent`: same type, status, reason and message. */
export function sameCondition(a: CrdCondition | undefined, b: CrdCondition | undefined): boolean {
  if (!a || !b) return a === b;
  return a.type === b.type && a.status === b.status && (a.reason ?? '') === (b.reason ?? '') && (a.message ?? '') === (b.message ?? '');
}
