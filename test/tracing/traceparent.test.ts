/**
 * The pure parts of request tracing: the caller's `traceparent` as Go's propagator reads it, Go's
 * trace-id ratio sampler, span names, and the exporter URL of a gRPC target.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { goTraceIdRatioSampled, otlpExporterUrl, parseTraceparent, requestSpanName } from '../../src/tracing/index.js';

const T = '4bf92f3577b34da6a3ce929d0e0e4736';
const S = '00f067aa0ba902b7';

describe('parseTraceparent', () => {
  it('reads a valid header, keeping only the sampled flag', () => {
    expect(parseTraceparent(`00-${T}-${S}-01`)).toEqual({ traceId: T, spanId: S, sampled: true });
    expect(parseTraceparent(`00-${T}-${S}-00`)).toEqual({ traceId: T, spanId: S, sampled: false });
    expect(parseTraceparent(`00-${T}-${S}-02`)).toEqual({ traceId: T, spanId: S, sampled: false });
    // A later version may carry more parts and flags.
    expect(parseTraceparent(`01-${T}-${S}-03-more`)).toEqual({ traceId: T, spanId: S, sampled: true });
  });

  it('refuses what Go refuses', () => {
    for (const header of [
      undefined,
      '',
      `ff-${T}-${S}-01`,
      `00-${T}-${S}-01-extra`,
      `00-${T}-${S}-03`,
      `00-${T.toUpperCase()}-${S}-01`,
      `00-${'0'.repeat(32)}-${S}-01`,
      `00-${T}-${'0'.repeat(16)}-01`,
      `00-${T.slice(1)}-${S}-01`,
      `0-${T}-${S}-01`,
      `00-${T}-${S}`,
      `zz-${T}-${S}-01`,
    ]) {
      expect(parseTraceparent(header)).toBeUndefined();
    }
  });

  it('never throws on hostile input', () => {
    fc.assert(fc.property(fc.string({ maxLength: 300 }), (s) => void parseTraceparent(s)));
  });
});

describe("goTraceIdRatioSampled (Go's TraceIDRatioBased)", () => {
  it('compares the last 8 bytes, shifted right by one, with fraction × 2^63', () => {
    const id = (low: string) => `${'a'.repeat(16)}${low}`;
    expect(goTraceIdRatioSampled(id('7fffffffffffffff'), 0.5)).toBe(true);
    expect(goTraceIdRatioSampled(id('8000000000000000'), 0.5)).toBe(false);
    expect(goTraceIdRatioSampled(id('0000000000000001'), 0.000001)).toBe(true);
    expect(goTraceIdRatioSampled(id('0000000000000000'), 0)).toBe(false);
    expect(goTraceIdRatioSampled(id('ffffffffffffffff'), 1)).toBe(true);
    // The high half of the id plays no part.
    expect(goTraceIdRatioSampled(`${'f'.repeat(16)}0000000000000002`, 0.000001)).toBe(true);
  });

  it('samples about the fraction of random ids', () => {
    let sampled = 0;
    fc.assert(
      fc.property(fc.stringMatching(/^[0-9a-f]{32}$/), (id) => {
        if (goTraceIdRatioSampled(id, 0.25)) sampled++;
      }),
      { numRuns: 2000, seed: 42 },
    );
    expect(sampled).toBeGreaterThan(350);
    expect(sampled).toBeLessThan(650);
  });
});

describe('requestSpanName', () => {
  it('names resource requests by their route, others by their method', () => {
    expect(requestSpanName({ method: 'GET', resource: { apiGroup: '', apiVersion: 'v1', namespace: 'ns', resource: 'namespaces', name: 'ns' } })).toBe(
      'GET /api/v1/namespaces/{:namespace}/namespaces/{:name}',
    );
    expect(requestSpanName({ method: 'LIST', resource: { apiGroup: 'batch', apiVersion: 'v1', resource: 'jobs' } })).toBe('LIST /apis/batch/v1/jobs');
    expect(requestSpanName({ method: 'PUT', resource: { apiGroup: '', apiVersion: 'v1', resource: 'nodes', name: 'n1', subresource: 'status' } })).toBe(
      'PUT /api/v1/nodes/{:name}/status',
    );
    expect(requestSpanName({ method: 'GET' })).toBe('GET');
  });
});

describe('otlpExporterUrl', () => {
  it('turns a gRPC target into the exporter URL, refusing Unix sockets', () => {
    expect(otlpExporterUrl('localhost:4317')).toBe('http://localhost:4317');
    expect(otlpExporterUrl('[::1]:4317')).toBe('http://[::1]:4317');
    expect(otlpExporterUrl('dns:///collector.monitoring:4317')).toBe('http://collector.monitoring:4317');
    expect(otlpExporterUrl('dns://8.8.8.8/collector:4317')).toBe('http://collector:4317');
    expect(otlpExporterUrl('dns:collector:4317')).toBe('http://collector:4317');
    expect(() => otlpExporterUrl('unix:///run/otel.sock')).toThrow('memkube exports traces over TCP only: endpoint "unix:///run/otel.sock" is not supported');
    expect(() => otlpExporterUrl('unix-abstract:otel')).toThrow('memkube exports traces over TCP only');
  });
});
