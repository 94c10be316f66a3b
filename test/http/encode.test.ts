import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { ApiError } from '../../src/machinery/errors.js';
import { negotiate } from '../../src/http/encode.js';

/** The answer, or the error's code. */
function answer(accept: string | null, transforms: boolean): unknown {
  try {
    return { ...negotiate(accept, transforms) };
  } catch (e) {
    return (e as ApiError).code;
  }
}

describe('negotiate', () => {
  it('picks the representation as the API server does', () => {
    expect(negotiate(null, true)).toEqual({ format: 'json', as: 'object', contentType: 'application/json' });
    expect(negotiate('application/yaml', false)).toEqual({ format: 'yaml', as: 'object', contentType: 'application/yaml' });
    expect(negotiate('application/json;as=Table;v=v1;g=meta.k8s.io, application/json', true)).toEqual({
      format: 'json',
      as: 'Table',
      contentType: 'application/json;as=Table;v=v1;g=meta.k8s.io',
    });
    // A write has no Table form: the next clause is taken.
    expect(negotiate('application/json;as=Table;v=v1;g=meta.k8s.io, application/yaml', false).format).toBe('yaml');
  });

  it('answers a header seen before with the same frozen answer, and refuses an unacceptable one every time', () => {
    const first = negotiate('application/json, */*', true);
    expect(negotiate('application/json, */*', true)).toBe(first);
    expect(Object.isFrozen(first)).toBe(true);
    for (let i = 0; i < 2; i++) expect(() => negotiate('text/html', true)).toThrow(/only the following media types are accepted/);
  });

  it('answers the same for a header whether or not it is short enough to be kept', () => {
    const clause = fc.constantFrom('application/json', 'application/yaml', 'text/html', '*/*', 'application/*', 'application/vnd.kubernetes.protobuf');
    const param = fc.constantFrom(';q=0', ';q=0.5', ';as=Table;v=v1;g=meta.k8s.io', ';as=PartialObjectMetadataList;v=v1beta1;g=meta.k8s.io', ';as=Other', '');
    const header = fc
      .array(
        fc.tuple(clause, param).map(([c, p]) => c + p),
        { maxLength: 4 },
      )
      .map((cs) => cs.join(', '));
    fc.assert(
      fc.property(header, fc.boolean(), (accept, transforms) => {
        expect(answer(accept, transforms)).toEqual(answer(accept + ' '.repeat(300), transforms));
      }),
    );
  });

  it('answers correctly after more distinct headers than it keeps', () => {
    for (let i = 0; i < 2000; i++) expect(negotiate(`application/json;x=${i}`, i % 2 === 0).format).toBe('json');
    expect(negotiate('application/yaml;x=1', true).format).toBe('yaml');
  });
});
