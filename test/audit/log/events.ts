/** Audit events for the backend tests. */
import type { AuditEvent } from '../../../src/audit/event.js';

/** An event at Metadata level, ResponseComplete, with `overrides`. */
export function sampleEvent(overrides: Partial<AuditEvent> = {}): AuditEvent {
  return {
    kind: 'Event',
    apiVersion: 'audit.k8s.io/v1',
    level: 'Metadata',
    auditID: '0b5e2f46-1d6c-4c8f-9a52-3f1f3e1d2a10',
    stage: 'ResponseComplete',
    requestURI: '/api/v1/namespaces/default/pods?limit=500',
    verb: 'list',
    user: { username: 'alice', groups: ['dev', 'system:authenticated'] },
    sourceIPs: ['127.0.0.1'],
    userAgent: 'kubectl/v1.36.0 (linux/amd64) kubernetes/abcdef0',
    objectRef: { resource: 'pods', namespace: 'default', apiVersion: 'v1' },
    responseStatus: { metadata: {}, code: 200 },
    requestReceivedTimestamp: '2026-12-02T01:02:03.456000Z',
    stageTimestamp: '2026-12-02T01:02:03.460000Z',
    annotations: { 'authorization.k8s.io/decision': 'allow', 'authorization.k8s.io/reason': '' },
    ...overrides,
  };
}

/** `n` events with auditIDs `id-0`, `id-1`, ... */
export function events(n: number, overrides: Partial<AuditEvent> = {}): AuditEvent[] {
  return Array.from({ length: n }, (_, i) => sampleEvent({ auditID: `id-${i}`, ...overrides }));
}
