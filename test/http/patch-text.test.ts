/**
 * Patches over HTTP are applied to what the client wrote, not only to its parsed value: a JSON
 * patch `test` compares raw bytes (evanphx/json-patch) and a strategic merge key written `80.0`
 * is a float64 that matches no live int64 (sigs.k8s.io/json PreserveInts + Go's `==`).
 */
import { describe, expect, it } from 'vitest';
import { useTestCluster } from '../support/cluster.js';

const BASE = 'http://memkube.test';

describe('patch bodies keep their text', () => {
  const cluster = useTestCluster();
  const call = async (method: string, path: string, body: string, contentType: string) => {
    const res = await cluster.fetch(new Request(BASE + path, { method, body, headers: { 'Content-Type': contentType } }));
    return { status: res.status, body: (await res.json()) as Record<string, unknown> };
  };
  const jsonPatch = (name: string, text: string) => call('PATCH', `/api/v1/namespaces/default/configmaps/${name}`, text, 'application/json-patch+json');

  it('fails a JSON patch test of a stored `a<b` sent unescaped (Go stores `"a\\u003cb"`), with the generic 422', async () => {
    const created = await call(
      'POST',
      '/api/v1/namespaces/default/configmaps',
      JSON.stringify({ metadata: { name: 'c' }, data: { k: 'a<b', a: 'a' } }),
      'application/json',
    );
    expect(created.status).toBe(201);
    const failed = await jsonPatch('c', '[{"op":"test","path":"/data/k","value":"a<b"},{"op":"replace","path":"/data/a","value":"changed"}]');
    expect(failed).toEqual({
      status: 422,
      body: {
        kind: 'Status',
        apiVersion: 'v1',
        metadata: {},
        status: 'Failure',
        message: 'the server rejected our request due to an error in our request',
        reason: 'Invalid',
        details: {},
        code: 422,
      },
    });
    expect((await jsonPatch('c', '[{"op":"test","path":"/data/a","value":"\\u0061"}]')).status).toBe(422);
    const ok = await jsonPatch(
      'c',
      '[{"op":"test","path":"/data/k","value":"a\\u003cb"},{"op":"test","path":"/data/a","value":"a"},{"op":"replace","path":"/data/a","value":"changed"}]',
    );
    expect(ok.status).toBe(200);
    expect(ok.body.data).toEqual({ k: 'a<b', a: 'changed' });
    // A value the same patch put in place compares with the patch's own text.
    const added = await jsonPatch('c', '[{"op":"add","path":"/data/n","value":"x>y"},{"op":"test","path":"/data/n","value":"x>y"}]');
    expect(added.status).toBe(200);
  });

  it('fails a JSON patch test of a stored 80 written 80.0', async () => {
    const created = await call(
      'POST',
      '/api/v1/namespaces/default/services',
      JSON.stringify({ metadata: { name: 's' }, spec: { ports: [{ port: 80 }] } }),
      'application/json',
    );
    expect(created.status).toBe(201);
    const path = '/api/v1/namespaces/default/services/s';
    expect((await call('PATCH', path, '[{"op":"test","path":"/spec/ports/0/port","value":80.0}]', 'application/json-patch+json')).status).toBe(422);
    expect((await call('PATCH', path, '[{"op":"test","path":"/spec/ports/0/port","value":1e2}]', 'application/json-patch+json')).status).toBe(422);
    expect((await call('PATCH', path, '[{"op":"test","path":"/spec/ports/0/port","value":80}]', 'application/json-patch+json')).status).toBe(200);
  });

  it('appends a Service port whose merge key is written 80.0, so the Service is invalid', async () => {
    await call(
      'POST',
      '/api/v1/namespaces/default/services',
      JSON.stringify({ metadata: { name: 's' }, spec: { ports: [{ port: 80, protocol: 'TCP' }] } }),
      'application/json',
    );
    const path = '/api/v1/namespaces/default/services/s';
    const smp = (text: string) => call('PATCH', path, text, 'application/strategic-merge-patch+json');
    const dup = '{"Name":"","Protocol":"TCP","AppProtocol":null,"Port":80,"TargetPort":0,"NodePort":0}';
    const appended = await smp('{"spec":{"ports":[{"port":80.0,"protocol":"TCP","name":"web"}]}}');
    expect(appended.status).toBe(422);
    expect(appended.body).toMatchObject({
      reason: 'Invalid',
      message: `Service "s" is invalid: [spec.ports[1].name: Required value, spec.ports[1]: Duplicate value: ${dup}]`,
      details: {
        name: 's',
        kind: 'Service',
        causes: [
          { reason: 'FieldValueRequired', message: 'Required value', field: 'spec.ports[1].name' },
          { reason: 'FieldValueDuplicate', message: `Duplicate value: ${dup}`, field: 'spec.ports[1]' },
        ],
      },
    });
    // With $setElementOrder naming the int64 key, the patch list does not follow it. Kubernetes
    // answers this plain error with a 500; memkube with a 400 (the fault is the client's).
    const ordered = await smp('{"spec":{"$setElementOrder/ports":[{"port":80}],"ports":[{"port":80.0,"protocol":"TCP"}]}}');
    expect(ordered).toMatchObject({
      status: 400,
      body: { reason: 'BadRequest', message: "The order in patch list:\n[map[port:80 protocol:TCP]]\n doesn't match $setElementOrder list:\n[map[port:80]]\n" },
    });
    const merged = await smp('{"spec":{"ports":[{"port":80,"protocol":"TCP","name":"web"}]}}');
    expect(merged.status).toBe(200);
    expect((merged.body.spec as { ports: unknown[] }).ports).toEqual([{ name: 'web', port: 80, protocol: 'TCP', targetPort: 80 }]);
  });
});
