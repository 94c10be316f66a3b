import { describe, expect, it } from 'vitest';
import {
  admissionregistrationKinds,
  ValidatingAdmissionPolicyBindingKind,
  ValidatingAdmissionPolicyKind,
  type ValidatingAdmissionPolicy,
  type ValidatingAdmissionPolicyBinding,
} from '../../../src/kinds/admissionregistration/index.js';
import { statusOf, useTestCluster } from '../../support/cluster.js';

const cluster = useTestCluster({ kinds: [...admissionregistrationKinds] });
const policies = () => cluster.client.resource(ValidatingAdmissionPolicyKind);
const bindings = () => cluster.client.resource(ValidatingAdmissionPolicyBindingKind);

type Spec = NonNullable<ValidatingAdmissionPolicy['spec']>;
type BSpec = ValidatingAdmissionPolicyBinding['spec'];

const podRule = { apiGroups: [''], apiVersions: ['v1'], operations: ['CREATE', 'UPDATE'], resources: ['pods'] };
const spec = (over: Partial<Spec> = {}): Spec => ({
  matchConstraints: { resourceRules: [podRule] },
  validations: [{ expression: 'object.metadata.name != "forbidden"' }],
  ...over,
});
const policy = (over: Partial<Spec> = {}, name = 'p'): ValidatingAdmissionPolicy => ({ metadata: { name }, spec: spec(over) });
const binding = (over: Partial<BSpec> = {}, name = 'b'): ValidatingAdmissionPolicyBinding => ({
  metadata: { name },
  spec: { policyName: 'p', validationActions: ['Deny'], ...over },
});

const QUALIFIED =
  "name part must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]')";

async function causesOf(fn: () => Promise<unknown>): Promise<[string, string][]> {
  const s = await statusOf(fn);
  expect(s).toMatchObject({ code: 422, reason: 'Invalid' });
  return (s.details?.causes ?? []).map((c) => [c.field ?? '', c.message ?? '']);
}

async function invalid(obj: ValidatingAdmissionPolicy, ...causes: [string, string][]) {
  const s = await statusOf(() => policies().create(obj));
  const lines = causes.map(([f, m]) => `${f}: ${m}`);
  expect(s.message).toBe(
    `ValidatingAdmissionPolicy.admissionregistration.k8s.io "${obj.metadata?.name}" is invalid: ${lines.length === 1 ? lines[0] : `[${lines.join(', ')}]`}`,
  );
  expect(s.details?.causes?.map((c) => [c.field, c.message])).toEqual(causes);
  expect((await policies().list()).items).toHaveLength(0);
}

describe('ValidatingAdmissionPolicy', () => {
  it('is served cluster-scoped at v1 with the v1 defaults, generation 1 and an empty status', async () => {
    const p = await policies().create({ ...policy(), status: { observedGeneration: 9 } });
    expect(p).toMatchObject({ apiVersion: 'admissionregistration.k8s.io/v1', kind: 'ValidatingAdmissionPolicy', metadata: { name: 'p', generation: 1 } });
    expect(p.spec).toEqual({
      ...spec(),
      failurePolicy: 'Fail',
      matchConstraints: { resourceRules: [{ ...podRule, scope: '*' }], matchPolicy: 'Equivalent', namespaceSelector: {}, objectSelector: {} },
    });
    expect(p.status).toEqual({});
  });

  it('requires matchConstraints with a resource rule, and validations or auditAnnotations', async () => {
    await invalid(
      { metadata: { name: 'p' } },
      ['spec.matchConstraints', 'Required value'],
      ['spec.validations', 'Required value: validations or auditAnnotations must contain at least one item'],
      ['spec.auditAnnotations', 'Required value: validations or auditAnnotations must contain at least one item'],
    );
    await invalid(policy({ matchConstraints: {} }), ['spec.matchConstraints.resourceRules', 'Required value']);
    await policies().create(policy({ validations: undefined, auditAnnotations: [{ key: 'k', valueExpression: '"v"' }] }, 'audit-only'));
  });

  it('checks failurePolicy and the match constraints', async () => {
    await invalid(
      policy({
        failurePolicy: 'Never',
        matchConstraints: { matchPolicy: 'Loose', resourceRules: [{ ...podRule, operations: ['DELETE'], resourceNames: ['a', 'a'] }] },
      }),
      ['spec.failurePolicy', 'Unsupported value: "Never": supported values: "Fail", "Ignore"'],
      ['spec.matchConstraints.matchPolicy', 'Unsupported value: "Loose": supported values: "Equivalent", "Exact"'],
      ['spec.matchConstraints.resourceRules[0].resourceNames[1]', 'Duplicate value: "a"'],
    );
  });

  it('checks the validations', async () => {
    await invalid(
      policy({
        validations: [
          { expression: '  ' },
          { expression: 'true', message: '  ', messageExpression: ' ' },
          { expression: 'true', message: 'two\nlines' },
          { expression: 'true', reason: 'Conflict' },
        ],
      }),
      ['spec.validations[0].expression', 'Required value: expression is not specified'],
      ['spec.validations[1].messageExpression', 'Invalid value: " ": must be non-empty if specified'],
      ['spec.validations[1].message', 'Invalid value: "  ": message must be non-empty if specified'],
      ['spec.validations[2].message', 'Invalid value: "two\\nlines": message must not contain line breaks'],
      ['spec.validations[3].reason', 'Unsupported value: "Conflict": supported values: "Forbidden", "Invalid", "RequestEntityTooLarge"'],
    );
  });

  it('checks the audit annotations', async () => {
    await invalid(
      policy({
        auditAnnotations: [
          { key: 'ok', valueExpression: '"v"' },
          { key: 'ok', valueExpression: ' ' },
          { key: 'bad key', valueExpression: 'x'.repeat(5121) },
        ],
      }),
      ['spec.auditAnnotations[1].valueExpression', 'Required value: valueExpression is not specified'],
      ['spec.auditAnnotations[1].key', 'Duplicate value: "ok"'],
      ['spec.auditAnnotations[2].key', `Invalid value: "p/bad key": ${QUALIFIED}`],
      ['spec.auditAnnotations[2].valueExpression', 'Required value: must not exceed 5120 bytes in length'],
    );
    const many = Array.from({ length: 21 }, (_, i) => ({ key: `k${i}`, valueExpression: '"v"' }));
    const causes = await causesOf(() => policies().create(policy({ auditAnnotations: many })));
    expect(causes).toEqual([
      [
        'spec.auditAnnotations',
        `Invalid value: [${many.map((a) => `{"Key":"${a.key}","ValueExpression":"\\"v\\""}`).join(',')}]: must not have more than 20 auditAnnotations`,
      ],
    ]);
  });

  it('checks paramKind, match conditions and variables', async () => {
    await invalid(
      policy({
        paramKind: { apiVersion: 'a/b/c' },
        matchConditions: [{ name: 'x/y/z', expression: 'true' }],
        variables: [{ name: '1x', expression: '' }],
      }),
      ['spec.paramKind.apiVersion', 'Invalid value: "a/b/c": unexpected GroupVersion string: a/b/c'],
      ['spec.paramKind.kind', 'Required value'],
      [
        'spec.matchConditions[0].name',
        `Invalid value: "x/y/z": a valid label key must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]') with an optional DNS subdomain prefix and '/' (e.g. 'example.com/MyName')`,
      ],
      ['spec.variables[0].name', 'Invalid value: "1x": name is not a valid CEL identifier'],
      ['spec.variables[0].expression', 'Required value: expression is not specified'],
    );
  });

  it('bumps the generation on spec changes, keeps status on updates, and changes status only through /status', async () => {
    const p = await policies().create(policy());
    const relabelled = await policies().update({ ...p, metadata: { ...p.metadata, labels: { a: 'b' } }, status: { observedGeneration: 5 } });
    expect(relabelled.metadata?.generation).toBe(1);
    expect(relabelled.status).toEqual({});
    const changed = await policies().update({ ...relabelled, spec: { ...relabelled.spec, failurePolicy: 'Ignore' } });
    expect(changed.metadata?.generation).toBe(2);

    const status = { observedGeneration: 2, typeChecking: { expressionWarnings: [{ fieldRef: 'spec.validations[0].expression', warning: 'no such field' }] } };
    const written = await policies().updateStatus({ ...changed, spec: { ...changed.spec, failurePolicy: 'Fail' }, status });
    expect(written.status).toEqual(status);
    expect(written.spec?.failurePolicy).toBe('Ignore');
    expect(written.metadata?.generation).toBe(2);

    const bad = await causesOf(() =>
      policies().updateStatus({
        ...written,
        status: {
          typeChecking: { expressionWarnings: [{ fieldRef: ' ', warning: '' }] },
          conditions: [{ type: 'Ready', status: 'Maybe', reason: 'R', message: '', lastTransitionTime: '2026-01-01T00:00:00Z' }],
        },
      }),
    );
    expect(bad).toEqual([
      ['status.typeChecking.expressionWarnings[0].warning', 'Required value'],
      ['status.typeChecking.expressionWarnings[0].fieldRef', 'Required value'],
      ['status.conditions[0].status', 'Unsupported value: "Maybe": supported values: "False", "True", "Unknown"'],
    ]);
  });

  it('needs a resourceVersion on update', async () => {
    await policies().create(policy());
    const s = await statusOf(() => policies().update(policy({ failurePolicy: 'Ignore' })));
    expect(s).toMatchObject({ code: 422, details: { causes: [{ field: 'metadata.resourceVersion' }] } });
  });

  it('prints Validations and ParamKind', async () => {
    await policies().create(policy({}, 'a'));
    await policies().create(policy({ paramKind: { apiVersion: 'v1', kind: 'ConfigMap' }, validations: [{ expression: 'a' }, { expression: 'b' }] }, 'b'));
    const res = await cluster.fetch(
      new Request('http://memkube/apis/admissionregistration.k8s.io/v1/validatingadmissionpolicies', {
        headers: { Accept: 'application/json;as=Table;v=v1;g=meta.k8s.io' },
      }),
    );
    const table = (await res.json()) as { columnDefinitions: { name: string; type: string }[]; rows: { cells: unknown[] }[] };
    expect(table.columnDefinitions.map((c) => [c.name, c.type])).toEqual([
      ['Name', 'string'],
      ['Validations', 'integer'],
      ['ParamKind', 'string'],
      ['Age', 'string'],
    ]);
    expect(table.rows.map((r) => r.cells.slice(0, 3))).toEqual([
      ['a', 1, '<unset>'],
      ['b', 2, 'v1/ConfigMap'],
    ]);
  });

  it.each([
    ['a string as validations', { validations: 'x' }],
    ['a number as failurePolicy', { failurePolicy: 1 }],
  ])('answers %s with a 4xx and stores nothing', async (_, over) => {
    const s = await statusOf(() => policies().create({ metadata: { name: 'p' }, spec: { ...spec(), ...over } } as unknown as ValidatingAdmissionPolicy));
    expect(s.code).toBeGreaterThanOrEqual(400);
    expect(s.code).toBeLessThan(500);
    expect((await policies().list()).items).toHaveLength(0);
  });
});

describe('ValidatingAdmissionPolicyBinding', () => {
  it('is served at v1 with generation 1 and matchResources defaults', async () => {
    const b = await bindings().create(binding({ matchResources: { resourceRules: [podRule] } }));
    expect(b).toMatchObject({ apiVersion: 'admissionregistration.k8s.io/v1', metadata: { generation: 1 } });
    expect(b.spec.matchResources).toEqual({
      resourceRules: [{ ...podRule, scope: '*' }],
      matchPolicy: 'Equivalent',
      namespaceSelector: {},
      objectSelector: {},
    });
  });

  it('requires policyName and at least one validation action', async () => {
    const causes = await causesOf(() => bindings().create({ metadata: { name: 'b' } } as ValidatingAdmissionPolicyBinding));
    expect(causes).toEqual([
      ['spec.policyName', 'Required value'],
      ['spec.validationActions', 'Required value: at least one validation action is required'],
    ]);
    expect((await bindings().list()).items).toHaveLength(0);
  });

  it('checks the validation actions', async () => {
    const causes = await causesOf(() => bindings().create(binding({ validationActions: ['Deny', 'Log', 'Warn', 'Deny'] })));
    expect(causes).toEqual([
      ['spec.validationActions[1]', 'Unsupported value: "Log": supported values: "Audit", "Deny", "Warn"'],
      ['spec.validationActions[3]', 'Duplicate value: "Deny"'],
      [
        'spec.validationActions',
        'Invalid value: ["Deny","Log","Warn","Deny"]: must not contain both Deny and Warn (repeating the same validation failure information in the API response and headers serves no purpose)',
      ],
    ]);
    await bindings().create(binding({ validationActions: ['Warn', 'Audit'] }));
  });

  it('checks paramRef and reports matchResources under Kubernetes misspelt path', async () => {
    const causes = await causesOf(() =>
      bindings().create(binding({ paramRef: { name: 'x', selector: {} }, matchResources: { matchPolicy: 'Loose' }, policyName: 'Bad_Name' })),
    );
    expect(causes.map(([f]) => f)).toEqual([
      'spec.policyName',
      'spec.paramRef.name',
      'spec.paramRef.selector',
      'spec.paramRef.parameterNotFoundAction',
      'spec.matchResouces.matchPolicy',
    ]);
  });

  it('prints PolicyName and ParamRef', async () => {
    await bindings().create(binding({ paramRef: { name: 'cfg', namespace: 'ns', parameterNotFoundAction: 'Deny' } }));
    const res = await cluster.fetch(
      new Request('http://memkube/apis/admissionregistration.k8s.io/v1/validatingadmissionpolicybindings', {
        headers: { Accept: 'application/json;as=Table;v=v1;g=meta.k8s.io' },
      }),
    );
    const table = (await res.json()) as { columnDefinitions: { name: string }[]; rows: { cells: unknown[] }[] };
    expect(table.columnDefinitions.map((c) => c.name)).toEqual(['Name', 'PolicyName', 'ParamRef', 'Age']);
    expect(table.rows[0]?.cells.slice(0, 3)).toEqual(['b', 'p', 'ns/cfg']);
  });

  it('bumps the generation on spec changes and needs a resourceVersion', async () => {
    const b = await bindings().create(binding());
    const s = await statusOf(() => bindings().update(binding({ policyName: 'q' })));
    expect(s).toMatchObject({ code: 422, details: { causes: [{ field: 'metadata.resourceVersion' }] } });
    const updated = await bindings().update({ ...b, spec: { ...b.spec, policyName: 'q' } });
    expect(updated.metadata?.generation).toBe(2);
  });
});
