import { beforeAll, describe, expect, it } from 'vitest';
import { createCluster } from '../../../src/cluster.js';
import { CertificateSigningRequestKind, certificatesKinds } from '../../../src/kinds/certificates/index.js';
import { statusOf } from '../../support/cluster.js';
import { b64, certificatePem, csrDer, csrPem, keyPair } from './helpers.js';

const T0 = new Date('2026-01-01T00:00:00Z');
let goodRequest = '';
let badSignature = '';
let certPem = '';

beforeAll(async () => {
  const keys = await keyPair();
  goodRequest = b64(csrPem(await csrDer(keys, { commonName: 'alice' })));
  badSignature = b64(csrPem(await csrDer(keys, { commonName: 'alice', corrupt: true })));
  certPem = await certificatePem(keys.publicKey, keys.privateKey, new Date('2026-01-01T00:00:00Z'), new Date('2026-01-02T00:00:00Z'));
});

const cluster = () => createCluster({ clock: T0, kinds: certificatesKinds });
const csr = (spec: Record<string, unknown> = {}) => ({
  metadata: { name: 'c1' },
  spec: { request: goodRequest, signerName: 'example.com/signer', usages: ['digital signature', 'client auth'], ...spec },
});

describe('CertificateSigningRequest', () => {
  it('sets the requesting user on create and ignores what the body says', async () => {
    const c = await cluster();
    const alice = c.client.as({ username: 'alice', uid: 'u-1', groups: ['dev'], extra: { scopes: ['a', 'b'] } }).resource(CertificateSigningRequestKind);
    const made = await alice.create(csr({ username: 'mallory', groups: ['system:masters'] }) as never);
    expect(made.spec).toMatchObject({ username: 'alice', uid: 'u-1', groups: ['dev'], extra: { scopes: ['a', 'b'] } });
    expect(made.status ?? {}).toEqual({});
    // An update of the main resource keeps the spec (Kubernetes resets it silently).
    const updated = await alice.update({ ...made, spec: { ...made.spec, username: 'bob' } });
    expect(updated.spec.username).toBe('alice');
    await c.close();
  });

  it('rejects a request whose signature does not verify, and a non-CSR PEM', async () => {
    const c = await cluster();
    const r = c.client.resource(CertificateSigningRequestKind);
    const s = await statusOf(() => r.create(csr({ request: badSignature }) as never));
    expect(s.code).toBe(422);
    expect(s.details?.causes?.[0]).toMatchObject({ field: 'spec.request', reason: 'FieldValueInvalid' });
    expect(s.message).toMatch(/spec\.request: Invalid value: \[\]byte\{0x2d, .*: x509: ECDSA verification failure$/);
    const s2 = await statusOf(() => r.create(csr({ request: b64('hello') }) as never));
    expect(s2.message).toContain('Invalid value: []byte{0x68, 0x65, 0x6c, 0x6c, 0x6f}: PEM block type must be CERTIFICATE REQUEST');
    await c.close();
  });

  it('checks signerName, usages and expirationSeconds with Kubernetes messages', async () => {
    const c = await cluster();
    const r = c.client.resource(CertificateSigningRequestKind);
    const s = await statusOf(() => r.create(csr({ signerName: 'nodomain', usages: ['client auth', 'bogus', 'client auth'], expirationSeconds: 599 }) as never));
    expect(s.details?.causes?.map((x) => `${x.field}: ${x.message}`)).toEqual([
      expect.stringMatching(/^spec\.usages\[1\]: Unsupported value: "bogus": supported values: "any", "cert sign", /),
      'spec.usages[2]: Duplicate value: "client auth"',
      'spec.signerName: Invalid value: "nodomain": must be a fully qualified domain and path of the form \'example.com/signer-name\'',
      'spec.expirationSeconds: Invalid value: 599: may not specify a duration less than 600 seconds (10 minutes)',
    ]);
    const s2 = await statusOf(() => r.create(csr({ signerName: '', usages: [] }) as never));
    expect(s2.message).toBe('CertificateSigningRequest.certificates.k8s.io "c1" is invalid: [spec.usages: Required value, spec.signerName: Required value]');
    const s3 = await statusOf(() => r.create(csr({ signerName: 'example/signer' }) as never));
    expect(s3.message).toContain('spec.signerName: Invalid value: "example": should be a domain with at least two segments separated by dots');
    await c.close();
  });

  it('approves through /approval, never both Approved and Denied, with condition timestamps', async () => {
    const c = await cluster();
    const r = c.client.resource(CertificateSigningRequestKind);
    const made = await r.create(csr() as never);
    const approved = await r.updateSubresource('approval', {
      ...made,
      status: { conditions: [{ type: 'Approved', status: 'True', reason: 'OK' }], certificate: b64(certPem) },
    });
    expect(approved.status?.conditions).toEqual([
      { type: 'Approved', status: 'True', reason: 'OK', lastUpdateTime: '2026-01-01T00:00:00Z', lastTransitionTime: '2026-01-01T00:00:00Z' },
    ]);
    expect(approved.status?.certificate).toBeUndefined();
    const s = await statusOf(() =>
      r.updateSubresource('approval', { ...approved, status: { conditions: [...approved.status!.conditions!, { type: 'Denied', status: 'True' }] } }),
    );
    expect(s.message).toContain('status.conditions[1].type: Invalid value: "Denied": Approved and Denied conditions are mutually exclusive');
    const s2 = await statusOf(() => r.updateSubresource('approval', { ...approved, status: { conditions: [] } }));
    expect(s2.message).toContain('status.conditions: Forbidden: updates may not remove a condition of type "Approved"');
    const s3 = await statusOf(() =>
      r.updateSubresource('approval', { ...made, metadata: { name: 'c1' }, status: { conditions: [{ type: 'Approved', status: 'False' }] } }),
    );
    expect(s3.message).toContain('status.conditions[0].status: Unsupported value: "False": supported values: "True"');
    await c.close();
  });

  it('/status cannot add Approved; sets the certificate once; checks its PEM', async () => {
    const c = await cluster();
    const r = c.client.resource(CertificateSigningRequestKind);
    const made = await r.create(csr() as never);
    const s = await statusOf(() => r.updateStatus({ ...made, status: { conditions: [{ type: 'Approved', status: 'True' }] } }));
    expect(s.message).toContain('status.conditions: Forbidden: updates may not add a condition of type "Approved"');
    const approved = await r.updateSubresource('approval', { ...made, status: { conditions: [{ type: 'Approved', status: 'True' }] } });

    const bad = await statusOf(() =>
      r.updateStatus({ ...approved, status: { ...approved.status, certificate: b64('-----BEGIN FOO-----\nAAAA\n-----END FOO-----\n') } }),
    );
    expect(bad.details?.causes).toEqual([
      {
        reason: 'FieldValueInvalid',
        field: 'status.certificate',
        message: 'Invalid value: "<certificate data>": only CERTIFICATE PEM blocks are allowed, found "FOO"',
      },
    ]);
    const headers = certPem.replace('-----BEGIN CERTIFICATE-----\n', '-----BEGIN CERTIFICATE-----\nProc-Type: 4,ENCRYPTED\n\n');
    expect((await statusOf(() => r.updateStatus({ ...approved, status: { ...approved.status, certificate: b64(headers) } }))).message).toContain(
      'no PEM block headers are permitted',
    );
    expect((await statusOf(() => r.updateStatus({ ...approved, status: { ...approved.status, certificate: b64('just text') } }))).message).toContain(
      'must contain at least one CERTIFICATE PEM block',
    );

    const issued = await r.updateStatus({ ...approved, status: { ...approved.status, certificate: b64(`leading text\n${certPem}trailing text\n`) } });
    expect(issued.status?.certificate).toBeDefined();
    const again = await statusOf(() => r.updateStatus({ ...issued, status: { ...issued.status, certificate: b64(certPem) } }));
    expect(again.message).toContain('status.certificate: Forbidden: updates may not modify existing certificate content');
    const viaMain = await r.update({ ...issued, status: {} });
    expect(viaMain.status?.certificate).toBe(issued.status?.certificate);
    await c.close();
  });

  it('/status sets a certificate only once the request is Approved', async () => {
    const c = await cluster();
    const r = c.client.resource(CertificateSigningRequestKind);
    const made = await r.create(csr() as never);
    const pending = await statusOf(() => r.updateStatus({ ...made, status: { certificate: b64(certPem) } }));
    expect(pending.code).toBe(422);
    expect(pending.reason).toBe('Invalid');
    expect(pending.details?.causes).toEqual([
      { reason: 'FieldValueForbidden', field: 'status.certificate', message: 'Forbidden: certificate can only be set once the request is approved' },
    ]);
    expect(pending.message).toBe(
      'CertificateSigningRequest.certificates.k8s.io "c1" is invalid: status.certificate: Forbidden: certificate can only be set once the request is approved',
    );
    expect((await r.get('c1')).status?.certificate).toBeUndefined();

    const approved = await r.updateSubresource('approval', { ...made, status: { conditions: [{ type: 'Approved', status: 'True' }] } });
    const issued = await r.updateStatus({ ...approved, status: { ...approved.status, certificate: b64(certPem) } });
    expect(Buffer.from(issued.status!.certificate!, 'base64').toString()).toBe(certPem);
    await c.close();
  });

  it('/status sets no certificate on a Denied request', async () => {
    const c = await cluster();
    const r = c.client.resource(CertificateSigningRequestKind);
    const made = await r.create(csr() as never);
    const denied = await r.updateSubresource('approval', { ...made, status: { conditions: [{ type: 'Denied', status: 'True', reason: 'No' }] } });
    const s = await statusOf(() => r.updateStatus({ ...denied, status: { ...denied.status, certificate: b64(certPem) } }));
    expect(s.code).toBe(422);
    expect(s.details?.causes).toEqual([
      { reason: 'FieldValueForbidden', field: 'status.certificate', message: 'Forbidden: certificate can only be set once the request is approved' },
    ]);
    expect((await r.get('c1')).metadata?.resourceVersion).toBe(denied.metadata?.resourceVersion);
    await c.close();
  });

  it('/status sets no certificate on an Approved request that Failed, nor with Failed added in the same write', async () => {
    const c = await cluster();
    const r = c.client.resource(CertificateSigningRequestKind);
    const made = await r.create(csr() as never);
    const approved = await r.updateSubresource('approval', { ...made, status: { conditions: [{ type: 'Approved', status: 'True' }] } });
    const failedCause = [
      { reason: 'FieldValueForbidden', field: 'status.certificate', message: 'Forbidden: certificate can not be set on a request with a "Failed" condition' },
    ];
    const sameWrite = await statusOf(() =>
      r.updateStatus({
        ...approved,
        status: { conditions: [...approved.status!.conditions!, { type: 'Failed', status: 'True', reason: 'X' }], certificate: b64(certPem) },
      }),
    );
    expect(sameWrite.code).toBe(422);
    expect(sameWrite.details?.causes).toEqual(failedCause);
    const failed = await r.updateStatus({
      ...approved,
      status: { conditions: [...approved.status!.conditions!, { type: 'Failed', status: 'True', reason: 'X' }] },
    });
    const later = await statusOf(() => r.updateStatus({ ...failed, status: { ...failed.status, certificate: b64(certPem) } }));
    expect(later.details?.causes).toEqual(failedCause);
    expect((await r.get('c1')).status?.certificate).toBeUndefined();
    await c.close();
  });

  it('Failed can be added through /status and must be True', async () => {
    const c = await cluster();
    const r = c.client.resource(CertificateSigningRequestKind);
    const made = await r.create(csr() as never);
    const s = await statusOf(() => r.updateStatus({ ...made, status: { conditions: [{ type: 'Failed', status: 'Unknown' }] } }));
    expect(s.message).toContain('status.conditions[0].status: Unsupported value: "Unknown": supported values: "True"');
    const failed = await r.updateStatus({ ...made, status: { conditions: [{ type: 'Failed', status: 'True', reason: 'SignerError' }] } });
    expect(failed.status?.conditions?.[0]?.lastTransitionTime).toBe('2026-01-01T00:00:00Z');
    await c.close();
  });

  it('selects by spec.signerName', async () => {
    const c = await cluster();
    const r = c.client.resource(CertificateSigningRequestKind);
    await r.create(csr() as never);
    await r.create({ ...csr({ signerName: 'other.io/x' }), metadata: { name: 'c2' } } as never);
    const list = await r.list({ fieldSelector: 'spec.signerName=other.io/x' });
    expect(list.items.map((i) => i.metadata?.name)).toEqual(['c2']);
    await c.close();
  });
});
