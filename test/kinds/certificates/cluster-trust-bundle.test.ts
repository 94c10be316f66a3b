import { beforeAll, describe, expect, it } from 'vitest';
import { ClusterTrustBundleKind, type ClusterTrustBundle } from '../../../src/kinds/certificates/index.js';
import { generateServingCertificate } from '../../../src/pki/self-signed.js';
import { statusOf, testCluster, useTestCluster } from '../../support/cluster.js';

const cluster = useTestCluster();
const bundles = () => cluster.client.resource(ClusterTrustBundleKind);
let ca = '';
let leaf = '';

beforeAll(async () => {
  const pair = await generateServingCertificate({ hosts: ['localhost'] });
  ca = pair.ca.cert;
  leaf = pair.serving.cert;
});

const bundle = (name: string, trustBundle: string, signerName?: string): ClusterTrustBundle => ({
  metadata: { name },
  spec: { trustBundle, ...(signerName ? { signerName } : {}) },
});

async function causes(obj: ClusterTrustBundle): Promise<[string, string][]> {
  const s = await statusOf(() => bundles().create(obj));
  expect(s).toMatchObject({ code: 422, reason: 'Invalid' });
  expect((await bundles().list()).items).toHaveLength(0);
  return (s.details?.causes ?? []).map((c) => [c.field ?? '', c.message ?? '']);
}

describe('ClusterTrustBundle', () => {
  it('is served cluster-scoped at v1beta1 and v1alpha1', async () => {
    const b = await bundles().create(bundle('example.com:signer:v1', ca, 'example.com/signer'));
    expect(b).toMatchObject({ apiVersion: 'certificates.k8s.io/v1beta1', spec: { signerName: 'example.com/signer' } });
    expect(b.metadata?.generation).toBeUndefined();
    const res = await cluster.fetch(new Request('http://memkube/apis/certificates.k8s.io/v1alpha1/clustertrustbundles/example.com:signer:v1'));
    expect(((await res.json()) as { apiVersion: string }).apiVersion).toBe('certificates.k8s.io/v1alpha1');
    expect((await bundles().list({ fieldSelector: 'spec.signerName=example.com/signer' })).items).toHaveLength(1);
    expect((await bundles().list({ fieldSelector: 'spec.signerName=other.com/x' })).items).toHaveLength(0);
    const table = await cluster.fetch(
      new Request('http://memkube/apis/certificates.k8s.io/v1beta1/clustertrustbundles', {
        headers: { Accept: 'application/json;as=Table;v=v1;g=meta.k8s.io' },
      }),
    );
    const t = (await table.json()) as { columnDefinitions: { name: string }[]; rows: { cells: unknown[] }[] };
    expect(t.columnDefinitions.map((c) => c.name).slice(0, 2)).toEqual(['Name', 'SignerName']);
    expect(t.rows[0]?.cells.slice(0, 2)).toEqual(['example.com:signer:v1', 'example.com/signer']);
  });

  it('ties the name to the signer name', async () => {
    expect(await causes(bundle('other:v1', ca, 'example.com/signer'))).toEqual([
      ['metadata.name', 'Invalid value: "other:v1": ClusterTrustBundle for signerName example.com/signer must be named with prefix example.com:signer:'],
    ]);
    expect(await causes(bundle('a:b', ca))).toEqual([
      ['metadata.name', 'Invalid value: "a:b": ClusterTrustBundle without signer name must not have ":" in its name'],
    ]);
    expect((await causes(bundle('example:x:v1', ca, 'example/x'))).map(([f]) => f)).toEqual(['spec.signerName']);
  });

  it('needs CA certificates in the bundle, without duplicates', async () => {
    expect(await causes(bundle('b', ''))).toEqual([['spec.trustBundle', 'Invalid value: "<value omitted>": at least one trust anchor must be provided']]);
    expect(await causes(bundle('b', leaf))).toEqual([['spec.trustBundle', 'Invalid value: "<value omitted>": entry 0 does not have the CA bit set']]);
    expect(await causes(bundle('b', ca + '-----BEGIN PRIVATE KEY-----\nAAAA\n-----END PRIVATE KEY-----\n'))).toEqual([
      ['spec.trustBundle', 'Invalid value: "<value omitted>": entry 1 has bad block type: PRIVATE KEY'],
    ]);
    expect(await causes(bundle('b', '-----BEGIN CERTIFICATE-----\nAAAA\n-----END CERTIFICATE-----\n'))).toEqual([
      ['spec.trustBundle', 'Invalid value: "<value omitted>": entry 0 does not parse as X.509'],
    ]);
    expect(await causes(bundle('b', ca + ca))).toEqual([['spec.trustBundle', 'Invalid value: "<value omitted>": duplicate trust anchor (indices [0 1])']]);
  });

  it('keeps the signer name immutable', async () => {
    const b = await bundles().create(bundle('example.com:signer:v1', ca, 'example.com/signer'));
    const s = await statusOf(() => bundles().update({ ...b, spec: { ...b.spec, signerName: 'example.com/other' } }));
    expect(s.details?.causes?.map((c) => [c.field, c.message])).toContainEqual(['spec.signerName', 'Invalid value: "example.com/other": field is immutable']);
  });

  it('is not served without the ClusterTrustBundle gate', async () => {
    const c = await testCluster({ featureGates: { ClusterTrustBundle: false } });
    try {
      expect((await c.fetch(new Request('http://memkube/apis/certificates.k8s.io/v1beta1/clustertrustbundles'))).status).toBe(404);
    } finally {
      await c.close();
    }
  });
});
