import { describe, expect, it } from 'vitest';
import { ComponentStatusKind } from '../../../src/kinds/index.js';
import { statusOf, useTestCluster } from '../../support/cluster.js';
import { tableOf } from './table.js';

const cluster = useTestCluster();
const statuses = () => cluster.client.resource(ComponentStatusKind);
const DEPRECATED = '299 - "v1 ComponentStatus is deprecated in v1.19+"';

describe('ComponentStatus', () => {
  it('lists the scheduler, the controller manager and etcd as healthy, with a deprecation warning', async () => {
    const res = await cluster.fetch(new Request('http://memkube/api/v1/componentstatuses'));
    expect(res.headers.get('warning')).toBe(DEPRECATED);
    const list = (await res.json()) as { kind: string; metadata: unknown; items: { metadata: { name: string }; conditions: unknown[] }[] };
    expect(list.kind).toBe('ComponentStatusList');
    expect(list.metadata).toEqual({});
    expect(list.items.map((i) => i.metadata.name)).toEqual(['scheduler', 'controller-manager', 'etcd-0']);
    expect(list.items[0]!.conditions).toEqual([{ type: 'Healthy', status: 'True', message: 'ok' }]);
  });

  it('gets one by name and answers 404 for another', async () => {
    const cs = await statuses().get('etcd-0');
    expect(cs).toMatchObject({ kind: 'ComponentStatus', apiVersion: 'v1', metadata: { name: 'etcd-0' } });
    expect((await statusOf(() => statuses().get('nope'))).code).toBe(404);
  });

  it('applies field selectors on metadata.name', async () => {
    const list = await statuses().list({ fieldSelector: 'metadata.name=scheduler' });
    expect(list.items.map((i) => i.metadata?.name)).toEqual(['scheduler']);
  });

  it('serves no writes and no watch', async () => {
    for (const call of [() => statuses().create({ metadata: { name: 'x' } }), () => statuses().delete('scheduler')]) {
      expect((await statusOf(call)).code).toBe(405);
    }
    const res = await cluster.fetch(new Request('http://memkube/api/v1/componentstatuses?watch=true'));
    expect(res.status).toBe(405);
  });

  it('prints Status, Message and Error, without Age', async () => {
    const t = await tableOf(cluster, '/api/v1/componentstatuses');
    expect(t.columnDefinitions.map((c) => c.name)).toEqual(['Name', 'Status', 'Message', 'Error']);
    expect(t.rows.map((r) => r.cells)).toEqual([
      ['scheduler', 'Healthy', 'ok', ''],
      ['controller-manager', 'Healthy', 'ok', ''],
      ['etcd-0', 'Healthy', 'ok', ''],
    ]);
  });

  it('is listed in discovery with get and list only', async () => {
    const res = await cluster.fetch(new Request('http://memkube/api/v1'));
    const body = (await res.json()) as { resources: { name: string; verbs: string[]; shortNames?: string[] }[] };
    const cs = body.resources.find((r) => r.name === 'componentstatuses');
    expect(cs).toMatchObject({ verbs: ['get', 'list'], shortNames: ['cs'] });
    const bindings = body.resources.find((r) => r.name === 'bindings');
    expect(bindings).toMatchObject({ verbs: ['create'], namespaced: true });
  });
});
