import { describe, expect, it } from 'vitest';
import {
  admissionregistrationKinds,
  MutatingWebhookConfigurationKind,
  ValidatingWebhookConfigurationKind,
  type MutatingWebhookConfiguration,
  type ValidatingWebhookConfiguration,
} from '../../../src/kinds/admissionregistration/index.js';
import { statusOf, testCluster, useTestCluster } from '../../support/cluster.js';

const cluster = useTestCluster({ kinds: [...admissionregistrationKinds] });
const validating = () => cluster.client.resource(ValidatingWebhookConfigurationKind);
const mutating = () => cluster.client.resource(MutatingWebhookConfigurationKind);

type Hook = NonNullable<ValidatingWebhookConfiguration['webhooks']>[number];
type MHook = NonNullable<MutatingWebhookConfiguration['webhooks']>[number];

const hook = (over: Partial<Hook> = {}): Hook => ({
  name: 'check.example.com',
  clientConfig: { service: { namespace: 'default', name: 'hook' } },
  admissionReviewVersions: ['v1'],
  sideEffects: 'None',
  rules: [{ apiGroups: [''], apiVersions: ['v1'], operations: ['CREATE'], resources: ['pods'] }],
  ...over,
});
const config = (webhooks: Hook[], name = 'c'): ValidatingWebhookConfiguration => ({ metadata: { name }, webhooks });

const DNS1123 =
  "a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')";
const FORM = '; desired format: https://host[/path]';

/** Creates a ValidatingWebhookConfiguration, expects a 422 with exactly these causes, and that nothing was stored. */
async function invalid(obj: ValidatingWebhookConfiguration, ...causes: [string, string][]) {
  const s = await statusOf(() => validating().create(obj));
  expect(s).toMatchObject({ code: 422, reason: 'Invalid' });
  const lines = causes.map(([f, m]) => `${f}: ${m}`);
  expect(s.message).toBe(
    `ValidatingWebhookConfiguration.admissionregistration.k8s.io "${obj.metadata?.name}" is invalid: ${lines.length === 1 ? lines[0] : `[${lines.join(', ')}]`}`,
  );
  expect(s.details?.causes?.map((c) => [c.field, c.message])).toEqual(causes);
  expect((await validating().list()).items).toHaveLength(0);
}

describe('ValidatingWebhookConfiguration', () => {
  it('is served cluster-scoped at v1 with the v1 webhook defaults and generation 1', async () => {
    const c = await validating().create(config([hook()]));
    expect(c).toMatchObject({ apiVersion: 'admissionregistration.k8s.io/v1', kind: 'ValidatingWebhookConfiguration', metadata: { name: 'c', generation: 1 } });
    expect(c.webhooks).toEqual([
      {
        ...hook(),
        clientConfig: { service: { namespace: 'default', name: 'hook', port: 443 } },
        rules: [{ apiGroups: [''], apiVersions: ['v1'], operations: ['CREATE'], resources: ['pods'], scope: '*' }],
        failurePolicy: 'Fail',
        matchPolicy: 'Equivalent',
        namespaceSelector: {},
        objectSelector: {},
        timeoutSeconds: 10,
      },
    ]);
    expect(c.webhooks?.[0]).not.toHaveProperty('reinvocationPolicy');
  });

  it('accepts a configuration without webhooks', async () => {
    const c = await validating().create({ metadata: { name: 'empty' } });
    expect(c.webhooks).toBeUndefined();
  });

  it('requires a fully qualified webhook name, sideEffects, admissionReviewVersions and a client config', async () => {
    await invalid(
      config([{} as Hook]),
      ['webhooks[0].name', 'Required value'],
      ['webhooks[0].sideEffects', 'Required value: must specify one of None, NoneOnDryRun'],
      ['webhooks[0].clientConfig', 'Required value: exactly one of url or service is required'],
      ['webhooks[0].admissionReviewVersions', 'Required value: must specify one of v1, v1beta1'],
    );
    await invalid(config([hook({ name: 'check.example' })]), [
      'webhooks[0].name',
      'Invalid value: "check.example": should be a domain with at least three segments separated by dots',
    ]);
    await invalid(config([hook({ name: 'Check.example.com' })]), ['webhooks[0].name', `Invalid value: "Check.example.com": ${DNS1123}`]);
  });

  it('requires unique webhook names', async () => {
    await invalid(config([hook(), hook({ name: 'other.example.com' }), hook()]), ['webhooks[2].name', 'Duplicate value: "check.example.com"']);
  });

  it('accepts only None and NoneOnDryRun side effects on create', async () => {
    await validating().create(config([hook({ sideEffects: 'NoneOnDryRun' })], 'dry'));
    await validating().delete('dry');
    await invalid(config([hook({ sideEffects: 'Some' })]), ['webhooks[0].sideEffects', 'Unsupported value: "Some": supported values: "None", "NoneOnDryRun"']);
  });

  it('checks failurePolicy, matchPolicy and timeoutSeconds', async () => {
    await invalid(
      config([hook({ failurePolicy: 'Retry', matchPolicy: 'Loose', timeoutSeconds: 31 })]),
      ['webhooks[0].failurePolicy', 'Unsupported value: "Retry": supported values: "Fail", "Ignore"'],
      ['webhooks[0].matchPolicy', 'Unsupported value: "Loose": supported values: "Equivalent", "Exact"'],
      ['webhooks[0].timeoutSeconds', 'Invalid value: 31: the timeout value must be between 1 and 30 seconds'],
    );
    await invalid(config([hook({ timeoutSeconds: 0 })]), [
      'webhooks[0].timeoutSeconds',
      'Invalid value: 0: the timeout value must be between 1 and 30 seconds',
    ]);
  });

  it('checks the AdmissionReview versions', async () => {
    await invalid(
      config([hook({ admissionReviewVersions: ['v2', 'v2', 'V3'] })]),
      ['webhooks[0].admissionReviewVersions[1]', 'Invalid value: "v2": duplicate version'],
      [
        'webhooks[0].admissionReviewVersions[2]',
        `Invalid value: "V3": a DNS-1035 label must consist of lower case alphanumeric characters or '-', start with an alphabetic character, and end with an alphanumeric character (e.g. 'my-name',  or 'abc-123', regex used for validation is '[a-z]([-a-z0-9]*[a-z0-9])?')`,
      ],
      ['webhooks[0].admissionReviewVersions', 'Invalid value: ["v2","v2","V3"]: must include at least one of v1, v1beta1'],
    );
    await validating().create(config([hook({ admissionReviewVersions: ['v2', 'v1beta1'] })], 'beta'));
  });

  it('checks the rules as Kubernetes does', async () => {
    await invalid(
      config([hook({ rules: [{ operations: ['CREATE', '*'], apiGroups: ['*', 'apps'], apiVersions: [''], resources: ['*/*', 'pods'], scope: 'Node' }] })]),
      ['webhooks[0].rules[0].operations', `Invalid value: ["CREATE","*"]: if '*' is present, must not specify other operations`],
      ['webhooks[0].rules[0].apiGroups', `Invalid value: ["*","apps"]: if '*' is present, must not specify other API groups`],
      ['webhooks[0].rules[0].apiVersions[0]', 'Required value'],
      ['webhooks[0].rules[0].resources', `Invalid value: ["*/*","pods"]: if '*/*' is present, must not specify other resources`],
      ['webhooks[0].rules[0].scope', 'Unsupported value: "Node": supported values: "*", "Cluster", "Namespaced"'],
    );
    await invalid(
      config([hook({ rules: [{}] })]),
      ['webhooks[0].rules[0].operations', 'Required value'],
      ['webhooks[0].rules[0].apiGroups', 'Required value'],
      ['webhooks[0].rules[0].apiVersions', 'Required value'],
      ['webhooks[0].rules[0].resources', 'Required value'],
    );
  });

  describe('clientConfig', () => {
    it('takes exactly one of url and service', async () => {
      await invalid(config([hook({ clientConfig: { url: 'https://example.com', service: { namespace: 'a', name: 'b' } } })]), [
        'webhooks[0].clientConfig',
        'Required value: exactly one of url or service is required',
      ]);
      const c = await validating().create(config([hook({ clientConfig: { url: 'https://hooks.example.com:8443/check', caBundle: 'Zm9v' } })], 'url'));
      expect(c.webhooks?.[0]?.clientConfig).toEqual({ url: 'https://hooks.example.com:8443/check', caBundle: 'Zm9v' });
    });

    it.each([
      ['http://example.com', [['webhooks[0].clientConfig.url', `Invalid value: "http": 'https' is the only allowed URL scheme${FORM}`]]],
      ['https:///path', [['webhooks[0].clientConfig.url', `Invalid value: "": host must be provided${FORM}`]]],
      [
        'example.com/x',
        [
          ['webhooks[0].clientConfig.url', `Invalid value: "": 'https' is the only allowed URL scheme${FORM}`],
          ['webhooks[0].clientConfig.url', `Invalid value: "": host must be provided${FORM}`],
        ],
      ],
      ['https://user:pw@example.com', [['webhooks[0].clientConfig.url', 'Invalid value: "user:pw": user information is not permitted in the URL']]],
      ['https://example.com/#top', [['webhooks[0].clientConfig.url', 'Invalid value: "top": fragments are not permitted in the URL']]],
      ['https://example.com/?a=b', [['webhooks[0].clientConfig.url', 'Invalid value: "a=b": query parameters are not permitted in the URL']]],
      [
        'https://exa mple.com',
        [['webhooks[0].clientConfig.url', `Required value: url must be a valid URL: parse "https://exa mple.com": invalid character " " in host name${FORM}`]],
      ],
      [
        '',
        [
          ['webhooks[0].clientConfig.url', `Invalid value: "": 'https' is the only allowed URL scheme${FORM}`],
          ['webhooks[0].clientConfig.url', `Invalid value: "": host must be provided${FORM}`],
        ],
      ],
    ] as [string, [string, string][]][])('checks the url %j', async (url, causes) => {
      await invalid(config([hook({ clientConfig: { url } })]), ...causes);
    });

    it('checks the service reference', async () => {
      await invalid(
        config([hook({ clientConfig: { service: { namespace: '', name: '', port: 0 } } })]),
        ['webhooks[0].clientConfig.service.name', 'Required value: service name is required'],
        ['webhooks[0].clientConfig.service.namespace', 'Required value: service namespace is required'],
        ['webhooks[0].clientConfig.service.port', 'Invalid value: 0: port is not valid: must be between 1 and 65535, inclusive'],
      );
      // As Kubernetes, the first character is dropped before the segments are checked, even when it is not '/'.
      await invalid(
        config([hook({ clientConfig: { service: { namespace: 'a', name: 'b', path: 'x' } } })]),
        ['webhooks[0].clientConfig.service.path', `Invalid value: "x": must start with a '/'`],
        ['webhooks[0].clientConfig.service.path', 'Invalid value: "x": segment[0] may not be empty'],
      );
      await invalid(config([hook({ clientConfig: { service: { namespace: 'a', name: 'b', path: '//' } } })]), [
        'webhooks[0].clientConfig.service.path',
        'Invalid value: "//": segment[0] may not be empty',
      ]);
      await invalid(
        config([hook({ clientConfig: { service: { namespace: 'a', name: 'b', path: '/ok//Bad/' } } })]),
        ['webhooks[0].clientConfig.service.path', 'Invalid value: "/ok//Bad/": segment[1] may not be empty'],
        ['webhooks[0].clientConfig.service.path', `Invalid value: "/ok//Bad/": segment[2]: ${DNS1123}`],
      );
      const c = await validating().create(
        config([hook({ clientConfig: { service: { namespace: 'a', name: 'b', path: '/validate/pods/', port: 8443 } } })], 'ok'),
      );
      expect(c.webhooks?.[0]?.clientConfig.service).toEqual({ namespace: 'a', name: 'b', path: '/validate/pods/', port: 8443 });
    });
  });

  it('checks both selectors and the match conditions', async () => {
    await invalid(
      config([
        hook({
          namespaceSelector: { matchExpressions: [{ key: 'env', operator: 'In', values: [] }] },
          objectSelector: { matchLabels: { 'bad key!': 'x' } },
          matchConditions: [
            { name: 'a', expression: ' ' },
            { name: 'a', expression: 'true' },
          ],
        }),
      ]),
      ['webhooks[0].namespaceSelector.matchExpressions[0].values', "Required value: must be specified when `operator` is 'In' or 'NotIn'"],
      [
        'webhooks[0].objectSelector.matchLabels',
        `Invalid value: "bad key!": name part must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]')`,
      ],
      ['webhooks[0].matchConditions[0].expression', 'Required value'],
      ['webhooks[0].matchConditions[1].name', 'Duplicate value: "a"'],
    );
  });

  it('bumps the generation only when the webhooks change', async () => {
    const c = await validating().create(config([hook()]));
    const labelled = await validating().update({ ...c, metadata: { ...c.metadata, labels: { a: 'b' } } });
    expect(labelled.metadata?.generation).toBe(1);
    const changed = await validating().update({ ...labelled, webhooks: [{ ...labelled.webhooks![0]!, timeoutSeconds: 5 }] });
    expect(changed.metadata?.generation).toBe(2);
  });

  it('needs a resourceVersion on update', async () => {
    await validating().create(config([hook()]));
    const s = await statusOf(() => validating().update(config([hook({ timeoutSeconds: 3 })])));
    expect(s).toMatchObject({ code: 422, details: { causes: [{ field: 'metadata.resourceVersion' }] } });
  });

  it('validates an update with the rules the stored webhooks already met', async () => {
    const c = await validating().create(config([hook()]));
    const s = await statusOf(() => validating().update({ ...c, webhooks: [hook({ sideEffects: 'Unknown' })] }));
    expect(s.details?.causes?.map((x) => [x.field, x.message])).toEqual([
      ['webhooks[0].sideEffects', 'Unsupported value: "Unknown": supported values: "None", "NoneOnDryRun"'],
    ]);
    // Match conditions are checked only when some webhook's changed.
    const withConditions = await validating()
      .update({ ...c, webhooks: [hook({ matchConditions: [{ name: 'bad name!', expression: 'true' }] })] })
      .catch((e: unknown) => e);
    expect(withConditions).toMatchObject({ code: 422 });
  });

  it('prints the Webhooks column', async () => {
    await validating().create(config([hook(), hook({ name: 'two.example.com' })], 'two'));
    await validating().create({ metadata: { name: 'zero' } });
    const res = await cluster.fetch(
      new Request('http://memkube/apis/admissionregistration.k8s.io/v1/validatingwebhookconfigurations', {
        headers: { Accept: 'application/json;as=Table;v=v1;g=meta.k8s.io' },
      }),
    );
    const table = (await res.json()) as { columnDefinitions: { name: string; type: string }[]; rows: { cells: unknown[] }[] };
    expect(table.columnDefinitions.map((c) => [c.name, c.type])).toEqual([
      ['Name', 'string'],
      ['Webhooks', 'integer'],
      ['Age', 'string'],
    ]);
    expect(table.rows.map((r) => r.cells.slice(0, 2))).toEqual([
      ['two', 2],
      ['zero', 0],
    ]);
  });

  it('is in the api-extensions category', () => {
    expect(ValidatingWebhookConfigurationKind.categories).toEqual(['api-extensions']);
    expect(MutatingWebhookConfigurationKind.categories).toEqual(['api-extensions']);
  });

  it.each([
    ['a string as webhooks', { webhooks: 'x' }],
    ['a number as a timeout string', { webhooks: [{ ...hook(), timeoutSeconds: 'ten' }] }],
    ['a list as clientConfig', { webhooks: [{ ...hook(), clientConfig: [] }] }],
  ])('answers %s with a 4xx and stores nothing', async (_, body) => {
    const s = await statusOf(() => validating().create({ metadata: { name: 'c' }, ...body } as unknown as ValidatingWebhookConfiguration));
    expect(s.code).toBeGreaterThanOrEqual(400);
    expect(s.code).toBeLessThan(500);
    expect((await validating().list()).items).toHaveLength(0);
  });

  describe('names reserved for static configurations', () => {
    it('refuses a name ending in .static.k8s.io while ManifestBasedAdmissionControlConfig is on', async () => {
      await invalid(config([hook()], 'policy.static.k8s.io'), [
        'metadata.name',
        'Invalid value: "policy.static.k8s.io": names ending with ".static.k8s.io" are reserved for static manifest-based configurations and cannot be managed via the API',
      ]);
    });

    it('only warns with the gate off', async () => {
      const c = await testCluster({ featureGates: { ManifestBasedAdmissionControlConfig: false } });
      const warnings: string[] = [];
      try {
        await c.client.resource(ValidatingWebhookConfigurationKind).create(config([hook()], 'policy.static.k8s.io'), { onWarning: (w) => warnings.push(...w) });
      } finally {
        await c.close();
      }
      expect(warnings).toEqual([
        'metadata.name: names ending with ".static.k8s.io" are reserved for static manifest-based configurations and cannot be managed via the API',
      ]);
    });
  });
});

describe('MutatingWebhookConfiguration', () => {
  const mhook = (over: Partial<MHook> = {}): MHook => ({ ...hook(), ...over });

  it('defaults reinvocationPolicy to Never besides the webhook defaults', async () => {
    const c = await mutating().create({ metadata: { name: 'm' }, webhooks: [mhook()] });
    expect(c.webhooks?.[0]).toMatchObject({ reinvocationPolicy: 'Never', failurePolicy: 'Fail', timeoutSeconds: 10, matchPolicy: 'Equivalent' });
    expect(c.metadata?.generation).toBe(1);
  });

  it('checks reinvocationPolicy after the selectors, in Kubernetes order', async () => {
    const s = await statusOf(() => mutating().create({ metadata: { name: 'm' }, webhooks: [mhook({ reinvocationPolicy: 'Always', timeoutSeconds: 99 })] }));
    expect(s.details?.causes?.map((c) => [c.field, c.message])).toEqual([
      ['webhooks[0].timeoutSeconds', 'Invalid value: 99: the timeout value must be between 1 and 30 seconds'],
      ['webhooks[0].reinvocationPolicy', 'Unsupported value: "Always": supported values: "IfNeeded", "Never"'],
    ]);
    expect(s.message).toMatch(/^MutatingWebhookConfiguration\.admissionregistration\.k8s\.io "m" is invalid: /);
  });

  it('prints the Webhooks column', async () => {
    await mutating().create({ metadata: { name: 'm' }, webhooks: [mhook()] });
    const res = await cluster.fetch(
      new Request('http://memkube/apis/admissionregistration.k8s.io/v1/mutatingwebhookconfigurations', {
        headers: { Accept: 'application/json;as=Table;v=v1;g=meta.k8s.io' },
      }),
    );
    const table = (await res.json()) as { columnDefinitions: { name: string }[]; rows: { cells: unknown[] }[] };
    expect(table.columnDefinitions.map((c) => c.name)).toEqual(['Name', 'Webhooks', 'Age']);
    expect(table.rows[0]?.cells.slice(0, 2)).toEqual(['m', 1]);
  });
});
