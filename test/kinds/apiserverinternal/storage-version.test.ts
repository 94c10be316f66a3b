import { describe, expect, it } from 'vitest';
import { StorageVersionKind } from '../../../src/kinds/apiserverinternal/index.js';
import { statusOf, useTestCluster } from '../../support/cluster.js';

const cluster = useTestCluster();
const versions = () => cluster.client.resource(StorageVersionKind);

describe('StorageVersion (internal.apiserver.k8s.io/v1alpha1)', () => {
  it('is named <group>.<resource>', async () => {
    const s = await statusOf(() => versions().create({ metadata: { name: 'deployments' } }));
    expect(s.details?.causes?.map((c) => [c.field, c.message])).toEqual([
      ['metadata.name', 'Invalid value: "deployments": name must be in the form of <group>.<resource>'],
    ]);
    const bad = await statusOf(() => versions().create({ metadata: { name: 'apps.Deployments' } }));
    expect(bad.details?.causes?.[0]?.message).toMatch(/^Invalid value: "apps.Deployments": the resource segment a DNS-1035 label must consist of /);
  });

  it('keeps status for /status and prints the encoding versions', async () => {
    const sv = await versions().create({ metadata: { name: 'apps.deployments' }, status: { commonEncodingVersion: 'apps/v1' } });
    expect(sv.status).toEqual({});
    const storageVersions = ['a', 'b', 'c', 'd'].map((id) => ({ apiServerID: id, encodingVersion: 'apps/v1', decodableVersions: ['apps/v1'] }));
    await versions().updateStatus({ ...sv, status: { commonEncodingVersion: 'apps/v1', storageVersions } });
    await versions().create({ metadata: { name: 'batch.jobs' } });
    const res = await cluster.fetch(
      new Request('http://memkube/apis/internal.apiserver.k8s.io/v1alpha1/storageversions', {
        headers: { Accept: 'application/json;as=Table;v=v1;g=meta.k8s.io' },
      }),
    );
    const t = (await res.json()) as { columnDefinitions: { name: string }[]; rows: { cells: unknown[] }[] };
    expect(t.columnDefinitions.map((c) => c.name)).toEqual(['Name', 'CommonEncodingVersion', 'StorageVersions', 'Age']);
    expect(t.rows.map((r) => r.cells.slice(0, 3))).toEqual([
      ['apps.deployments', 'apps/v1', 'a=apps/v1,b=apps/v1,c=apps/v1 + 1 more...'],
      ['batch.jobs', '<unset>', '<unset>'],
    ]);
  });
});
