import { describe, expect, it } from 'vitest';
import { StorageVersionMigrationKind } from '../../../src/kinds/storagemigration/index.js';
import { statusOf, useTestCluster } from '../../support/cluster.js';

const cluster = useTestCluster();
const migrations = () => cluster.client.resource(StorageVersionMigrationKind);

describe('StorageVersionMigration (storagemigration.k8s.io/v1beta1)', () => {
  it('is stored with an immutable spec, status through /status, and a Resource column', async () => {
    const m = await migrations().create({
      metadata: { name: 'm' },
      spec: { resource: { group: 'apps', resource: 'deployments' } },
      status: { resourceVersion: '5' },
    });
    expect(m).toMatchObject({ apiVersion: 'storagemigration.k8s.io/v1beta1', status: {} });
    const s = await statusOf(() => migrations().update({ ...m, spec: { resource: { group: 'batch', resource: 'jobs' } } }));
    expect(s.details?.causes?.map((c) => [c.field, c.message])).toEqual([['spec', 'Invalid value: null: field is immutable']]);
    const done = await migrations().updateStatus({ ...m, status: { resourceVersion: '42' } });
    expect(done.status).toEqual({ resourceVersion: '42' });
    const res = await cluster.fetch(
      new Request('http://memkube/apis/storagemigration.k8s.io/v1beta1/storageversionmigrations', {
        headers: { Accept: 'application/json;as=Table;v=v1;g=meta.k8s.io' },
      }),
    );
    const t = (await res.json()) as { columnDefinitions: { name: string }[]; rows: { cells: unknown[] }[] };
    expect(t.columnDefinitions.map((c) => c.name).slice(0, 2)).toEqual(['Name', 'Resource']);
    expect(t.rows[0]?.cells.slice(0, 2)).toEqual(['m', 'deployments.apps']);
  });
});
