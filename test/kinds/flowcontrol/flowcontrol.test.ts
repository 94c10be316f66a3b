import { describe, expect, it } from 'vitest';
import { FlowSchemaKind, PriorityLevelConfigurationKind, type FlowSchema, type PriorityLevelConfiguration } from '../../../src/kinds/flowcontrol/index.js';
import { statusOf, testCluster, useTestCluster } from '../../support/cluster.js';

const cluster = useTestCluster();
const schemas = () => cluster.client.resource(FlowSchemaKind);
const levels = () => cluster.client.resource(PriorityLevelConfigurationKind);

type FSSpec = NonNullable<FlowSchema['spec']>;
type PLSpec = NonNullable<PriorityLevelConfiguration['spec']>;

const everyone = { subjects: [{ kind: 'Group', group: { name: 'system:authenticated' } }], nonResourceRules: [{ verbs: ['*'], nonResourceURLs: ['*'] }] };
const fs = (over: Partial<FSSpec> = {}, name = 'mine'): FlowSchema => ({
  metadata: { name },
  spec: { priorityLevelConfiguration: { name: 'global-default' }, rules: [everyone], ...over },
});
const pl = (spec: PLSpec, name = 'mine'): PriorityLevelConfiguration => ({ metadata: { name }, spec });

async function causes(fn: () => Promise<unknown>): Promise<[string, string][]> {
  const s = await statusOf(fn);
  expect(s).toMatchObject({ code: 422, reason: 'Invalid' });
  return (s.details?.causes ?? []).map((c) => [c.field ?? '', c.message ?? '']);
}

async function table(resource: string): Promise<{ columnDefinitions: { name: string; type: string }[]; rows: { cells: unknown[] }[] }> {
  const res = await cluster.fetch(
    new Request(`http://memkube/apis/flowcontrol.apiserver.k8s.io/v1/${resource}`, { headers: { Accept: 'application/json;as=Table;v=v1;g=meta.k8s.io' } }),
  );
  return (await res.json()) as { columnDefinitions: { name: string; type: string }[]; rows: { cells: unknown[] }[] };
}

describe('the bootstrap configuration of a new cluster', () => {
  it('holds the mandatory and suggested priority levels', async () => {
    const t = await table('prioritylevelconfigurations');
    expect(t.columnDefinitions.map((c) => c.name)).toEqual(['Name', 'Type', 'NominalConcurrencyShares', 'Queues', 'HandSize', 'QueueLengthLimit', 'Age']);
    expect(t.rows.map((r) => r.cells.slice(0, 6))).toEqual([
      ['catch-all', 'Limited', 5, '<none>', '<none>', '<none>'],
      ['exempt', 'Exempt', '<none>', '<none>', '<none>', '<none>'],
      ['global-default', 'Limited', 20, 128, 6, 50],
      ['leader-election', 'Limited', 10, 16, 4, 50],
      ['node-high', 'Limited', 40, 64, 6, 50],
      ['system', 'Limited', 30, 64, 6, 50],
      ['workload-high', 'Limited', 40, 128, 6, 50],
      ['workload-low', 'Limited', 100, 128, 6, 50],
    ]);
    const exempt = await levels().get('exempt');
    expect(exempt).toMatchObject({
      metadata: { generation: 1, annotations: { 'apf.kubernetes.io/autoupdate-spec': 'true' } },
      spec: { type: 'Exempt', exempt: { nominalConcurrencyShares: 0, lendablePercent: 0 } },
      status: {},
    });
    expect((await levels().get('workload-low')).spec?.limited).toEqual({
      nominalConcurrencyShares: 100,
      lendablePercent: 90,
      limitResponse: { type: 'Queue', queuing: { queues: 128, handSize: 6, queueLengthLimit: 50 } },
    });
  });

  it('holds the mandatory and suggested flow schemas', async () => {
    const t = await table('flowschemas');
    expect(t.columnDefinitions.map((c) => c.name)).toEqual(['Name', 'PriorityLevel', 'MatchingPrecedence', 'DistinguisherMethod', 'Age', 'MissingPL']);
    const rows = t.rows.map((r) => r.cells.slice(0, 4));
    // kubectl prints them in matching order (precedence, then name); the list itself is by name.
    expect(rows).toEqual([
      ['exempt', 'exempt', 1, '<none>'],
      ['probes', 'exempt', 2, '<none>'],
      ['system-leader-election', 'leader-election', 100, 'ByUser'],
      ['endpoint-controller', 'workload-high', 150, 'ByUser'],
      ['workload-leader-election', 'leader-election', 200, 'ByUser'],
      ['system-node-high', 'node-high', 400, 'ByUser'],
      ['system-nodes', 'system', 500, 'ByUser'],
      ['kube-controller-manager', 'workload-high', 800, 'ByNamespace'],
      ['kube-scheduler', 'workload-high', 800, 'ByNamespace'],
      ['kube-system-service-accounts', 'workload-high', 900, 'ByNamespace'],
      ['service-accounts', 'workload-low', 9000, 'ByUser'],
      ['global-default', 'global-default', 9900, 'ByUser'],
      ['catch-all', 'catch-all', 10000, 'ByUser'],
    ]);
    expect((await schemas().list()).items.map((f) => f.metadata?.name).slice(0, 3)).toEqual(['catch-all', 'endpoint-controller', 'exempt']);
    expect((await schemas().get('probes')).spec).toEqual({
      priorityLevelConfiguration: { name: 'exempt' },
      matchingPrecedence: 2,
      rules: [
        {
          subjects: [
            { kind: 'Group', group: { name: 'system:unauthenticated' } },
            { kind: 'Group', group: { name: 'system:authenticated' } },
          ],
          nonResourceRules: [{ verbs: ['get'], nonResourceURLs: ['/healthz', '/readyz', '/livez'] }],
        },
      ],
    });
  });

  it('is created afresh, with its own uids, in every cluster; the groups follow the API domain', async () => {
    const other = await testCluster({ apiDomain: 'example.io' });
    try {
      const a = await levels().get('system');
      const b = await other.client.resource(PriorityLevelConfigurationKind).get('system');
      expect(b.metadata?.uid).not.toBe(a.metadata?.uid);
      const nodeHigh = await other.client.resource(FlowSchemaKind).get('system-node-high');
      expect(nodeHigh.spec?.rules?.[0]?.resourceRules?.[1]?.apiGroups).toEqual(['coordination.example.io']);
      expect(nodeHigh.apiVersion).toBe('flowcontrol.apiserver.example.io/v1');
    } finally {
      await other.close();
    }
  });

  it('keeps the mandatory objects at their fixed spec', async () => {
    const catchAll = await levels().get('catch-all');
    const changed = await causes(() =>
      levels().update({ ...catchAll, spec: { ...catchAll.spec!, limited: { ...catchAll.spec!.limited!, nominalConcurrencyShares: 6 } } }),
    );
    expect(changed).toHaveLength(1);
    expect(changed[0]![0]).toBe('spec');
    expect(changed[0]![1]).toMatch(
      /^Invalid value: flowcontrol\.PriorityLevelConfigurationSpec\{Type:"Limited", Limited:\(\*flowcontrol\.LimitedPriorityLevelConfiguration\)\(0x[0-9a-f]+\), Exempt:\(\*flowcontrol\.ExemptPriorityLevelConfiguration\)\(nil\)\}: spec of 'catch-all' must equal the fixed value$/,
    );
    // The exempt level's shares and lendable percent are the administrator's.
    const exempt = await levels().get('exempt');
    const tuned = await levels().update({ ...exempt, spec: { type: 'Exempt', exempt: { nominalConcurrencyShares: 10, lendablePercent: 20 } } });
    expect(tuned.metadata?.generation).toBe(2);
    const exemptFS = await schemas().get('exempt');
    const fsChanged = await causes(() => schemas().update({ ...exemptFS, spec: { ...exemptFS.spec!, distinguisherMethod: { type: 'ByUser' } } }));
    expect(fsChanged.map(([f]) => f)).toEqual(['spec']);
    expect(fsChanged[0]![1]).toMatch(
      /^Invalid value: flowcontrol\.FlowSchemaSpec\{PriorityLevelConfiguration:flowcontrol\.PriorityLevelConfigurationReference\{Name:"exempt"\}, MatchingPrecedence:1, /,
    );
    expect(fsChanged[0]![1]).toMatch(/: spec of 'exempt' must equal the fixed value$/);
  });
});

describe('FlowSchema', () => {
  it('defaults matchingPrecedence to 1000 and starts at generation 1 with an empty status', async () => {
    const created = await schemas().create({ ...fs(), status: { conditions: [{ type: 'Dangling', status: 'True' }] } });
    expect(created).toMatchObject({ metadata: { generation: 1 }, spec: { matchingPrecedence: 1000 }, status: {} });
    expect(created.status?.conditions).toBeUndefined();
  });

  it('checks matchingPrecedence, the distinguisher and the priority level reference', async () => {
    expect(
      await causes(() =>
        schemas().create(fs({ matchingPrecedence: 10001, distinguisherMethod: { type: 'ByName' }, priorityLevelConfiguration: { name: '' } })),
      ),
    ).toEqual([
      ['spec.matchingPrecedence', 'Invalid value: 10001: must not be greater than 10000'],
      ['spec.distinguisherMethod.type', 'Unsupported value: flowcontrol.FlowDistinguisherMethod{Type:"ByName"}: supported values: "ByNamespace", "ByUser"'],
      ['spec.priorityLevelConfiguration.name', 'Required value: must reference a priority level'],
    ]);
    expect(await causes(() => schemas().create(fs({ matchingPrecedence: 1 })))).toEqual([
      ['spec.matchingPrecedence', "Invalid value: 1: only the schema named 'exempt' may have matchingPrecedence 1"],
    ]);
    expect(await causes(() => schemas().create(fs({ matchingPrecedence: -3 })))).toEqual([
      ['spec.matchingPrecedence', 'Invalid value: -3: must be a positive value'],
    ]);
  });

  it('checks subjects', async () => {
    const rule = (subjects: unknown[]) => fs({ rules: [{ ...everyone, subjects } as FSSpec['rules'] extends (infer R)[] | undefined ? R : never] });
    expect(
      await causes(() =>
        schemas().create(
          rule([
            { kind: 'User' },
            { kind: 'Group', group: { name: '' }, user: { name: 'x' } },
            { kind: 'ServiceAccount', serviceAccount: { name: 'Bad_Name', namespace: '' } },
            { kind: 'Robot' },
          ]),
        ),
      ),
    ).toEqual([
      ['spec.rules[0].subjects[0].user', "Required value: user is required when subject kind is 'User'"],
      ['spec.rules[0].subjects[1].group.name', 'Required value'],
      ['spec.rules[0].subjects[1].user', "Forbidden: user is forbidden when subject kind is not 'User'"],
      [
        'spec.rules[0].subjects[2].serviceAccount.name',
        `Invalid value: "Bad_Name": a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')`,
      ],
      ['spec.rules[0].subjects[2].serviceAccount.namespace', 'Required value: must specify namespace for service account'],
      ['spec.rules[0].subjects[3].kind', 'Unsupported value: "Robot": supported values: "Group", "ServiceAccount", "User"'],
    ]);
    expect(await causes(() => schemas().create(rule([])))).toEqual([['spec.rules[0].subjects', 'Required value: subjects must contain at least one value']]);
  });

  it('checks resource and non-resource rules', async () => {
    const subjects = everyone.subjects;
    expect(
      await causes(() =>
        schemas().create(
          fs({
            rules: [
              {
                subjects,
                resourceRules: [
                  { verbs: ['get', 'fly'], apiGroups: ['*', 'apps'], resources: [], namespaces: ['Kube_System'] },
                  { verbs: ['*', 'get'], apiGroups: [''], resources: ['pods'] },
                ],
                nonResourceRules: [{ verbs: [], nonResourceURLs: ['healthz', '/a b', '//x', '/x*', '/*/y/*'] }],
              },
              { subjects },
            ],
          }),
        ),
      ),
    ).toEqual([
      [
        'spec.rules[0].resourceRules[0].verbs',
        'Unsupported value: ["get","fly"]: supported values: "create", "delete", "deletecollection", "get", "list", "patch", "proxy", "update", "watch"',
      ],
      ['spec.rules[0].resourceRules[0].apiGroups', `Invalid value: ["*","apps"]: if '*' is present, must not specify other api groups`],
      ['spec.rules[0].resourceRules[0].resources', 'Required value: resource rules must supply at least one resource'],
      [
        'spec.rules[0].resourceRules[0].namespaces[0]',
        `Invalid value: "Kube_System": each member of this list must be '*' or a DNS-1123 label; a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', and must start and end with an alphanumeric character (e.g. 'my-name',  or '123-abc', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?')`,
      ],
      ['spec.rules[0].resourceRules[1].verbs', `Invalid value: ["*","get"]: if '*' is present, must not specify other verbs`],
      ['spec.rules[0].resourceRules[1].namespaces', 'Required value: resource rules that are not cluster scoped must supply at least one namespace'],
      ['spec.rules[0].nonResourceRules[0].verbs', 'Required value: verbs must contain at least one value'],
      ['spec.rules[0].nonResourceRules[0].nonResourceURLs[0]', 'Invalid value: "healthz": must start with slash'],
      ['spec.rules[0].nonResourceRules[0].nonResourceURLs[1]', 'Invalid value: "/a b": must not contain white-space'],
      ['spec.rules[0].nonResourceRules[0].nonResourceURLs[2]', 'Invalid value: "//x": must not contain double slash'],
      ['spec.rules[0].nonResourceRules[0].nonResourceURLs[3]', 'Invalid value: "/x*": wildcard can only do suffix matching'],
      ['spec.rules[0].nonResourceRules[0].nonResourceURLs[4]', 'Invalid value: "/*/y/*": wildcard can only do suffix matching'],
      ['spec.rules[1]', 'Required value: at least one of resourceRules and nonResourceRules has to be non-empty'],
    ]);
  });

  it('bumps the generation on spec changes only and writes status only through /status', async () => {
    await schemas().create(fs());
    await cluster.settle();
    const created = await schemas().get('mine');
    const controllerStatus = created.status;
    const relabelled = await schemas().update({ ...created, metadata: { ...created.metadata, labels: { a: 'b' } }, status: { conditions: [{ type: 'X' }] } });
    expect(relabelled.metadata?.generation).toBe(1);
    expect(relabelled.status).toEqual(controllerStatus);
    const changed = await schemas().update({ ...relabelled, spec: { ...relabelled.spec!, matchingPrecedence: 42 } });
    expect(changed.metadata?.generation).toBe(2);
    const status = { conditions: [{ type: 'Dangling', status: 'False', reason: 'Found', message: 'm', lastTransitionTime: '2026-01-01T00:00:00Z' }] };
    const written = await schemas().updateStatus({ ...changed, spec: { ...changed.spec!, matchingPrecedence: 7 }, status });
    expect(written.status).toEqual(status);
    expect(written.spec?.matchingPrecedence).toBe(42);
    expect(
      await causes(() =>
        schemas().updateStatus({
          ...written,
          status: {
            conditions: [
              { type: 'A', status: 'True' },
              { type: 'A', status: 'False' },
              { type: '', status: 'False' },
            ],
          },
        }),
      ),
    ).toEqual([
      ['status.conditions[1].type', 'Duplicate value: "A"'],
      ['status.conditions[2].type', 'Required value: must not be empty'],
    ]);
    const t = await table('flowschemas');
    expect(t.rows.find((r) => r.cells[0] === 'mine')?.cells).toEqual(['mine', 'global-default', 42, '<none>', '0s', 'False']);
  });
});

describe('the Dangling condition', () => {
  const found = (level: string) => ({
    type: 'Dangling',
    status: 'False',
    reason: 'Found',
    message: `This FlowSchema references the PriorityLevelConfiguration object named "${level}" and it exists`,
  });
  const missing = (level: string) => ({
    type: 'Dangling',
    status: 'True',
    reason: 'NotFound',
    message: `This FlowSchema references the PriorityLevelConfiguration object named "${level}" but there is no such object`,
  });

  it('is False on every bootstrap FlowSchema of a new cluster', async () => {
    for (const item of (await schemas().list()).items) {
      expect(item.status?.conditions).toEqual([{ ...found(item.spec!.priorityLevelConfiguration.name), lastTransitionTime: '2026-01-01T00:00:00Z' }]);
    }
    const t = await table('flowschemas');
    expect(new Set(t.rows.map((r) => r.cells[5]))).toEqual(new Set(['False']));
  });

  it('follows the priority level a FlowSchema names', async () => {
    await schemas().create(fs({ priorityLevelConfiguration: { name: 'gold' } }));
    await cluster.settle();
    expect((await schemas().get('mine')).status?.conditions).toEqual([{ ...missing('gold'), lastTransitionTime: '2026-01-01T00:00:00Z' }]);
    cluster.clock.advance(60_000);
    await levels().create(pl({ type: 'Limited', limited: { limitResponse: { type: 'Reject' } } }, 'gold'));
    await cluster.settle();
    expect((await schemas().get('mine')).status?.conditions).toEqual([{ ...found('gold'), lastTransitionTime: '2026-01-01T00:01:00Z' }]);
    const t = await table('flowschemas');
    expect(t.rows.find((r) => r.cells[0] === 'mine')?.cells[5]).toBe('False');
    await levels().delete('gold');
    await cluster.settle();
    expect((await schemas().get('mine')).status?.conditions?.[0]).toMatchObject(missing('gold'));
    expect(((await schemas().get('mine')).metadata?.managedFields ?? []).map((m) => m.manager)).toContain('api-priority-and-fairness-config-consumer-v1');
  });
});

describe('PriorityLevelConfiguration', () => {
  it('defaults shares, lendable percent and queuing', async () => {
    const created = await levels().create(pl({ type: 'Limited', limited: { limitResponse: { type: 'Queue', queuing: {} } } }));
    expect(created.spec).toEqual({
      type: 'Limited',
      limited: {
        nominalConcurrencyShares: 30,
        lendablePercent: 0,
        limitResponse: { type: 'Queue', queuing: { queues: 64, handSize: 8, queueLengthLimit: 50 } },
      },
    });
    expect(created).toMatchObject({ metadata: { generation: 1 }, status: {} });
    const jail = await levels().create(pl({ type: 'Limited', limited: { nominalConcurrencyShares: 0, limitResponse: { type: 'Reject' } } }, 'jail'));
    expect(jail.spec?.limited?.nominalConcurrencyShares).toBe(0);
  });

  it('ties the Exempt type to the name exempt and checks each type', async () => {
    expect(await causes(() => levels().create(pl({ type: 'Exempt', limited: { limitResponse: { type: 'Reject' } } })))).toEqual([
      ['spec.type', `Invalid value: "Exempt": type must be 'Exempt' if and only if name is 'exempt'`],
      ['spec.limited', 'Forbidden: must be nil if the type is not Limited'],
    ]);
    expect(await causes(() => levels().create(pl({ type: 'Limited', exempt: {} })))).toEqual([
      ['spec.exempt', 'Forbidden: must be nil if the type is Limited'],
      ['spec.limited', 'Required value: must not be empty when type is Limited'],
    ]);
    expect(await causes(() => levels().create(pl({ type: 'Throttled' })))).toEqual([
      ['spec.type', 'Unsupported value: "Throttled": supported values: "Exempt", "Limited"'],
    ]);
  });

  it('checks shares, percents and the limit response', async () => {
    expect(
      await causes(() =>
        levels().create(
          pl({
            type: 'Limited',
            limited: { nominalConcurrencyShares: -1, lendablePercent: 101, borrowingLimitPercent: -2, limitResponse: { type: 'Reject', queuing: {} } },
          }),
        ),
      ),
    ).toEqual([
      ['spec.limited.nominalConcurrencyShares', 'Invalid value: -1: must be a non-negative integer'],
      ['spec.limited.limitResponse.queuing', 'Forbidden: must be nil if limited.limitResponse.type is not Limited'],
      ['spec.limited.lendablePercent', 'Invalid value: 101: must be between 0 and 100, inclusive'],
      ['spec.limited.borrowingLimitPercent', 'Invalid value: -2: if specified, must be a non-negative integer'],
    ]);
    expect(await causes(() => levels().create(pl({ type: 'Limited', limited: { limitResponse: { type: 'Queue' } } })))).toEqual([
      ['spec.limited.limitResponse.queuing', 'Required value: must not be empty if limited.limitResponse.type is Limited'],
    ]);
    expect(await causes(() => levels().create(pl({ type: 'Limited', limited: { limitResponse: { type: 'Drop' } } })))).toEqual([
      ['spec.limited.limitResponse.type', 'Unsupported value: "Drop": supported values: "Queue", "Reject"'],
    ]);
  });

  it('checks the queuing configuration as shuffle sharding needs it', async () => {
    const queuing = (q: object) => pl({ type: 'Limited', limited: { limitResponse: { type: 'Queue', queuing: q } } });
    expect(await causes(() => levels().create(queuing({ queues: 4, handSize: 5, queueLengthLimit: -1 })))).toEqual([
      ['spec.limited.limitResponse.queuing.queueLengthLimit', 'Invalid value: -1: must be positive'],
      ['spec.limited.limitResponse.queuing.handSize', 'Invalid value: 5: should not be greater than queues (4)'],
    ]);
    expect(await causes(() => levels().create(queuing({ queues: 10_000_001 })))).toEqual([
      ['spec.limited.limitResponse.queuing.queues', 'Invalid value: 10000001: must not be greater than 10000000'],
      [
        'spec.limited.limitResponse.queuing.handSize',
        'Invalid value: 8: required entropy bits of deckSize 10000001 and handSize 8 should not be greater than 60',
      ],
    ]);
    expect(await causes(() => levels().create(queuing({ queues: 1024, handSize: 7 })))).toEqual([
      ['spec.limited.limitResponse.queuing.handSize', 'Invalid value: 7: required entropy bits of deckSize 1024 and handSize 7 should not be greater than 60'],
    ]);
    await levels().create(queuing({ queues: 1024, handSize: 6 }));
  });

  it('forbids the v1beta3 annotation that kept zero shares', async () => {
    const obj = pl({ type: 'Limited', limited: { limitResponse: { type: 'Reject' } } });
    obj.metadata!.annotations = { 'flowcontrol.apiserver.k8s.io/v1beta3-preserve-zero-concurrency-shares': '' };
    expect(await causes(() => levels().create(obj))).toEqual([
      ['metadata.annotations', "Forbidden: annotation 'flowcontrol.apiserver.k8s.io/v1beta3-preserve-zero-concurrency-shares' is forbidden"],
    ]);
  });

  it.each([
    ['a string as spec', { spec: 'x' }],
    ['a string as queues', { spec: { type: 'Limited', limited: { limitResponse: { type: 'Queue', queuing: { queues: 'many' } } } } }],
    ['a fraction as shares', { spec: { type: 'Limited', limited: { nominalConcurrencyShares: 1.5, limitResponse: { type: 'Reject' } } } }],
  ])('answers %s with a 4xx and stores nothing', async (_, body) => {
    const s = await statusOf(() => levels().create({ metadata: { name: 'bad' }, ...body } as unknown as PriorityLevelConfiguration));
    expect(s.code).toBeGreaterThanOrEqual(400);
    expect(s.code).toBeLessThan(500);
    expect((await levels().list()).items.map((i) => i.metadata?.name)).not.toContain('bad');
  });
});
