import { describe, expect, it } from 'vitest';
import { fieldNode, semanticEqual, semanticEqualAt } from '../../../src/kinds/shared/semantic-equal.js';
import { Pod } from '../../../src/kinds/types/core-v1.js';
import { PodCertificateRequestSchema } from '../../../src/kinds/certificates/pod-certificate-request.js';

const podSpec = fieldNode(Pod(), 'spec');
const spec = (over: Record<string, unknown> = {}) => ({ containers: [{ name: 'c', image: 'nginx' }], ...over });

describe('semanticEqual (apiequality.Semantic.DeepEqual over JSON)', () => {
  it('takes an empty map or list for an absent one', () => {
    expect(semanticEqual(spec({ nodeSelector: {} }), spec(), podSpec)).toBe(true);
    expect(semanticEqual(spec({ tolerations: [] }), spec({ tolerations: null }), podSpec)).toBe(true);
    expect(semanticEqual(spec({ nodeSelector: { a: 'b' } }), spec(), podSpec)).toBe(false);
  });

  it('compares quantities by value', () => {
    const withCpu = (cpu: string) => spec({ containers: [{ name: 'c', image: 'nginx', resources: { limits: { cpu } } }] });
    expect(semanticEqual(withCpu('1'), withCpu('1000m'), podSpec)).toBe(true);
    expect(semanticEqual(withCpu('1'), withCpu('2'), podSpec)).toBe(false);
  });

  it('tells an absent struct (a nil pointer) from an empty one, and an absent scalar from its zero value', () => {
    const withSecurity = (securityContext?: object) => spec({ containers: [{ name: 'c', image: 'nginx', ...(securityContext ? { securityContext } : {}) }] });
    expect(semanticEqual(withSecurity({}), withSecurity(), podSpec)).toBe(false);
    expect(semanticEqual(spec({ automountServiceAccountToken: false }), spec(), podSpec)).toBe(false);
  });

  it('takes an empty []byte for an absent one and compares times as instants', () => {
    const bytes = fieldNode(PodCertificateRequestSchema(), 'spec');
    expect(semanticEqual({ podName: 'p', stubPKCS10Request: '' }, { podName: 'p' }, bytes)).toBe(true);
    expect(semanticEqual({ podName: 'p', stubPKCS10Request: 'AA==' }, { podName: 'p' }, bytes)).toBe(false);
    const status = fieldNode(PodCertificateRequestSchema(), 'status');
    expect(semanticEqual({ notAfter: '2026-01-01T01:00:00+01:00' }, { notAfter: '2026-01-01T00:00:00Z' }, status)).toBe(true);
    expect(semanticEqual({ notAfter: '2026-01-01T00:00:01Z' }, { notAfter: '2026-01-01T00:00:00Z' }, status)).toBe(false);
  });

  it('without a schema, only takes an empty list for an absent one', () => {
    expect(semanticEqual({ a: [] }, {})).toBe(true);
    expect(semanticEqual({ a: {} }, {})).toBe(false);
    expect(semanticEqual({ a: [1, { b: 2 }] }, { a: [1, { b: 2 }] })).toBe(true);
    expect(semanticEqual({ a: [1] }, { a: [2] })).toBe(false);
  });

  it('semanticEqualAt compares at a field of a schema', () => {
    const sameTolerations = semanticEqualAt(Pod, 'spec', 'tolerations');
    expect(sameTolerations([], undefined)).toBe(true);
    expect(sameTolerations([{ key: 'a' }], [{ key: 'a' }])).toBe(true);
    expect(sameTolerations([{ key: 'a' }], undefined)).toBe(false);
  });
});
