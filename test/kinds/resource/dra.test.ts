import { describe, expect, it } from 'vitest';
import {
  DeviceClassKind,
  DeviceTaintRuleKind,
  ResourceClaimKind,
  ResourceClaimTemplateKind,
  ResourceSliceKind,
  type ResourceClaim,
  type ResourceSlice,
} from '../../../src/kinds/resource/index.js';
import { NamespaceKind } from '../../../src/kinds/core/index.js';
import { statusOf, testCluster, useTestCluster, T0 } from '../../support/cluster.js';

const cluster = useTestCluster();
const NS = { namespace: 'default' };
const claims = () => cluster.client.resource(ResourceClaimKind);
const slices = () => cluster.client.resource(ResourceSliceKind);
const classes = () => cluster.client.resource(DeviceClassKind);

type Request = NonNullable<NonNullable<NonNullable<ResourceClaim['spec']>['devices']>['requests']>[number];
const claim = (requests: Request[], extra: Partial<NonNullable<NonNullable<ResourceClaim['spec']>['devices']>> = {}, name = 'c'): ResourceClaim => ({
  metadata: { name },
  spec: { devices: { requests, ...extra } },
});
const exact = (over: object = {}): Request => ({ name: 'gpu', exactly: { deviceClassName: 'gpu.example.com', ...over } });
type Device = NonNullable<ResourceSlice['spec']['devices']>[number];
const slice = (devices: Device[], over: Partial<ResourceSlice['spec']> = {}, name = 's'): ResourceSlice => ({
  metadata: { name },
  spec: { driver: 'gpu.example.com', pool: { name: 'node-1', generation: 1, resourceSliceCount: 1 }, nodeName: 'node-1', devices, ...over },
});

async function causes(fn: () => Promise<unknown>): Promise<[string, string][]> {
  const s = await statusOf(fn);
  expect(s).toMatchObject({ code: 422, reason: 'Invalid' });
  return (s.details?.causes ?? []).map((c) => [c.field ?? '', c.message ?? '']);
}

async function get(path: string, accept = 'application/json'): Promise<{ status: number; body: Record<string, unknown> }> {
  const res = await cluster.fetch(new Request(`http://memkube${path}`, { headers: { Accept: accept } }));
  return { status: res.status, body: (await res.json()) as Record<string, unknown> };
}

async function post(path: string, body: unknown): Promise<{ status: number; body: Record<string, unknown> }> {
  const res = await cluster.fetch(
    new Request(`http://memkube${path}`, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(body) }),
  );
  return { status: res.status, body: (await res.json()) as Record<string, unknown> };
}

describe('served versions', () => {
  it('serves the DRA kinds at v1, v1beta2 and v1beta1, DeviceTaintRule at v1beta2 and v1alpha3', async () => {
    const versions = async (v: string) =>
      ((await get(`/apis/resource.k8s.io/${v}`)).body.resources as { name: string; namespaced: boolean }[])
        .filter((r) => !r.name.includes('/'))
        .map((r) => r.name);
    expect(await versions('v1')).toEqual(expect.arrayContaining(['deviceclasses', 'resourceclaims', 'resourceclaimtemplates', 'resourceslices']));
    expect(await versions('v1beta2')).toEqual(
      expect.arrayContaining(['deviceclasses', 'resourceclaims', 'resourceclaimtemplates', 'resourceslices', 'devicetaintrules']),
    );
    expect(await versions('v1beta1')).toEqual(expect.arrayContaining(['deviceclasses', 'resourceclaims', 'resourceclaimtemplates', 'resourceslices']));
    expect(await versions('v1alpha3')).toEqual(expect.arrayContaining(['devicetaintrules', 'resourcepoolstatusrequests']));
    const v1 = (await get('/apis/resource.k8s.io/v1')).body.resources as { name: string; namespaced: boolean }[];
    expect(v1.filter((r) => r.name === 'resourceclaims/status' || r.name === 'resourceclaims')).toHaveLength(2);
    expect(v1.find((r) => r.name === 'resourceclaims')?.namespaced).toBe(true);
    expect(v1.find((r) => r.name === 'resourceslices')?.namespaced).toBe(false);
    const group = ((await get('/apis')).body.groups as { name: string; preferredVersion: { version: string } }[]).find((g) => g.name === 'resource.k8s.io');
    expect(group?.preferredVersion.version).toBe('v1');
  });

  it('converts a v1beta1 claim: the exact request fields move under exactly, and back', async () => {
    const created = await post('/apis/resource.k8s.io/v1beta1/namespaces/default/resourceclaims', {
      apiVersion: 'resource.k8s.io/v1beta1',
      kind: 'ResourceClaim',
      metadata: { name: 'old' },
      spec: { devices: { requests: [{ name: 'gpu', deviceClassName: 'gpu.example.com', selectors: [{ cel: { expression: 'true' } }] }] } },
    });
    expect(created.status).toBe(201);
    expect((created.body.spec as { devices: unknown }).devices).toEqual({
      requests: [{ name: 'gpu', deviceClassName: 'gpu.example.com', selectors: [{ cel: { expression: 'true' } }], allocationMode: 'ExactCount', count: 1 }],
    });
    const v1 = await claims().get('old', NS);
    expect(v1.spec?.devices?.requests).toEqual([
      { name: 'gpu', exactly: { deviceClassName: 'gpu.example.com', selectors: [{ cel: { expression: 'true' } }], allocationMode: 'ExactCount', count: 1 } },
    ]);
    const beta2 = await get('/apis/resource.k8s.io/v1beta2/namespaces/default/resourceclaims/old');
    expect(beta2.body).toMatchObject({ apiVersion: 'resource.k8s.io/v1beta2', spec: { devices: { requests: [{ name: 'gpu', exactly: { count: 1 } }] } } });
    // A v1 prioritized list reads in v1beta1 as one.
    await claims().create(
      claim(
        [
          {
            name: 'any',
            firstAvailable: [
              { name: 'big', deviceClassName: 'big.example.com' },
              { name: 'small', deviceClassName: 'small.example.com', count: 2 },
            ],
          },
        ],
        {},
        'list',
      ),
      NS,
    );
    const beta1 = await get('/apis/resource.k8s.io/v1beta1/namespaces/default/resourceclaims/list');
    expect((beta1.body.spec as { devices: { requests: unknown[] } }).devices.requests).toEqual([
      {
        name: 'any',
        firstAvailable: [
          { name: 'big', deviceClassName: 'big.example.com', allocationMode: 'ExactCount', count: 1 },
          { name: 'small', deviceClassName: 'small.example.com', allocationMode: 'ExactCount', count: 2 },
        ],
      },
    ]);
  });

  it('converts a v1beta1 slice: devices are described under basic', async () => {
    const created = await post('/apis/resource.k8s.io/v1beta1/resourceslices', {
      apiVersion: 'resource.k8s.io/v1beta1',
      kind: 'ResourceSlice',
      metadata: { name: 'old' },
      spec: {
        driver: 'gpu.example.com',
        pool: { name: 'p', generation: 0, resourceSliceCount: 1 },
        allNodes: true,
        devices: [{ name: 'gpu-0', basic: { attributes: { model: { string: 'a100' } }, capacity: { memory: { value: '40Gi' } } } }],
      },
    });
    expect(created.status).toBe(201);
    const v1 = await slices().get('old');
    expect(v1.spec.devices).toEqual([{ name: 'gpu-0', attributes: { model: { string: 'a100' } }, capacity: { memory: { value: '40Gi' } } }]);
    await slices().create(slice([{ name: 'plain' }], {}, 'new'));
    const beta1 = await get('/apis/resource.k8s.io/v1beta1/resourceslices/new');
    expect((beta1.body.spec as { devices: unknown }).devices).toEqual([{ name: 'plain', basic: {} }]);
  });
});

describe('ResourceClaim', () => {
  it('defaults exact requests and tolerations, resets status on create and has no generation', async () => {
    const c = await claims().create(
      { ...claim([exact({ tolerations: [{ key: 'example.com/broken' }] })]), status: { reservedFor: [{ resource: 'pods', name: 'p', uid: 'u' }] } },
      NS,
    );
    expect(c.spec?.devices?.requests?.[0]?.exactly).toEqual({
      deviceClassName: 'gpu.example.com',
      allocationMode: 'ExactCount',
      count: 1,
      tolerations: [{ key: 'example.com/broken', operator: 'Equal' }],
    });
    expect(c.status).toEqual({});
    expect(c.metadata?.generation).toBeUndefined();
  });

  it('checks requests', async () => {
    expect(
      await causes(() =>
        claims().create(
          claim([
            { name: 'Bad_Name' },
            { name: 'both', exactly: { deviceClassName: 'x' }, firstAvailable: [{ name: 'a', deviceClassName: 'x' }] },
            exact({ deviceClassName: '', allocationMode: 'Some', selectors: [{}] }),
            { name: 'all', exactly: { deviceClassName: 'x', allocationMode: 'All', count: 2 } },
            { name: 'gpu', exactly: { deviceClassName: 'x', tolerations: [{ operator: 'Exists', value: 'v', effect: 'Sometimes' }] } },
          ]),
          NS,
        ),
      ),
    ).toEqual([
      [
        'spec.devices.requests[0].name',
        `Invalid value: "Bad_Name": a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', and must start and end with an alphanumeric character (e.g. 'my-name',  or '123-abc', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?')`,
      ],
      ['spec.devices.requests[0]', 'Required value: exactly one of `exactly` or `firstAvailable` is required'],
      ['spec.devices.requests[1]', 'Invalid value: null: exactly one of `exactly` or `firstAvailable` is required, but multiple fields are set'],
      ['spec.devices.requests[2].exactly.deviceClassName', 'Required value'],
      ['spec.devices.requests[2].exactly.selectors[0].cel', 'Required value'],
      ['spec.devices.requests[2].exactly.allocationMode', 'Unsupported value: "Some": supported values: "All", "ExactCount"'],
      ['spec.devices.requests[3].exactly.count', "Invalid value: 2: must not be specified when allocationMode is 'All'"],
      ['spec.devices.requests[4].exactly.tolerations[0].value', 'Invalid value: "v": must be empty for operator `Exists`'],
      ['spec.devices.requests[4].exactly.tolerations[0].effect', 'Unsupported value: "Sometimes": supported values: "NoExecute", "NoSchedule", "None"'],
      ['spec.devices.requests[4]', 'Duplicate value: "gpu"'],
    ]);
    expect(await causes(() => claims().create(claim([exact({ count: -1 })]), NS))).toEqual([
      ['spec.devices.requests[0].exactly.count', 'Invalid value: -1: must be greater than zero'],
    ]);
    expect(await causes(() => claims().create(claim(Array.from({ length: 33 }, (_, i) => ({ ...exact(), name: `r${i}` }))), NS))).toEqual([
      ['spec.devices.requests', 'Too many: 33: must have at most 32 items'],
    ]);
  });

  it('checks constraints and configuration against the requests', async () => {
    expect(
      await causes(() =>
        claims().create(
          claim([exact(), { name: 'any', firstAvailable: [{ name: 'a', deviceClassName: 'x' }] }], {
            constraints: [{ requests: ['gpu', 'nope', 'any/a', 'any/b', 'a/b/c'], matchAttribute: 'numaNode' }, { requests: ['gpu'] }],
            config: [{ requests: ['gpu'] }, { opaque: { driver: 'gpu.example.com', parameters: [1] as unknown as Record<string, unknown> } }],
          }),
          NS,
        ),
      ),
    ).toEqual([
      [
        'spec.devices.constraints[0].requests[1]',
        `Invalid value: "nope": must be the name of a request in the claim or the name of a request and a subrequest separated by '/'`,
      ],
      [
        'spec.devices.constraints[0].requests[3]',
        `Invalid value: "any/b": must be the name of a request in the claim or the name of a request and a subrequest separated by '/'`,
      ],
      [
        'spec.devices.constraints[0].requests[4]',
        `Invalid value: "a/b/c": must be the name of a request in the claim or the name of a request and a subrequest separated by '/'`,
      ],
      ['spec.devices.constraints[0].matchAttribute', 'Invalid value: "numaNode": a fully qualified name must be a domain and a name separated by a slash'],
      ['spec.devices.constraints[1]', 'Required value: exactly one of "matchAttribute" or "distinctAttribute" is required, but multiple fields are set'],
      ['spec.devices.config[0].opaque', 'Required value'],
      ['spec.devices.config[1].opaque.parameters', 'Invalid value: "<value omitted>": must be a valid JSON object'],
    ]);
  });

  it('keeps the spec immutable and changes status only through /status', async () => {
    const c = await claims().create(claim([exact()]), NS);
    expect(await causes(() => claims().update({ ...c, spec: { devices: { requests: [exact({ count: 2 })] } } }, NS))).toEqual([
      ['spec', 'Invalid value: null: field is immutable'],
    ]);
    const labelled = await claims().update({ ...c, metadata: { ...c.metadata, labels: { a: 'b' } } }, NS);
    expect(labelled.metadata?.labels).toEqual({ a: 'b' });
    const reserveWithoutAllocation = await causes(() =>
      claims().updateStatus({ ...labelled, status: { reservedFor: [{ resource: 'pods', name: 'p', uid: 'u1' }] } }, NS),
    );
    expect(reserveWithoutAllocation).toEqual([['status.reservedFor', 'Forbidden: may not be specified when `allocated` is not set']]);
    const allocation = {
      devices: { results: [{ request: 'gpu', driver: 'gpu.example.com', pool: 'node-1', device: 'gpu-0' }] },
      nodeSelector: { nodeSelectorTerms: [{ matchFields: [{ key: 'metadata.name', operator: 'In', values: ['node-1'] }] }] },
    };
    const allocated = await claims().updateStatus({ ...labelled, status: { allocation, reservedFor: [{ resource: 'pods', name: 'p', uid: 'u1' }] } }, NS);
    expect(allocated.status?.allocation).toEqual(allocation);
    const moved = { ...allocation, devices: { results: [{ ...allocation.devices.results[0]!, device: 'gpu-1' }] } };
    expect(await causes(() => claims().updateStatus({ ...allocated, status: { ...allocated.status, allocation: moved } }, NS))).toEqual([
      ['status.allocation', 'Invalid value: null: field is immutable'],
    ]);
    const t = await get('/apis/resource.k8s.io/v1/namespaces/default/resourceclaims', 'application/json;as=Table;v=v1;g=meta.k8s.io');
    expect((t.body.columnDefinitions as { name: string }[]).map((c) => c.name)).toEqual(['Name', 'State', 'Age']);
    expect((t.body.rows as { cells: unknown[] }[])[0]?.cells.slice(0, 2)).toEqual(['c', 'allocated,reserved']);
  });

  it('checks new allocation results and device status', async () => {
    const c = await claims().create(claim([exact()]), NS);
    expect(
      await causes(() =>
        claims().updateStatus(
          {
            ...c,
            status: {
              allocation: {
                devices: { results: [{ request: 'cpu', driver: '', pool: 'a//b', device: 'gpu-0', shareID: 'X' }], config: [{ source: 'FromPod' }] },
              },
              devices: [{ driver: 'gpu.example.com', pool: 'node-1', device: 'gpu-9' }],
            },
          },
          NS,
        ),
      ),
    ).toEqual([
      ['status.devices[0]', 'Invalid value: "gpu.example.com/node-1/gpu-9": must be an allocated device in the claim'],
      [
        'status.allocation.devices.results[0].request',
        `Invalid value: "cpu": must be the name of a request in the claim or the name of a request and a subrequest separated by '/'`,
      ],
      ['status.allocation.devices.results[0].driver', 'Required value'],
      [
        'status.allocation.devices.results[0].driver',
        `Invalid value: "": a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')`,
      ],
      [
        'status.allocation.devices.results[0].pool',
        `Invalid value: "": a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')`,
      ],
      ['status.allocation.devices.results[0].shareID', 'Invalid value: "X": must be a lowercase UUID in 8-4-4-4-12 format'],
      ['status.allocation.devices.config[0].source', 'Unsupported value: "FromPod": supported values: "FromClaim", "FromClass"'],
      ['status.allocation.devices.config[0].opaque', 'Required value'],
    ]);
  });

  it('needs the admin-access namespace label for adminAccess requests', async () => {
    const forbidden = await causes(() => claims().create(claim([exact({ adminAccess: true })]), NS));
    expect(forbidden).toEqual([
      [
        'spec.devices.requests[0].exactly.adminAccess',
        'Forbidden: admin access to devices requires the `resource.kubernetes.io/admin-access: true` label on the containing namespace',
      ],
    ]);
    await cluster.client.resource(NamespaceKind).create({ metadata: { name: 'admin', labels: { 'resource.kubernetes.io/admin-access': 'true' } } });
    const ok = await claims().create(claim([exact({ adminAccess: true })]), { namespace: 'admin' });
    expect(ok.spec?.devices?.requests?.[0]?.exactly?.adminAccess).toBe(true);
  });
});

describe('ResourceClaimTemplate', () => {
  it('checks the template metadata and claim spec, defaults it, and keeps it immutable', async () => {
    const templates = () => cluster.client.resource(ResourceClaimTemplateKind);
    expect(
      await causes(() =>
        templates().create(
          { metadata: { name: 't' }, spec: { metadata: { labels: { 'bad key!': 'x' } }, spec: { devices: { requests: [{ name: 'gpu' }] } } } },
          NS,
        ),
      ),
    ).toEqual([
      [
        'spec.metadata.labels',
        `Invalid value: "bad key!": name part must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]')`,
      ],
      ['spec.spec.devices.requests[0]', 'Required value: exactly one of `exactly` or `firstAvailable` is required'],
    ]);
    const t = await templates().create({ metadata: { name: 't' }, spec: { spec: { devices: { requests: [exact()] } } } }, NS);
    expect(t.spec.spec.devices?.requests?.[0]?.exactly?.count).toBe(1);
    expect(await causes(() => templates().update({ ...t, spec: { spec: { devices: { requests: [exact({ count: 3 })] } } } }, NS))).toEqual([
      ['spec', 'Invalid value: null: field is immutable'],
    ]);
  });
});

describe('DeviceClass', () => {
  it('checks selectors, configuration and the extended resource name', async () => {
    expect(
      await causes(() =>
        classes().create({
          metadata: { name: 'gpu.example.com' },
          spec: {
            selectors: [{ cel: { expression: 'x'.repeat(10 * 1024 + 1) } }],
            config: [{ opaque: { driver: 'Not A Driver', parameters: {} } }],
            extendedResourceName: 'gpu',
          },
        }),
      ),
    ).toEqual([
      ['spec.selectors[0].cel.expression', 'Too long: may not be more than 10240 bytes'],
      [
        'spec.config[0].opaque.driver',
        `Invalid value: "Not A Driver": a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')`,
      ],
      ['spec.extendedResourceName', 'Invalid value: "gpu": must be a valid extended resource name'],
    ]);
    const c = await classes().create({ metadata: { name: 'gpu.example.com' }, spec: { extendedResourceName: 'example.com/gpu' } });
    expect(c.metadata?.generation).toBe(1);
  });
});

describe('ResourceSlice', () => {
  it('checks the pool, the driver and the node selection', async () => {
    expect(await causes(() => slices().create(slice([], { pool: { name: '', generation: -1, resourceSliceCount: 0 }, driver: '', allNodes: true })))).toEqual([
      ['spec.driver', 'Required value'],
      [
        'spec.driver',
        `Invalid value: "": a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')`,
      ],
      ['spec.pool.name', 'Required value'],
      ['spec.pool.resourceSliceCount', 'Invalid value: 0: must be greater than zero'],
      ['spec.pool.generation', 'Invalid value: -1: must be greater than or equal to zero'],
      [
        'spec',
        'Invalid value: "{`nodeName`, `allNodes`}": exactly one of `nodeName`, `nodeSelector`, `allNodes`, `perDeviceNodeSelection` is required, but multiple fields are set',
      ],
    ]);
    expect(await causes(() => slices().create(slice([], { nodeName: undefined })))).toEqual([
      ['spec', 'Required value: exactly one of `nodeName`, `nodeSelector`, `allNodes`, `perDeviceNodeSelection` is required'],
    ]);
  });

  it('checks devices, attributes and capacity', async () => {
    expect(
      await causes(() =>
        slices().create(
          slice([
            {
              name: 'gpu-0',
              attributes: { 'bad/name/x': { string: 'a' }, model: {}, version: { version: '1.0' }, both: { int: 1, bool: true } },
              capacity: { memory: { value: '1Gi', requestPolicy: { default: '1Gi' } } },
              nodeName: 'node-1',
            },
            { name: 'gpu-0' },
          ]),
        ),
      ),
    ).toEqual([
      ['spec.devices[0].attributes', 'Invalid value: "bad/name/x": must not contain more than one slash'],
      ['spec.devices[0].attributes[model]', 'Invalid value: "": exactly one value must be specified'],
      ['spec.devices[0].attributes[version].version', 'Invalid value: "1.0": must be a string compatible with semver.org spec 2.0.0'],
      ['spec.devices[0].attributes[both]', 'Invalid value: {"int":1,"bool":true}: exactly one value must be specified'],
      ['spec.devices[0].capacity[memory].requestPolicy', 'Forbidden: allowMultipleAllocations must be true'],
      [
        'spec.devices[0]',
        'Invalid value: null: `nodeName`, `nodeSelector` and `allNodes` can only be set if `perDeviceNodeSelection` is set to true in the ResourceSlice spec',
      ],
      ['spec.devices[1]', 'Duplicate value: "gpu-0"'],
    ]);
  });

  it('checks the standard resource.kubernetes.io attributes', async () => {
    const attrs = (attributes: Device['attributes']) => slice([{ name: 'gpu-0', attributes }]);
    await slices().create(
      attrs({
        'resource.kubernetes.io/numaNode': { int: 1 },
        'resource.kubernetes.io/pciBusID': { string: '0000:3b:00.0' },
        'resource.kubernetes.io/pcieRoot': { string: 'pci0000:3a' },
      }),
    );
    await slices().delete('s');
    await slices().create(attrs({ 'resource.kubernetes.io/numaNode': { ints: [5, 4, 6, 7] } }));
    await slices().delete('s');
    expect(
      await causes(() =>
        slices().create(
          attrs({
            'resource.kubernetes.io/numaNode': { int: -1 },
            'resource.kubernetes.io/pciBusID': { string: '3b:00.0' },
            'resource.kubernetes.io/pcieRoot': { int: 0 },
          }),
        ),
      ),
    ).toEqual([
      ['spec.devices[0].attributes[resource.kubernetes.io/numaNode].int', 'Invalid value: -1: must be greater than or equal to 0'],
      [
        'spec.devices[0].attributes[resource.kubernetes.io/pciBusID].string',
        'Invalid value: "3b:00.0": must be a PCI address in extended BDF notation, <domain>:<bus>:<device>.<function> (e.g. 0000:3b:00.0)',
      ],
      ['spec.devices[0].attributes[resource.kubernetes.io/pcieRoot]', 'Invalid value: {"int":0}: must be a string value'],
    ]);
    expect(await causes(() => slices().create(attrs({ 'resource.kubernetes.io/numaNode': { string: '1' } })))).toEqual([
      ['spec.devices[0].attributes[resource.kubernetes.io/numaNode]', 'Invalid value: {"string":"1"}: must be an int or ints value'],
    ]);
  });

  it('drops list attributes without DRAListTypeAttributes', async () => {
    const c = await testCluster({ featureGates: { DRAListTypeAttributes: false } });
    try {
      const r = c.client.resource(ResourceSliceKind);
      // The attribute is left without a value, which is invalid (as in Kubernetes).
      const s = await statusOf(() => r.create(slice([{ name: 'gpu-0', attributes: { cores: { ints: [1, 2] }, model: { string: 'x' } } }])));
      expect(s.details?.causes?.map((x) => [x.field, x.message])).toEqual([
        ['spec.devices[0].attributes[cores]', 'Invalid value: "": exactly one value must be specified'],
      ]);
      const numa = await r.create(slice([{ name: 'gpu-0', attributes: { 'resource.kubernetes.io/numaNode': { int: 0, ints: [0] } } }]));
      expect(numa.spec.devices?.[0]?.attributes).toEqual({ 'resource.kubernetes.io/numaNode': { int: 0 } });
    } finally {
      await c.close();
    }
  });

  it('keeps driver, pool name and node name immutable; defaults taint times; selects by node and driver; prints columns', async () => {
    const s = await slices().create(slice([{ name: 'gpu-0', taints: [{ key: 'example.com/broken', effect: 'NoSchedule' }] }]));
    expect(s.spec.devices?.[0]?.taints?.[0]?.timeAdded).toBe(T0.toISOString().replace('.000', ''));
    expect(s.metadata?.generation).toBe(1);
    expect(
      await causes(() => slices().update({ ...s, spec: { ...s.spec, driver: 'other.example.com', nodeName: 'node-2', pool: { ...s.spec.pool, name: 'p2' } } })),
    ).toEqual([
      ['spec.pool.name', 'Invalid value: "p2": field is immutable'],
      ['spec.driver', 'Invalid value: "other.example.com": field is immutable'],
      ['spec.nodeName', 'Invalid value: "node-2": field is immutable'],
    ]);
    await slices().create(slice([], { driver: 'net.example.com', nodeName: 'node-2' }, 's2'));
    expect((await slices().list({ fieldSelector: 'spec.nodeName=node-2' })).items.map((i) => i.metadata?.name)).toEqual(['s2']);
    expect((await slices().list({ fieldSelector: 'spec.driver=gpu.example.com' })).items.map((i) => i.metadata?.name)).toEqual(['s']);
    const t = await get('/apis/resource.k8s.io/v1/resourceslices', 'application/json;as=Table;v=v1;g=meta.k8s.io');
    expect((t.body.columnDefinitions as { name: string }[]).map((c) => c.name)).toEqual(['Name', 'Node', 'Driver', 'Pool', 'Age']);
    expect((t.body.rows as { cells: unknown[] }[]).map((r) => r.cells.slice(0, 4))).toEqual([
      ['s', 'node-1', 'gpu.example.com', 'node-1'],
      ['s2', 'node-2', 'net.example.com', 'node-1'],
    ]);
  });
});

describe('DeviceTaintRule', () => {
  it('checks the taint and selector, defaults timeAdded, writes status through /status', async () => {
    const rules = () => cluster.client.resource(DeviceTaintRuleKind);
    expect(
      await causes(() => rules().create({ metadata: { name: 'r' }, spec: { deviceSelector: { pool: 'A//b' }, taint: { key: '', effect: 'Evict' } } })),
    ).toEqual([
      [
        'spec.deviceSelector.pool',
        `Invalid value: "A": a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')`,
      ],
      [
        'spec.deviceSelector.pool',
        `Invalid value: "": a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')`,
      ],
      ['spec.taint.key', 'Invalid value: "": name part must be non-empty'],
      [
        'spec.taint.key',
        `Invalid value: "": name part must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]')`,
      ],
      ['spec.taint.effect', 'Unsupported value: "Evict": supported values: "NoExecute", "NoSchedule", "None"'],
    ]);
    const r = await rules().create({
      metadata: { name: 'r' },
      spec: { deviceSelector: { driver: 'gpu.example.com' }, taint: { key: 'example.com/broken', effect: 'NoExecute' } },
      status: { conditions: [] },
    });
    expect(r).toMatchObject({
      apiVersion: 'resource.k8s.io/v1beta2',
      metadata: { generation: 1 },
      spec: { taint: { timeAdded: '2026-01-01T00:00:00Z' } },
      status: {},
    });
    const cond = { type: 'EvictionInProgress', status: 'False', reason: 'Completed', message: '', lastTransitionTime: '2026-01-01T00:00:00Z' };
    const written = await rules().updateStatus({ ...r, status: { conditions: [cond] } });
    expect(written.status?.conditions).toEqual([cond]);
    const alpha = await get('/apis/resource.k8s.io/v1alpha3/devicetaintrules/r');
    expect(alpha.body).toMatchObject({ apiVersion: 'resource.k8s.io/v1alpha3', kind: 'DeviceTaintRule' });
  });

  it('is not served without DRADeviceTaintRules', async () => {
    const c = await testCluster({ featureGates: { DRADeviceTaintRules: false } });
    try {
      const res = await c.fetch(new Request('http://memkube/apis/resource.k8s.io/v1beta2/devicetaintrules'));
      expect(res.status).toBe(404);
    } finally {
      await c.close();
    }
  });
});

describe('bad input', () => {
  it.each([
    ['a string as requests', { spec: { devices: { requests: 'x' } } }],
    ['a fraction as count', { spec: { devices: { requests: [{ name: 'gpu', exactly: { deviceClassName: 'x', count: 1.5 } }] } } }],
  ])('answers %s with a 4xx and stores nothing', async (_, body) => {
    const s = await statusOf(() => claims().create({ metadata: { name: 'bad' }, ...body } as unknown as ResourceClaim, NS));
    expect(s.code).toBeGreaterThanOrEqual(400);
    expect(s.code).toBeLessThan(500);
    expect((await claims().list(NS)).items).toHaveLength(0);
  });
});
