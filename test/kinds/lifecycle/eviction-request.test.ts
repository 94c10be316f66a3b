import { describe, expect, it } from 'vitest';
import { EvictionRequestKind, lifecycleKinds, type EvictionRequest } from '../../../src/kinds/lifecycle/index.js';
import { statusOf, testCluster, useTestCluster } from '../../support/cluster.js';

const cluster = useTestCluster({ kinds: [...lifecycleKinds] });
const ers = () => cluster.client.resource(EvictionRequestKind);
const UID = 'bd23f542-ac79-4b44-a628-9735e18b8037';
const NAME = 'EvictionRequest.lifecycle.k8s.io "er"';
const cond = (type: string, status = 'True') => ({ type, status, reason: 'Done', message: '', lastTransitionTime: '2026-01-01T00:00:00Z' });

function er(spec: Record<string, unknown> = {}): EvictionRequest {
  return {
    metadata: { name: 'er', namespace: 'default' },
    spec: { target: { pod: { name: 'web-0', uid: UID } }, requester: 'acme.io/drainer', intent: 'Eviction', ...spec },
  } as EvictionRequest;
}

async function invalid(fn: () => Promise<unknown>, causes: { field: string; message: string }[]) {
  const s = await statusOf(fn);
  const text = causes.map((c) => `${c.field}: ${c.message}`);
  expect(s).toMatchObject({ code: 422, reason: 'Invalid', message: `${NAME} is invalid: ${text.length === 1 ? text[0] : `[${text.join(', ')}]`}` });
  expect(s.details?.causes?.map((c) => ({ field: c.field, message: c.message }))).toEqual(causes);
  expect(
    await ers()
      .list({ namespace: 'default' })
      .then((l) => l.items.filter((i) => i.metadata?.name === 'er' && i.spec?.intent === 'bogus')),
  ).toEqual([]);
}

describe('EvictionRequest', () => {
  it('is served at lifecycle.k8s.io/v1alpha1, namespaced, generation 1, status reset', async () => {
    const created = await ers().create({ ...er(), status: { observedGeneration: 5 } } as EvictionRequest);
    expect(created).toMatchObject({ apiVersion: 'lifecycle.k8s.io/v1alpha1', kind: 'EvictionRequest', metadata: { namespace: 'default', generation: 1 } });
    expect(created.status).toEqual({});
    const withdrawn = await ers().update({ ...created, spec: { ...created.spec, intent: 'Withdrawn' } });
    expect(withdrawn.spec.intent).toBe('Withdrawn');
    expect(withdrawn.metadata?.generation).toBe(2);
  });

  it('requires intent, requester and target', async () => {
    await invalid(
      () => ers().create({ metadata: { name: 'er', namespace: 'default' }, spec: {} } as unknown as EvictionRequest),
      [
        { field: 'spec.target', message: 'Invalid value: "": must specify one of: `pod`' },
        { field: 'spec.requester', message: 'Required value' },
        { field: 'spec.intent', message: 'Required value' },
      ],
    );
    await invalid(
      () => ers().create(er({ target: { pod: {} } })),
      [
        { field: 'spec.target.pod.name', message: 'Required value' },
        { field: 'spec.target.pod.uid', message: 'Required value' },
      ],
    );
  });

  it('accepts intent Eviction and Withdrawn only', async () => {
    await ers().create(er({ intent: 'Withdrawn' }));
    await invalid(
      () => ers().create(er({ intent: 'evict' })),
      [{ field: 'spec.intent', message: 'Unsupported value: "evict": supported values: "Eviction", "Withdrawn"' }],
    );
  });

  it.each([
    ['drainer', "must include a prefix (e.g. 'example.com/key')"],
    ['/drainer', 'prefix part must be non-empty'],
    [
      'Acme.io/drainer',
      "prefix part a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')",
    ],
  ])('rejects requester %j', async (requester, msg) => {
    await invalid(() => ers().create(er({ requester })), [{ field: 'spec.requester', message: `Invalid value: ${JSON.stringify(requester)}: ${msg}` }]);
  });

  it('reports every problem of an empty requester name', async () => {
    await invalid(
      () => ers().create(er({ requester: 'acme.io/' })),
      [
        { field: 'spec.requester', message: 'Invalid value: "acme.io/": name part must be non-empty' },
        {
          field: 'spec.requester',
          message:
            "Invalid value: \"acme.io/\": name part must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]')",
        },
      ],
    );
  });

  it.each(['k8s.io/x', 'kubernetes.io/x', 'foo.k8s.io/x', 'a.b.kubernetes.io/x', 'FOO.K8S.IO./x'])('reserves the domain of %j', async (requester) => {
    const causes = [{ field: 'spec.requester', message: `Invalid value: ${JSON.stringify(requester)}: domain names *.k8s.io, *.kubernetes.io are reserved` }];
    if (requester.startsWith('FOO'))
      causes.push({ field: 'spec.requester', message: expect.stringContaining('prefix part a lowercase RFC 1123 subdomain') as unknown as string });
    const s = await statusOf(() => ers().create(er({ requester })));
    expect(s.code).toBe(422);
    expect(s.details?.causes?.map((c) => ({ field: c.field, message: c.message }))).toEqual(causes);
  });

  it('allows domains that only look like the reserved ones', async () => {
    await ers().create(er({ requester: 'notk8s.io/x' }));
  });

  it('uses the cluster domains for the reserved suffixes', async () => {
    const c = await testCluster({ kinds: [...lifecycleKinds], apiDomain: 'example.dev', reservedDomain: 'example.org' });
    try {
      const r = c.client.resource(EvictionRequestKind);
      await r.create(er({ requester: 'k8s.io/x' }));
      const s = await statusOf(() => r.create({ ...er({ requester: 'x.example.org/y' }), metadata: { name: 'er2', namespace: 'default' } }));
      expect(s.details?.causes).toEqual([
        {
          reason: 'FieldValueInvalid',
          field: 'spec.requester',
          message: 'Invalid value: "x.example.org/y": domain names *.example.dev, *.example.org are reserved',
        },
      ]);
    } finally {
      await c.close();
    }
  });

  it('checks the pod name and a lowercase 8-4-4-4-12 uid', async () => {
    await invalid(
      () => ers().create(er({ target: { pod: { name: 'Web_0', uid: UID.toUpperCase() } } })),
      [
        {
          field: 'spec.target.pod.name',
          message: `Invalid value: "Web_0": a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')`,
        },
        { field: 'spec.target.pod.uid', message: `Invalid value: "${UID.toUpperCase()}": must be a lowercase UUID in 8-4-4-4-12 format` },
      ],
    );
    const long = 'a'.repeat(254);
    const s = await statusOf(() => ers().create(er({ target: { pod: { name: long, uid: 'bd23f542ac794b44a6289735e18b8037' } } })));
    expect(s.details?.causes?.map((c) => c.message)).toEqual([
      `Invalid value: "${long}": must be no more than 253 bytes`,
      'Invalid value: "bd23f542ac794b44a6289735e18b8037": must be a lowercase UUID in 8-4-4-4-12 format',
    ]);
  });

  it('keeps target and requester immutable', async () => {
    const created = await ers().create(er());
    await invalid(
      () => ers().update({ ...created, spec: { ...created.spec, target: { pod: { name: 'web-1', uid: UID } } } }),
      [{ field: 'spec.target', message: 'Invalid value: null: field is immutable' }],
    );
    await invalid(
      () => ers().update({ ...created, spec: { ...created.spec, requester: 'other.io/x' } }),
      [{ field: 'spec.requester', message: 'Invalid value: null: field is immutable' }],
    );
    await invalid(
      () => ers().patch('er', { spec: { requester: '' } }, { namespace: 'default', type: 'merge' }),
      [
        { field: 'spec.requester', message: 'Invalid value: null: field is immutable' },
        { field: 'spec.requester', message: 'Required value' },
      ],
    );
    const stored = await ers().get('er', { namespace: 'default' });
    expect(stored.spec).toEqual(created.spec);
  });

  it('writes status through /status only: conditions merge on type, at most 100', async () => {
    const created = await ers().create(er());
    const ignored = await ers().update({ ...created, status: { observedGeneration: 1 } });
    expect(ignored.status).toEqual({});
    const s1 = await ers().updateStatus({ ...ignored, status: { observedGeneration: 1, conditions: [cond('TargetEvicted', 'False')] } });
    expect(s1.status).toEqual({ observedGeneration: 1, conditions: [cond('TargetEvicted', 'False')] });
    const merged = await ers().patch('er', { status: { conditions: [cond('Failed')] } }, { namespace: 'default', type: 'strategic', subresource: 'status' });
    expect(merged.status?.conditions?.map((c) => c.type).sort()).toEqual(['Failed', 'TargetEvicted']);
    // TargetEvicted may go back to False (unlike an Eviction's).
    await ers().patch('er', { status: { conditions: [cond('Failed', 'False')] } }, { namespace: 'default', type: 'strategic', subresource: 'status' });
    const many = Array.from({ length: 101 }, (_, i) => cond(`T${i}`));
    const cur = await ers().get('er', { namespace: 'default' });
    await invalid(
      () => ers().updateStatus({ ...cur, status: { ...cur.status, conditions: many } }),
      [{ field: 'status.conditions', message: 'Too many: 101: must have at most 100 items' }],
    );
    await ers().updateStatus({ ...cur, status: { ...cur.status, conditions: many.slice(0, 100) } });
  });

  it('validates conditions as metav1 Conditions', async () => {
    const created = await ers().create(er());
    await invalid(
      () =>
        ers().updateStatus({
          ...created,
          status: { conditions: [{ type: 'Ready', status: 'Maybe', reason: '', message: '', lastTransitionTime: '2026-01-01T00:00:00Z' }] },
        }),
      [
        { field: 'status.conditions[0].status', message: 'Unsupported value: "Maybe": supported values: "False", "True", "Unknown"' },
        { field: 'status.conditions[0].reason', message: 'Required value: must be set' },
      ],
    );
  });

  it('keeps observedGeneration ≥ 1, never decreasing, never cleared', async () => {
    const created = await ers().create(er());
    await invalid(
      () => ers().updateStatus({ ...created, status: { observedGeneration: 0 } }),
      [{ field: 'status.observedGeneration', message: 'Invalid value: 0: must be greater than or equal to 1' }],
    );
    const s3 = await ers().updateStatus({ ...created, status: { observedGeneration: 3 } });
    await invalid(
      () => ers().updateStatus({ ...s3, status: { observedGeneration: 2 } }),
      [{ field: 'status.observedGeneration', message: 'Invalid value: 2: may not be decreased from 3' }],
    );
    await invalid(
      () => ers().updateStatus({ ...s3, status: {} }),
      [{ field: 'status.observedGeneration', message: 'Invalid value: null: field cannot be cleared once set' }],
    );
    const s5 = await ers().updateStatus({ ...s3, status: { observedGeneration: 5 } });
    expect(s5.status?.observedGeneration).toBe(5);
  });

  it('answers malformed input with 4xx and stores nothing', async () => {
    for (const body of [
      { metadata: { name: 'er', namespace: 'default' }, spec: { target: 'pod', requester: 'acme.io/x', intent: 'Eviction' } },
      { metadata: { name: 'er', namespace: 'default' }, spec: { target: { pod: { name: 'p', uid: UID } }, requester: 5, intent: 'Eviction' } },
      { metadata: { name: 'er', namespace: 'default' }, spec: { target: { pod: { name: 'p', uid: UID } }, requester: 'acme.io/\u202e x', intent: 'Eviction' } },
      {
        metadata: { name: 'er', namespace: 'default' },
        spec: { target: { pod: { name: 'p', uid: UID } }, requester: `acme.io/${'x'.repeat(100_000)}`, intent: 'Eviction' },
      },
    ]) {
      const s = await statusOf(() => ers().create(body as unknown as EvictionRequest));
      expect(s.code).toBeGreaterThanOrEqual(400);
      expect(s.code).toBeLessThan(500);
    }
    expect((await ers().list({ namespace: 'default' })).items).toEqual([]);
  });

  it('disappears with its feature gate', async () => {
    const c = await testCluster({ kinds: [...lifecycleKinds], featureGates: { EvictionRequestAPI: false } });
    try {
      const s = await statusOf(() => c.client.resource(EvictionRequestKind).create(er()));
      expect(s.code).toBe(404);
    } finally {
      await c.close();
    }
  });
});
