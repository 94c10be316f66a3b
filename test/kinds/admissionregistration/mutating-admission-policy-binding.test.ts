import { describe, expect, it } from 'vitest';
import {
  admissionregistrationKinds,
  MutatingAdmissionPolicyBindingKind,
  type MutatingAdmissionPolicyBinding,
} from '../../../src/kinds/admissionregistration/index.js';
import { statusOf, useTestCluster } from '../../support/cluster.js';

const cluster = useTestCluster({ kinds: [...admissionregistrationKinds] });
const bindings = () => cluster.client.resource(MutatingAdmissionPolicyBindingKind);

type Spec = NonNullable<MutatingAdmissionPolicyBinding['spec']>;
const binding = (over: Partial<Spec> = {}, name = 'b'): MutatingAdmissionPolicyBinding => ({ metadata: { name }, spec: { policyName: 'p', ...over } });
const podRule = { apiGroups: [''], apiVersions: ['v1'], operations: ['CREATE'], resources: ['pods'] };

/** Creates `obj`, expects a 422 whose causes are exactly `causes` ([field, body]) in order, and checks nothing was stored. */
async function invalid(obj: MutatingAdmissionPolicyBinding, ...causes: [string, string][]) {
  const s = await statusOf(() => bindings().create(obj));
  const lines = causes.map(([f, m]) => `${f}: ${m}`);
  const body = lines.length === 1 ? lines[0] : `[${lines.join(', ')}]`;
  expect(s).toMatchObject({
    code: 422,
    reason: 'Invalid',
    message: `MutatingAdmissionPolicyBinding.admissionregistration.k8s.io "${obj.metadata?.name}" is invalid: ${body}`,
  });
  expect(s.details?.causes?.map((c) => [c.field, c.message])).toEqual(causes);
  expect((await bindings().list()).items).toHaveLength(0);
}

describe('MutatingAdmissionPolicyBinding', () => {
  it('is served cluster-scoped at v1 and needs only a policy name', async () => {
    const b = await bindings().create(binding());
    expect(b).toMatchObject({
      apiVersion: 'admissionregistration.k8s.io/v1',
      kind: 'MutatingAdmissionPolicyBinding',
      spec: { policyName: 'p' },
      metadata: { generation: 1 },
    });
    expect(b.metadata?.namespace).toBeUndefined();
    expect(b.spec).toEqual({ policyName: 'p' });
    const res = await cluster.fetch(new Request('http://memkube/apis/admissionregistration.k8s.io/v1/mutatingadmissionpolicybindings/b'));
    expect(res.status).toBe(200);
  });

  it('requires policyName, a DNS subdomain', async () => {
    await invalid({ metadata: { name: 'b' } }, ['spec.policyName', 'Required value']);
    await invalid(binding({ policyName: '' }), ['spec.policyName', 'Required value']);
    await invalid(binding({ policyName: 'Not_A_Name' }), [
      'spec.policyName',
      "Invalid value: \"Not_A_Name\": a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')",
    ]);
  });

  describe('paramRef', () => {
    it('accepts a name or a selector with an action', async () => {
      await bindings().create(binding({ paramRef: { name: 'params', namespace: 'default', parameterNotFoundAction: 'Deny' } }, 'by-name'));
      const b = await bindings().create(binding({ paramRef: { selector: { matchLabels: { app: 'x' } }, parameterNotFoundAction: 'Allow' } }, 'by-selector'));
      expect(b.spec?.paramRef).toEqual({ selector: { matchLabels: { app: 'x' } }, parameterNotFoundAction: 'Allow' });
    });

    it('needs exactly one of name or selector', async () => {
      await invalid(binding({ paramRef: { parameterNotFoundAction: 'Deny' } }), ['spec.paramRef', 'Required value: one of name or selector must be specified']);
      await invalid(
        binding({ paramRef: { name: 'x', selector: {}, parameterNotFoundAction: 'Deny' } }),
        ['spec.paramRef.name', 'Forbidden: name and selector are mutually exclusive'],
        ['spec.paramRef.selector', 'Forbidden: name and selector are mutually exclusive'],
      );
    });

    it('checks the name, the selector and the action', async () => {
      await invalid(binding({ paramRef: { name: 'a/b', parameterNotFoundAction: 'Deny' } }), [
        'spec.paramRef.name',
        'Invalid value: "a/b": may not contain \'/\'',
      ]);
      await invalid(binding({ paramRef: { name: '.', parameterNotFoundAction: 'Deny' } }), ['spec.paramRef.name', 'Invalid value: ".": may not be \'.\'']);
      await invalid(
        binding({ paramRef: { selector: { matchExpressions: [{ key: 'k', operator: 'Exists', values: ['v'] }] }, parameterNotFoundAction: 'Deny' } }),
        ['spec.paramRef.selector.matchExpressions[0].values', "Forbidden: may not be specified when `operator` is 'Exists' or 'DoesNotExist'"],
      );
      await invalid(binding({ paramRef: { name: 'x' } }), ['spec.paramRef.parameterNotFoundAction', 'Required value']);
      await invalid(binding({ paramRef: { name: 'x', parameterNotFoundAction: '' } }), ['spec.paramRef.parameterNotFoundAction', 'Required value']);
      await invalid(binding({ paramRef: { name: 'x', parameterNotFoundAction: 'Ignore' } }), [
        'spec.paramRef.parameterNotFoundAction',
        'Unsupported value: "Ignore": supported values: "Deny", "Allow"',
      ]);
    });
  });

  describe('matchResources', () => {
    it('gets Kubernetes defaults and may have no resource rules', async () => {
      const b = await bindings().create(binding({ matchResources: {} }));
      expect(b.spec?.matchResources).toEqual({ matchPolicy: 'Equivalent', namespaceSelector: {}, objectSelector: {} });
      const ruled = await bindings().create(binding({ matchResources: { resourceRules: [podRule], excludeResourceRules: [podRule] } }, 'ruled'));
      expect(ruled.spec?.matchResources?.resourceRules).toEqual([{ ...podRule, scope: '*' }]);
      expect(ruled.spec?.matchResources?.excludeResourceRules).toEqual([{ ...podRule, scope: '*' }]);
    });

    it('allows no DELETE', async () => {
      await invalid(binding({ matchResources: { resourceRules: [{ ...podRule, operations: ['DELETE'] }] } }), [
        'spec.matchResources.resourceRules.operations',
        'Unsupported value: "DELETE": supported values: "*", "CONNECT", "CREATE", "UPDATE"',
      ]);
    });

    it('checks rules and selectors as the policy does', async () => {
      await invalid(
        binding({ matchResources: { matchPolicy: 'Loose', objectSelector: { matchLabels: { a: '-x-' } }, resourceRules: [{ ...podRule, apiVersions: [] }] } }),
        ['spec.matchResources.matchPolicy', 'Unsupported value: "Loose": supported values: "Equivalent", "Exact"'],
        [
          'spec.matchResources.objectSelector.matchLabels',
          "Invalid value: \"-x-\": a valid label must be an empty string or consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyValue',  or 'my_value',  or '12345', regex used for validation is '(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?')",
        ],
        ['spec.matchResources.resourceRules[0].apiVersions', 'Required value'],
      );
    });

    it('cannot match the policy or binding kinds', async () => {
      await invalid(
        binding({
          matchResources: { resourceRules: [{ ...podRule, apiGroups: ['admissionregistration.k8s.io'], resources: ['mutatingadmissionpolicybindings'] }] },
        }),
        ['spec.matchResources.resourceRules[0].resources[0]', 'Forbidden: must not match MutatingAdmissionPolicy or MutatingAdmissionPolicyBinding resources'],
      );
    });
  });

  it('validates updates and refuses one without resourceVersion', async () => {
    const b = await bindings().create(binding());
    const s = await statusOf(() => bindings().update({ ...b, spec: { policyName: '' } }));
    expect(s).toMatchObject({
      code: 422,
      message: 'MutatingAdmissionPolicyBinding.admissionregistration.k8s.io "b" is invalid: spec.policyName: Required value',
    });
    const unconditional = await statusOf(() => bindings().update({ metadata: { name: 'b' }, spec: { policyName: 'q' } }));
    expect(unconditional).toMatchObject({ code: 422, details: { causes: [{ field: 'metadata.resourceVersion' }] } });
    const updated = await bindings().update({ ...b, spec: { policyName: 'q' } });
    expect(updated).toMatchObject({ spec: { policyName: 'q' }, metadata: { generation: 2 } });
  });

  it('prints PolicyName and ParamRef columns', async () => {
    await bindings().create(binding({}, 'a-unset'));
    await bindings().create(binding({ paramRef: { name: 'x', namespace: 'ns', parameterNotFoundAction: 'Deny' } }, 'b-namespaced'));
    await bindings().create(binding({ paramRef: { name: 'x', parameterNotFoundAction: 'Deny' } }, 'c-any'));
    await bindings().create(binding({ paramRef: { selector: { matchLabels: { app: 'x' } }, parameterNotFoundAction: 'Deny' } }, 'd-selector'));
    const res = await cluster.fetch(
      new Request('http://memkube/apis/admissionregistration.k8s.io/v1/mutatingadmissionpolicybindings', {
        headers: { Accept: 'application/json;as=Table;v=v1;g=meta.k8s.io' },
      }),
    );
    const table = (await res.json()) as { columnDefinitions: { name: string }[]; rows: { cells: unknown[] }[] };
    expect(table.columnDefinitions.map((c) => c.name)).toEqual(['Name', 'PolicyName', 'ParamRef', 'Age']);
    expect(table.rows.map((r) => r.cells.slice(0, 3))).toEqual([
      ['a-unset', 'p', '<unset>'],
      ['b-namespaced', 'p', 'ns/x'],
      ['c-any', 'p', '*/x'],
      ['d-selector', 'p', 'app=x'],
    ]);
  });

  it.each([
    ['a number as policyName', { policyName: 7 }],
    ['a string as paramRef', { paramRef: 'x' }],
    ['a list as matchResources', { matchResources: [] }],
  ])('answers %s with a 4xx and stores nothing', async (_, spec) => {
    const s = await statusOf(() => bindings().create({ metadata: { name: 'b' }, spec } as unknown as MutatingAdmissionPolicyBinding));
    expect(s.code).toBeGreaterThanOrEqual(400);
    expect(s.code).toBeLessThan(500);
    expect((await bindings().list()).items).toHaveLength(0);
  });

  it('rejects an oversized or unicode policy name', async () => {
    const long = `${'a'.repeat(254)}`;
    await invalid(binding({ policyName: long }), ['spec.policyName', `Invalid value: "${long}": must be no more than 253 characters`]);
    const s = await statusOf(() => bindings().create(binding({ policyName: 'pölicy' })));
    expect(s.details?.causes?.map((c) => c.field)).toEqual(['spec.policyName']);
  });
});
