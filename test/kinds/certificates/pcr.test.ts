import { beforeAll, describe, expect, it } from 'vitest';
import type { webcrypto } from 'node:crypto';
import { createCluster } from '../../../src/cluster.js';
import { PodCertificateRequestKind, certificatesKinds } from '../../../src/kinds/certificates/index.js';
import { statusOf } from '../../support/cluster.js';
import { b64, certificatePem, csrDer, keyPair } from './helpers.js';

const T0 = new Date('2026-01-01T00:00:00Z');
let p256: webcrypto.CryptoKeyPair;
let stub = '';
let rsa2048Stub = '';
let brokenStub = '';

beforeAll(async () => {
  p256 = await keyPair();
  stub = b64(await csrDer(p256));
  rsa2048Stub = b64(await csrDer(await keyPair({ name: 'RSASSA-PKCS1-v1_5', modulusLength: 2048 })));
  brokenStub = b64(await csrDer(p256, { corrupt: true }));
});

const cluster = () => createCluster({ clock: T0, kinds: certificatesKinds });
const pcr = (spec: Record<string, unknown> = {}) => ({
  metadata: { name: 'p1', namespace: 'default' },
  spec: {
    signerName: 'example.com/signer',
    podName: 'pod-1',
    podUID: 'pod-uid',
    serviceAccountName: 'default',
    serviceAccountUID: 'sa-uid',
    nodeName: 'node-1',
    nodeUID: 'node-uid',
    stubPKCS10Request: stub,
    ...spec,
  },
});

describe('PodCertificateRequest', () => {
  it('defaults maxExpirationSeconds and accepts a P-256 stub', async () => {
    const c = await cluster();
    const made = await c.client.resource(PodCertificateRequestKind).create(pcr() as never);
    expect(made.spec.maxExpirationSeconds).toBe(86400);
    expect(made.apiVersion).toBe('certificates.k8s.io/v1');
    await c.close();
  });

  it('is served at v1beta1 too, one object whichever version reads it', async () => {
    const c = await cluster();
    await c.client.resource(PodCertificateRequestKind).create(pcr() as never);
    const res = await c.fetch(new Request('http://memkube.test/apis/certificates.k8s.io/v1beta1/namespaces/default/podcertificaterequests/p1'));
    const body = (await res.json()) as { apiVersion: string; spec: { podName: string } };
    expect([res.status, body.apiVersion, body.spec.podName]).toEqual([200, 'certificates.k8s.io/v1beta1', 'pod-1']);
    await c.close();
  });

  it('rejects RSA 2048 and a broken signature', async () => {
    const c = await cluster();
    const r = c.client.resource(PodCertificateRequestKind);
    const s = await statusOf(() => r.create(pcr({ stubPKCS10Request: rsa2048Stub }) as never));
    expect(s.details?.causes).toEqual([
      {
        reason: 'FieldValueInvalid',
        field: 'spec.stubPKCS10Request',
        message: 'Invalid value: "2048-bit modulus": RSA keys must have modulus size 3072 or 4096',
      },
    ]);
    const s2 = await statusOf(() => r.create(pcr({ stubPKCS10Request: brokenStub }) as never));
    expect(s2.details?.causes?.[0]?.field).toBe('spec.stubPKCS10Request');
    expect(s2.message).toContain('x509: ECDSA verification failure');
    await c.close();
  });

  it('checks maxExpirationSeconds, stricter for reserved-domain signers', async () => {
    const c = await cluster();
    const r = c.client.resource(PodCertificateRequestKind);
    expect((await statusOf(() => r.create(pcr({ maxExpirationSeconds: 3599 }) as never))).message).toContain(
      'spec.maxExpirationSeconds: Invalid value: 3599: must be in the range [3600, 7862400]',
    );
    await r.create(pcr({ maxExpirationSeconds: 7862400 }) as never);
    expect(
      (await statusOf(() => r.create({ ...pcr({ signerName: 'kubernetes.io/foo', maxExpirationSeconds: 86401 }), metadata: { name: 'p2' } } as never))).message,
    ).toContain('spec.maxExpirationSeconds: Invalid value: 86401: must be in the range [3600, 86400]');
    await c.close();
  });

  it('requires the identity fields and domain-prefixed annotation keys', async () => {
    const c = await cluster();
    const r = c.client.resource(PodCertificateRequestKind);
    const s = await statusOf(() => r.create(pcr({ podUID: '', nodeUID: '', unverifiedUserAnnotations: { plain: 'x' } }) as never));
    expect(s.details?.causes?.map((x) => `${x.field}: ${x.message}`)).toEqual([
      'spec.unverifiedUserAnnotations[plain]: Invalid value: "plain": must be a domain-prefixed key (such as "acme.io/foo")',
      'spec.podUID: Invalid value: "": must not be empty',
      'spec.nodeUID: Invalid value: "": must not be empty',
    ]);
    await c.close();
  });

  it('keeps the spec immutable', async () => {
    const c = await cluster();
    const r = c.client.resource(PodCertificateRequestKind);
    const made = await r.create(pcr() as never);
    const s = await statusOf(() => r.update({ ...made, spec: { ...made.spec, podName: 'other' } }));
    expect(s.details?.causes?.[0]).toMatchObject({ field: 'spec', reason: 'FieldValueInvalid' });
    expect(s.message).toMatch(/field is immutable$/);
    await c.close();
  });

  it('compares spec and status semantically: an empty map or list is no change, an instant in another zone neither', async () => {
    const c = await cluster();
    const r = c.client.resource(PodCertificateRequestKind);
    const made = await r.create(pcr() as never);
    const annotated = await r.update({ ...made, spec: { ...made.spec, unverifiedUserAnnotations: {} } });
    expect(annotated.spec.podName).toBe('pod-1');
    const pending = await r.updateStatus({ ...annotated, status: { conditions: [] } });
    expect(pending.status?.conditions ?? []).toEqual([]);
    const denied = await r.updateStatus({
      ...pending,
      status: { conditions: [{ type: 'Denied', status: 'True', reason: 'No', message: '', lastTransitionTime: '2026-01-01T00:00:00Z' }] },
    });
    const again = await r.updateStatus({
      ...denied,
      status: { conditions: [{ type: 'Denied', status: 'True', reason: 'No', message: '', lastTransitionTime: '2026-01-01T01:00:00+01:00' }] },
    });
    expect(again.status?.conditions?.[0]?.type).toBe('Denied');
    await c.close();
  });

  it('issues through /status with consistent times; at most one terminal condition', async () => {
    const c = await cluster();
    const r = c.client.resource(PodCertificateRequestKind);
    const made = await r.create(pcr() as never);
    const two = await statusOf(() =>
      r.updateStatus({
        ...made,
        status: {
          conditions: [
            { type: 'Denied', status: 'True', reason: 'No', message: '', lastTransitionTime: '2026-01-01T00:00:00Z' },
            { type: 'Failed', status: 'True', reason: 'No', message: '', lastTransitionTime: '2026-01-01T00:00:00Z' },
          ],
        },
      }),
    );
    const noTime = await statusOf(() =>
      r.updateStatus({ ...made, status: { conditions: [{ type: 'Denied', status: 'True', reason: 'No', message: '' }] } } as never),
    );
    expect(noTime.message).toContain('status.conditions[0].lastTransitionTime: Required value: must be set');
    const other = await statusOf(() =>
      r.updateStatus({
        ...made,
        status: { conditions: [{ type: 'Ready', status: 'True', reason: 'R', message: '', lastTransitionTime: '2026-01-01T00:00:00Z' }] },
      }),
    );
    expect(other.message).toContain('status.conditions.[0].type: Unsupported value: "Ready": supported values: "Issued", "Denied", "Failed"');
    expect(two.message).toContain(
      'status.conditions.[1].type: Invalid value: "Failed": There may be at most one condition with type "Issued", "Denied", or "Failed"',
    );

    const chain = await certificatePem(p256.publicKey, p256.privateKey, new Date('2026-01-01T00:00:00Z'), new Date('2026-01-01T00:30:00Z'));
    const issued = (notAfter: string, certificateChain = chain) =>
      ({
        ...made,
        status: {
          conditions: [{ type: 'Issued', status: 'True', reason: 'Issued', message: '', lastTransitionTime: '2026-01-01T00:00:00Z' }],
          certificateChain,
          notBefore: '2026-01-01T00:00:00Z',
          notAfter,
          beginRefreshAt: '2026-01-01T00:15:00Z',
        },
      }) as never;
    const short = await statusOf(() => r.updateStatus(issued('2026-01-01T00:30:00Z')));
    expect(short.message).toContain('status.certificateChain: Invalid value: "30m0s": leaf certificate lifetime must be >= 1 hour');
    const mismatch = await statusOf(() => r.updateStatus(issued('2026-01-01T05:00:00Z')));
    expect(mismatch.message).toContain(
      'status.notAfter: Invalid value: "2026-01-01 05:00:00 +0000 UTC": must be set to the NotAfter time encoded in the leaf certificate',
    );

    const good = await certificatePem(p256.publicKey, p256.privateKey, new Date('2026-01-01T00:00:00Z'), new Date('2026-01-01T06:00:00Z'));
    const ok = await r.updateStatus(issued('2026-01-01T06:00:00Z', good));
    expect(ok.status).toMatchObject({ notBefore: '2026-01-01T00:00:00Z', notAfter: '2026-01-01T06:00:00Z', beginRefreshAt: '2026-01-01T00:15:00Z' });
    const after = await statusOf(() => r.updateStatus({ ...ok, status: { ...ok.status, beginRefreshAt: '2026-01-01T01:00:00Z' } }));
    expect(after.message).toContain('status: Invalid value: immutable after PodCertificateRequest is issued, denied, or failed');
    await c.close();
  });
});
