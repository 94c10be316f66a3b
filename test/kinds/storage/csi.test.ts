import { describe, expect, it } from 'vitest';
import {
  CSIDriverKind,
  CSINodeKind,
  CSIStorageCapacityKind,
  storageKinds,
  VolumeAttachmentKind,
  type CSIDriver,
  type CSINode,
  type VolumeAttachment,
} from '../../../src/kinds/storage/index.js';
import { statusOf, useTestCluster } from '../../support/cluster.js';

const cluster = useTestCluster({ kinds: [...storageKinds] });
const attachments = () => cluster.client.resource(VolumeAttachmentKind);
const drivers = () => cluster.client.resource(CSIDriverKind);
const nodes = () => cluster.client.resource(CSINodeKind);
const capacities = () => cluster.client.resource(CSIStorageCapacityKind);

async function table(path: string): Promise<{ columnDefinitions: { name: string; type: string }[]; rows: { cells: unknown[] }[] }> {
  const res = await cluster.fetch(new Request(`http://memkube${path}`, { headers: { Accept: 'application/json;as=Table;v=v1;g=meta.k8s.io' } }));
  return (await res.json()) as never;
}

describe('VolumeAttachment', () => {
  const va = (spec: Partial<VolumeAttachment['spec']> = {}): VolumeAttachment => ({
    metadata: { name: 'csi-123' },
    spec: { attacher: 'ebs.csi.aws.com', nodeName: 'node-1', source: { persistentVolumeName: 'pv-1' }, ...spec },
  });

  it('resets status on create (attached false) and changes it only through /status', async () => {
    const created = await attachments().create({ ...va(), status: { attached: true } });
    expect(created.status).toEqual({ attached: false });
    const kept = await attachments().update({ ...created, status: { attached: true } });
    expect(kept.status).toEqual({ attached: false });
    const attached = await attachments().updateStatus({ ...kept, status: { attached: true, attachmentMetadata: { dev: '/dev/xvdb' } } });
    expect(attached.status).toEqual({ attached: true, attachmentMetadata: { dev: '/dev/xvdb' } });
    const s = await statusOf(() => attachments().updateStatus({ ...attached, status: { attached: true, attachError: { errorCode: -1 } } }));
    expect(s.message).toBe(
      'VolumeAttachment.storage.k8s.io "csi-123" is invalid: status.attachError.errorCode: Invalid value: -1: must be between 0 and 2147483647, inclusive',
    );
  });

  it.each([
    [{ source: {} }, 'spec.source: Required value: must specify exactly one of inlineVolumeSpec and persistentVolumeName'],
    [
      { source: { persistentVolumeName: 'pv', inlineVolumeSpec: {} } },
      'spec.source: Forbidden: must specify exactly one of inlineVolumeSpec and persistentVolumeName',
    ],
    [
      { nodeName: 'Node_1' },
      "spec.nodeName: Invalid value: \"Node_1\": a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')",
    ],
    [
      { attacher: '' },
      "[spec.attacher: Required value, spec.attacher: Invalid value: \"\": a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')]",
    ],
    [{ attacher: `${'a'.repeat(64)}` }, 'spec.attacher: Too long: may not be more than 63 bytes'],
  ])('rejects %j', async (spec, message) => {
    const s = await statusOf(() => attachments().create(va(spec as never)));
    expect(s.code).toBe(422);
    expect(s.message).toBe(`VolumeAttachment.storage.k8s.io "csi-123" is invalid: ${message}`);
  });

  it('keeps the spec immutable and refuses an update without resourceVersion', async () => {
    const created = await attachments().create(va());
    const s = await statusOf(() => attachments().update({ ...created, spec: { ...created.spec, nodeName: 'node-2' } }));
    expect(s.details?.causes?.map((c) => [c.field, c.message?.endsWith('field is immutable')])).toEqual([['spec', true]]);
    const u = await statusOf(() => attachments().update({ ...created, metadata: { name: 'csi-123' } }));
    expect(u.code).toBe(422);
  });

  it('prints Attacher, PV, Node, Attached', async () => {
    await attachments().create(va());
    const t = await table('/apis/storage.k8s.io/v1/volumeattachments');
    expect(t.columnDefinitions.map((c) => [c.name, c.type])).toEqual([
      ['Name', 'string'],
      ['Attacher', 'string'],
      ['PV', 'string'],
      ['Node', 'string'],
      ['Attached', 'boolean'],
      ['Age', 'string'],
    ]);
    expect(t.rows[0]!.cells.slice(0, 5)).toEqual(['csi-123', 'ebs.csi.aws.com', 'pv-1', 'node-1', false]);
  });
});

describe('CSIDriver', () => {
  const driver = (spec: CSIDriver['spec'] = {}, name = 'ebs.csi.aws.com'): CSIDriver => ({ metadata: { name }, spec });

  it('fills the v1 defaults and keeps the generation (1, +1 on spec changes)', async () => {
    const created = await drivers().create(driver());
    expect(created.spec).toEqual({
      attachRequired: true,
      podInfoOnMount: false,
      storageCapacity: false,
      fsGroupPolicy: 'ReadWriteOnceWithFSType',
      volumeLifecycleModes: ['Persistent'],
      requiresRepublish: false,
      seLinuxMount: false,
    });
    expect(created.metadata?.generation).toBe(1);
    const updated = await drivers().update({ ...created, spec: { ...created.spec, podInfoOnMount: true } });
    expect(updated.metadata?.generation).toBe(2);
  });

  it.each([
    [{ fsGroupPolicy: 'Always' }, 'spec.fsGroupPolicy: Unsupported value: "Always": supported values: "File", "None", "ReadWriteOnceWithFSType"'],
    [{ volumeLifecycleModes: ['Transient'] }, 'spec.volumeLifecycleModes: Unsupported value: "Transient": supported values: "Persistent", "Ephemeral"'],
    [{ tokenRequests: [{ audience: 'a' }, { audience: 'a' }] }, 'spec.tokenRequests[1].audience: Duplicate value: "a"'],
    [
      { tokenRequests: [{ audience: 'a', expirationSeconds: 60 }] },
      'spec.tokenRequests[0].expirationSeconds: Invalid value: 60: may not specify a duration less than 10 minutes',
    ],
    [{ nodeAllocatableUpdatePeriodSeconds: 5 }, 'spec.nodeAllocatableUpdatePeriodSeconds: Invalid value: 5: must be greater than or equal to 10 seconds'],
  ])('rejects %j', async (spec, message) => {
    const s = await statusOf(() => drivers().create(driver(spec as never)));
    expect(s.message).toBe(`CSIDriver.storage.k8s.io "ebs.csi.aws.com" is invalid: ${message}`);
  });

  it('keeps attachRequired and volumeLifecycleModes immutable', async () => {
    const created = await drivers().create(driver());
    const s = await statusOf(() =>
      drivers().update({ ...created, spec: { ...created.spec, attachRequired: false, volumeLifecycleModes: ['Persistent', 'Ephemeral'] } }),
    );
    expect(s.message).toBe(
      'CSIDriver.storage.k8s.io "ebs.csi.aws.com" is invalid: [spec.attachedRequired: Invalid value: false: field is immutable, spec.volumeLifecycleModes: Invalid value: ["Persistent","Ephemeral"]: field is immutable]',
    );
  });

  it('prints its columns as kubectl shows them', async () => {
    await drivers().create(
      driver(
        { tokenRequests: [{ audience: 'vault' }, { audience: 'gcp' }], volumeLifecycleModes: ['Persistent', 'Ephemeral'], storageCapacity: true },
        'a.example.com',
      ),
    );
    await drivers().create(driver({}, 'b.example.com'));
    const t = await table('/apis/storage.k8s.io/v1/csidrivers');
    expect(t.columnDefinitions.map((c) => c.name)).toEqual([
      'Name',
      'AttachRequired',
      'PodInfoOnMount',
      'StorageCapacity',
      'TokenRequests',
      'RequiresRepublish',
      'Modes',
      'Age',
    ]);
    expect(t.rows.map((r) => r.cells.slice(0, 7))).toEqual([
      ['a.example.com', true, false, true, 'vault,gcp', false, 'Persistent,Ephemeral'],
      ['b.example.com', true, false, false, '<unset>', false, 'Persistent'],
    ]);
  });
});

describe('CSINode', () => {
  const node = (drivers: CSINode['spec']['drivers']): CSINode => ({ metadata: { name: 'node-1' }, spec: { drivers } });

  it('checks drivers: names, node IDs, counts and topology keys', async () => {
    const s = await statusOf(() =>
      nodes().create(
        node([
          { name: 'ebs.csi.aws.com', nodeID: '', allocatable: { count: -1 }, topologyKeys: ['zone', 'zone', ''] },
          { name: 'ebs.csi.aws.com', nodeID: 'x'.repeat(257) },
        ]),
      ),
    );
    expect(s.details?.causes?.map((c) => [c.field, c.reason])).toEqual([
      ['spec.drivers[0].nodeID', 'FieldValueRequired'],
      ['spec.drivers[0].allocatable.count', 'FieldValueInvalid'],
      ['spec.drivers[0]', 'FieldValueDuplicate'],
      ['spec.drivers[0]', 'FieldValueRequired'],
      ['spec.drivers[0]', 'FieldValueInvalid'],
      ['spec.drivers[0]', 'FieldValueInvalid'],
      ['spec.drivers[1].nodeID', 'FieldValueInvalid'],
      ['spec.drivers[1].name', 'FieldValueDuplicate'],
    ]);
  });

  it('lets a listed driver change only its allocatable count', async () => {
    await nodes().create(node([{ name: 'ebs.csi.aws.com', nodeID: 'i-1', allocatable: { count: 25 } }]));
    const counted = await nodes().update(
      node([
        { name: 'ebs.csi.aws.com', nodeID: 'i-1', allocatable: { count: 20 } },
        { name: 'efs.csi.aws.com', nodeID: 'i-1' },
      ]),
    );
    expect(counted.spec.drivers).toHaveLength(2);
    const s = await statusOf(() => nodes().update({ ...counted, spec: { drivers: [{ name: 'ebs.csi.aws.com', nodeID: 'i-2' }] } }));
    expect(s.message).toBe(
      'CSINode.storage.k8s.io "node-1" is invalid: spec.drivers: Invalid value: {"name":"ebs.csi.aws.com","nodeID":"i-2"}: field is immutable',
    );
  });

  it('prints the number of drivers', async () => {
    await nodes().create(
      node([
        { name: 'a.example.com', nodeID: '1' },
        { name: 'b.example.com', nodeID: '1' },
      ]),
    );
    const t = await table('/apis/storage.k8s.io/v1/csinodes');
    expect(t.columnDefinitions.map((c) => [c.name, c.type])).toEqual([
      ['Name', 'string'],
      ['Drivers', 'integer'],
      ['Age', 'string'],
    ]);
    expect(t.rows[0]!.cells.slice(0, 2)).toEqual(['node-1', 2]);
  });
});

describe('CSIStorageCapacity', () => {
  it('is namespaced, stores canonical quantities, fixes storageClassName and nodeTopology, prints no Age', async () => {
    const created = await capacities().create({
      metadata: { name: 'cap' },
      storageClassName: 'fast',
      capacity: '1024Mi',
      nodeTopology: { matchLabels: { zone: 'a' } },
    });
    expect(created.metadata?.namespace).toBe('default');
    expect(created.capacity).toBe('1Gi');
    const s = await statusOf(() => capacities().update({ ...created, storageClassName: 'slow', nodeTopology: { matchLabels: { zone: 'b' } } }));
    expect(s.message).toBe(
      'CSIStorageCapacity.storage.k8s.io "cap" is invalid: [nodeTopology: Invalid value: {"matchLabels":{"zone":"b"}}: field is immutable, storageClassName: Invalid value: "slow": field is immutable]',
    );
    const n = await statusOf(() => capacities().create({ metadata: { name: 'neg' }, storageClassName: 'fast', capacity: '-1' }));
    expect(n.message).toBe('CSIStorageCapacity.storage.k8s.io "neg" is invalid: capacity: Invalid value: "-1": must be greater than or equal to 0');
    const bad = await statusOf(() => capacities().create({ metadata: { name: 'bad' }, storageClassName: 'fast', capacity: 'lots' }));
    expect(bad.code).toBe(400);
    await capacities().create({ metadata: { name: 'unset' }, storageClassName: 'slow' });
    const t = await table('/apis/storage.k8s.io/v1/namespaces/default/csistoragecapacities');
    expect(t.columnDefinitions.map((c) => c.name)).toEqual(['Name', 'StorageClassName', 'Capacity']);
    expect(t.rows.map((r) => r.cells)).toEqual([
      ['cap', 'fast', '1Gi'],
      ['unset', 'slow', '<unset>'],
    ]);
  });
});
