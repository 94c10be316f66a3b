/**
 * The JSON of an event as kube-apiserver writes it (field order of the Go struct, omitempty, sorted
 * maps, HTML-safe escapes), the EventList of the webhook, and the legacy one-line format.
 */
import { describe, expect, it } from 'vitest';
import { auditJsonLine, auditLegacyLine, encodeAuditEvent, encodeAuditEventList } from '../../../src/audit/log/encode.js';
import { sampleEvent } from './events.js';

describe('the json format', () => {
  it('writes the fields in the Go struct order, one line ending in a newline, that parses back to the event', () => {
    const event = sampleEvent({ requestObject: { kind: 'Pod', metadata: { name: 'p' } } });
    const line = auditJsonLine(event);
    expect(line.endsWith('}\n')).toBe(true);
    expect(line.indexOf('\n')).toBe(line.length - 1);
    expect(JSON.parse(line)).toEqual(event);
    expect(Object.keys(JSON.parse(line) as object)).toEqual([
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
      'requestReceivedTimestamp',
      'stageTimestamp',
      'annotations',
    ]);
  });

  it('orders nested fields as Go does and sorts map keys, whatever order the object has', () => {
    const event = sampleEvent({
      user: { extra: { z: ['1'], a: ['2'] }, groups: ['g'], uid: 'u1', username: 'bob' },
      objectRef: { subresource: 'status', name: 'p', namespace: 'ns', resource: 'pods', apiGroup: 'apps' },
      annotations: { zeta: '1', alpha: '2', Beta: '3' },
    });
    const json = encodeAuditEvent(event);
    expect(json).toContain('"user":{"username":"bob","uid":"u1","groups":["g"],"extra":{"a":["2"],"z":["1"]}}');
    expect(json).toContain('"objectRef":{"resource":"pods","namespace":"ns","name":"p","apiGroup":"apps","subresource":"status"}');
    expect(json).toContain('"annotations":{"Beta":"3","alpha":"2","zeta":"1"}');
  });

  it('leaves out empty optional fields and a zero status code, but always writes the status metadata', () => {
    const json = encodeAuditEvent(
      sampleEvent({
        user: { username: '', groups: [] },
        sourceIPs: [],
        userAgent: '',
        objectRef: undefined,
        responseStatus: { metadata: {}, code: 0, status: 'Failure', message: 'no' },
        annotations: {},
      }),
    );
    expect(json).toContain('"user":{}');
    expect(json).toContain('"responseStatus":{"metadata":{},"status":"Failure","message":"no"}');
    for (const absent of ['sourceIPs', 'userAgent', 'objectRef', 'annotations', '"code"']) expect(json).not.toContain(absent);
  });

  it('escapes <, > and & as Go encoding/json does, in strings and raw objects alike', () => {
    const json = encodeAuditEvent(sampleEvent({ requestURI: '/api?a=<b>&c', requestObject: { note: '<x>' } }));
    expect(json).toContain('"requestURI":"/api?a=\\u003cb\\u003e\\u0026c"');
    expect(json).toContain('"requestObject":{"note":"\\u003cx\\u003e"}');
  });

  it('posts an EventList whose items carry no kind or apiVersion of their own', () => {
    const body = encodeAuditEventList([sampleEvent(), sampleEvent({ auditID: 'two' })]);
    expect(body.startsWith('{"kind":"EventList","apiVersion":"audit.k8s.io/v1","metadata":{},"items":[{"level":"Metadata","auditID":')).toBe(true);
    const list = JSON.parse(body) as { items: Record<string, unknown>[] };
    expect(list.items.map((i) => i['auditID'])).toEqual(['0b5e2f46-1d6c-4c8f-9a52-3f1f3e1d2a10', 'two']);
    expect(list.items[0]).not.toHaveProperty('kind');
  });
});

describe('the legacy format', () => {
  it('writes audit.EventString: quoted fields, groups quoted twice, the time in RFC 3339 with its zeros trimmed', () => {
    expect(auditLegacyLine(sampleEvent())).toBe(
      '2026-12-02T01:02:03.456Z AUDIT: id="0b5e2f46-1d6c-4c8f-9a52-3f1f3e1d2a10" stage="ResponseComplete" ip="127.0.0.1" method="list" ' +
        'user="alice" groups="\\"dev\\",\\"system:authenticated\\"" as="<self>" asgroups="<lookup>" ' +
        'user-agent="kubectl/v1.36.0 (linux/amd64) kubernetes/abcdef0" namespace="default" uri="/api/v1/namespaces/default/pods?limit=500" response="200"\n',
    );
  });

  it('fills in <none>, <unknown>, <deferred> and the impersonated user', () => {
    const line = auditLegacyLine(
      sampleEvent({
        stage: 'RequestReceived',
        user: { username: '', groups: ['ignored'] },
        impersonatedUser: { username: 'bob', groups: ['x'] },
        sourceIPs: undefined,
        objectRef: undefined,
        responseStatus: undefined,
        requestReceivedTimestamp: '2026-12-02T01:02:03.000000Z',
      }),
    );
    expect(line).toBe(
      '2026-12-02T01:02:03Z AUDIT: id="0b5e2f46-1d6c-4c8f-9a52-3f1f3e1d2a10" stage="RequestReceived" ip="<unknown>" method="list" ' +
        'user="<none>" groups="<none>" as="bob" asgroups="\\"x\\"" user-agent="kubectl/v1.36.0 (linux/amd64) kubernetes/abcdef0" ' +
        'namespace="<none>" uri="/api/v1/namespaces/default/pods?limit=500" response="<deferred>"\n',
    );
  });

  it('quotes control characters of hostile values the way Go %q does, so a line stays one line', () => {
    const line = auditLegacyLine(sampleEvent({ userAgent: 'evil\nAUDIT: id="x"\u0000' }));
    expect(line.split('\n')).toHaveLength(2);
    expect(line).toContain('user-agent="evil\\nAUDIT: id=\\"x\\"\\x00"');
  });
});
