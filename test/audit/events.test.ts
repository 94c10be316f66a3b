import { afterEach, describe, expect, it } from 'vitest';
import { createCluster, createMemoryAuditBackend, type AuditEvent, type Cluster } from '../../src/index.js';

const POLICY = `apiVersion: audit.k8s.io/v1
kind: Policy
rules:
  - level: RequestResponse
    resources:
      - group: ""
        resources: ["configmaps"]
  - level: Metadata
`;

const NOW = Date.parse('2026-12-02T01:02:03.456Z');
let cluster: Cluster | undefined;
afterEach(async () => {
  await cluster?.close();
  cluster = undefined;
});

async function auditedCluster(policy: string = POLICY, options: Parameters<typeof createMemoryAuditBackend>[0] = {}) {
  const backend = createMemoryAuditBackend(options);
  cluster = await createCluster({ clock: NOW, audit: { policy, backends: [backend] } });
  return { cluster, backend };
}

const admin = (c: Cluster) => ({ authorization: `Bearer ${c.adminToken}` });
const stages = (events: readonly AuditEvent[]) => events.map((e) => e.stage);

describe('audit events of HTTP requests', () => {
  it('records a create at RequestResponse with the request and response objects', async () => {
    const { cluster: c, backend } = await auditedCluster();
    const res = await c.fetch(
      new Request('http://x/api/v1/namespaces/default/configmaps', {
        method: 'POST',
        headers: { ...admin(c), 'content-type': 'application/json', 'user-agent': 'kubectl/v1.36.0', 'x-forwarded-for': '10.0.0.1, 10.0.0.2' },
        body: JSON.stringify({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'cm' }, data: { a: '1' } }),
      }),
    );
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
    expect(complete.objectRef).toEqual({ resource: 'configmaps', namespace: 'default', name: 'cm', apiVersion: 'v1' });
    expect(complete.responseStatus).toEqual({ metadata: {}, code: 201 });
    expect(complete.requestObject).toEqual({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'cm' }, data: { a: '1' } });
    expect((complete.responseObject as { metadata: { uid: string } }).metadata.uid).toBeTruthy();
    expect(complete.annotations).toEqual({ 'authorization.k8s.io/decision': 'allow', 'authorization.k8s.io/reason': '' });
  });
});
