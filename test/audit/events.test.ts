import { afterEach, describe, expect, it } from 'vitest';
import {
  createCluster,
  createMemoryAuditBackend,
  type AuditEvent,
  type Cluster,
  type ClusterOptions,
  type MemoryAuditBackendOptions,
} from '../../src/index.js';

/** configmaps at RequestResponse, secrets at Request, healthz not at all, everything else at Metadata. */
const POLICY = `apiVersion: audit.k8s.io/v1
kind: Policy
rules:
  - level: RequestResponse
    resources:
      - group: ""
        resources: ["configmaps"]
  - level: Request
    resources:
      - group: ""
        resources: ["secrets"]
  - level: None
    nonResourceURLs: ["/healthz*"]
  - level: Metadata
`;

const NOW = Date.parse('2026-12-02T01:02:03.456Z');
let cluster: Cluster | undefined;
afterEach(async () => {
  await cluster?.close();
  cluster = undefined;
});

async function auditedCluster(policy: string = POLICY, backendOptions: MemoryAuditBackendOptions = {}, options: ClusterOptions = {}) {
  const backend = createMemoryAuditBackend(backendOptions);
  cluster = await createCluster({ clock: NOW, ...options, audit: { policy, backends: [backend] } });
  return { cluster, backend };
}

const ADMIN = { username: 'system:admin', groups: ['system:masters', 'system:authenticated'] };
const admin = (c: Cluster) => ({ authorization: `Bearer ${c.adminToken}` });
const stages = (events: readonly AuditEvent[]) => events.map((e) => e.stage);
const json = { 'content-type': 'application/json' };
const CONFIGMAP = { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'cm' }, data: { a: '1' } };

async function call(c: Cluster, path: string, init: RequestInit = {}): Promise<Response> {
  return c.fetch(new Request(`http://x${path}`, { ...init, headers: { ...admin(c), ...(init.headers as Record<string, string>) } }));
}

describe('audit events of HTTP requests', () => {
  it('records a create at RequestResponse: the request and response objects, in upstream field order', async () => {
    const { cluster: c, backend } = await auditedCluster();
    const res = await call(c, '/api/v1/namespaces/default/configmaps', {
      method: 'POST',
      headers: { ...json, 'user-agent': 'kubectl/v1.36.0', 'x-forwarded-for': '10.0.0.1, bogus, 10.0.0.2', 'x-real-ip': '10.0.0.1' },
      body: JSON.stringify(CONFIGMAP),
    });
    expect(res.status).toBe(201);
    const id = res.headers.get('audit-id');
    expect(id).toMatch(/^[0-9a-f-]{36}$/);
    expect(stages(backend.events)).toEqual(['RequestReceived', 'ResponseComplete']);
    const [received, complete] = backend.events as [AuditEvent, AuditEvent];
    expect(received).toEqual({
      kind: 'Event',
      apiVersion: 'audit.k8s.io/v1',
      level: 'RequestResponse',
      auditID: id,
      stage: 'RequestReceived',
      requestURI: '/api/v1/namespaces/default/configmaps',
      verb: 'create',
      user: { username: 'system:admin', groups: ['system:masters', 'system:authenticated'] },
      sourceIPs: ['10.0.0.1', '10.0.0.2'],
      userAgent: 'kubectl/v1.36.0',
      objectRef: { resource: 'configmaps', namespace: 'default', apiVersion: 'v1' },
      requestReceivedTimestamp: '2026-12-02T01:02:03.456000Z',
      stageTimestamp: '2026-12-02T01:02:03.456000Z',
    });
    expect(Object.keys(complete)).toEqual([
      'kind',
      'apiVersion',
      'level',
      'auditID',
      'stage',
      'requestURI',
      'verb',
      'user',
      'sourceIPs',
      'userAgent',
      'objectRef',
      'responseStatus',
      'requestObject',
      'responseObject',
      'requestReceivedTimestamp',
      'stageTimestamp',
      'annotations',
    ]);
    // The object written names the objectRef's name, as LogRequestObject fills it in.
    expect(complete.objectRef).toEqual({ resource: 'configmaps', namespace: 'default', name: 'cm', apiVersion: 'v1' });
    expect(complete.responseStatus).toEqual({ metadata: {}, code: 201 });
    expect(complete.requestObject).toEqual(CONFIGMAP);
    expect((complete.responseObject as { metadata: { uid: string } }).metadata.uid).toBeTruthy();
    expect(complete.annotations).toEqual({ 'authorization.k8s.io/decision': 'allow', 'authorization.k8s.io/reason': '' });
    // Each stage's event is its own object: the first one did not gain the later fields.
    expect(received.annotations).toBeUndefined();
  });

  it('records a get and a list at Metadata: no objects, the code only', async () => {
    const { cluster: c, backend } = await auditedCluster();
    expect((await call(c, '/api/v1/namespaces/default')).status).toBe(200);
    expect((await call(c, '/api/v1/namespaces?limit=1')).status).toBe(200);
    const complete = backend.events.filter((e) => e.stage === 'ResponseComplete');
    expect(complete.map((e) => [e.level, e.verb, e.requestURI, e.objectRef, e.responseStatus])).toEqual([
      [
        'Metadata',
        'get',
        '/api/v1/namespaces/default',
        { resource: 'namespaces', namespace: 'default', name: 'default', apiVersion: 'v1' },
        { metadata: {}, code: 200 },
      ],
      ['Metadata', 'list', '/api/v1/namespaces?limit=1', { resource: 'namespaces', apiVersion: 'v1' }, { metadata: {}, code: 200 }],
    ]);
    for (const e of complete) {
      expect(e.requestObject).toBeUndefined();
      expect(e.responseObject).toBeUndefined();
    }
  });

  it('records a patch and a delete at Request level: the patch and the DeleteOptions, no response object', async () => {
    const { cluster: c, backend } = await auditedCluster();
    await c.request({
      verb: 'create',
      resource: { group: '', version: 'v1', resource: 'secrets' },
      namespace: 'default',
      body: { metadata: { name: 's' } },
      user: ADMIN,
    });
    backend.clear();
    const patch = { metadata: { labels: { x: 'y' } } };
    expect(
      (
        await call(c, '/api/v1/namespaces/default/secrets/s', {
          method: 'PATCH',
          headers: { 'content-type': 'application/merge-patch+json' },
          body: JSON.stringify(patch),
        })
      ).status,
    ).toBe(200);
    expect(
      (await call(c, '/api/v1/namespaces/default/secrets/s', { method: 'DELETE', headers: json, body: JSON.stringify({ propagationPolicy: 'Background' }) }))
        .status,
    ).toBe(200);
    const [patched, deleted] = backend.events.filter((e) => e.stage === 'ResponseComplete');
    expect(patched).toMatchObject({ level: 'Request', verb: 'patch', requestObject: patch, responseStatus: { metadata: {}, code: 200 } });
    expect(patched!.responseObject).toBeUndefined();
    expect(deleted).toMatchObject({
      level: 'Request',
      verb: 'delete',
      objectRef: { resource: 'secrets', namespace: 'default', name: 's', apiVersion: 'v1' },
      requestObject: { kind: 'DeleteOptions', apiVersion: 'meta.k8s.io/v1', propagationPolicy: 'Background' },
    });
  });

  it('records a failure with its Status fields, at every level', async () => {
    const { cluster: c, backend } = await auditedCluster();
    expect((await call(c, '/api/v1/namespaces/default/configmaps/nope')).status).toBe(404);
    expect((await call(c, '/api/v1/namespaces/default/pods/nope')).status).toBe(404);
    const [rr, metadata] = backend.events.filter((e) => e.stage === 'ResponseComplete');
    const status = {
      metadata: {},
      status: 'Failure',
      message: 'configmaps "nope" not found',
      reason: 'NotFound',
      details: { name: 'nope', kind: 'configmaps' },
      code: 404,
    };
    expect(rr!.responseStatus).toEqual(status);
    expect(rr!.responseObject).toMatchObject({ kind: 'Status', code: 404, reason: 'NotFound' });
    expect(metadata!.responseStatus).toMatchObject({ status: 'Failure', reason: 'NotFound', code: 404, message: 'pods "nope" not found' });
  });

  it('records a forbidden request with the authorizer decision and reason', async () => {
    const { cluster: c, backend } = await auditedCluster(
      POLICY,
      {},
      {
        authentication: { tokens: [{ token: 'bob-token', user: { username: 'bob', groups: ['devs'] } }] },
        authorization: { modes: ['RBAC'] },
      },
    );
    const res = await c.fetch(new Request('http://x/api/v1/namespaces/default/pods', { headers: { authorization: 'Bearer bob-token' } }));
    expect(res.status).toBe(403);
    const complete = backend.events.find((e) => e.stage === 'ResponseComplete')!;
    expect(complete.user).toEqual({ username: 'bob', groups: ['devs', 'system:authenticated'] });
    expect(complete.responseStatus).toMatchObject({ status: 'Failure', reason: 'Forbidden', code: 403 });
    expect(complete.annotations?.['authorization.k8s.io/decision']).toBe('forbid');
    expect(complete.annotations).toHaveProperty(['authorization.k8s.io/reason']);
  });

  it('records a request refused by authentication as one ResponseStarted event without a user', async () => {
    const { cluster: c, backend } = await auditedCluster(POLICY, {}, { authentication: { anonymous: false } });
    const res = await c.fetch(new Request('http://x/api/v1/namespaces/default/pods?access_token=x', { headers: { authorization: 'Bearer wrong' } }));
    expect(res.status).toBe(401);
    expect(backend.events).toHaveLength(1);
    expect(backend.events[0]).toMatchObject({
      stage: 'ResponseStarted',
      level: 'Metadata',
      verb: 'list',
      user: {},
      objectRef: { resource: 'pods', namespace: 'default', apiVersion: 'v1' },
      responseStatus: { metadata: {}, message: 'Authentication failed, attempted: bearer, access_token', code: 401 },
    });
    const none = await c.fetch(new Request('http://x/api/v1/pods'));
    expect(none.status).toBe(401);
    expect(backend.events[1]!.responseStatus?.message).toBe('Authentication failed, no credentials provided');
  });

  it('records a watch: ResponseStarted when its answer starts, ResponseComplete when it ends', async () => {
    const { cluster: c, backend } = await auditedCluster();
    const res = await call(c, '/api/v1/namespaces/default/pods?watch=true');
    expect(res.status).toBe(200);
    expect(stages(backend.events)).toEqual(['RequestReceived', 'ResponseStarted']);
    expect(backend.events[1]!.responseStatus).toEqual({ metadata: {}, code: 200 });
    await res.body!.cancel();
    expect(stages(backend.events)).toEqual(['RequestReceived', 'ResponseStarted', 'ResponseComplete']);
    expect(backend.events[2]).toMatchObject({ verb: 'watch', responseStatus: { metadata: {}, code: 200 } });
  });

  it('records a refused watch with ResponseStarted and ResponseComplete, both with the Status', async () => {
    const { cluster: c, backend } = await auditedCluster();
    const res = await call(c, '/api/v1/namespaces/default/pods?watch=true&fieldSelector=bogus');
    expect(res.status).toBe(400);
    expect(stages(backend.events)).toEqual(['RequestReceived', 'ResponseStarted', 'ResponseComplete']);
    for (const e of backend.events.slice(1)) expect(e.responseStatus).toMatchObject({ status: 'Failure', reason: 'BadRequest', code: 400 });
  });

  it('records nothing at level None, but still answers the Audit-Id header and counts the level', async () => {
    const { cluster: c, backend } = await auditedCluster();
    const res = await call(c, '/healthz');
    expect(res.status).toBe(200);
    expect(res.headers.get('audit-id')).toBeTruthy();
    expect(backend.events).toEqual([]);
    expect(await c.metrics.value('apiserver_audit_level_total', { level: 'None' })).toBe(1);
  });

  it('answers the Audit-Id header on every request, the client-sent one when given, even without audit', async () => {
    cluster = await createCluster({ clock: NOW });
    const plain = await cluster.fetch(new Request('http://x/version'));
    expect(plain.headers.get('audit-id')).toMatch(/^[0-9a-f-]{36}$/);
    const given = await cluster.fetch(new Request('http://x/api/v1/namespaces/nope', { headers: { 'audit-id': 'my-request-1' } }));
    expect(given.status).toBe(404);
    expect(given.headers.get('audit-id')).toBe('my-request-1');
    await cluster.close();
    const { cluster: c, backend } = await auditedCluster();
    const res = await call(c, '/api/v1/namespaces/default', { headers: { 'audit-id': 'my-request-2' } });
    expect(res.headers.get('audit-id')).toBe('my-request-2');
    expect(backend.events.map((e) => e.auditID)).toEqual(['my-request-2', 'my-request-2']);
  });

  it('leaves out the stages the policy and the rule omit', async () => {
    const { cluster: c, backend } = await auditedCluster(
      `apiVersion: audit.k8s.io/v1\nkind: Policy\nomitStages: [RequestReceived]\nrules:\n  - level: Metadata\n    verbs: [watch]\n    omitStages: [ResponseStarted]\n  - level: Metadata\n`,
    );
    await call(c, '/api/v1/namespaces/default');
    const watch = await call(c, '/api/v1/namespaces?watch=1');
    await watch.body!.cancel();
    expect(backend.events.map((e) => `${e.verb}:${e.stage}`)).toEqual(['get:ResponseComplete', 'watch:ResponseComplete']);
    expect(await c.metrics.value('apiserver_audit_event_total')).toBe(2);
  });

  it('drops managedFields from the objects recorded when the policy says so, and only then', async () => {
    const policy = (omit: boolean) => `apiVersion: audit.k8s.io/v1\nkind: Policy\nomitManagedFields: ${omit}\nrules:\n  - level: RequestResponse\n`;
    for (const omit of [true, false]) {
      const { cluster: c, backend } = await auditedCluster(policy(omit));
      const body = {
        ...CONFIGMAP,
        metadata: { name: 'cm', managedFields: [{ manager: 'me', operation: 'Update', apiVersion: 'v1', fieldsType: 'FieldsV1', fieldsV1: { 'f:data': {} } }] },
      };
      await call(c, '/api/v1/namespaces/default/configmaps', { method: 'POST', headers: json, body: JSON.stringify(body) });
      await call(c, '/api/v1/namespaces/default/configmaps');
      const [created, listed] = backend.events.filter((e) => e.stage === 'ResponseComplete') as [AuditEvent, AuditEvent];
      const request = created.requestObject as { metadata: Record<string, unknown> };
      const response = created.responseObject as { metadata: Record<string, unknown> };
      const item = (listed.responseObject as { items: { metadata: Record<string, unknown> }[] }).items[0]!;
      expect('managedFields' in request.metadata).toBe(!omit);
      expect('managedFields' in response.metadata).toBe(!omit);
      expect('managedFields' in item.metadata).toBe(!omit);
      await c.close();
    }
    cluster = undefined;
  });

  it('records the impersonated user beside the one who authenticated, whom the policy matches', async () => {
    const { cluster: c, backend } = await auditedCluster(`apiVersion: audit.k8s.io/v1\nkind: Policy\nrules:\n  - level: Metadata\n    users: [system:admin]\n`);
    const res = await call(c, '/api/v1/namespaces/default', { headers: { 'impersonate-user': 'jane', 'impersonate-group': 'devs' } });
    expect(res.status).toBe(200);
    const complete = backend.events.find((e) => e.stage === 'ResponseComplete')!;
    expect(complete.user.username).toBe('system:admin');
    expect(complete.impersonatedUser).toEqual({ username: 'jane', groups: ['devs', 'system:authenticated'] });
    expect(backend.events[0]!.impersonatedUser).toBeUndefined();
  });

  it('fails a request whose RequestReceived event a blocking-strict backend refused, and counts it', async () => {
    const { cluster: c, backend } = await auditedCluster(POLICY, { refuse: (e) => e.stage === 'RequestReceived' && e.verb === 'create' });
    const res = await call(c, '/api/v1/namespaces/default/configmaps', { method: 'POST', headers: json, body: JSON.stringify(CONFIGMAP) });
    expect(res.status).toBe(500);
    expect(res.headers.get('content-type')).toBe('text/plain; charset=utf-8');
    expect(res.headers.get('x-content-type-options')).toBe('nosniff');
    expect(res.headers.get('audit-id')).toBeTruthy();
    expect(await res.text()).toBe('Internal Server Error: "/api/v1/namespaces/default/configmaps": failed to store audit event\n');
    expect(backend.events).toEqual([]);
    expect(await c.metrics.value('apiserver_audit_requests_rejected_total')).toBe(1);
    // Nothing was written.
    expect((await call(c, '/api/v1/namespaces/default/configmaps/cm')).status).toBe(404);
  });

  it('counts events and levels', async () => {
    const { cluster: c } = await auditedCluster();
    await call(c, '/api/v1/namespaces/default');
    await call(c, '/api/v1/namespaces/default/configmaps');
    await call(c, '/healthz');
    expect(await c.metrics.value('apiserver_audit_event_total')).toBe(4);
    expect(await c.metrics.value('apiserver_audit_level_total', { level: 'Metadata' })).toBe(1);
    expect(await c.metrics.value('apiserver_audit_level_total', { level: 'RequestResponse' })).toBe(1);
    expect(await c.metrics.value('apiserver_audit_level_total', { level: 'None' })).toBe(1);
    expect(await c.metrics.text()).toContain(
      '# HELP apiserver_audit_requests_rejected_total [ALPHA] Counter of apiserver requests rejected due to an error in audit logging backend.',
    );
  });

  it('ends a watch served over node:http with ResponseComplete when the client leaves', async () => {
    const { cluster: c, backend } = await auditedCluster();
    const server = await c.listen();
    const abort = new AbortController();
    const res = await fetch(`${server.url}/api/v1/namespaces/default/configmaps?watch=true`, { headers: admin(c), signal: abort.signal });
    expect(res.status).toBe(200);
    expect(res.headers.get('audit-id')).toBe(backend.events[0]!.auditID);
    abort.abort();
    for (let i = 0; i < 100 && backend.events.length < 3; i++) await new Promise((r) => setTimeout(r, 10));
    expect(stages(backend.events)).toEqual(['RequestReceived', 'ResponseStarted', 'ResponseComplete']);
  });

  it('takes the remote address of a node:http connection as the last source IP', async () => {
    const { cluster: c, backend } = await auditedCluster();
    const server = await c.listen();
    const res = await fetch(`${server.url}/api/v1/namespaces/default`, { headers: { ...admin(c), 'x-forwarded-for': '192.0.2.7' } });
    expect(res.status).toBe(200);
    expect(backend.events[0]!.sourceIPs).toEqual(['192.0.2.7', '127.0.0.1']);
  });
});

describe('audit events of in-process requests', () => {
  it('audits what the in-process client sends, once, as its user', async () => {
    const { cluster: c, backend } = await auditedCluster();
    await c.client.resource({ group: '', version: 'v1', resource: 'configmaps' }).create(CONFIGMAP as never, { namespace: 'default' } as never);
    expect(stages(backend.events)).toEqual(['RequestReceived', 'ResponseComplete']);
    expect(backend.events[1]).toMatchObject({
      level: 'RequestResponse',
      verb: 'create',
      requestURI: '/api/v1/namespaces/default/configmaps',
      user: { username: 'system:admin' },
      objectRef: { resource: 'configmaps', namespace: 'default', name: 'cm', apiVersion: 'v1' },
      responseStatus: { metadata: {}, code: 201 },
      annotations: { 'authorization.k8s.io/decision': 'allow', 'authorization.k8s.io/reason': '' },
    });
    expect(backend.events[1]!.sourceIPs).toBeUndefined();
  });

  it('does not audit the HTTP door a second time through cluster.request, whatever the level', async () => {
    const { cluster: c, backend } = await auditedCluster();
    await call(c, '/api/v1/namespaces/default/configmaps');
    await call(c, '/api/v1/namespaces/default/pods');
    expect(backend.events).toHaveLength(4);
    const { cluster: quiet, backend: none } = await auditedCluster(
      `apiVersion: audit.k8s.io/v1\nkind: Policy\nrules:\n  - level: Metadata\n    userGroups: [nobody]\n`,
    );
    await call(quiet, '/api/v1/namespaces/default/pods');
    expect(none.events).toEqual([]);
    expect(await quiet.metrics.value('apiserver_audit_level_total')).toBe(1);
  });

  it('records the engine authorization of an in-process request refused by RBAC', async () => {
    const { cluster: c, backend } = await auditedCluster(POLICY, {}, { authorization: { modes: ['RBAC'] } });
    await expect(
      c.request({
        verb: 'get',
        resource: { group: '', version: 'v1', resource: 'pods' },
        namespace: 'default',
        name: 'p',
        user: { username: 'eve', groups: [] },
      }),
    ).rejects.toMatchObject({ code: 403 });
    const complete = backend.events.find((e) => e.stage === 'ResponseComplete')!;
    expect(complete).toMatchObject({ user: { username: 'eve' }, responseStatus: { status: 'Failure', reason: 'Forbidden', code: 403 } });
    expect(complete.user.groups).toBeUndefined();
    expect(complete.annotations?.['authorization.k8s.io/decision']).toBe('forbid');
  });

  it('records an in-process watch until it is closed', async () => {
    const { cluster: c, backend } = await auditedCluster();
    const watch = await c.request({
      verb: 'watch',
      resource: { group: '', version: 'v1', resource: 'pods' },
      namespace: 'default',
      user: { username: 'u', groups: ['system:masters'] },
    });
    expect(stages(backend.events)).toEqual(['RequestReceived', 'ResponseStarted']);
    const stream = watch.body as { close(): void; done: Promise<void> };
    stream.close();
    await stream.done;
    await Promise.resolve();
    expect(stages(backend.events)).toEqual(['RequestReceived', 'ResponseStarted', 'ResponseComplete']);
    expect(backend.events[0]!.requestURI).toBe('/api/v1/namespaces/default/pods?watch=true');
  });
});
