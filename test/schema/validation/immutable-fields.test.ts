import { describe, expect, it } from 'vitest';
import { FIELD_IMMUTABLE_ERROR_MSG, immutableFieldError, immutableFieldErrors, type ImmutableField } from '../../../src/schema/validation/immutable-fields.js';

const declared = (...immutableFields: (string | ImmutableField)[]) => ({ immutableFields });

describe('immutableFieldErrors', () => {
  it('reports nothing for a kind without declared fields or when nothing declared changed', () => {
    expect(immutableFieldErrors({}, { spec: { a: 1 } }, { spec: { a: 2 } })).toEqual([]);
    expect(immutableFieldErrors(declared('spec.a'), { spec: { a: { x: [1] }, b: 1 } }, { spec: { a: { x: [1] }, b: 2 } })).toEqual([]);
  });

  it('reports each changed field in declaration order, Invalid with the new value (null when absent)', () => {
    const errs = immutableFieldErrors(declared('spec.b', 'spec.a', 'spec.c'), { spec: { a: 2, b: 'x' } }, { spec: { a: 1, c: true } });
    expect(errs).toEqual([immutableFieldError('spec.b', 'x'), immutableFieldError('spec.a', 2), immutableFieldError('spec.c', null)]);
    expect(errs[0]).toEqual({ type: 'FieldValueInvalid', field: 'spec.b', badValue: 'x', detail: FIELD_IMMUTABLE_ERROR_MSG });
  });

  it('counts an absent value as the zero value on both sides, and shows it', () => {
    const kind = declared({ path: 'type', zero: '' });
    expect(immutableFieldErrors(kind, { type: '' }, {})).toEqual([]);
    expect(immutableFieldErrors(kind, {}, { type: 'a' })).toEqual([immutableFieldError('type', '')]);
  });

  it('counts an absent stored value as the stored default, the new value as it is', () => {
    const kind = declared({ path: 'spec.mode', storedDefault: 'Single' });
    expect(immutableFieldErrors(kind, { spec: { mode: 'Single' } }, { spec: {} })).toEqual([]);
    expect(immutableFieldErrors(kind, { spec: {} }, { spec: {} })).toEqual([immutableFieldError('spec.mode', null)]);
  });

  it('compares with the declared equality and shows Go nil or what the declaration prints', () => {
    const emptyIsAbsent = (a: unknown, b: unknown) => JSON.stringify(a ?? []) === JSON.stringify(b ?? []);
    const nil = declared({ path: 'spec.list', equal: emptyIsAbsent, shown: 'nil' });
    expect(immutableFieldErrors(nil, { spec: { list: [] } }, { spec: {} })).toEqual([]);
    expect(immutableFieldErrors(nil, { spec: { list: ['a'] } }, { spec: {} })).toEqual([immutableFieldError('spec.list', null)]);
    const printed = declared({ path: 'spec', shown: (v) => ({ printed: v }) });
    expect(immutableFieldErrors(printed, { spec: { a: 1 } }, { spec: {} })).toEqual([immutableFieldError('spec', { printed: { a: 1 } })]);
  });

  it('reads through absent or non-object parents, and only own keys', () => {
    const kind = declared('spec.a.b');
    expect(immutableFieldErrors(kind, { spec: 'x' }, {})).toEqual([]);
    expect(immutableFieldErrors(kind, { spec: { a: [1] } }, { spec: null })).toEqual([]);
    expect(immutableFieldErrors(declared('spec.toString'), { spec: {} }, { spec: {} })).toEqual([]);
  });
});
