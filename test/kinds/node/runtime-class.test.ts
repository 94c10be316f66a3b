import { describe, expect, it } from 'vitest';
import { RuntimeClassKind, type RuntimeClass } from '../../../src/kinds/node/index.js';
import { statusOf, useTestCluster } from '../../support/cluster.js';

const cluster = useTestCluster();
const classes = () => cluster.client.resource(RuntimeClassKind);

const rc = (over: Partial<RuntimeClass> = {}): RuntimeClass => ({ metadata: { name: 'gvisor' }, handler: 'runsc', ...over });
const DNS_LABEL =
  "a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', and must start and end with an alphanumeric character (e.g. 'my-name',  or '123-abc', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?')";

async function expectInvalid(write: () => Promise<unknown>, ...causes: [string, string][]) {
  const s = await statusOf(write);
  const lines = causes.map(([f, m]) => `${f}: ${m}`);
  expect(s).toMatchObject({
    code: 422,
    reason: 'Invalid',
    message: `RuntimeClass.node.k8s.io "gvisor" is invalid: ${lines.length === 1 ? lines[0] : `[${lines.join(', ')}]`}`,
  });
  expect(s.details?.causes?.map((c) => [c.field, c.message])).toEqual(causes);
}

describe('RuntimeClass', () => {
  it('is served cluster-scoped at node.k8s.io/v1, with canonical overhead quantities and no generation', async () => {
    const created = await classes().create(
      rc({
        overhead: { podFixed: { cpu: '0.25', memory: '120Mi' } },
        scheduling: { nodeSelector: { sandbox: 'yes' }, tolerations: [{ key: 'sandbox', operator: 'Exists' }] },
      }),
    );
    expect(created).toMatchObject({ apiVersion: 'node.k8s.io/v1', kind: 'RuntimeClass', handler: 'runsc' });
    expect(created.overhead).toEqual({ podFixed: { cpu: '250m', memory: '120Mi' } });
    expect(created.metadata?.namespace).toBeUndefined();
    expect(created.metadata?.generation).toBeUndefined();
  });

  it('needs a handler that is a DNS label', async () => {
    await expectInvalid(() => classes().create(rc({ handler: 'Run.SC' })), ['handler', `Invalid value: "Run.SC": ${DNS_LABEL}`]);
    await expectInvalid(() => classes().create({ metadata: { name: 'gvisor' } } as RuntimeClass), ['handler', `Invalid value: "": ${DNS_LABEL}`]);
  });

  it('checks overhead as container resource limits', async () => {
    await expectInvalid(
      () => classes().create(rc({ overhead: { podFixed: { cpu: '-1', bogus: '1' } } })),
      ['overhead.limits[cpu]', 'Invalid value: "-1": must be greater than or equal to 0'],
      ['overhead.limits[bogus]', 'Invalid value: "bogus": must be a standard resource type or fully qualified'],
    );
  });

  it('checks the scheduling node selector and tolerations, which must be unique', async () => {
    await expectInvalid(
      () =>
        classes().create(
          rc({
            scheduling: {
              nodeSelector: { 'a b': 'c' },
              tolerations: [
                { key: 'k', operator: 'Equal', value: 'v', effect: 'NoSchedule' },
                { key: 'k', operator: 'Equal', value: 'v', effect: 'NoSchedule' },
                { operator: 'Equal', value: 'v' },
              ],
            },
          }),
        ),
      [
        'scheduling.nodeSelector',
        "Invalid value: \"a b\": name part must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]')",
      ],
      [
        'scheduling.tolerations[2].operator',
        'Invalid value: "Equal": operator must be Exists when `key` is empty, which means "match all values and all keys"',
      ],
      [
        'scheduling.tolerations[1]',
        'Duplicate value: core.Toleration{Key:"k", Operator:"Equal", Value:"v", Effect:"NoSchedule", TolerationSeconds:(*int64)(nil)}',
      ],
    );
  });

  it('never changes its handler; other fields may change; updates need a resourceVersion; PUT creates', async () => {
    const created = await classes().create(rc());
    await expectInvalid(() => classes().update({ ...created, handler: 'kata' }), ['handler', 'Invalid value: "kata": field is immutable']);
    const updated = await classes().update({ ...created, scheduling: { nodeSelector: { a: 'b' } } });
    expect(updated.scheduling).toEqual({ nodeSelector: { a: 'b' } });
    const s = await statusOf(() => classes().update({ ...updated, metadata: { name: 'gvisor' } }));
    expect(s).toMatchObject({ code: 422, details: { causes: [{ field: 'metadata.resourceVersion' }] } });
    const res = await cluster.fetch(
      new Request('http://memkube/apis/node.k8s.io/v1/runtimeclasses/kata', {
        method: 'PUT',
        headers: { 'Content-Type': 'application/json' },
        body: JSON.stringify({ apiVersion: 'node.k8s.io/v1', kind: 'RuntimeClass', metadata: { name: 'kata' }, handler: 'kata' }),
      }),
    );
    expect(res.status).toBe(201);
  });

  it('prints Handler and Age', async () => {
    await classes().create(rc());
    const res = await cluster.fetch(
      new Request('http://memkube/apis/node.k8s.io/v1/runtimeclasses', { headers: { Accept: 'application/json;as=Table;v=v1;g=meta.k8s.io' } }),
    );
    const t = (await res.json()) as { columnDefinitions: { name: string }[]; rows: { cells: unknown[] }[] };
    expect(t.columnDefinitions.map((c) => c.name)).toEqual(['Name', 'Handler', 'Age']);
    expect(t.rows.map((r) => r.cells)).toEqual([['gvisor', 'runsc', '0s']]);
  });

  it('answers malformed values with a 4xx and stores nothing', async () => {
    for (const over of [{ handler: 5 }, { overhead: { podFixed: { cpu: 'lots' } } }, { scheduling: { tolerations: 'all' } }]) {
      const s = await statusOf(() => classes().create(rc(over as Partial<RuntimeClass>)));
      expect(s.code).toBeGreaterThanOrEqual(400);
      expect(s.code).toBeLessThan(500);
    }
    expect((await classes().list()).items).toHaveLength(0);
  });
});
