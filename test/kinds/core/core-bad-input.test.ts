import { describe, expect, it } from 'vitest';
import { statusOf, useTestCluster } from '../../support/cluster.js';

const cluster = useTestCluster();

/** POSTs a raw JSON body and answers the HTTP status. */
async function post(path: string, body: unknown): Promise<number> {
  const res = await cluster.fetch(
    new Request(`http://memkube${path}`, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(body) }),
  );
  return res.status;
}

describe('malformed core objects are answered 400 and nothing is stored', () => {
  it.each([
    ['/api/v1/namespaces/default/replicationcontrollers', 'replicationcontrollers', { metadata: { name: 'x' }, spec: { replicas: 'many' } }],
    ['/api/v1/namespaces/default/replicationcontrollers', 'replicationcontrollers', { metadata: { name: 'x' }, spec: { selector: ['app'] } }],
    ['/api/v1/namespaces/default/endpoints', 'endpoints', { metadata: { name: 'x' }, subsets: [{ ports: [{ port: '80' }] }] }],
    [
      '/api/v1/persistentvolumes',
      'persistentvolumes',
      { metadata: { name: 'x' }, spec: { capacity: { storage: 'lots' }, accessModes: ['ReadWriteOnce'], hostPath: { path: '/d' } } },
    ],
    ['/api/v1/namespaces/default/limitranges', 'limitranges', { metadata: { name: 'x' }, spec: { limits: [{ type: 'Container', max: { cpu: '1x1' } }] } }],
    ['/api/v1/namespaces/default/resourcequotas', 'resourcequotas', { metadata: { name: 'x' }, spec: { hard: { pods: '1e999999' } } }],
    ['/api/v1/namespaces/default/podtemplates', 'podtemplates', { metadata: { name: 'x' }, template: { spec: { containers: 'nginx' } } }],
  ])('POST %s with %j', async (path, resource, body) => {
    expect(await post(path, body)).toBe(400);
    const namespaced = path.includes('/namespaces/');
    const status = await statusOf(() => cluster.client.resource({ group: '', version: 'v1', resource }).get('x', namespaced ? { namespace: 'default' } : {}));
    expect(status.code).toBe(404);
  });
});
