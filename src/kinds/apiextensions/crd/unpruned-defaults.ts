/**
 * Whether a stored schema has a `default` that pruning would change (apiextensions-apiserver
 * validation.go `schemaHasUnprunedDefaults`): such a schema lets an update keep unpruned defaults.
 * Only structural schemas count.
 */
import type { JSONSchemaProps } from '../../types/apiextensions-v1.js';
import { newStructuralError } from './new-structural.js';
import { approximateGoRegexpError } from './pattern-check.js';
import { wouldPrune } from './prune-check.js';
import { hasDefault, itemsSchema, propertyEntries, schemaHas } from './schema-access.js';
import { validateStructural } from './structural-schema.js';

/** Whether some default of the structural part of `root` loses fields to pruning. */
export function wouldPruneDefaults(root: JSONSchemaProps): boolean {
  if (!schemaHas(root, hasDefault)) return false;
  if (newStructuralError(root) !== undefined) return false;
  if (validateStructural(root, '', { checkPattern: approximateGoRegexpError }).length) return false;
  const stack: JSONSchemaProps[] = [root];
  while (stack.length) {
    const s = stack.pop()!;
    if (hasDefault(s) && wouldPrune(s.default, s)) return true;
    const items = itemsSchema(s);
    if (items) stack.push(items);
    for (const [, p] of propertyEntries(s)) stack.push(p);
    const ap = s.additionalProperties;
    if (ap && typeof ap === 'object' && !Array.isArray(ap)) stack.push(ap as JSONSchemaProps);
  }
  return false;
}
