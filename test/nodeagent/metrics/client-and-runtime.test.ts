import { describe, expect, it } from 'vitest';
import { CriError, type RuntimeService } from '../../../src/cri/api.js';
import { MetricsRegistry } from '../../../src/metrics/registry.js';
import { exponentialBuckets } from '../../../src/nodeagent/metrics/buckets.js';
import { httpRequestLabels, metricPathBuckets, urlRootPath } from '../../../src/nodeagent/metrics/http-metrics.js';
import { instrumentFetch } from '../../../src/nodeagent/metrics/rest-client-metrics.js';
import { instrumentRuntime } from '../../../src/nodeagent/metrics/runtime-metrics.js';

describe('rest_client metrics of the agent transport', () => {
  it('counts answers by status code and a request that got none as <error>', async () => {
    const registry = new MetricsRegistry();
    let fail = false;
    const fetch = instrumentFetch(async () => {
      if (fail) throw new TypeError('fetch failed');
      return new Response('{}', { status: 409 });
    }, registry);
    await fetch(new Request('https://10.0.0.1:6443/api/v1/nodes', { method: 'PUT', body: '{}' }));
    fail = true;
    await expect(fetch(new Request('https://10.0.0.1:6443/api/v1/nodes'))).rejects.toThrow('fetch failed');
    expect(await registry.value('rest_client_requests_total', { code: '409', method: 'PUT', host: '10.0.0.1:6443' })).toBe(1);
    expect(await registry.value('rest_client_requests_total', { code: '<error>', method: 'GET', host: '10.0.0.1:6443' })).toBe(1);
    expect(await registry.value('rest_client_request_duration_seconds', { host: '10.0.0.1:6443' })).toBe(2);
  });
});

describe('the instrumented runtime', () => {
  const runtime = {
    version: async () => ({ version: '0.1.0', runtimeName: 'x', runtimeVersion: '1', runtimeApiVersion: 'v1' }),
    stopContainer: async () => Promise.reject(new CriError(5, 'not found')),
    close: () => 'closed',
  } as unknown as RuntimeService & { close(): string };

  it('passes calls and other properties through, and wraps once per registry', async () => {
    const registry = new MetricsRegistry();
    const once = instrumentRuntime(runtime, registry);
    const twice = instrumentRuntime(once, registry);
    expect(twice).toBe(once);
    expect(once.close()).toBe('closed');
    await twice.version({ version: '0.1.0' });
    await expect(twice.stopContainer({ containerId: 'c', timeout: 0n })).rejects.toThrow('not found');
    expect(await registry.value('kubelet_runtime_operations_total', { operation_type: 'version' })).toBe(1);
    expect(await registry.value('kubelet_runtime_operations_total', { operation_type: 'stop_container' })).toBe(1);
    expect(await registry.value('kubelet_runtime_operations_errors_total', { operation_type: 'stop_container' })).toBe(1);
    expect(await registry.value('kubelet_runtime_operations_errors_total', { operation_type: 'version' })).toBe(0);
  });
});

describe('kubelet label rules', () => {
  it('keeps two segments of a metrics path and one of any other', () => {
    expect(['/metrics', '/metrics/resource', '/metrics/resource/x', '/pods/a/b', '/', ''].map(urlRootPath)).toEqual([
      'metrics',
      'metrics/resource',
      'metrics/resource',
      'pods',
      '',
      '',
    ]);
  });

  it('knows a debugging path only as the server installed it', () => {
    const served = metricPathBuckets(true, false);
    const disabled = metricPathBuckets(false, true);
    expect([served.has('configz'), served.has('checkpoint'), served.has('pprof')]).toEqual([true, false, false]);
    expect([disabled.has('configz'), disabled.has('pprof'), metricPathBuckets(true, true).has('checkpoint')]).toEqual([false, true, true]);
    expect(httpRequestLabels('GET', '/configz', disabled, 'readonly').path).toBe('other');
    expect(httpRequestLabels('POST', '/exec/a/b/c', served, 'readwrite')).toEqual({
      method: 'POST',
      path: 'exec',
      server_type: 'readwrite',
      long_running: 'true',
    });
  });

  it('builds exponential buckets as Go multiplies them', () => {
    expect(exponentialBuckets(0.005, 2.5, 14)).toEqual([
      0.005, 0.0125, 0.03125, 0.078125, 0.1953125, 0.48828125, 1.220703125, 3.0517578125, 7.62939453125, 19.073486328125, 47.6837158203125, 119.20928955078125,
      298.0232238769531, 745.0580596923828,
    ]);
  });
});
