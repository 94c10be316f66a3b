import { describe, expect, it } from 'vitest';
import { resourceKinds, ResourcePoolStatusRequestKind, type ResourcePoolStatusRequest } from '../../../src/kinds/resource/index.js';
import { statusOf, testCluster, useTestCluster } from '../../support/cluster.js';

const cluster = useTestCluster({ kinds: [...resourceKinds] });
const rpsrs = () => cluster.client.resource(ResourcePoolStatusRequestKind);
const NAME = 'ResourcePoolStatusRequest.resource.k8s.io "req"';
const SUBDOMAIN_RE = '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*';
const cond = (type: string, status = 'True') => ({ type, status, reason: 'Calculated', message: '', lastTransitionTime: '2026-01-01T00:00:00Z' });
const pool = (over: Record<string, unknown> = {}) => ({
  driver: 'gpu.example.com',
  poolName: 'node-1',
  generation: 1,
  resourceSliceCount: 1,
  totalDevices: 4,
  allocatedDevices: 2,
  availableDevices: 2,
  unavailableDevices: 0,
  ...over,
});

function req(spec: Record<string, unknown> = {}): ResourcePoolStatusRequest {
  return { metadata: { name: 'req' }, spec: { driver: 'gpu.example.com', ...spec } } as ResourcePoolStatusRequest;
}

async function invalid(fn: () => Promise<unknown>, causes: { field: string; message: string }[]) {
  const s = await statusOf(fn);
  const text = causes.map((c) => `${c.field}: ${c.message}`);
  expect(s).toMatchObject({ code: 422, reason: 'Invalid', message: `${NAME} is invalid: ${text.length === 1 ? text[0] : `[${text.join(', ')}]`}` });
  expect(s.details?.causes?.map((c) => ({ field: c.field, message: c.message }))).toEqual(causes);
}

async function withStatus(status: Record<string, unknown>, spec: Record<string, unknown> = {}) {
  const created = await rpsrs().create(req(spec));
  return () => rpsrs().updateStatus({ ...created, status } as ResourcePoolStatusRequest);
}

describe('ResourcePoolStatusRequest', () => {
  it('is cluster-scoped at resource.k8s.io/v1alpha3 and defaults limit to 100', async () => {
    const created = await rpsrs().create({ ...req({ poolName: 'node-1' }), status: { poolCount: 3 } } as ResourcePoolStatusRequest);
    expect(created).toMatchObject({
      apiVersion: 'resource.k8s.io/v1alpha3',
      kind: 'ResourcePoolStatusRequest',
      spec: { driver: 'gpu.example.com', poolName: 'node-1', limit: 100 },
    });
    // No generation: the kind's strategy never sets one.
    expect(created.metadata?.generation).toBeUndefined();
    expect(created.metadata?.namespace).toBeUndefined();
    expect(created.status).toBeUndefined();
  });

  it('takes limit 1..1000', async () => {
    await rpsrs().create({ ...req({ limit: 1 }), metadata: { name: 'one' } });
    await rpsrs().create({ ...req({ limit: 1000 }), metadata: { name: 'max' } });
    await invalid(() => rpsrs().create(req({ limit: 0 })), [{ field: 'spec.limit', message: 'Invalid value: 0: must be greater than or equal to 1' }]);
    await invalid(() => rpsrs().create(req({ limit: 1001 })), [{ field: 'spec.limit', message: 'Invalid value: 1001: must be less than or equal to 1000' }]);
  });

  it('requires a driver that is a DNS subdomain (any case)', async () => {
    await rpsrs().create({ ...req({ driver: 'GPU.Example.com' }), metadata: { name: 'upper' } });
    await invalid(
      () => rpsrs().create({ metadata: { name: 'req' }, spec: {} } as ResourcePoolStatusRequest),
      [{ field: 'spec.driver', message: 'Required value' }],
    );
    await invalid(
      () => rpsrs().create(req({ driver: 'gpu_example' })),
      [
        {
          field: 'spec.driver',
          message: `Invalid value: "gpu_example": an RFC 1123 subdomain must consist of alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'Example.com', regex used for validation is '${SUBDOMAIN_RE}')`,
        },
      ],
    );
  });

  it('checks poolName as DNS subdomains separated by /', async () => {
    await rpsrs().create({ ...req({ poolName: 'rack-1/node-1.example' }), metadata: { name: 'nested' } });
    await invalid(() => rpsrs().create(req({ poolName: '' })), [{ field: 'spec.poolName', message: 'Invalid value: "": segment 0: must not be empty' }]);
    await invalid(
      () => rpsrs().create(req({ poolName: 'a//Bad' })),
      [
        { field: 'spec.poolName', message: 'Invalid value: "a//Bad": segment 1: must not be empty' },
        {
          field: 'spec.poolName',
          message: `Invalid value: "Bad": segment 2: a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '${SUBDOMAIN_RE}')`,
        },
      ],
    );
    const s = await statusOf(() => rpsrs().create(req({ poolName: `${'a'.repeat(200)}/${'b'.repeat(60)}` })));
    expect(s.details?.causes).toEqual([{ reason: 'FieldValueTooLong', field: 'spec.poolName', message: 'Too long: may not be more than 253 bytes' }]);
  });

  it('takes a fully qualified defaultPartitionTypeAttribute', async () => {
    await rpsrs().create({ ...req({ defaultPartitionTypeAttribute: 'gpu.example.com/profile' }), metadata: { name: 'ok' } });
    await invalid(
      () => rpsrs().create(req({ defaultPartitionTypeAttribute: 'profile' })),
      [
        {
          field: 'spec.defaultPartitionTypeAttribute',
          message: 'Invalid value: "profile": a fully qualified name must be a domain and a name separated by a slash',
        },
      ],
    );
    await invalid(
      () => rpsrs().create(req({ defaultPartitionTypeAttribute: 'gpu.example.com/pro-file' })),
      [
        {
          field: 'spec.defaultPartitionTypeAttribute',
          message: `Invalid value: "pro-file": a valid C identifier must start with alphabetic character or '_', followed by a string of alphanumeric characters or '_' (e.g. 'my_name',  or 'MY_NAME',  or 'MyName', regex used for validation is '[A-Za-z_][A-Za-z0-9_]*')`,
        },
      ],
    );
    await invalid(
      () => rpsrs().create(req({ defaultPartitionTypeAttribute: 'a/b/c' })),
      [{ field: 'spec.defaultPartitionTypeAttribute', message: 'Invalid value: "a/b/c": must not contain more than one slash' }],
    );
  });

  it('forbids defaultPartitionTypeAttribute without its gate', async () => {
    const c = await testCluster({ kinds: [...resourceKinds], featureGates: { DRAPartitionableDevicesType: false } });
    try {
      const s = await statusOf(() =>
        c.client.resource(ResourcePoolStatusRequestKind).create(req({ defaultPartitionTypeAttribute: 'gpu.example.com/profile' })),
      );
      expect(s.details?.causes).toEqual([{ reason: 'FieldValueForbidden', field: 'spec.defaultPartitionTypeAttribute', message: 'Forbidden' }]);
    } finally {
      await c.close();
    }
  });

  it('disappears with DRAResourcePoolStatus off', async () => {
    const c = await testCluster({ kinds: [...resourceKinds], featureGates: { DRAResourcePoolStatus: false } });
    try {
      expect((await statusOf(() => c.client.resource(ResourcePoolStatusRequestKind).create(req()))).code).toBe(404);
    } finally {
      await c.close();
    }
  });

  it('keeps the spec immutable', async () => {
    const created = await rpsrs().create(req());
    await invalid(
      () => rpsrs().update({ ...created, spec: { ...created.spec, limit: 5 } }),
      [{ field: 'spec', message: 'Invalid value: null: field is immutable' }],
    );
    const labelled = await rpsrs().update({ ...created, metadata: { ...created.metadata, labels: { a: 'b' } } });
    expect(labelled.metadata?.labels).toEqual({ a: 'b' });
  });

  it('sets status once through /status; then the whole object is immutable', async () => {
    const created = await rpsrs().create(req());
    const ignored = await rpsrs().update({ ...created, status: { poolCount: 1 } } as ResourcePoolStatusRequest);
    expect(ignored.status).toBeUndefined();
    const status = { poolCount: 1, pools: [pool()], conditions: [cond('Complete')] };
    const done = await rpsrs().updateStatus({ ...ignored, status } as ResourcePoolStatusRequest);
    expect(done.status).toEqual(status);
    await invalid(
      () => rpsrs().updateStatus({ ...done, status: { ...status, poolCount: 2 } } as ResourcePoolStatusRequest),
      [{ field: 'status', message: 'Invalid value: null: field is immutable' }],
    );
    await invalid(
      () => rpsrs().update({ ...done, metadata: { ...done.metadata, labels: { a: 'b' } } }),
      [{ field: 'metadata.labels', message: 'Invalid value: null: field is immutable' }],
    );
    await invalid(
      () => rpsrs().update({ ...done, spec: { ...done.spec, driver: 'x.example.com' } }),
      [{ field: 'spec', message: 'Invalid value: null: field is immutable' }],
    );
    expect(await rpsrs().get('req')).toMatchObject({ status, metadata: { resourceVersion: done.metadata?.resourceVersion } });
    await rpsrs().delete('req');
  });

  it('takes an empty list for an absent one when comparing a set status', async () => {
    const created = await rpsrs().create(req());
    const status = { poolCount: 0, conditions: [cond('Complete')] };
    const done = await rpsrs().updateStatus({ ...created, status } as ResourcePoolStatusRequest);
    const same = await rpsrs().updateStatus({ ...done, status: { ...status, pools: [] } } as ResourcePoolStatusRequest);
    expect(same.status?.poolCount).toBe(0);
    await invalid(
      () => rpsrs().updateStatus({ ...same, status: { ...status, pools: [pool()] } } as ResourcePoolStatusRequest),
      [{ field: 'status', message: 'Invalid value: null: field is immutable' }],
    );
  });

  it('requires poolCount ≥ 0 and a Complete or Failed condition', async () => {
    await invalid(await withStatus({ conditions: [cond('Failed')] }), [{ field: 'status.poolCount', message: 'Required value' }]);
    await rpsrs().delete('req');
    await invalid(await withStatus({ poolCount: -1, conditions: [cond('Failed')] }), [
      { field: 'status.poolCount', message: 'Invalid value: -1: must be greater than or equal to 0' },
    ]);
    await rpsrs().delete('req');
    await invalid(await withStatus({ poolCount: 0 }), [
      { field: 'status.conditions', message: 'Required value: must contain a condition of type "Complete" or "Failed"' },
    ]);
    await rpsrs().delete('req');
    await (
      await withStatus({ poolCount: 0, conditions: [cond('Failed')] })
    )();
  });

  it('validates conditions (at most 10, metav1 rules)', async () => {
    const many = Array.from({ length: 11 }, (_, i) => cond(`T${i}`));
    await invalid(await withStatus({ poolCount: 0, conditions: many }), [{ field: 'status.conditions', message: 'Too many: 11: must have at most 10 items' }]);
    await rpsrs().delete('req');
    await invalid(await withStatus({ poolCount: 0, conditions: [cond('Complete'), cond('Complete')] }), [
      { field: 'status.conditions[1].type', message: 'Duplicate value: "Complete"' },
    ]);
  });

  it('holds pools to spec.limit, sorted by driver then pool name', async () => {
    await invalid(await withStatus({ poolCount: 3, pools: [pool({ poolName: 'a' }), pool({ poolName: 'b' })], conditions: [cond('Complete')] }, { limit: 1 }), [
      { field: 'status.pools', message: 'Too many: 2: must have at most 1 item' },
    ]);
    await rpsrs().delete('req');
    await invalid(await withStatus({ poolCount: 2, pools: [pool({ poolName: 'b' }), pool({ poolName: 'a' })], conditions: [cond('Complete')] }), [
      { field: 'status.pools[1]', message: 'Invalid value: "gpu.example.com/a": must be sorted by driver, then by pool name' },
    ]);
    await rpsrs().delete('req');
    await (
      await withStatus({
        poolCount: 5,
        pools: [pool({ driver: 'a.example.com', poolName: 'z' }), pool({ poolName: 'a' }), pool({ poolName: 'b' })],
        conditions: [cond('Complete')],
      })
    )();
  });

  it('validates each PoolStatus', async () => {
    const bad = { driver: '', poolName: 'Bad', generation: 0, resourceSliceCount: 0, totalDevices: -1, nodeName: 'node_1', validationError: 'x'.repeat(257) };
    await invalid(await withStatus({ poolCount: 1, pools: [bad], conditions: [cond('Complete')] }), [
      { field: 'status.pools[0].driver', message: 'Required value' },
      {
        field: 'status.pools[0].poolName',
        message: `Invalid value: "Bad": segment 0: a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '${SUBDOMAIN_RE}')`,
      },
      { field: 'status.pools[0].generation', message: 'Required value' },
      { field: 'status.pools[0].resourceSliceCount', message: 'Invalid value: 0: must be greater than or equal to 1' },
      { field: 'status.pools[0].totalDevices', message: 'Invalid value: -1: must be greater than or equal to 0' },
      {
        field: 'status.pools[0].nodeName',
        message: `Invalid value: "node_1": a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '${SUBDOMAIN_RE}')`,
      },
      { field: 'status.pools[0].validationError', message: 'Too long: may not be more than 256 bytes' },
    ]);
    await rpsrs().delete('req');
    await invalid(await withStatus({ poolCount: 1, pools: [pool({ availableDevices: 3 })], conditions: [cond('Complete')] }), [
      { field: 'status.pools[0].availableDevices', message: 'Invalid value: 3: must equal totalDevices - allocatedDevices - unavailableDevices' },
    ]);
    await rpsrs().delete('req');
    // During an incomplete rollout the counts may be unset, with a validationError.
    await (
      await withStatus({
        poolCount: 1,
        pools: [{ driver: 'gpu.example.com', poolName: 'p', generation: 2, validationError: 'rollout in progress' }],
        conditions: [cond('Complete')],
      })
    )();
  });

  it('validates partitionSummary and shareableSummary', async () => {
    const entry = { attribute: 'gpu.example.com/profile', type: 'Full', total: 1, allocatable: 1 };
    const cap = { name: 'memory', total: '10Gi', consumed: '4Gi', available: '6Gi' };
    const good = pool({
      partitionSummary: [entry, { ...entry, type: 'Half', total: 2 }],
      shareableSummary: { fullyAvailableDevices: 1, partiallyAvailableDevices: 1, capacity: [cap] },
    });
    const done = await (await withStatus({ poolCount: 1, pools: [good], conditions: [cond('Complete')] }))();
    expect(done.status?.pools?.[0]).toEqual(good);
    await rpsrs().delete('req');
    const bad = pool({
      partitionSummary: [entry, entry, { attribute: '', type: '', total: -1 }],
      shareableSummary: {
        partiallyAvailableDevices: -1,
        capacity: [
          { name: '', total: '1', consumed: '2', available: '-1' },
          { ...cap, available: '5Gi' },
        ],
      },
    });
    await invalid(await withStatus({ poolCount: 1, pools: [bad], conditions: [cond('Complete')] }), [
      { field: 'status.pools[0].partitionSummary[1]', message: 'Duplicate value: {"attribute":"gpu.example.com/profile","type":"Full"}' },
      { field: 'status.pools[0].partitionSummary[2].attribute', message: 'Required value' },
      { field: 'status.pools[0].partitionSummary[2].type', message: 'Required value' },
      { field: 'status.pools[0].partitionSummary[2].total', message: 'Invalid value: -1: must be greater than or equal to 0' },
      { field: 'status.pools[0].partitionSummary[2].allocatable', message: 'Required value' },
      { field: 'status.pools[0].shareableSummary.fullyAvailableDevices', message: 'Required value' },
      { field: 'status.pools[0].shareableSummary.partiallyAvailableDevices', message: 'Invalid value: -1: must be greater than or equal to 0' },
      { field: 'status.pools[0].shareableSummary.capacity[0].name', message: 'Required value' },
      { field: 'status.pools[0].shareableSummary.capacity[0].available', message: 'Invalid value: "-1": must equal total - consumed, and never be negative' },
      { field: 'status.pools[0].shareableSummary.capacity[1].available', message: 'Invalid value: "5Gi": must equal total - consumed, and never be negative' },
    ]);
  });

  it('answers malformed input with 4xx and stores nothing', async () => {
    for (const body of [
      { metadata: { name: 'req' }, spec: { driver: 7 } },
      { metadata: { name: 'req' }, spec: { driver: 'gpu.example.com', limit: 'many' } },
      { metadata: { name: 'req' }, spec: { driver: 'gpu.example.com', limit: 1.5 } },
      { metadata: { name: 'req' }, spec: { driver: `${'a'.repeat(300)}.com` } },
      { metadata: { name: 'req' }, spec: { driver: 'gpu.example.com', poolName: 'p\u0000ool' } },
      { spec: { driver: 'gpu.example.com' } },
    ]) {
      const s = await statusOf(() => rpsrs().create(body as unknown as ResourcePoolStatusRequest));
      expect(s.code).toBeGreaterThanOrEqual(400);
      expect(s.code).toBeLessThan(500);
    }
    expect((await rpsrs().list()).items).toEqual([]);
  });
});
