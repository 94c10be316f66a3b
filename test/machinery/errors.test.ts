/**
 * The Status of a failure is written with its keys in metav1.Status's field order, whatever order
 * its maker gives them in, so a body reads byte for byte as kube-apiserver's.
 */
import { describe, expect, it } from 'vitest';
import { ApiError, notFound } from '../../src/machinery/errors.js';

describe('ApiError', () => {
  it("writes a Status in metav1.Status's field order: message, reason, details, then code", () => {
    expect(JSON.stringify(notFound({ group: '', resource: 'configmaps' }, 'x').status)).toBe(
      '{"kind":"Status","apiVersion":"v1","metadata":{},"status":"Failure","message":"configmaps \\"x\\" not found","reason":"NotFound","details":{"name":"x","kind":"configmaps"},"code":404}',
    );
    expect(JSON.stringify(new ApiError({ code: 401, reason: 'Unauthorized', message: 'Unauthorized' }).status)).toBe(
      '{"kind":"Status","apiVersion":"v1","metadata":{},"status":"Failure","message":"Unauthorized","reason":"Unauthorized","code":401}',
    );
  });

  it('leaves out what a failure does not have, and keeps list metadata', () => {
    const e = new ApiError({ code: 410, metadata: { resourceVersion: '5' } });
    expect(JSON.stringify(e.status)).toBe('{"kind":"Status","apiVersion":"v1","metadata":{"resourceVersion":"5"},"status":"Failure","code":410}');
    expect(e.message).toBe('HTTP 410');
  });
});
