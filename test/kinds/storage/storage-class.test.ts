import { describe, expect, it } from 'vitest';
import { StorageClassKind, storageKinds, VolumeAttributesClassKind, type StorageClass, type VolumeAttributesClass } from '../../../src/kinds/storage/index.js';
import { statusOf, useTestCluster } from '../../support/cluster.js';

const cluster = useTestCluster({ kinds: [...storageKinds] });
const classes = () => cluster.client.resource(StorageClassKind);
const vacs = () => cluster.client.resource(VolumeAttributesClassKind);

const sc = (patch: Partial<StorageClass> = {}, name = 'fast'): StorageClass => ({ metadata: { name }, provisioner: 'ebs.csi.aws.com', ...patch });

async function table(path: string): Promise<{ columnDefinitions: { name: string; type: string }[]; rows: { cells: unknown[] }[] }> {
  const res = await cluster.fetch(new Request(`http://memkube${path}`, { headers: { Accept: 'application/json;as=Table;v=v1;g=meta.k8s.io' } }));
  return (await res.json()) as never;
}

describe('StorageClass', () => {
  it('defaults reclaimPolicy and volumeBindingMode; no generation; short name sc', async () => {
    const created = await classes().create(sc());
    expect(created).toMatchObject({ apiVersion: 'storage.k8s.io/v1', provisioner: 'ebs.csi.aws.com', reclaimPolicy: 'Delete', volumeBindingMode: 'Immediate' });
    expect(created.metadata?.generation).toBeUndefined();
    const res = await cluster.fetch(new Request('http://memkube/apis/storage.k8s.io/v1'));
    const list = (await res.json()) as { resources: { name: string; shortNames?: string[]; namespaced: boolean }[] };
    expect(list.resources.find((r) => r.name === 'storageclasses')).toMatchObject({ shortNames: ['sc'], namespaced: false });
  });

  it.each([
    [{ provisioner: '' }, 'provisioner: Required value'],
    [
      { provisioner: 'Bad Provisioner' },
      "provisioner: Invalid value: \"bad provisioner\": name part must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]')",
    ],
    [{ reclaimPolicy: 'Recycle' }, 'reclaimPolicy: Unsupported value: "Recycle": supported values: "Delete", "Retain"'],
    [{ volumeBindingMode: 'Later' }, 'volumeBindingMode: Unsupported value: "Later": supported values: "Immediate", "WaitForFirstConsumer"'],
    [{ parameters: { '': 'x' } }, 'parameters: Invalid value: "": field can not be empty.'],
    [{ parameters: { big: 'x'.repeat(256 * 1024) } }, 'parameters: Too long: may not be more than 262144 bytes'],
    [{ allowedTopologies: [{ matchLabelExpressions: [{ key: 'zone', values: [] }] }] }, 'allowedTopologies[0].matchLabelExpressions[0].values: Required value'],
    [{ allowedTopologies: [{}] }, 'allowedTopologies[0].matchLabelExpressions: Duplicate value: ""'],
  ])('rejects %j', async (patch, message) => {
    const s = await statusOf(() => classes().create(sc(patch as Partial<StorageClass>)));
    expect(s.code).toBe(422);
    expect(s.message).toBe(`StorageClass.storage.k8s.io "fast" is invalid: ${message}`);
  });

  it('forbids changing provisioner, parameters and reclaimPolicy, and volumeBindingMode is immutable; allowVolumeExpansion may change', async () => {
    const created = await classes().create(sc({ parameters: { type: 'gp3' } }));
    const expanded = await classes().update({ ...created, allowVolumeExpansion: true, mountOptions: ['debug'] });
    expect(expanded.allowVolumeExpansion).toBe(true);
    const s = await statusOf(() =>
      classes().update({ ...expanded, provisioner: 'other.example.com', parameters: {}, reclaimPolicy: 'Retain', volumeBindingMode: 'WaitForFirstConsumer' }),
    );
    expect(s.message).toBe(
      'StorageClass.storage.k8s.io "fast" is invalid: [parameters: Forbidden: updates to parameters are forbidden., provisioner: Forbidden: updates to provisioner are forbidden., reclaimPolicy: Forbidden: updates to reclaimPolicy are forbidden., volumeBindingMode: Invalid value: "WaitForFirstConsumer": field is immutable]',
    );
  });

  it('prints the default class with (default), and the defaulted columns', async () => {
    await classes().create(
      sc({ metadata: { name: 'standard', annotations: { 'storageclass.kubernetes.io/is-default-class': 'true' } }, allowVolumeExpansion: true }),
    );
    await classes().create(sc({ metadata: { name: 'slow' }, reclaimPolicy: 'Retain', volumeBindingMode: 'WaitForFirstConsumer' }));
    await classes().create(sc({ metadata: { name: 'beta', annotations: { 'storageclass.beta.kubernetes.io/is-default-class': 'true' } } }));
    const t = await table('/apis/storage.k8s.io/v1/storageclasses');
    expect(t.columnDefinitions.map((c) => c.name)).toEqual(['Name', 'Provisioner', 'ReclaimPolicy', 'VolumeBindingMode', 'AllowVolumeExpansion', 'Age']);
    expect(t.rows.map((r) => r.cells.slice(0, 5))).toEqual([
      ['beta (default)', 'ebs.csi.aws.com', 'Delete', 'Immediate', false],
      ['slow', 'ebs.csi.aws.com', 'Retain', 'WaitForFirstConsumer', false],
      ['standard (default)', 'ebs.csi.aws.com', 'Delete', 'Immediate', true],
    ]);
  });
});

describe('VolumeAttributesClass', () => {
  const vac = (patch: Partial<VolumeAttributesClass> = {}): VolumeAttributesClass => ({
    metadata: { name: 'gold' },
    driverName: 'pd.csi.storage.gke.io',
    parameters: { iops: '3000' },
    ...patch,
  });

  it('is served at v1 and v1beta1 with short name vac', async () => {
    await vacs().create(vac());
    const res = await cluster.fetch(new Request('http://memkube/apis/storage.k8s.io/v1beta1/volumeattributesclasses/gold'));
    expect(await res.json()).toMatchObject({ apiVersion: 'storage.k8s.io/v1beta1', driverName: 'pd.csi.storage.gke.io' });
    const d = await cluster.fetch(new Request('http://memkube/apis/storage.k8s.io/v1'));
    const list = (await d.json()) as { resources: { name: string; shortNames?: string[] }[] };
    expect(list.resources.find((r) => r.name === 'volumeattributesclasses')?.shortNames).toEqual(['vac']);
  });

  it('requires a driver name and at least one parameter, both fixed once created', async () => {
    let s = await statusOf(() => vacs().create(vac({ driverName: '', parameters: {} })));
    expect(s.message).toBe(
      'VolumeAttributesClass.storage.k8s.io "gold" is invalid: [driverName: Required value, parameters: Required value: must contain at least one key/value pair]',
    );
    const created = await vacs().create(vac());
    s = await statusOf(() => vacs().update({ ...created, driverName: 'other.example.com', parameters: { iops: '1' } }));
    expect(s.message).toBe(
      'VolumeAttributesClass.storage.k8s.io "gold" is invalid: [driverName: Forbidden: updates to driverName are forbidden., parameters: Forbidden: updates to parameters are forbidden.]',
    );
  });

  it('prints DriverName', async () => {
    await vacs().create(vac());
    const t = await table('/apis/storage.k8s.io/v1/volumeattributesclasses');
    expect(t.columnDefinitions.map((c) => c.name)).toEqual(['Name', 'DriverName', 'Age']);
    expect(t.rows[0]!.cells.slice(0, 2)).toEqual(['gold', 'pd.csi.storage.gke.io']);
  });
});
