import { describe, expect, it } from 'vitest';
import { admissionregistrationKinds, MutatingAdmissionPolicyKind, type MutatingAdmissionPolicy } from '../../../src/kinds/admissionregistration/index.js';
import { statusOf, useTestCluster } from '../../support/cluster.js';

const cluster = useTestCluster({ kinds: [...admissionregistrationKinds] });
const policies = () => cluster.client.resource(MutatingAdmissionPolicyKind);

type Spec = NonNullable<MutatingAdmissionPolicy['spec']>;
type Rule = NonNullable<NonNullable<Spec['matchConstraints']>['resourceRules']>[number];

const podRule = (over: Partial<Rule> = {}): Rule => ({ apiGroups: [''], apiVersions: ['v1'], operations: ['CREATE'], resources: ['pods'], ...over });
const spec = (over: Partial<Spec> = {}): Spec => ({
  matchConstraints: { resourceRules: [podRule()] },
  mutations: [{ patchType: 'ApplyConfiguration', applyConfiguration: { expression: 'Object{metadata: Object.metadata{labels: {"a": "b"}}}' } }],
  reinvocationPolicy: 'Never',
  ...over,
});
const policy = (over: Partial<Spec> = {}, name = 'p'): MutatingAdmissionPolicy => ({ metadata: { name }, spec: spec(over) });

const DNS1035 =
  "a DNS-1035 label must consist of lower case alphanumeric characters or '-', start with an alphabetic character, and end with an alphanumeric character (e.g. 'my-name',  or 'abc-123', regex used for validation is '[a-z]([-a-z0-9]*[a-z0-9])?')";
const QUALIFIED =
  "name part must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]')";

/** Creates `obj`, expects a 422 whose causes are exactly `causes` ([field, body]) in order, and checks nothing was stored. */
async function invalid(obj: MutatingAdmissionPolicy, ...causes: [string, string][]) {
  const s = await statusOf(() => policies().create(obj));
  const lines = causes.map(([f, m]) => `${f}: ${m}`);
  const body = lines.length === 1 ? lines[0] : `[${lines.join(', ')}]`;
  expect(s).toMatchObject({
    code: 422,
    reason: 'Invalid',
    message: `MutatingAdmissionPolicy.admissionregistration.k8s.io "${obj.metadata?.name}" is invalid: ${body}`,
  });
  expect(s.details?.causes?.map((c) => [c.field, c.message])).toEqual(causes);
  expect((await policies().list()).items).toHaveLength(0);
}

describe('MutatingAdmissionPolicy', () => {
  it('is served cluster-scoped at admissionregistration.k8s.io/v1 with Kubernetes defaults', async () => {
    const p = await policies().create(policy());
    expect(p).toMatchObject({ apiVersion: 'admissionregistration.k8s.io/v1', kind: 'MutatingAdmissionPolicy', metadata: { name: 'p', generation: 1 } });
    expect(p.metadata?.namespace).toBeUndefined();
    expect(p.spec).toEqual({
      ...spec(),
      failurePolicy: 'Fail',
      matchConstraints: { resourceRules: [{ ...podRule(), scope: '*' }], matchPolicy: 'Equivalent', namespaceSelector: {}, objectSelector: {} },
    });
    const res = await cluster.fetch(new Request('http://memkube/apis/admissionregistration.k8s.io/v1/mutatingadmissionpolicies/p'));
    expect(res.status).toBe(200);
    expect(((await res.json()) as MutatingAdmissionPolicy).spec?.failurePolicy).toBe('Fail');
  });

  it('keeps explicit values instead of defaults', async () => {
    const p = await policies().create(
      policy({
        failurePolicy: 'Ignore',
        matchConstraints: {
          matchPolicy: 'Exact',
          namespaceSelector: { matchLabels: { env: 'prod' } },
          objectSelector: { matchExpressions: [{ key: 'tier', operator: 'In', values: ['web'] }] },
          resourceRules: [podRule({ scope: 'Namespaced', operations: ['*'] })],
          excludeResourceRules: [podRule({ resourceNames: ['skip-me'], scope: 'Cluster' })],
        },
        reinvocationPolicy: 'IfNeeded',
      }),
    );
    expect(p.spec).toMatchObject({
      failurePolicy: 'Ignore',
      reinvocationPolicy: 'IfNeeded',
      matchConstraints: { matchPolicy: 'Exact', resourceRules: [{ scope: 'Namespaced' }], excludeResourceRules: [{ scope: 'Cluster' }] },
    });
  });

  it('requires matchConstraints, mutations and reinvocationPolicy', async () => {
    await invalid(
      { metadata: { name: 'p' }, spec: {} },
      ['spec.matchConstraints', 'Required value'],
      ['spec.mutations', 'Required value: mutations must contain at least one item'],
      ['spec.reinvocationPolicy', 'Required value'],
    );
    await invalid(
      { metadata: { name: 'p' } },
      ['spec.matchConstraints', 'Required value'],
      ['spec.mutations', 'Required value: mutations must contain at least one item'],
      ['spec.reinvocationPolicy', 'Required value'],
    );
    await invalid(policy({ mutations: [] }), ['spec.mutations', 'Required value: mutations must contain at least one item']);
    await invalid(policy({ reinvocationPolicy: '' }), ['spec.reinvocationPolicy', 'Required value']);
  });

  it('accepts only Fail or Ignore as failurePolicy and Never or IfNeeded as reinvocationPolicy', async () => {
    await invalid(policy({ failurePolicy: 'Retry' }), ['spec.failurePolicy', 'Unsupported value: "Retry": supported values: "Fail", "Ignore"']);
    await invalid(policy({ failurePolicy: 'fail' }), ['spec.failurePolicy', 'Unsupported value: "fail": supported values: "Fail", "Ignore"']);
    await invalid(policy({ reinvocationPolicy: 'Always' }), ['spec.reinvocationPolicy', 'Unsupported value: "Always": supported values: "IfNeeded", "Never"']);
  });

  describe('matchConstraints', () => {
    it('needs at least one resource rule', async () => {
      await invalid(policy({ matchConstraints: {} }), ['spec.matchConstraints.resourceRules', 'Required value']);
      await invalid(policy({ matchConstraints: { resourceRules: [] } }), ['spec.matchConstraints.resourceRules', 'Required value']);
    });

    it('allows CREATE, UPDATE, CONNECT and * but not DELETE', async () => {
      await policies().create(policy({ matchConstraints: { resourceRules: [podRule({ operations: ['CREATE', 'UPDATE', 'CONNECT'] })] } }, 'three'));
      await policies().create(policy({ matchConstraints: { resourceRules: [podRule({ operations: ['*'] })] } }, 'star'));
      await policies().delete('three');
      await policies().delete('star');
      await invalid(policy({ matchConstraints: { resourceRules: [podRule({ operations: ['CREATE', 'DELETE'] })] } }), [
        'spec.matchConstraints.resourceRules.operations',
        'Unsupported value: "DELETE": supported values: "*", "CONNECT", "CREATE", "UPDATE"',
      ]);
      await invalid(
        policy({ matchConstraints: { resourceRules: [podRule(), podRule({ operations: ['PATCH'] })] } }),
        ['spec.matchConstraints.resourceRules[1].operations[0]', 'Unsupported value: "PATCH": supported values: "*", "CONNECT", "CREATE", "DELETE", "UPDATE"'],
        ['spec.matchConstraints.resourceRules.operations', 'Unsupported value: "PATCH": supported values: "*", "CONNECT", "CREATE", "UPDATE"'],
      );
    });

    it('rejects rules that name the policy or binding kinds', async () => {
      const forbidden = 'Forbidden: must not match MutatingAdmissionPolicy or MutatingAdmissionPolicyBinding resources';
      await invalid(
        policy({
          matchConstraints: {
            resourceRules: [
              podRule({
                apiGroups: ['admissionregistration.k8s.io'],
                apiVersions: ['v1'],
                resources: ['mutatingadmissionpolicies', 'mutatingadmissionpolicybindings'],
              }),
            ],
          },
        }),
        ['spec.matchConstraints.resourceRules[0].resources[0]', forbidden],
        ['spec.matchConstraints.resourceRules[0].resources[1]', forbidden],
      );
      await invalid(
        policy({ matchConstraints: { resourceRules: [podRule({ apiGroups: ['*'], apiVersions: ['*'], resources: ['mutatingadmissionpolicies/status'] })] } }),
        ['spec.matchConstraints.resourceRules[0].resources[0]', forbidden],
      );
      await invalid(
        policy({ matchConstraints: { resourceRules: [podRule({ apiGroups: ['admissionregistration.k8s.io'], apiVersions: ['*'], resources: ['*'] })] } }),
        ['spec.matchConstraints.resourceRules[0].resources[0]', forbidden],
      );
      // Other admissionregistration kinds, the same name in another group, the * catch-all and exclusions are fine.
      await policies().create(
        policy(
          { matchConstraints: { resourceRules: [podRule({ apiGroups: ['admissionregistration.k8s.io'], resources: ['validatingadmissionpolicies'] })] } },
          'a',
        ),
      );
      await policies().create(
        policy({ matchConstraints: { resourceRules: [podRule({ apiGroups: ['example.com'], resources: ['mutatingadmissionpolicies'] })] } }, 'b'),
      );
      await policies().create(policy({ matchConstraints: { resourceRules: [podRule({ apiGroups: ['*'], apiVersions: ['*'], resources: ['*'] })] } }, 'c'));
      await policies().create(
        policy(
          {
            matchConstraints: {
              resourceRules: [podRule()],
              excludeResourceRules: [podRule({ apiGroups: ['admissionregistration.k8s.io'], resources: ['mutatingadmissionpolicies'] })],
            },
          },
          'd',
        ),
      );
    });

    it('uses the cluster API domain for that rule', async () => {
      const { testCluster } = await import('../../support/cluster.js');
      const other = await testCluster({ kinds: [...admissionregistrationKinds], apiDomain: 'example.io' });
      try {
        const client = other.client.resource(MutatingAdmissionPolicyKind);
        const s = await statusOf(() =>
          client.create(
            policy({
              matchConstraints: {
                resourceRules: [podRule({ apiGroups: ['admissionregistration.example.io'], resources: ['mutatingadmissionpolicybindings'] })],
              },
            }),
          ),
        );
        expect(s.details?.causes?.map((c) => c.field)).toEqual(['spec.matchConstraints.resourceRules[0].resources[0]']);
        await client.create(
          policy({
            matchConstraints: { resourceRules: [podRule({ apiGroups: ['admissionregistration.k8s.io'], resources: ['mutatingadmissionpolicybindings'] })] },
          }),
        );
      } finally {
        await other.close();
      }
    });

    it('checks matchPolicy, scope and the rule lists', async () => {
      await invalid(
        policy({ matchConstraints: { matchPolicy: 'Fuzzy', resourceRules: [podRule({ scope: 'Global' })] } }),
        ['spec.matchConstraints.matchPolicy', 'Unsupported value: "Fuzzy": supported values: "Equivalent", "Exact"'],
        ['spec.matchConstraints.resourceRules[0].scope', 'Unsupported value: "Global": supported values: "*", "Cluster", "Namespaced"'],
      );
      await invalid(
        policy({ matchConstraints: { resourceRules: [{ operations: [] }] } }),
        ['spec.matchConstraints.resourceRules[0].operations', 'Required value'],
        ['spec.matchConstraints.resourceRules[0].apiGroups', 'Required value'],
        ['spec.matchConstraints.resourceRules[0].apiVersions', 'Required value'],
        ['spec.matchConstraints.resourceRules[0].resources', 'Required value'],
      );
      await invalid(
        policy({ matchConstraints: { resourceRules: [podRule({ operations: ['*', 'CREATE'], apiGroups: ['*', 'apps'], apiVersions: ['*', ''] })] } }),
        ['spec.matchConstraints.resourceRules[0].operations', 'Invalid value: ["*","CREATE"]: if \'*\' is present, must not specify other operations'],
        ['spec.matchConstraints.resourceRules[0].apiGroups', 'Invalid value: ["*","apps"]: if \'*\' is present, must not specify other API groups'],
        ['spec.matchConstraints.resourceRules[0].apiVersions', 'Invalid value: ["*",""]: if \'*\' is present, must not specify other API versions'],
        ['spec.matchConstraints.resourceRules[0].apiVersions[1]', 'Required value'],
      );
      await invalid(
        policy({ matchConstraints: { resourceRules: [podRule()], excludeResourceRules: [podRule({ resourceNames: ['a', 'a', 'b/c', '..'] })] } }),
        ['spec.matchConstraints.excludeResourceRules[0].resourceNames[1]', 'Duplicate value: "a"'],
        ['spec.matchConstraints.excludeResourceRules[0].resourceNames[2]', 'Invalid value: "b/c": may not contain \'/\''],
        ['spec.matchConstraints.excludeResourceRules[0].resourceNames[3]', 'Invalid value: "..": may not be \'..\''],
      );
    });

    it.each([
      [
        ['pods', '*/*'],
        'spec.matchConstraints.resourceRules[0].resources',
        'Invalid value: ["pods","*/*"]: if \'*/*\' is present, must not specify other resources',
      ],
      [
        ['*', 'pods'],
        'spec.matchConstraints.resourceRules[0].resources',
        'Invalid value: ["*","pods"]: if \'*\' is present, must not specify other resources without subresources',
      ],
      [
        ['pods/*', 'pods/status'],
        'spec.matchConstraints.resourceRules[0].resources[1]',
        'Invalid value: "pods/status": if \'pods/*\' is present, must not specify pods/status',
      ],
      [
        ['*/status', 'pods/status'],
        'spec.matchConstraints.resourceRules[0].resources[1]',
        'Invalid value: "pods/status": if \'*/status\' is present, must not specify pods/status',
      ],
      [['pods', ''], 'spec.matchConstraints.resourceRules[0].resources[1]', 'Required value'],
    ])('rejects resources %j', async (resources, field, body) => {
      await invalid(policy({ matchConstraints: { resourceRules: [podRule({ resources })] } }), [field, body]);
    });

    it('accepts resources with subresources and wildcards in allowed combinations', async () => {
      const p = await policies().create(policy({ matchConstraints: { resourceRules: [podRule({ resources: ['*', 'pods/status', '*/scale'] })] } }));
      expect(p.spec?.matchConstraints?.resourceRules?.[0]?.resources).toEqual(['*', 'pods/status', '*/scale']);
    });

    it('validates both selectors strictly', async () => {
      await invalid(
        policy({
          matchConstraints: {
            resourceRules: [podRule()],
            namespaceSelector: { matchLabels: { 'bad key!': 'x' } },
            objectSelector: {
              matchExpressions: [
                { key: 'tier', operator: 'Near', values: [] },
                { key: 'env', operator: 'In', values: [] },
              ],
            },
          },
        }),
        ['spec.matchConstraints.namespaceSelector.matchLabels', `Invalid value: "bad key!": ${QUALIFIED}`],
        ['spec.matchConstraints.objectSelector.matchExpressions[0].operator', 'Invalid value: "Near": not a valid selector operator'],
        ['spec.matchConstraints.objectSelector.matchExpressions[1].values', "Required value: must be specified when `operator` is 'In' or 'NotIn'"],
      );
    });
  });

  describe('matchConditions', () => {
    const cond = (name: string, expression = 'true') => ({ name, expression });

    it('accepts up to 64 uniquely named conditions', async () => {
      const conditions = Array.from({ length: 64 }, (_, i) => cond(`c${i}`));
      const p = await policies().create(policy({ matchConditions: [...conditions.slice(0, 63), cond('example.com/last')] }));
      expect(p.spec?.matchConditions).toHaveLength(64);
    });

    it('rejects more than 64', async () => {
      await invalid(policy({ matchConditions: Array.from({ length: 65 }, (_, i) => cond(`c${i}`)) }), [
        'spec.matchConditions',
        'Too many: 65: must have at most 64 items',
      ]);
    });

    it('requires unique qualified names and non-blank expressions', async () => {
      await invalid(
        policy({ matchConditions: [cond('a'), cond('a'), cond('-bad-'), { name: '', expression: '  ' }] }),
        ['spec.matchConditions[1].name', 'Duplicate value: "a"'],
        ['spec.matchConditions[2].name', `Invalid value: "-bad-": ${QUALIFIED}`],
        ['spec.matchConditions[3].expression', 'Required value'],
        ['spec.matchConditions[3].name', 'Required value'],
      );
    });

    it('treats absent fields as empty', async () => {
      const sent = [{ expression: 'true' }, { name: 'x' }] as unknown as Spec['matchConditions'];
      await invalid(
        policy({ matchConditions: sent }),
        ['spec.matchConditions[0].name', 'Required value'],
        ['spec.matchConditions[1].expression', 'Required value'],
      );
    });

    it('merges on name with a strategic merge patch', async () => {
      await policies().create(policy({ matchConditions: [cond('a', 'true'), cond('b', 'true')] }));
      const p = await policies().patch(
        'p',
        {
          spec: {
            matchConditions: [
              { name: 'b', expression: 'false' },
              { name: 'c', expression: 'true' },
            ],
          },
        },
        { type: 'strategic' },
      );
      expect(p.spec?.matchConditions).toEqual([cond('a', 'true'), cond('b', 'false'), cond('c', 'true')]);
      expect(p.metadata?.generation).toBe(2);
    });
  });

  it('keeps matchConditions of two server-side-apply managers apart (list map keyed on name)', async () => {
    const applied = (conds: { name: string; expression: string }[]) => ({
      apiVersion: 'admissionregistration.k8s.io/v1',
      kind: 'MutatingAdmissionPolicy',
      ...policy({ matchConditions: conds }),
    });
    await policies().apply(applied([{ name: 'a', expression: 'true' }]), { fieldManager: 'one' });
    const p = await policies().apply(
      {
        apiVersion: 'admissionregistration.k8s.io/v1',
        kind: 'MutatingAdmissionPolicy',
        metadata: { name: 'p' },
        spec: { matchConditions: [{ name: 'b', expression: 'false' }] },
      },
      { fieldManager: 'two' },
    );
    expect(p.spec?.matchConditions).toEqual([
      { name: 'a', expression: 'true' },
      { name: 'b', expression: 'false' },
    ]);
  });

  describe('mutations', () => {
    it('accepts both patch types', async () => {
      const p = await policies().create(
        policy({
          mutations: [
            { patchType: 'JSONPatch', jsonPatch: { expression: '[JSONPatch{op: "add", path: "/metadata/labels/x", value: "y"}]' } },
            { patchType: 'ApplyConfiguration', applyConfiguration: { expression: 'Object{}' } },
          ],
        }),
      );
      expect(p.spec?.mutations?.map((m) => m.patchType)).toEqual(['JSONPatch', 'ApplyConfiguration']);
    });

    it('requires a supported patchType', async () => {
      await invalid(policy({ mutations: [{ patchType: '', applyConfiguration: { expression: 'Object{}' } }] }), [
        'spec.mutations[0].patchType',
        'Required value',
      ]);
      await invalid(policy({ mutations: [{ patchType: 'MergePatch' }] }), [
        'spec.mutations[0].patchType',
        'Unsupported value: "MergePatch": supported values: "ApplyConfiguration", "JSONPatch"',
      ]);
    });

    it('requires the member patchType names, and only that one', async () => {
      await invalid(
        policy({ mutations: [{ patchType: 'JSONPatch', applyConfiguration: { expression: 'Object{}' } }] }),
        ['spec.mutations[0].jsonPatch', 'Required value: must be specified when patchType is JSONPatch'],
        ['spec.mutations[0].applyConfiguration', 'Invalid value: "{applyConfiguration}": must not be specified when patchType is JSONPatch'],
      );
      await invalid(
        policy({ mutations: [{ patchType: 'ApplyConfiguration', jsonPatch: { expression: '[]' } }] }),
        ['spec.mutations[0].applyConfiguration', 'Required value: must be specified when patchType is ApplyConfiguration'],
        ['spec.mutations[0].jsonPatch', 'Invalid value: "{jsonPatch}": must not be specified when patchType is ApplyConfiguration'],
      );
    });

    it('requires non-blank expressions (CEL itself is not compiled)', async () => {
      await invalid(
        policy({
          mutations: [
            { patchType: 'JSONPatch', jsonPatch: { expression: ' \n ' } },
            { patchType: 'ApplyConfiguration', applyConfiguration: {} },
          ],
        }),
        ['spec.mutations[0].jsonPatch.expression', 'Required value'],
        ['spec.mutations[1].applyConfiguration.expression', 'Required value'],
      );
      // Not compiled: a syntactically wrong expression is stored as written.
      const p = await policies().create(policy({ mutations: [{ patchType: 'ApplyConfiguration', applyConfiguration: { expression: 'Object{' } }] }));
      expect(p.spec?.mutations?.[0]?.applyConfiguration?.expression).toBe('Object{');
    });
  });

  describe('paramKind', () => {
    it('accepts a core or grouped apiVersion and a kind', async () => {
      await policies().create(policy({ paramKind: { apiVersion: 'v1', kind: 'ConfigMap' } }, 'core'));
      const p = await policies().create(policy({ paramKind: { apiVersion: 'example.com/v1beta1', kind: 'PolicyParams' } }, 'grouped'));
      expect(p.spec?.paramKind).toEqual({ apiVersion: 'example.com/v1beta1', kind: 'PolicyParams' });
    });

    it.each([
      [
        {},
        [
          ['spec.paramKind.apiVersion', 'Required value'],
          ['spec.paramKind.kind', 'Required value'],
        ],
      ],
      [{ apiVersion: 'a/b/c', kind: 'K' }, [['spec.paramKind.apiVersion', 'Invalid value: "a/b/c": unexpected GroupVersion string: a/b/c']]],
      [{ apiVersion: 'example.com/', kind: 'K' }, [['spec.paramKind.apiVersion', 'Invalid value: "example.com/": version must be specified']]],
      [
        { apiVersion: 'Example.com/1', kind: 'K' },
        [
          [
            'spec.paramKind.apiVersion',
            "Invalid value: \"Example.com\": a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')",
          ],
          ['spec.paramKind.apiVersion', `Invalid value: "1": ${DNS1035}`],
        ],
      ],
      [
        { apiVersion: 'v1', kind: 'Config_Map' },
        [['spec.paramKind.kind', `Invalid value: "Config_Map": may have mixed case, but should otherwise match: ${DNS1035}`]],
      ],
    ])('rejects %j', async (paramKind, causes) => {
      await invalid(policy({ paramKind }), ...(causes as [string, string][]));
    });
  });

  describe('variables', () => {
    it('accepts CEL identifiers with expressions', async () => {
      const p = await policies().create(
        policy({
          variables: [
            { name: 'foo', expression: 'object.metadata.name' },
            { name: '_bar2', expression: '1' },
          ],
        }),
      );
      expect(p.spec?.variables?.map((v) => v.name)).toEqual(['foo', '_bar2']);
    });

    it('rejects missing, non-identifier and reserved names and blank expressions', async () => {
      await invalid(
        policy({
          variables: [
            { name: ' ', expression: 'x' },
            { name: '4ever', expression: '' },
            { name: 'namespace', expression: '1' },
          ],
        }),
        ['spec.variables[0].name', 'Required value: name is not specified'],
        ['spec.variables[1].name', 'Invalid value: "4ever": name is not a valid CEL identifier'],
        ['spec.variables[1].expression', 'Required value: expression is not specified'],
        ['spec.variables[2].name', 'Invalid value: "namespace": name is not a valid CEL identifier'],
      );
    });
  });

  it('validates updates with the same rules and bumps generation on spec changes', async () => {
    const p = await policies().create(policy());
    const s = await statusOf(() => policies().update({ ...p, spec: { ...p.spec, reinvocationPolicy: 'Sometimes' } }));
    expect(s).toMatchObject({
      code: 422,
      message:
        'MutatingAdmissionPolicy.admissionregistration.k8s.io "p" is invalid: spec.reinvocationPolicy: Unsupported value: "Sometimes": supported values: "IfNeeded", "Never"',
    });
    const updated = await policies().update({ ...p, spec: { ...p.spec, reinvocationPolicy: 'IfNeeded' } });
    expect(updated.metadata?.generation).toBe(2);
    const relabeled = await policies().update({ ...updated, metadata: { ...updated.metadata, labels: { a: 'b' } } });
    expect(relabeled.metadata?.generation).toBe(2);
  });

  it('refuses an update without resourceVersion, as Kubernetes does for this kind', async () => {
    const p = await policies().create(policy());
    const s = await statusOf(() => policies().update({ ...p, metadata: { name: 'p' } }));
    expect(s).toMatchObject({ code: 422, reason: 'Invalid', details: { causes: [{ field: 'metadata.resourceVersion' }] } });
  });

  it('prints Mutations and ParamKind columns', async () => {
    await policies().create(policy({ paramKind: { apiVersion: 'v1', kind: 'ConfigMap' } }, 'with-param'));
    await policies().create(policy({}, 'plain'));
    const res = await cluster.fetch(
      new Request('http://memkube/apis/admissionregistration.k8s.io/v1/mutatingadmissionpolicies', {
        headers: { Accept: 'application/json;as=Table;v=v1;g=meta.k8s.io' },
      }),
    );
    const table = (await res.json()) as { columnDefinitions: { name: string; type: string }[]; rows: { cells: unknown[] }[] };
    expect(table.columnDefinitions.map((c) => [c.name, c.type])).toEqual([
      ['Name', 'string'],
      ['Mutations', 'integer'],
      ['ParamKind', 'string'],
      ['Age', 'string'],
    ]);
    expect(table.rows.map((r) => r.cells.slice(0, 3))).toEqual([
      ['plain', 1, '<unset>'],
      ['with-param', 1, 'v1/ConfigMap'],
    ]);
  });

  describe('hostile input', () => {
    it.each([
      ['a number as failurePolicy', { failurePolicy: 5 }],
      ['a string as mutations', { mutations: 'all' }],
      ['an object as operations', { matchConstraints: { resourceRules: [{ operations: { CREATE: true } }] } }],
      ['a list as paramKind', { paramKind: ['v1', 'ConfigMap'] }],
    ])('answers %s with a 4xx and stores nothing', async (_, over) => {
      const s = await statusOf(() => policies().create(policy(over as Partial<Spec>)));
      expect(s.code).toBeGreaterThanOrEqual(400);
      expect(s.code).toBeLessThan(500);
      expect((await policies().list()).items).toHaveLength(0);
    });

    it('rejects odd unicode and oversized names in the places that have name rules', async () => {
      await invalid(policy({ matchConditions: [{ name: 'ｆｕｌｌ', expression: 'true' }] }), [
        'spec.matchConditions[0].name',
        `Invalid value: "ｆｕｌｌ": ${QUALIFIED}`,
      ]);
      const long = 'a'.repeat(64);
      await invalid(policy({ matchConditions: [{ name: long, expression: 'true' }] }), [
        'spec.matchConditions[0].name',
        `Invalid value: "${long}": name part must be no more than 63 bytes`,
      ]);
      await invalid(policy({ variables: [{ name: 'naïve', expression: '1' }] }), [
        'spec.variables[0].name',
        'Invalid value: "naïve": name is not a valid CEL identifier',
      ]);
    });

    it('stores a very long expression as is (only blank ones are refused)', async () => {
      const expression = `Object{} ${'//'.repeat(50_000)}`;
      const p = await policies().create(policy({ mutations: [{ patchType: 'ApplyConfiguration', applyConfiguration: { expression } }] }));
      expect(p.spec?.mutations?.[0]?.applyConfiguration?.expression).toHaveLength(expression.length);
    });
  });
});
