import { beforeEach, describe, expect, it } from 'vitest';
import { ServiceAccountKind, type ServiceAccount } from '../../../src/kinds/index.js';
import { statusOf, useTestCluster } from '../../support/cluster.js';

const cluster = useTestCluster();
let warnings: string[] = [];
beforeEach(() => {
  warnings = [];
});

const sas = () => cluster.client.withWarnings((w) => warnings.push(...w)).resource(ServiceAccountKind);
const create = (sa: ServiceAccount) => sas().create(sa, { namespace: 'default' });
const names = async () => (await sas().list({ namespace: 'default' })).items.map((s) => s.metadata?.name).sort();

const DEPRECATION =
  'metadata.annotations[kubernetes.io/enforce-mountable-secrets]: deprecated in v1.32+; prefer separate namespaces to isolate access to mounted secrets';

describe('ServiceAccount', () => {
  it('stores the account as given, keeping only the name of each secrets reference', async () => {
    const sa = await create({
      metadata: { name: 'builder' },
      automountServiceAccountToken: false,
      imagePullSecrets: [{ name: 'registry' }],
      secrets: [
        { name: 'token', namespace: 'elsewhere', uid: 'u-1', kind: 'Secret', apiVersion: 'v1', fieldPath: 'x', resourceVersion: '7' },
        { kind: 'Secret' },
      ],
    });
    const { metadata, ...rest } = sa;
    expect(rest).toEqual({
      apiVersion: 'v1',
      kind: 'ServiceAccount',
      automountServiceAccountToken: false,
      imagePullSecrets: [{ name: 'registry' }],
      secrets: [{ name: 'token' }, {}],
    });
    expect(metadata).toMatchObject({ name: 'builder', namespace: 'default' });
    expect(warnings).toEqual([]);
  });

  it('reduces secrets references on update too, and lets every field change', async () => {
    const sa = await create({ metadata: { name: 'a' } });
    const updated = await sas().update(
      { ...sa, automountServiceAccountToken: true, secrets: [{ name: 's', namespace: 'default' }], imagePullSecrets: [{ name: 'p' }, {}] },
      { namespace: 'default' },
    );
    expect(updated).toMatchObject({ automountServiceAccountToken: true, secrets: [{ name: 's' }], imagePullSecrets: [{ name: 'p' }, {}] });
  });

  it('validates only the metadata: the name is a DNS subdomain', async () => {
    await create({ metadata: { name: 'dotted.name-1' } });
    const before = await names();
    const s = await statusOf(() => create({ metadata: { name: 'Bad_Name' } }));
    expect(s).toMatchObject({
      code: 422,
      message:
        "ServiceAccount \"Bad_Name\" is invalid: metadata.name: Invalid value: \"Bad_Name\": a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')",
    });
    expect(await names()).toEqual(before);
  });

  it('warns when enforce-mountable-secrets is newly set, not when it was already there', async () => {
    const sa = await create({ metadata: { name: 'e', annotations: { 'kubernetes.io/enforce-mountable-secrets': 'true' } } });
    expect(warnings).toEqual([DEPRECATION]);
    warnings = [];
    await sas().update({ ...sa, automountServiceAccountToken: false }, { namespace: 'default' });
    expect(warnings).toEqual([]);
    const plain = await create({ metadata: { name: 'p' } });
    await sas().update(
      { ...plain, metadata: { ...plain.metadata, annotations: { 'kubernetes.io/enforce-mountable-secrets': 'false' } } },
      { namespace: 'default' },
    );
    expect(warnings).toEqual([DEPRECATION]);
  });

  it('answers a delete with the deleted account', async () => {
    const sa = await create({ metadata: { name: 'gone' } });
    const deleted = await sas().delete('gone', { namespace: 'default' });
    expect(deleted).toMatchObject({ kind: 'ServiceAccount', metadata: { name: 'gone', uid: sa.metadata?.uid } });
  });

  it('rejects a wrongly typed field with 400 and stores nothing', async () => {
    const before = await names();
    const s = await statusOf(() => create({ metadata: { name: 'x' }, automountServiceAccountToken: 'yes' as unknown as boolean }));
    expect(s).toMatchObject({ code: 400, reason: 'BadRequest' });
    expect(await names()).toEqual(before);
  });
});
