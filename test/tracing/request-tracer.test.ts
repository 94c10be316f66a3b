/**
 * The request tracer against a real OTLP gRPC receiver: the spans kube-apiserver's tracing filter
 * makes (names, attributes, status, resource), sampling at 0 and 1,000,000 per million, and a
 * caller's `traceparent` followed for privileged users and linked for anyone else.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { apiserverIdentity, startRequestTracing, type RequestTracer, type TracedRequest } from '../../src/tracing/index.js';
import { startOtlpReceiver, type OtlpReceiver } from './otlp-receiver.js';

const open: { receiver: OtlpReceiver; tracer?: RequestTracer }[] = [];
afterEach(async () => {
  for (const { receiver, tracer } of open.splice(0)) {
    await tracer?.shutdown();
    await receiver.close();
  }
});

async function setUp(samplingFraction: number): Promise<{ receiver: OtlpReceiver; tracer: RequestTracer }> {
  const receiver = await startOtlpReceiver();
  const tracer = await startRequestTracing({
    endpoint: receiver.endpoint,
    samplingFraction,
    serviceInstanceId: 'apiserver-test',
    now: () => 1_700_000_000_000,
  });
  open.push({ receiver, tracer });
  return { receiver, tracer };
}

function request(overrides: Partial<TracedRequest> & { headers?: Record<string, string> } = {}): TracedRequest {
  const headers: Record<string, string> = { host: '127.0.0.1:6443', 'user-agent': 'kubectl/v1.36.0', ...overrides.headers };
  return {
    method: 'GET',
    target: '/api/v1/namespaces/default/pods/web?resourceVersion=0',
    header: (name) => headers[name],
    tls: true,
    remoteAddress: '127.0.0.1',
    remotePort: 51000,
    resource: { apiGroup: '', apiVersion: 'v1', namespace: 'default', resource: 'pods', name: 'web' },
    groups: ['system:masters', 'system:authenticated'],
    auditId: 'b0c1d2e3-0000-4000-8000-000000000001',
    ...overrides,
  };
}

const CALLER_TRACE = '4bf92f3577b34da6a3ce929d0e0e4736';
const CALLER_SPAN = '00f067aa0ba902b7';

describe('startRequestTracing', () => {
  it("exports a server span per request, named and attributed as kube-apiserver's tracing filter does", async () => {
    const { receiver, tracer } = await setUp(1);
    const span = tracer.startRequest(request());
    expect(span.sampled).toBe(true);
    span.end(200, { responseBytes: 512 });
    tracer
      .startRequest(
        request({
          method: 'POST',
          target: '/apis/apps/v1/namespaces/default/deployments/web/scale',
          resource: { apiGroup: 'apps', apiVersion: 'v1', namespace: 'default', resource: 'deployments', name: 'web', subresource: 'scale' },
        }),
      )
      .end(500, { requestBytes: 20 });
    tracer
      .startRequest(
        request({ method: 'get', target: '/healthz', resource: undefined, headers: { host: 'localhost:443', 'x-forwarded-for': '10.0.0.9, 10.0.0.1' } }),
      )
      .end(600);
    tracer.startRequest(request({ target: '/api/v1/nodes', resource: { apiGroup: '', apiVersion: 'v1', resource: 'nodes' } })).end(403);
    await tracer.shutdown();

    expect(receiver.spans.map((s) => s.name)).toEqual([
      'GET /api/v1/namespaces/{:namespace}/pods/{:name}',
      'POST /apis/apps/v1/namespaces/{:namespace}/deployments/{:name}/scale',
      'get',
      'GET /api/v1/nodes',
    ]);
    const [pod, scale, healthz, nodes] = receiver.spans;
    expect(pod).toMatchObject({
      kind: 2,
      parentSpanId: '',
      scope: 'go.opentelemetry.io/contrib/instrumentation/net/http/otelhttp',
      resource: { 'service.name': 'apiserver', 'service.instance.id': 'apiserver-test' },
      status: { code: 0, message: '' },
      startTimeUnixNano: 1_700_000_000_000_000_000n,
      endTimeUnixNano: 1_700_000_000_000_000_000n,
    });
    expect(pod!.attributes).toEqual({
      'server.address': '127.0.0.1',
      'http.request.method': 'GET',
      'url.scheme': 'https',
      'server.port': 6443,
      'network.peer.address': '127.0.0.1',
      'network.peer.port': 51000,
      'user_agent.original': 'kubectl/v1.36.0',
      'client.address': '127.0.0.1',
      'url.path': '/api/v1/namespaces/default/pods/web',
      'network.protocol.version': '1.1',
      'http.target': '/api/v1/namespaces/default/pods/web?resourceVersion=0',
      'audit-id': 'b0c1d2e3-0000-4000-8000-000000000001',
      'http.response.body.size': 512,
      'http.response.status_code': 200,
    });
    expect(scale!.status).toEqual({ code: 2, message: '' });
    expect(scale!.attributes).toMatchObject({ 'http.request.method': 'POST', 'http.request.body.size': 20, 'http.response.status_code': 500 });
    expect(healthz!.status).toEqual({ code: 2, message: 'Invalid HTTP status code 600' });
    expect(healthz!.attributes).toMatchObject({
      'http.request.method': 'GET',
      'http.request.method_original': 'get',
      'server.address': 'localhost',
      'client.address': '10.0.0.9',
      'url.path': '/healthz',
    });
    // The scheme's own port is left out.
    expect(healthz!.attributes['server.port']).toBeUndefined();
    expect(nodes!.status.code).toBe(0);
    expect(new Set(receiver.spans.map((s) => s.traceId)).size).toBe(4);
  });

  it('samples no new trace at 0 per million, yet follows a sampled caller (parent-based)', async () => {
    const { receiver, tracer } = await setUp(0);
    const unsampled = tracer.startRequest(request());
    expect(unsampled.sampled).toBe(false);
    unsampled.end(200);
    tracer.startRequest(request({ headers: { traceparent: `00-${CALLER_TRACE}-${CALLER_SPAN}-01` } })).end(201);
    await tracer.shutdown();
    expect(receiver.spans).toHaveLength(1);
    expect(receiver.spans[0]).toMatchObject({ traceId: CALLER_TRACE, parentSpanId: CALLER_SPAN, links: [] });
    expect(receiver.spans[0]!.attributes['http.response.status_code']).toBe(201);
  });

  it('samples every new trace at 1,000,000 per million, but not a caller that did not sample its own', async () => {
    const { receiver, tracer } = await setUp(1);
    tracer.startRequest(request({ headers: { traceparent: `00-${CALLER_TRACE}-${CALLER_SPAN}-00` } })).end(200);
    tracer.startRequest(request({ target: '/api/v1/pods', resource: { apiGroup: '', apiVersion: 'v1', resource: 'pods' } })).end(200);
    await tracer.shutdown();
    expect(receiver.spans.map((s) => s.name)).toEqual(['GET /api/v1/pods']);
  });

  it("starts a new trace linked to the caller's for a user outside system:masters and system:monitoring", async () => {
    const { receiver, tracer } = await setUp(1);
    const traceparent = `00-${CALLER_TRACE}-${CALLER_SPAN}-01`;
    tracer.startRequest(request({ groups: ['system:authenticated'], headers: { traceparent } })).end(200);
    tracer.startRequest(request({ groups: ['system:monitoring'], headers: { traceparent } })).end(200);
    await tracer.shutdown();
    const [user, monitoring] = receiver.spans;
    expect(user!.traceId).not.toBe(CALLER_TRACE);
    expect(user!.parentSpanId).toBe('');
    expect(user!.links).toEqual([{ traceId: CALLER_TRACE, spanId: CALLER_SPAN }]);
    expect(monitoring).toMatchObject({ traceId: CALLER_TRACE, parentSpanId: CALLER_SPAN, links: [] });
  });

  it('a new root of an unprivileged caller is sampled by the rate, not by the caller', async () => {
    const { receiver, tracer } = await setUp(0);
    tracer.startRequest(request({ groups: undefined, headers: { traceparent: `00-${CALLER_TRACE}-${CALLER_SPAN}-01` } })).end(200);
    await tracer.shutdown();
    expect(receiver.spans).toEqual([]);
    expect(receiver.exports).toBe(0);
  });

  it('ignores an invalid traceparent (the request starts its own trace) and ends a span once', async () => {
    const { receiver, tracer } = await setUp(1);
    const span = tracer.startRequest(request({ headers: { traceparent: `00-${CALLER_TRACE.toUpperCase()}-${CALLER_SPAN}-01` } }));
    span.end(200);
    span.end(500);
    await tracer.shutdown();
    expect(receiver.spans).toHaveLength(1);
    expect(receiver.spans[0]!.traceId).not.toBe(CALLER_TRACE);
    expect(receiver.spans[0]!.attributes['http.response.status_code']).toBe(200);
  });

  it('refuses an endpoint on a Unix socket with a clear message', async () => {
    await expect(startRequestTracing({ endpoint: 'unix:///run/otel.sock', samplingFraction: 1, serviceInstanceId: 'x' })).rejects.toThrow(
      'memkube exports traces over TCP only: endpoint "unix:///run/otel.sock" is not supported',
    );
  });
});

describe('apiserverIdentity', () => {
  it("is kube-apiserver's: apiserver- and the base32 of the host's hash", () => {
    // python3: base64.b32encode(sha256(b'\x00\x06host-a' + b'\x00\x0ekube-apiserver').digest()[:16]).decode().rstrip('=').lower()
    expect(apiserverIdentity('host-a')).toBe(EXPECTED_HOST_A_ID);
    expect(apiserverIdentity()).toMatch(/^apiserver-[a-z2-7]{26}$/);
  });
});

const EXPECTED_HOST_A_ID = 'apiserver-6zbmgnwmvuptjd3z3lqvqzcj5u';
