import { describe, expect, it } from 'vitest';
import { PersistentVolumeKind, type PersistentVolume } from '../../../src/kinds/index.js';
import { statusOf, useTestCluster } from '../../support/cluster.js';
import { causeLines, tableOf } from './table.js';

const cluster = useTestCluster();
const pvs = () => cluster.client.resource(PersistentVolumeKind);

function pv(patch: (p: PersistentVolume) => void = () => {}, name = 'pv1'): PersistentVolume {
  const p: PersistentVolume = { metadata: { name }, spec: { capacity: { storage: '1024Mi' }, accessModes: ['ReadWriteOnce'], hostPath: { path: '/data' } } };
  patch(p);
  return p;
}

async function causes(p: PersistentVolume) {
  const status = await statusOf(() => pvs().create(p));
  expect(status.code).toBe(422);
  return causeLines(status);
}

describe('PersistentVolume defaults', () => {
  it('defaults the reclaim policy, the volume mode, the hostPath type, canonical capacity and a Pending status', async () => {
    const created = await pvs().create(pv((p) => (p.status = { phase: 'Bound' })));
    expect(created.metadata?.namespace).toBeUndefined();
    expect(created.spec).toEqual({
      capacity: { storage: '1Gi' },
      accessModes: ['ReadWriteOnce'],
      hostPath: { path: '/data', type: '' },
      persistentVolumeReclaimPolicy: 'Retain',
      volumeMode: 'Filesystem',
    });
    expect(created.status).toEqual({ phase: 'Pending', lastPhaseTransitionTime: '2026-01-01T00:00:00Z' });
  });
});

describe('PersistentVolume validation', () => {
  it('requires access modes, capacity and a volume source', async () => {
    expect(await causes({ metadata: { name: 'x' }, spec: {} })).toEqual([
      'spec.accessModes: Required value',
      'spec.capacity: Required value',
      'spec.capacity: Unsupported value: {}: supported values: "storage"',
      'spec: Required value: must specify a volume type',
    ]);
  });

  it('checks access modes, capacity, reclaim policy, volume mode and class names', async () => {
    expect(
      await causes(
        pv((p) => {
          p.spec!.accessModes = ['ReadWriteOncePod', 'ReadWriteMany', 'Sometimes'];
          p.spec!.capacity = { storage: '0', cpu: '1' };
          p.spec!.persistentVolumeReclaimPolicy = 'Keep';
          p.spec!.volumeMode = 'Raw';
          p.spec!.storageClassName = 'Fast_Class';
        }),
      ),
    ).toEqual([
      'spec.accessModes: Unsupported value: "Sometimes": supported values: "ReadOnlyMany", "ReadWriteMany", "ReadWriteOnce", "ReadWriteOncePod"',
      'spec.accessModes: Forbidden: may not use ReadWriteOncePod with other access modes',
      'spec.capacity: Unsupported value: {"cpu":"1","storage":"0"}: supported values: "storage"',
      'spec.capacity[storage]: Invalid value: "0": must be greater than zero',
      'spec.persistentVolumeReclaimPolicy: Unsupported value: "Keep": supported values: "Delete", "Recycle", "Retain"',
      expect.stringMatching(/^spec\.storageClassName: Invalid value: "Fast_Class": a lowercase RFC 1123 subdomain/),
      'spec.volumeMode: Unsupported value: "Raw": supported values: "Block", "Filesystem"',
    ]);
  });

  it('allows exactly one volume source', async () => {
    expect(await causes(pv((p) => (p.spec!.nfs = { server: 'nfs.example', path: '/exports' })))).toEqual([
      'spec.nfs: Forbidden: may not specify more than 1 volume type',
    ]);
  });

  it('checks the source it has', async () => {
    expect(
      await causes(
        pv((p) => {
          delete p.spec!.hostPath;
          p.spec!.nfs = { server: '', path: 'exports' };
        }),
      ),
    ).toEqual(['spec.nfs.server: Required value', 'spec.nfs.path: Invalid value: "exports": must be an absolute path']);
    expect(
      await causes(
        pv((p) => {
          delete p.spec!.hostPath;
          p.spec!.csi = { driver: '', volumeHandle: '' };
        }),
      ),
    ).toEqual(expect.arrayContaining(['spec.csi.driver: Required value', 'spec.csi.volumeHandle: Required value']));
  });

  it('requires node affinity for a local volume, and node constraints in it', async () => {
    expect(
      await causes(
        pv((p) => {
          delete p.spec!.hostPath;
          p.spec!.local = { path: '/mnt/disk' };
        }),
      ),
    ).toEqual(['spec.nodeAffinity: Required value: Local volume requires node affinity']);
    expect(await causes(pv((p) => (p.spec!.nodeAffinity = {})))).toEqual([
      'spec.nodeAffinity.required: Required value: must specify required node constraints',
    ]);
  });

  it("forbids Recycle for a hostPath of '/'", async () => {
    expect(
      await causes(
        pv((p) => {
          p.spec!.hostPath = { path: '/tmp/..' };
          p.spec!.persistentVolumeReclaimPolicy = 'Recycle';
        }),
      ),
    ).toContain("spec.persistentVolumeReclaimPolicy: Forbidden: may not be 'recycle' for a hostPath mount of '/'");
  });

  it('answers a malformed capacity with 400', async () => {
    const status = await statusOf(() => pvs().create(pv((p) => (p.spec!.capacity = { storage: '1 Gi' }))));
    expect(status.code).toBe(400);
  });
});

describe('PersistentVolume updates', () => {
  it('keeps the volume source, the volume mode and the node affinity', async () => {
    const created = await pvs().create(
      pv((p) => (p.spec!.nodeAffinity = { required: { nodeSelectorTerms: [{ matchExpressions: [{ key: 'k', operator: 'Exists' }] }] } })),
    );
    const status = await statusOf(() =>
      pvs().update({
        ...created,
        spec: { ...created.spec, hostPath: { path: '/other', type: '' }, volumeMode: 'Block', nodeAffinity: { required: { nodeSelectorTerms: [{}] } } },
      }),
    );
    expect(status.code).toBe(422);
    const lines = causeLines(status);
    expect(lines[0]).toMatch(/^spec\.persistentvolumesource: Forbidden: spec\.persistentvolumesource is immutable after creation\n/);
    expect(lines.slice(1)).toEqual([
      'volumeMode: Invalid value: "Block": field is immutable',
      'nodeAffinity: Invalid value: {"required":{"nodeSelectorTerms":[{}]}}: field is immutable',
    ]);
  });

  it('lets the reclaim policy, capacity and claimRef change', async () => {
    const created = await pvs().create(pv());
    const updated = await pvs().update({
      ...created,
      spec: { ...created.spec, persistentVolumeReclaimPolicy: 'Delete', capacity: { storage: '2Gi' }, claimRef: { namespace: 'ns', name: 'data' } },
    });
    expect(updated.spec?.persistentVolumeReclaimPolicy).toBe('Delete');
  });

  it('changes the status only through /status and stamps the phase transition', async () => {
    const created = await pvs().create(pv());
    const kept = await pvs().update({ ...created, status: { phase: 'Bound' } });
    expect(kept.status?.phase).toBe('Pending');
    cluster.clock.advance?.(60_000);
    const bound = await pvs().updateStatus({ ...kept, status: { phase: 'Bound' } });
    expect(bound.status?.phase).toBe('Bound');
    expect(bound.status?.lastPhaseTransitionTime).not.toBe('2026-01-01T00:00:00Z');
    const same = await pvs().updateStatus({ ...bound, status: { phase: 'Bound', reason: 'r' } });
    expect(same.status?.lastPhaseTransitionTime).toBe(bound.status?.lastPhaseTransitionTime);
  });
});

describe('PersistentVolume printing', () => {
  it('prints the PV columns of kubectl get pv', async () => {
    const created = await pvs().create(
      pv((p) => {
        p.spec!.accessModes = ['ReadWriteMany', 'ReadWriteOnce'];
        p.spec!.storageClassName = 'fast';
        p.spec!.claimRef = { namespace: 'ns', name: 'data' };
      }),
    );
    await pvs().updateStatus({ ...created, status: { phase: 'Released', reason: 'gone' } });
    const t = await tableOf(cluster, '/api/v1/persistentvolumes');
    expect(t.columnDefinitions.map((c) => [c.name, c.priority])).toEqual([
      ['Name', 0],
      ['Capacity', 0],
      ['Access Modes', 0],
      ['Reclaim Policy', 0],
      ['Status', 0],
      ['Claim', 0],
      ['StorageClass', 0],
      ['VolumeAttributesClass', 0],
      ['Reason', 0],
      ['Age', 0],
      ['VolumeMode', 1],
    ]);
    expect(t.rows[0]!.cells).toEqual(['pv1', '1Gi', 'RWO,RWX', 'Retain', 'Released', 'ns/data', 'fast', '<unset>', 'gone', '0s', 'Filesystem']);
  });
});
