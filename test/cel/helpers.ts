/** Schema builders for the CEL tests, named as apiextensions' CEL tests name theirs. */
import { ruleScope, RuleScope, type CelSchema } from '../../src/cel/index.js';

export const integerType: CelSchema = { type: 'integer' };
export const int32Type: CelSchema = { type: 'integer', format: 'int32' };
export const int64Type: CelSchema = { type: 'integer', format: 'int64' };
export const numberType: CelSchema = { type: 'number' };
export const floatType: CelSchema = { type: 'number', format: 'float' };
export const doubleType: CelSchema = { type: 'number', format: 'double' };
export const stringType: CelSchema = { type: 'string' };
export const byteType: CelSchema = { type: 'string', format: 'byte' };
export const booleanType: CelSchema = { type: 'boolean' };
export const durationFormat: CelSchema = { type: 'string', format: 'duration' };
export const dateFormat: CelSchema = { type: 'string', format: 'date' };
export const dateTimeFormat: CelSchema = { type: 'string', format: 'date-time' };
export const listType = (items: CelSchema, extra: Partial<CelSchema> = {}): CelSchema => ({ type: 'array', items, ...extra });
export const listSetType = (items: CelSchema): CelSchema => ({ type: 'array', items, 'x-kubernetes-list-type': 'set' });
export const listMapType = (keys: string[], items: CelSchema): CelSchema => ({
  type: 'array',
  items,
  'x-kubernetes-list-type': 'map',
  'x-kubernetes-list-map-keys': keys,
});
export const mapType = (values: CelSchema, extra: Partial<CelSchema> = {}): CelSchema => ({ type: 'object', additionalProperties: values, ...extra });
export const objectType = (properties: Record<string, CelSchema>, extra: Partial<CelSchema> = {}): CelSchema => ({ type: 'object', properties, ...extra });

/** An object schema with properties val1, val2, ... */
export const schemas = (...props: CelSchema[]): CelSchema => objectType(Object.fromEntries(props.map((p, i) => [`val${i + 1}`, p])));
/** An object with properties val1, val2, ... */
export const objs = (...vals: unknown[]): Record<string, unknown> => Object.fromEntries(vals.map((v, i) => [`val${i + 1}`, v]));

/** apiextensions' ValsEqualThemselvesAndDataLiteral. */
export const valsEqualThemselvesAndDataLiteral = (a: string, b: string, lit: string): string => `${a} == ${lit} && ${lit} == ${a} && ${a} == ${b}`;

/** The rule scope of a schema, failing the test when it has none. */
export function scopeOf(schema: CelSchema, isResourceRoot = false): RuleScope {
  const s = ruleScope(schema, { isResourceRoot });
  if (!(s instanceof RuleScope)) throw new Error(s.error);
  return s;
}

/** Compiles a rule on a schema, failing the test on a compile error. */
export function compileOk(schema: CelSchema, rule: string, optionalOldSelf = false) {
  const c = scopeOf(schema).compileRule({ rule, optionalOldSelf });
  if (c.error) throw new Error(c.error.detail);
  return c;
}

/** The compile error text of a rule on a schema. */
export function compileError(schema: CelSchema, rule: string): string | undefined {
  return scopeOf(schema).compileRule({ rule }).error?.detail;
}
