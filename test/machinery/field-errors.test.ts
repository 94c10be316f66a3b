import { describe, expect, it } from 'vitest';
import { aggregateMessage, fieldError, fieldErrorBody, fieldErrorMessage } from '../../src/machinery/field-errors.js';
import { invalid } from '../../src/machinery/errors.js';

describe('field errors render as Kubernetes field.Error', () => {
  it('shows values for Invalid/NotSupported/Duplicate and hides them for Required/Forbidden/TooLong', () => {
    expect(fieldErrorMessage(fieldError.invalid('spec.replicas', -1, 'must be greater than or equal to 0'))).toBe(
      'spec.replicas: Invalid value: -1: must be greater than or equal to 0',
    );
    expect(fieldErrorMessage(fieldError.notSupported('spec.type', 'X', ['A', 'B']))).toBe('spec.type: Unsupported value: "X": supported values: "A", "B"');
    expect(fieldErrorMessage(fieldError.duplicate('spec.containers[1].name', 'c'))).toBe('spec.containers[1].name: Duplicate value: "c"');
    expect(fieldErrorMessage(fieldError.required('spec.containers'))).toBe('spec.containers: Required value');
    expect(fieldErrorMessage(fieldError.forbidden('spec', 'nope'))).toBe('spec: Forbidden: nope');
    expect(fieldErrorBody(fieldError.tooLong('data', 1))).toBe('Too long: may not be more than 1 byte');
    expect(fieldErrorBody(fieldError.tooMany('items', 3, 2))).toBe('Too many: 3: must have at most 2 items');
    expect(fieldErrorMessage(fieldError.invalid('x', ['a<b'], 'bad'))).toBe('x: Invalid value: ["a\\u003cb"]: bad');
  });

  it('aggregates like ToAggregate: one as is, several deduplicated in brackets', () => {
    const a = fieldError.required('a');
    const b = fieldError.required('b');
    expect(aggregateMessage([a])).toBe('a: Required value');
    expect(aggregateMessage([a, b, a])).toBe('[a: Required value, b: Required value]');
  });

  it('builds the 422 Status with causes', () => {
    const e = invalid({ group: 'apps', kind: 'StatefulSet' }, 'web', [fieldError.required('spec.selector')]);
    expect(e.status).toMatchObject({
      code: 422,
      reason: 'Invalid',
      message: 'StatefulSet.apps "web" is invalid: spec.selector: Required value',
      details: {
        name: 'web',
        group: 'apps',
        kind: 'StatefulSet',
        causes: [{ reason: 'FieldValueRequired', message: 'Required value', field: 'spec.selector' }],
      },
    });
  });
});
