import { describe, expect, it } from 'vitest';
import { NodeKind } from '../../../src/kinds/index.js';
import type { Node } from '../../../src/kinds/core/node.js';
import { statusOf, useTestCluster } from '../../support/cluster.js';

const cluster = useTestCluster();

const nodes = () => cluster.client.resource(NodeKind);
const NOT_READY = { key: 'node.kubernetes.io/not-ready', effect: 'NoSchedule' };
const SUBDOMAIN_MSG =
  "a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')";

/** The 422 of creating `n`: exactly these causes (as `field: message`), nothing stored. */
async function expectInvalid(n: Node, causes: string[]): Promise<void> {
  const s = await statusOf(() => nodes().create(n));
  expect(s.code).toBe(422);
  expect((s.details?.causes ?? []).map((c) => `${c.field}: ${c.message}`)).toEqual(causes);
  const unique = [...new Set(causes)];
  expect(s.message).toBe(`Node "${n.metadata?.name}" is invalid: ${unique.length === 1 ? unique[0] : `[${unique.join(', ')}]`}`);
  expect((await nodes().list()).items).toEqual([]);
}

describe('Node create', () => {
  it('adds the not-ready taint of TaintNodesByCondition and the struct fields Go always writes', async () => {
    const created = await nodes().create({ metadata: { name: 'node-1', labels: { 'kubernetes.io/hostname': 'node-1' } } });
    expect(created).toEqual({
      apiVersion: 'v1',
      kind: 'Node',
      metadata: {
        name: 'node-1',
        labels: { 'kubernetes.io/hostname': 'node-1' },
        uid: expect.any(String),
        resourceVersion: expect.any(String),
        creationTimestamp: '2026-01-01T00:00:00Z',
        managedFields: [
          {
            manager: 'memkube-client',
            operation: 'Update',
            apiVersion: 'v1',
            time: '2026-01-01T00:00:00Z',
            fieldsType: 'FieldsV1',
            fieldsV1: { 'f:metadata': { 'f:labels': { '.': {}, 'f:kubernetes.io/hostname': {} } } },
          },
        ],
      },
      spec: { taints: [NOT_READY] },
      status: { daemonEndpoints: { kubeletEndpoint: { Port: 0 } } },
    });
  });

  it('keeps an existing not-ready NoSchedule taint and mirrors podCIDR into podCIDRs', async () => {
    const created = await nodes().create({
      metadata: { name: 'node-1' },
      spec: {
        podCIDR: '10.244.1.0/24',
        providerID: 'aws:///eu-west-1a/i-1',
        taints: [
          { ...NOT_READY, value: '' },
          { key: 'dedicated', value: 'db', effect: 'NoExecute' },
        ],
      },
    });
    expect(created.spec).toEqual({
      podCIDR: '10.244.1.0/24',
      podCIDRs: ['10.244.1.0/24'],
      providerID: 'aws:///eu-west-1a/i-1',
      taints: [
        { ...NOT_READY, value: '' },
        { key: 'dedicated', value: 'db', effect: 'NoExecute' },
      ],
    });
  });

  it('drops the removed spec.configSource', async () => {
    const created = await nodes().create({
      metadata: { name: 'node-1' },
      spec: { configSource: { configMap: { namespace: 'kube-system', name: 'kubelet', kubeletConfigKey: 'kubelet' } } },
    });
    expect(created.spec).toEqual({ taints: [NOT_READY] });
  });

  // Kubernetes' node strategy keeps the status a create sends ("Nodes allow *all* fields, including
  // status, to be set on create"). The engine drops status on create for every kind with a status
  // subresource, so this waits for an engine option; it documents the expected behaviour.
  it('keeps the status sent on create, with allocatable defaulted from capacity', async () => {
    const created = await nodes().create({
      metadata: { name: 'node-1' },
      status: { capacity: { cpu: '4', memory: '8192Mi', pods: '110' }, addresses: [{ type: 'InternalIP', address: '10.0.0.1' }] },
    });
    expect(created.status).toEqual({
      capacity: { cpu: '4', memory: '8Gi', pods: '110' },
      allocatable: { cpu: '4', memory: '8Gi', pods: '110' },
      addresses: [{ type: 'InternalIP', address: '10.0.0.1' }],
      daemonEndpoints: { kubeletEndpoint: { Port: 0 } },
    });
  });

  it('defaults allocatable from capacity and canonicalizes quantities on status writes', async () => {
    const created = await nodes().create({ metadata: { name: 'node-1' } });
    const updated = await nodes().updateStatus({ ...created, status: { capacity: { cpu: '4', memory: '8192Mi', pods: '110' } } });
    expect(updated.status).toEqual({
      capacity: { cpu: '4', memory: '8Gi', pods: '110' },
      allocatable: { cpu: '4', memory: '8Gi', pods: '110' },
      daemonEndpoints: { kubeletEndpoint: { Port: 0 } },
    });
    // A Node has no generation (pkg/registry/core/node/strategy.go never sets one).
    expect(updated.metadata!.generation).toBeUndefined();
  });

  it('answers a delete with a Status, not the node', async () => {
    const created = await nodes().create({ metadata: { name: 'node-1' } });
    expect(await nodes().delete('node-1')).toEqual({
      kind: 'Status',
      apiVersion: 'v1',
      metadata: {},
      status: 'Success',
      details: { name: 'node-1', kind: 'nodes', uid: created.metadata!.uid },
    });
  });
});

describe('Node validation', () => {
  it('requires a DNS subdomain name', async () => {
    await expectInvalid({ metadata: { name: 'Node_1' } }, [`metadata.name: Invalid value: "Node_1": ${SUBDOMAIN_MSG}`]);
  });

  it('checks taints, reported under metadata.taints as Kubernetes does', async () => {
    await expectInvalid(
      {
        metadata: { name: 'node-1' },
        spec: {
          taints: [
            { key: 'bad key', effect: 'NoSchedule' },
            { key: 'a', value: 'has space', effect: 'NoSchedule' },
            { key: 'b', effect: 'Sometimes' },
            { key: 'd', effect: 'NoExecute' },
            { key: 'd', value: 'other', effect: 'NoExecute' },
          ],
        },
      },
      [
        "metadata.taints[0].key: Invalid value: \"bad key\": name part must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]')",
        "metadata.taints[1].value: Invalid value: \"has space\": a valid label must be an empty string or consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyValue',  or 'my_value',  or '12345', regex used for validation is '(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?')",
        'metadata.taints[2].effect: Unsupported value: "Sometimes": supported values: "NoSchedule", "PreferNoSchedule", "NoExecute"',
        'metadata.taints[4]: Duplicate value: {"key":"d","value":"other","effect":"NoExecute"}: taints must be unique by key and effect pair',
      ],
    );
  });

  // Kubernetes reports an empty taint effect only under metadata.taints; the engine's generic
  // schema-required check adds `spec.taints[0].effect: Required value` in front of it.
  it('reports an empty taint effect once, under metadata.taints', async () => {
    await expectInvalid({ metadata: { name: 'node-1' }, spec: { taints: [{ key: 'c', effect: '' }] } }, ['metadata.taints[0].effect: Required value']);
  });

  it('checks pod CIDRs', async () => {
    await expectInvalid({ metadata: { name: 'node-1' }, spec: { podCIDR: '10.0.0.0/33' } }, [
      'spec.podCIDRs[0]: Invalid value: "10.0.0.0/33": must be a valid CIDR value, (e.g. 10.9.8.0/24 or 2001:db8::/64)',
    ]);
    await expectInvalid({ metadata: { name: 'node-1' }, spec: { podCIDRs: ['10.0.0.1/24'] } }, [
      'spec.podCIDRs[0]: Invalid value: "10.0.0.1/24": must not have bits set beyond the prefix length',
    ]);
    await expectInvalid({ metadata: { name: 'node-1' }, spec: { podCIDRs: ['10.0.0.0/24', '10.1.0.0/24'] } }, [
      'spec.podCIDRs: Invalid value: ["10.0.0.0/24","10.1.0.0/24"]: may specify no more than one CIDR for each IP family',
    ]);
    const dual = await nodes().create({ metadata: { name: 'node-1' }, spec: { podCIDRs: ['10.0.0.0/24', 'fd00::/64'] } });
    expect(dual.spec).toMatchObject({ podCIDR: '10.0.0.0/24', podCIDRs: ['10.0.0.0/24', 'fd00::/64'] });
  });

  it('checks status quantities', async () => {
    const created = await nodes().create({ metadata: { name: 'node-1' } });
    const s = await statusOf(() => nodes().updateStatus({ ...created, status: { capacity: { cpu: '-1', pods: '1.5' } } }));
    expect(s.message).toBe(
      'Node "node-1" is invalid: [status.capacity.cpu: Invalid value: "-1": must be greater than or equal to 0, status.capacity.pods: Invalid value: "1500m": must be an integer, status.allocatable.cpu: Invalid value: "-1": must be greater than or equal to 0, status.allocatable.pods: Invalid value: "1500m": must be an integer]',
    );
  });
});

describe('Node update', () => {
  it('forbids changing podCIDRs and providerID once set, and keeps status on PUT', async () => {
    const created = await nodes().create({ metadata: { name: 'node-1' }, spec: { podCIDR: '10.0.0.0/24', providerID: 'kind://node-1' } });
    const withStatus = await nodes().updateStatus({ ...created, status: { capacity: { cpu: '2' } } });
    const s = await statusOf(() =>
      nodes().update({ ...withStatus, spec: { ...withStatus.spec, podCIDR: '10.0.1.0/24', podCIDRs: ['10.0.1.0/24'], providerID: 'kind://other' } }),
    );
    expect(s.message).toBe(
      'Node "node-1" is invalid: [spec.podCIDRs: Forbidden: node updates may not change podCIDR except from "" to valid, spec.providerID: Forbidden: node updates may not change providerID except from "" to valid]',
    );
    const unschedulable = await nodes().update({ ...withStatus, spec: { ...withStatus.spec, unschedulable: true }, status: {} });
    expect(unschedulable.spec!.unschedulable).toBe(true);
    expect(unschedulable.status!.capacity).toEqual({ cpu: '2' });
  });

  it('lets a controller set podCIDRs and providerID when they were empty', async () => {
    const created = await nodes().create({ metadata: { name: 'node-1' } });
    const updated = await nodes().update({ ...created, spec: { ...created.spec, podCIDRs: ['10.0.0.0/24'], providerID: 'kind://node-1' } });
    expect(updated.spec).toMatchObject({ podCIDR: '10.0.0.0/24', podCIDRs: ['10.0.0.0/24'], providerID: 'kind://node-1' });
  });

  it('refuses duplicate addresses in status', async () => {
    const created = await nodes().create({ metadata: { name: 'node-1' } });
    const address = { type: 'InternalIP', address: '10.0.0.1' };
    const s = await statusOf(() => nodes().updateStatus({ ...created, status: { addresses: [address, { address: '10.0.0.1', type: 'InternalIP' }] } }));
    expect(s.message).toBe('Node "node-1" is invalid: status.addresses[1]: Duplicate value: {"type":"InternalIP","address":"10.0.0.1"}');
  });
});
