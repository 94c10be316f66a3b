import { describe, expect, it } from 'vitest';
import { createCluster } from '../../src/cluster.js';
import { createFetchHandler } from '../../src/http/handler.js';
import { kubeApiClientOverFetch } from '../../src/nodeagent/kube-api-fetch.js';
import { KubeApiError } from '../../src/nodeagent/kube-api.js';

describe('kubeApiClientOverFetch', () => {
  it('creates, reads and watches objects of a cluster served in the same process', async () => {
    const cluster = await createCluster();
    const client = kubeApiClientOverFetch(
      'http://memkube.invalid',
      createFetchHandler(cluster, { defaultUser: { username: 'admin', groups: ['system:masters'] } }),
    );
    const created = await client.request('POST', '/api/v1/namespaces/default/configmaps', {
      body: { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'a' }, data: { k: 'v' } },
    });
    expect(created.metadata?.uid).toBeTruthy();
    const abort = new AbortController();
    const events: string[] = [];
    for await (const e of client.watch('/api/v1/namespaces/default/configmaps', { query: { resourceVersion: '0' }, signal: abort.signal })) {
      events.push(`${e.type} ${e.object.metadata?.name}`);
      abort.abort();
      break;
    }
    expect(events).toEqual(['ADDED a']);
    const err = await client.request('GET', '/api/v1/namespaces/default/configmaps/missing').catch((e: unknown) => e);
    expect(err).toBeInstanceOf(KubeApiError);
    expect((err as KubeApiError).code).toBe(404);
    expect((err as KubeApiError).reason).toBe('NotFound');
    expect((err as KubeApiError).message).toBe('configmaps "missing" not found');
    await cluster.close();
  });
});
