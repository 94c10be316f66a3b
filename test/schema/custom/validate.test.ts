import { describe, expect, it } from 'vitest';
import type { JsonSchemaProps } from '../../../src/schema/custom/index.js';
import { parseJson } from '../../../src/codec/json.js';
import { aggregateMessage } from '../../../src/machinery/field-errors.js';
import { compile, messages, specErrors, withSpec } from './helpers.js';

const obj = (properties: Record<string, JsonSchemaProps>): JsonSchemaProps => ({ type: 'object', properties });

describe('type', () => {
  it('reports a value of the wrong type with its JSON type name', () => {
    const spec = obj({ replicas: { type: 'integer' } });
    expect(specErrors(spec, { replicas: 'x' })).toEqual(['spec.replicas: Invalid value: "string": spec.replicas in body must be of type integer: "string"']);
    expect(specErrors(spec, { replicas: true })).toEqual(['spec.replicas: Invalid value: "boolean": spec.replicas in body must be of type integer: "boolean"']);
    expect(specErrors(spec, { replicas: [] })).toEqual(['spec.replicas: Invalid value: "array": spec.replicas in body must be of type integer: "array"']);
    expect(specErrors(spec, { replicas: {} })).toEqual(['spec.replicas: Invalid value: "object": spec.replicas in body must be of type integer: "object"']);
    expect(specErrors(obj({ f: { type: 'object' } }), { f: 42 })).toEqual([
      'spec.f: Invalid value: "integer": spec.f in body must be of type object: "integer"',
    ]);
  });

  it('accepts an integral float for an integer, and an integer for a number', () => {
    expect(specErrors(obj({ n: { type: 'integer' } }), { n: 2.0 })).toEqual([]);
    expect(specErrors(obj({ n: { type: 'number' } }), { n: 2 })).toEqual([]);
  });

  it('refuses a fractional number for an integer, with the range check kube-openapi adds', () => {
    expect(specErrors(obj({ n: { type: 'integer' } }), { n: 1.5 })).toEqual([
      'spec.n: Invalid value: "number": spec.n in body must be of type integer: "number"',
      '<nil>: Invalid value: "": Checked value must be of type integer (default format) in spec.n',
    ]);
  });

  it('refuses null unless nullable', () => {
    expect(specErrors(obj({ n: { type: 'integer' } }), { n: null })).toEqual(['spec.n: Invalid value: "null": spec.n in body must be of type integer: "null"']);
    expect(specErrors(obj({ n: { type: 'integer', nullable: true } }), { n: null })).toEqual([]);
  });

  it('treats x-kubernetes-int-or-string as integer or string', () => {
    const spec = obj({ port: { 'x-kubernetes-int-or-string': true } });
    expect(specErrors(spec, { port: 80 })).toEqual([]);
    expect(specErrors(spec, { port: 'http' })).toEqual([]);
    expect(specErrors(spec, { port: 1.2 })).toEqual(['spec.port: Invalid value: "number": spec.port in body must be of type integer,string: "number"']);
    expect(specErrors(spec, { port: null })).toEqual(['spec.port: Invalid value: "null": spec.port in body must be of type integer,string: "null"']);
  });

  it('names the format instead of the type when a number meets a format it is not', () => {
    expect(specErrors(obj({ n: { type: 'integer', format: 'int64' } }), { n: 1e20 })).toEqual([
      'spec.n: Invalid value: "float64": spec.n in body must be of type int64: "float64"',
      '<nil>: Invalid value: "": Checked value must be of type integer with format int64 in spec.n',
    ]);
  });

  it('checks int32 and float ranges', () => {
    expect(specErrors(obj({ n: { type: 'integer', format: 'int32' } }), { n: 2147483648 })).toEqual([
      '<nil>: Invalid value: "": Checked value must be of type integer with format int32 in spec.n',
    ]);
    expect(specErrors(obj({ n: { type: 'integer', format: 'int32' } }), { n: -2147483648 })).toEqual([]);
    expect(specErrors(obj({ f: { type: 'number', format: 'float' } }), { f: 3.5e38 })).toEqual([
      '<nil>: Invalid value: "": Checked value must be of type number with format float in spec.f',
    ]);
    expect(specErrors(obj({ f: { type: 'number', format: 'double' } }), { f: 3.5e38 })).toEqual([]);
  });
});

describe('formats', () => {
  it('reports a string that is not of its format', () => {
    expect(specErrors(obj({ id: { type: 'string', format: 'uuid' } }), { id: 'abc' })).toEqual([
      'spec.id: Invalid value: "abc": spec.id in body must be of type uuid: "abc"',
    ]);
    expect(specErrors(obj({ t: { type: 'string', format: 'date-time' } }), { t: '2024-13-01T00:00:00Z' })).toEqual([
      'spec.t: Invalid value: "2024-13-01T00:00:00Z": spec.t in body must be of type date-time: "2024-13-01T00:00:00Z"',
    ]);
    expect(specErrors(obj({ n: { type: 'string', format: 'k8s-short-name' } }), { n: 'a-' })).toEqual([
      'spec.n: Invalid value: "a-": spec.n in body must be of type k8s-short-name: "a-"',
    ]);
  });

  it('ignores formats Kubernetes does not support', () => {
    expect(specErrors(obj({ s: { type: 'string', format: 'my-format' } }), { s: 'anything' })).toEqual([]);
    expect(specErrors(obj({ b: { type: 'boolean', format: 'uuid' } }), { b: true })).toEqual([]);
    expect(specErrors(obj({ n: { type: 'integer', format: 'uuid' } }), { n: 5 })).toEqual([]);
  });
});

describe('enum', () => {
  it('reports an unsupported value with the supported ones', () => {
    expect(specErrors(obj({ mode: { type: 'string', enum: ['a', 'b'] } }), { mode: 'c' })).toEqual([
      'spec.mode: Unsupported value: "c": supported values: "a", "b"',
    ]);
    expect(specErrors(obj({ n: { type: 'integer', enum: [1, 2] } }), { n: 3 })).toEqual(['spec.n: Unsupported value: 3: supported values: "1", "2"']);
    expect(specErrors(obj({ o: { type: 'object', 'x-kubernetes-preserve-unknown-fields': true, enum: [{ a: 1 }] } }), { o: { a: 2 } })).toEqual([
      'spec.o: Unsupported value: {"a":2}: supported values: "{\\"a\\":1}"',
    ]);
  });

  it('never matches null, even when nullable', () => {
    expect(specErrors(obj({ mode: { type: 'string', nullable: true, enum: ['a'] } }), { mode: null })).toEqual([
      'spec.mode: Unsupported value: null: supported values: "a"',
    ]);
  });

  it('compares numbers across int64 and float64 as Go converts them', () => {
    // A float64 converts to the int64 enum value by truncation.
    expect(specErrors(obj({ n: { type: 'number', enum: [1] } }), { n: 1.5 })).toEqual([]);
    expect(specErrors(obj({ n: { type: 'number', enum: [1.5] } }), { n: 1 })).toEqual(['spec.n: Unsupported value: 1: supported values: "1.5"']);
  });
});

describe('strings', () => {
  it('counts lengths in code points and reports maxLength as Too long', () => {
    const spec = obj({ s: { type: 'string', maxLength: 3, minLength: 2 } });
    expect(specErrors(spec, { s: 'ééé' })).toEqual([]);
    expect(specErrors(spec, { s: '😀😀' })).toEqual([]);
    expect(specErrors(spec, { s: 'éééé' })).toEqual(['spec.s: Too long: may not be more than 3 bytes']);
    expect(specErrors(spec, { s: 'é' })).toEqual(['spec.s: Invalid value: "é": spec.s in body should be at least 2 chars long']);
    expect(specErrors(obj({ s: { type: 'string', maxLength: 1 } }), { s: 'ab' })).toEqual(['spec.s: Too long: may not be more than 1 byte']);
  });

  it('matches patterns with Go regexp syntax', () => {
    expect(specErrors(obj({ s: { type: 'string', pattern: '^[a-z]+$' } }), { s: 'ABC' })).toEqual([
      'spec.s: Invalid value: "ABC": spec.s in body should match \'^[a-z]+$\'',
    ]);
    expect(specErrors(obj({ s: { type: 'string', pattern: '^\\pL+$' } }), { s: 'héllo' })).toEqual([]);
    expect(specErrors(obj({ s: { type: 'string', pattern: '^[[:alpha:]]+$' } }), { s: 'abc' })).toEqual([]);
    expect(specErrors(obj({ s: { type: 'string', pattern: '(?i)^abc$' } }), { s: 'ABC' })).toEqual([]);
    // In Go, `.` matches \r (JavaScript's does not) and \s does not match \v.
    expect(specErrors(obj({ s: { type: 'string', pattern: '^a.b$' } }), { s: 'a\rb' })).toEqual([]);
    expect(specErrors(obj({ s: { type: 'string', pattern: '^\\s$' } }), { s: '\v' })).toHaveLength(1);
  });

  it('reports an invalid pattern with Go’s compile error', () => {
    expect(specErrors(obj({ s: { type: 'string', pattern: '+' } }), { s: 'foo' })).toEqual([
      'spec.s: Invalid value: "foo": spec.s in body should match \'+, but pattern is invalid: error parsing regexp: missing argument to repetition operator: `+`\'',
    ]);
  });

  it('reports only the first failing string check', () => {
    expect(specErrors(obj({ s: { type: 'string', maxLength: 2, pattern: '^x$' } }), { s: 'abc' })).toEqual(['spec.s: Too long: may not be more than 2 bytes']);
  });
});

describe('numbers', () => {
  it('reports bounds with int64 or float64 texts', () => {
    const spec = obj({ n: { type: 'integer', minimum: 1, maximum: 5, exclusiveMaximum: true }, f: { type: 'number', maximum: 1 } });
    expect(specErrors(spec, { n: 0 })).toEqual(['spec.n: Invalid value: 0: spec.n in body should be greater than or equal to 1']);
    expect(specErrors(spec, { n: 5 })).toEqual(['spec.n: Invalid value: 5: spec.n in body should be less than 5']);
    expect(specErrors(spec, { f: 1.5 })).toEqual(['spec.f: Invalid value: 1.5: spec.f in body should be less than or equal to 1']);
    expect(specErrors(obj({ n: { type: 'integer', minimum: 0, exclusiveMinimum: true } }), { n: 0 })).toEqual([
      'spec.n: Invalid value: 0: spec.n in body should be greater than 0',
    ]);
  });

  it('truncates a fractional bound to int64 for an integral value, as kube-openapi does', () => {
    expect(specErrors(obj({ n: { type: 'number', maximum: 2.5 } }), { n: 3 })).toEqual([
      'spec.n: Invalid value: 3: spec.n in body should be less than or equal to 2',
    ]);
    expect(specErrors(obj({ n: { type: 'number', maximum: 2.5 } }), { n: 2.7 })).toEqual([
      'spec.n: Invalid value: 2.7: spec.n in body should be less than or equal to 2.5',
    ]);
  });

  it('reports a bound that does not fit an integer type on every value', () => {
    expect(specErrors(obj({ n: { type: 'integer', maximum: 2.5 } }), { n: 1 })).toEqual([
      '<nil>: Invalid value: "": Maximum boundary value must be of type integer (default format) in spec.n',
    ]);
  });

  it('prints float64 values and bounds as Go’s %v does', () => {
    const parsed = parseJson('{"spec":{"n":2e6}}', { rawScalars: true }).value;
    // 2e6 is written as a float: Go decodes a float64 and prints it in exponent form.
    expect(messages(withSpec(obj({ n: { type: 'number', maximum: 1e6 } })).validate(parsed))).toEqual([
      'spec.n: Invalid value: 2e+06: spec.n in body should be less than or equal to 1e+06',
    ]);
    expect(specErrors(obj({ n: { type: 'number', maximum: 1e6 } }), { n: 2000000 })).toEqual([
      'spec.n: Invalid value: 2000000: spec.n in body should be less than or equal to 1000000',
    ]);
  });

  it('checks multipleOf with integer and float arithmetic', () => {
    expect(specErrors(obj({ n: { type: 'integer', multipleOf: 2 } }), { n: 7 })).toEqual([
      'spec.n: Invalid value: 7: spec.n in body should be a multiple of 2',
    ]);
    expect(specErrors(obj({ n: { type: 'integer', multipleOf: 2 } }), { n: 8 })).toEqual([]);
    expect(specErrors(obj({ f: { type: 'number', multipleOf: 0.5 } }), { f: 1.25 })).toEqual([
      'spec.f: Invalid value: 1.25: spec.f in body should be a multiple of 0.5',
    ]);
    expect(specErrors(obj({ f: { type: 'number', multipleOf: 0.5 } }), { f: 1.5 })).toEqual([]);
  });

  it('orders multipleOf, minimum, maximum errors as kube-openapi merges them', () => {
    expect(specErrors(obj({ n: { type: 'integer', multipleOf: 3, minimum: 10, maximum: 0 } }), { n: 5 })).toEqual([
      'spec.n: Invalid value: 5: spec.n in body should be a multiple of 3',
      'spec.n: Invalid value: 5: spec.n in body should be greater than or equal to 10',
      'spec.n: Invalid value: 5: spec.n in body should be less than or equal to 0',
    ]);
  });
});

describe('arrays', () => {
  const list = (extra: object) => obj({ l: { type: 'array', items: { type: 'integer' }, ...extra } });

  it('validates items at their index', () => {
    expect(specErrors(list({}), { l: [1, 'x'] })).toEqual(['spec.l[1]: Invalid value: "string": spec.l[1] in body must be of type integer: "string"']);
  });

  it('reports minItems, maxItems and uniqueItems', () => {
    expect(specErrors(list({ minItems: 2 }), { l: [1] })).toEqual(['spec.l: Invalid value: 1: spec.l in body should have at least 2 items']);
    expect(specErrors(list({ maxItems: 2 }), { l: [1, 2, 3] })).toEqual(['spec.l: Too many: 3: must have at most 2 items']);
    expect(specErrors(list({ uniqueItems: true }), { l: [1, 2, 1] })).toEqual(['spec.l: Invalid value: "": spec.l in body shouldn\'t contain duplicates']);
    expect(specErrors(list({ uniqueItems: true }), { l: [1, 2, 3] })).toEqual([]);
  });

  it('keeps uniqueItems linear on a huge list', () => {
    const l = Array.from({ length: 200_000 }, (_, i) => i);
    const start = Date.now();
    expect(specErrors(list({ uniqueItems: true }), { l })).toEqual([]);
    expect(Date.now() - start).toBeLessThan(5000);
  });
});

describe('objects', () => {
  it('reports required fields at their path, also at the root', () => {
    expect(specErrors({ type: 'object', required: ['name'], properties: { name: { type: 'string' } } }, {})).toEqual(['spec.name: Required value']);
    expect(messages(compile({ type: 'object', required: ['spec'], properties: { spec: { type: 'object' } } }).validate({}))).toEqual(['spec: Required value']);
  });

  it('takes a present null as present for required', () => {
    expect(specErrors({ type: 'object', required: ['name'], properties: { name: { type: 'string', nullable: true } } }, { name: null })).toEqual([]);
  });

  it('validates additionalProperties values at dotted paths', () => {
    expect(specErrors(obj({ m: { type: 'object', additionalProperties: { type: 'integer' } } }), { m: { k: 'v' } })).toEqual([
      'spec.m.k: Invalid value: "string": spec.m.k in body must be of type integer: "string"',
    ]);
  });

  it('reports minProperties and maxProperties', () => {
    const m = (extra: object) => obj({ m: { type: 'object', additionalProperties: { type: 'string' }, ...extra } });
    expect(specErrors(m({ minProperties: 2 }), { m: { a: 'x' } })).toEqual(['spec.m: Invalid value: 1: spec.m in body should have at least 2 properties']);
    expect(specErrors(m({ maxProperties: 2 }), { m: { a: 'x', b: 'y', c: 'z' } })).toEqual(['spec.m: Too many: 3: must have at most 2 items']);
  });

  it('finds properties named like Object.prototype members only as own members', () => {
    const spec = {
      type: 'object',
      required: ['constructor', 'toString'],
      properties: { constructor: { type: 'string' }, toString: { type: 'integer' } },
    } as const;
    expect(specErrors(spec, {})).toEqual(['spec.constructor: Required value', 'spec.toString: Required value']);
    expect(specErrors(spec, JSON.parse('{"constructor":"x","toString":"y"}'))).toEqual([
      'spec.toString: Invalid value: "string": spec.toString in body must be of type integer: "string"',
    ]);
  });
});

describe('logical junctors', () => {
  const intOrString = { 'x-kubernetes-int-or-string': true, nullable: true, anyOf: [{ type: 'integer' }, { type: 'string' }] };

  it('reports anyOf with the errors of its best branch', () => {
    expect(specErrors(obj({ f: intOrString }), { f: true })).toEqual([
      'spec.f: Invalid value: "boolean": spec.f in body must be of type integer,string: "boolean"',
      '<nil>: Invalid value: "": "spec.f" must validate at least one schema (anyOf)',
      'spec.f: Invalid value: "boolean": spec.f in body must be of type integer: "boolean"',
    ]);
    expect(specErrors(obj({ f: intOrString }), { f: 1.2 })).toEqual([
      'spec.f: Invalid value: "number": spec.f in body must be of type integer,string: "number"',
      '<nil>: Invalid value: "": "spec.f" must validate at least one schema (anyOf)',
      'spec.f: Invalid value: "number": spec.f in body must be of type integer: "number"',
      '<nil>: Invalid value: "": Checked value must be of type integer (default format) in spec.f',
    ]);
    expect(specErrors(obj({ f: intOrString }), { f: 'x' })).toEqual([]);
  });

  it('picks the branch that got furthest', () => {
    const spec = obj({ f: { type: 'string', anyOf: [{ maxLength: 1 }, { format: 'ipv4' }] } });
    expect(specErrors(spec, { f: '10.0.0.300' })).toEqual([
      '<nil>: Invalid value: "": "spec.f" must validate at least one schema (anyOf)',
      'spec.f: Invalid value: "10.0.0.300": spec.f in body must be of type ipv4: "10.0.0.300"',
    ]);
  });

  it('reports oneOf with none or several valid', () => {
    const spec = obj({ f: { type: 'integer', oneOf: [{ minimum: 5 }, { maximum: 10 }] } });
    expect(specErrors(spec, { f: 7 })).toEqual([
      '<nil>: Invalid value: "": "spec.f" must validate one and only one schema (oneOf). Found 2 valid alternatives',
    ]);
    expect(specErrors(spec, { f: 12 })).toEqual([]);
    const none = obj({ f: { type: 'integer', oneOf: [{ minimum: 5 }, { minimum: 6 }] } });
    expect(specErrors(none, { f: 1 })).toEqual([
      '<nil>: Invalid value: "": "spec.f" must validate one and only one schema (oneOf). Found none valid',
      'spec.f: Invalid value: 1: spec.f in body should be greater than or equal to 5',
    ]);
  });

  it('reports allOf and not', () => {
    const spec = obj({ f: { type: 'integer', allOf: [{ minimum: 5 }, { maximum: 10 }] } });
    expect(specErrors(spec, { f: 12 })).toEqual([
      'spec.f: Invalid value: 12: spec.f in body should be less than or equal to 10',
      '<nil>: Invalid value: "": "spec.f" must validate all the schemas (allOf)',
    ]);
    expect(specErrors(obj({ f: { type: 'integer', allOf: [{ minimum: 5 }, { minimum: 6 }] } }), { f: 1 })).toEqual([
      'spec.f: Invalid value: 1: spec.f in body should be greater than or equal to 5',
      'spec.f: Invalid value: 1: spec.f in body should be greater than or equal to 6',
      '<nil>: Invalid value: "": "spec.f" must validate all the schemas (allOf). None validated',
    ]);
    expect(specErrors(obj({ f: { type: 'string', not: { enum: ['x'] } } }), { f: 'x' })).toEqual([
      '<nil>: Invalid value: "": "spec.f" must not validate the schema (not)',
    ]);
  });

  it('validates properties inside a clause', () => {
    const spec = { type: 'object', properties: { a: { type: 'string' } }, anyOf: [{ required: ['a'] }, { properties: { a: { pattern: '^x$' } } }] } as const;
    expect(specErrors(spec, { a: 'y' })).toEqual([]);
    expect(specErrors(spec, {})).toEqual([]);
  });

  it('drops duplicate messages', () => {
    expect(specErrors(obj({ f: { type: 'integer', allOf: [{ minimum: 5 }, { minimum: 5 }] } }), { f: 1 })).toEqual([
      'spec.f: Invalid value: 1: spec.f in body should be greater than or equal to 5',
      '<nil>: Invalid value: "": "spec.f" must validate all the schemas (allOf). None validated',
    ]);
  });
});

describe('the whole message', () => {
  it('aggregates as the API server prints a 422', () => {
    const errs = withSpec(obj({ replicas: { type: 'integer' }, name: { type: 'string', maxLength: 2 } })).validate({ spec: { replicas: 'x', name: 'abc' } });
    expect(aggregateMessage(errs)).toBe(
      '[spec.replicas: Invalid value: "string": spec.replicas in body must be of type integer: "string", spec.name: Too long: may not be more than 2 bytes]',
    );
  });

  it('validates status against its own schema, naming paths relative to it', () => {
    const schema = compile({ type: 'object', properties: { status: obj({ replicas: { type: 'integer' } }) } });
    expect(messages(schema.validateStatusUpdate({ status: { replicas: 'x' } }, { status: { replicas: 1 } }))).toEqual([
      'status.replicas: Invalid value: "string": replicas in body must be of type integer: "string"',
    ]);
    expect(schema.validateStatusUpdate({ spec: {} }, {})).toEqual([]);
  });

  it('reports plain errors on the base path when validating below the root', () => {
    const schema = compile({ type: 'object', properties: { status: obj({ phase: { type: 'string', anyOf: [{ enum: ['A'] }, { enum: ['B'] }] } }) } });
    expect(messages(schema.validateStatusUpdate({ status: { phase: 'C' } }, {}))).toEqual([
      'status: Invalid value: "": "phase" must validate at least one schema (anyOf)',
      'status.phase: Unsupported value: "C": supported values: "A"',
    ]);
  });

  it('reports a resource that is not an object at all', () => {
    expect(messages(compile({ type: 'object' }).validate('x'))).toEqual(['<nil>: Invalid value: "string":  in body must be of type object: "string"']);
  });
});
