import { describe, expect, it } from 'vitest';
import { createAuditPipeline } from '../../src/audit/pipeline.js';
import { loadAuditPolicy } from '../../src/config/audit/index.js';
import { createMemoryAuditBackend } from '../../src/audit/memory-backend.js';
import { unionSink } from '../../src/audit/sink.js';
import { goIPString, sourceIPs } from '../../src/audit/source-ips.js';
import type { AuditBackend } from '../../src/audit/backend.js';
import type { AuditEvent } from '../../src/audit/event.js';
import type { AuditRequestInit } from '../../src/audit/request-audit.js';
import { admissionAttributes } from '../../src/api/admission-attributes.js';
import { createFetchHandler } from '../../src/http/handler.js';
import { MetricsRegistry } from '../../src/metrics/registry.js';
import { CombinedClock } from '../../src/clock.js';
import { createCluster, type ApiRequest } from '../../src/index.js';
import type { ResolvedKind } from '../../src/schema/registry.js';

const POLICY = 'apiVersion: audit.k8s.io/v1\nkind: Policy\nrules:\n  - level: Metadata\n';
const ATTRIBUTES = { user: { username: 'u', groups: [] }, verb: 'get', resourceRequest: false, path: '/version' };
const init = (over: Partial<AuditRequestInit> = {}): AuditRequestInit => ({
  auditID: 'id',
  receivedAt: 0,
  requestURI: '/version',
  attributes: ATTRIBUTES,
  ...over,
});
const EVENT = { kind: 'Event', stage: 'RequestReceived' } as AuditEvent;

function pipelineWith(backends: AuditBackend[], policy: Parameters<typeof createAuditPipeline>[0]['policy'] = POLICY) {
  const metrics = new MetricsRegistry();
  return { pipeline: createAuditPipeline({ policy, backends }, { clock: new CombinedClock({ frozenAt: 0 }), metrics }), metrics };
}

describe('the backends as one sink', () => {
  it('keeps an event only when every backend did, waiting only for backends that answer promises', async () => {
    const a = createMemoryAuditBackend();
    const b = createMemoryAuditBackend({ refuse: () => true });
    const errors: string[] = [];
    const context = { handlePluginError: (plugin: string) => errors.push(plugin) };
    expect(unionSink([a], context)([EVENT])).toBe(true);
    expect(unionSink([a, b], context)([EVENT])).toBe(false);
    const later: AuditBackend = { name: 'later', processEvents: () => Promise.resolve(true), shutdown: () => Promise.resolve() };
    const answer = unionSink([a, later], context)([EVENT]);
    expect(answer).toBeInstanceOf(Promise);
    expect(await answer).toBe(true);
    expect(a.events).toHaveLength(3);
    expect(errors).toEqual([]);
  });

  it('counts a backend that throws or rejects under apiserver_audit_error_total{plugin}, and lets backends count their own errors', async () => {
    let attached: { handlePluginError(plugin: string, error: unknown, impacted: readonly AuditEvent[]): void } | undefined;
    const throwing: AuditBackend = {
      name: 'log',
      processEvents: () => {
        throw new Error('disk full');
      },
      shutdown: () => Promise.resolve(),
      attach: (context) => (attached = context),
    };
    const rejecting: AuditBackend = { name: 'webhook', processEvents: () => Promise.reject(new Error('down')), shutdown: () => Promise.resolve() };
    const { pipeline, metrics } = pipelineWith([throwing, rejecting]);
    const audit = pipeline.begin(init())!;
    expect(await audit.received()).toBe(false);
    expect(await metrics.value('apiserver_audit_error_total', { plugin: 'log' })).toBe(1);
    expect(await metrics.value('apiserver_audit_error_total', { plugin: 'webhook' })).toBe(1);
    expect(await metrics.value('apiserver_audit_requests_rejected_total')).toBe(1);
    attached!.handlePluginError('buffered<log>', new Error('x'), [EVENT, EVENT]);
    expect(await metrics.value('apiserver_audit_error_total', { plugin: 'buffered<log>' })).toBe(2);
  });
});

describe('one request audit', () => {
  it('keeps the first value of an annotation and truncates a long User-Agent', async () => {
    const backend = createMemoryAuditBackend();
    const { pipeline } = pipelineWith([backend]);
    const audit = pipeline.begin(init({ userAgent: 'x'.repeat(1030) }))!;
    audit.addAnnotation('a.example.com/k', 'first');
    audit.addAnnotation('a.example.com/k', 'second');
    await audit.complete({ code: 200 });
    expect(backend.events[0]!.annotations).toEqual({ 'a.example.com/k': 'first' });
    expect(backend.events[0]!.userAgent).toBe(`${'x'.repeat(1024)}...TRUNCATED`);
    // The last event comes once.
    await audit.complete({ code: 500 });
    expect(backend.events).toHaveLength(1);
  });

  it('ends with Panic, not ResponseComplete, when the door meets an error that is not an API error', async () => {
    const cluster = await createCluster();
    const backend = createMemoryAuditBackend();
    const { pipeline } = pipelineWith([backend]);
    const handler = createFetchHandler({
      registry: cluster.registry,
      clock: cluster.clock,
      audit: pipeline,
      request: () => Promise.reject(new TypeError('boom')),
    });
    const res = await handler(new Request('http://x/api/v1/namespaces/default/pods'));
    expect(res.status).toBe(500);
    expect(backend.events.map((e) => e.stage)).toEqual(['RequestReceived', 'Panic']);
    expect(backend.events[1]!.responseStatus).toEqual({
      metadata: {},
      status: 'Failure',
      message: "APIServer panic'd: boom",
      reason: 'InternalError',
      code: 500,
    });
    await cluster.close();
  });

  it('shuts its backends down', async () => {
    const backend = createMemoryAuditBackend();
    const { pipeline } = pipelineWith([backend]);
    await pipeline.shutdown();
    expect(backend.closed).toBe(true);
    expect(backend.processEvents([EVENT])).toBe(true);
    expect(backend.events).toEqual([]);
  });

  it('takes a policy already loaded', async () => {
    const backend = createMemoryAuditBackend();
    const { pipeline } = pipelineWith([backend], loadAuditPolicy(POLICY));
    expect(pipeline.policy.rules).toEqual([{ level: 'Metadata' }]);
  });

  it('refuses a policy kube-apiserver refuses', () => {
    expect(() => pipelineWith([], 'apiVersion: audit.k8s.io/v1\nkind: Policy\nrules: [{level: Loud}]')).toThrow(
      'rules[0].level: Unsupported value: "Loud": supported values: "None", "Metadata", "Request", "RequestResponse"',
    );
  });
});

describe('admission annotations', () => {
  const kind = { group: '', namespaced: true, definition: { kind: 'Pod', plural: 'pods' } } as unknown as ResolvedKind;
  it('reach the audit event, with upstream errors for malformed keys and overwrites', () => {
    const seen: Record<string, string> = {};
    const req = {
      verb: 'create',
      resource: { group: '', version: 'v1', resource: 'pods' },
      user: { username: 'u', groups: [] },
      audit: { addAnnotation: (k: string, v: string) => (seen[k] = v) },
    } as ApiRequest;
    const attributes = admissionAttributes(kind, req, 'CREATE', { metadata: { name: 'p' } }, undefined);
    expect(attributes.addAnnotation!('myplugin.admission.k8s.io/decision', 'ok')).toBeUndefined();
    expect(attributes.addAnnotation!('myplugin.admission.k8s.io/decision', 'ok')).toBeUndefined();
    expect(attributes.addAnnotation!('myplugin.admission.k8s.io/decision', 'changed')?.message).toMatch(
      /^admission annotations are not allowd to be overwritten, key:"myplugin.admission.k8s.io\/decision"/,
    );
    expect(attributes.addAnnotation!('no-prefix', 'x')?.message).toMatch(
      /^annotation key has invalid format, the right format is a DNS subdomain prefix and '\/' and key name/,
    );
    expect(attributes.addAnnotation!('Bad_Prefix!/k', 'x')?.message).toMatch(/^annotation key has invalid format /);
    expect(seen).toEqual({ 'myplugin.admission.k8s.io/decision': 'ok' });
  });
});

describe('source IPs', () => {
  const headers = (h: Record<string, string>) => (name: string) => h[name] ?? null;
  it.each([
    [{}, '127.0.0.1', ['127.0.0.1']],
    [{}, '::ffff:127.0.0.1', ['127.0.0.1']],
    [{}, undefined, []],
    [{ 'x-forwarded-for': '1.2.3.4, 5.6.7.8' }, '127.0.0.1', ['1.2.3.4', '5.6.7.8', '127.0.0.1']],
    [{ 'x-forwarded-for': '1.2.3.4, junk, 2001:DB8:0:0::1' }, '2001:db8::1', ['1.2.3.4', '2001:db8::1']],
    [{ 'x-real-ip': '9.9.9.9' }, '9.9.9.9', ['9.9.9.9']],
    [{ 'x-forwarded-for': '1.1.1.1', 'x-real-ip': '1.1.1.1' }, '2.2.2.2', ['1.1.1.1', '2.2.2.2']],
    [{ 'x-real-ip': '010.001.0.1' }, undefined, ['10.1.0.1']],
  ] as const)('%j from %s', (h, remote, expected) => {
    expect(sourceIPs(headers(h), remote)).toEqual(expected);
  });
  it('writes addresses as Go does', () => {
    expect(goIPString('::FFFF:10.0.0.1')).toBe('10.0.0.1');
    expect(goIPString('256.1.1.1')).toBeUndefined();
    expect(goIPString('fe80::1%eth0')).toBeUndefined();
  });
});
