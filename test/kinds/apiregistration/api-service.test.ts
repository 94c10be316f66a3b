import { beforeAll, describe, expect, it } from 'vitest';
import { goQuote } from '../../../src/util/go-format.js';
import { APIServiceKind, apiregistrationKinds, type APIService } from '../../../src/kinds/apiregistration/index.js';
import { statusOf, useTestCluster } from '../../support/cluster.js';
import { b64, certificatePem, csrDer, csrPem, keyPair } from '../certificates/helpers.js';

const cluster = useTestCluster({ kinds: [...apiregistrationKinds] });
const apis = () => cluster.client.resource(APIServiceKind);

const local = (over: Partial<NonNullable<APIService['spec']>> = {}, name = 'v1beta1.example.com'): APIService => ({
  metadata: { name },
  spec: { group: 'example.com', version: 'v1beta1', groupPriorityMinimum: 1000, versionPriority: 15, ...over },
});
const remote = (over: Partial<NonNullable<APIService['spec']>> = {}) => local({ service: { namespace: 'ns', name: 'api' }, ...over });
const CA = Buffer.from('-----BEGIN CERTIFICATE-----\nMIIB\n-----END CERTIFICATE-----\n').toString('base64');

async function invalid(obj: APIService, ...messages: string[]) {
  const s = await statusOf(() => apis().create(obj));
  const body = messages.length === 1 ? messages[0] : `[${messages.join(', ')}]`;
  expect(s).toMatchObject({ code: 422, reason: 'Invalid', message: `APIService.apiregistration.k8s.io "${obj.metadata?.name}" is invalid: ${body}` });
  return s;
}

describe('APIService', () => {
  it('accepts a local APIService and defaults the service port to 443', async () => {
    expect((await apis().create(local())).spec).toEqual(local().spec);
    const other = await apis().create({ metadata: { name: 'v1.example.com' }, spec: { ...remote().spec!, version: 'v1', caBundle: CA } });
    expect(other.spec?.service).toEqual({ namespace: 'ns', name: 'api', port: 443 });
    expect(other.spec?.caBundle).toBe(CA);
  });

  it('requires the name to be <version>.<group>', async () => {
    await invalid(local({}, 'wrong'), 'metadata.name: Invalid value: "wrong": must be `spec.version+"."+spec.group`: "v1beta1.example.com"');
  });

  it('allows an empty group only for v1', async () => {
    await apis().create({ metadata: { name: 'v1.' }, spec: { version: 'v1', groupPriorityMinimum: 18000, versionPriority: 1 } });
    await invalid(
      { metadata: { name: 'v2.' }, spec: { version: 'v2', groupPriorityMinimum: 18000, versionPriority: 1 } },
      'spec.group: Required value: only v1 may have an empty group and it better be legacy kube',
    );
  });

  it('checks group and version names', async () => {
    await invalid(
      local({ group: 'Example.com', version: '1x' }, '1x.Example.com'),
      "spec.group: Invalid value: \"Example.com\": a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')",
      "spec.version: Invalid value: \"1x\": a DNS-1035 label must consist of lower case alphanumeric characters or '-', start with an alphabetic character, and end with an alphanumeric character (e.g. 'my-name',  or 'abc-123', regex used for validation is '[a-z]([-a-z0-9]*[a-z0-9])?')",
    );
  });

  it.each([
    [{ groupPriorityMinimum: 0 }, 'spec.groupPriorityMinimum: Invalid value: 0: must be positive and less than 20000'],
    [{ groupPriorityMinimum: 20001 }, 'spec.groupPriorityMinimum: Invalid value: 20001: must be positive and less than 20000'],
    [{ versionPriority: 0 }, 'spec.versionPriority: Invalid value: 0: must be positive and less than 1000'],
    [{ versionPriority: 1001 }, 'spec.versionPriority: Invalid value: 1001: must be positive and less than 1000'],
    [{ caBundle: CA }, `spec.caBundle: Invalid value: "${Buffer.from(CA, 'base64').length} bytes": local APIServices may not have a caBundle`],
    [{ insecureSkipTLSVerify: true }, 'spec.insecureSkipTLSVerify: Invalid value: true: local APIServices may not have insecureSkipTLSVerify'],
  ])('rejects local %j', async (over, msg) => {
    await invalid(local(over), msg);
  });

  it('treats missing priorities as 0', async () => {
    const s = await invalid(
      { metadata: { name: 'v1.example.com' }, spec: { group: 'example.com', version: 'v1' } as APIService['spec'] },
      'spec.groupPriorityMinimum: Invalid value: 0: must be positive and less than 20000',
      'spec.versionPriority: Invalid value: 0: must be positive and less than 1000',
    );
    expect(s.details?.causes).toHaveLength(2);
  });

  it('checks the service reference', async () => {
    await invalid(local({ service: {} }), 'spec.service.namespace: Required value', 'spec.service.name: Required value');
    await invalid(
      remote({ service: { namespace: 'ns', name: 'api', port: 0 } }),
      'spec.service.port: Invalid value: 0: port is not valid: must be between 1 and 65535, inclusive',
    );
    await invalid(
      remote({ service: { namespace: 'ns', name: 'api', port: 65536 } }),
      'spec.service.port: Invalid value: 65536: port is not valid: must be between 1 and 65535, inclusive',
    );
    await invalid(
      remote({ caBundle: CA, insecureSkipTLSVerify: true }),
      'spec.insecureSkipTLSVerify: Invalid value: true: may not be true if caBundle is present',
    );
    await apis().create(remote({ service: { namespace: 'ns', name: 'api', port: 65535 }, insecureSkipTLSVerify: true }));
  });

  it('rejects a caBundle that is not base64 while decoding', async () => {
    const s = await statusOf(() => apis().create(remote({ caBundle: 'not base64!' })));
    expect(s.code).toBe(400);
  });

  it('requires a resourceVersion on update and validates the spec again', async () => {
    const a = await apis().create(local());
    const s = await statusOf(() => apis().update({ ...a, spec: { ...a.spec!, versionPriority: 0 } }));
    expect(s.message).toBe(
      'APIService.apiregistration.k8s.io "v1beta1.example.com" is invalid: spec.versionPriority: Invalid value: 0: must be positive and less than 1000',
    );
    const u = await statusOf(() => apis().update(local()));
    expect(u.code).toBe(422);
  });

  it('changes status only through /status, with True/False/Unknown condition statuses', async () => {
    const a = await apis().create({ ...local(), status: { conditions: [{ type: 'Available', status: 'True' }] } });
    expect(a.status).toEqual({});
    const cond = {
      type: 'Available',
      status: 'False',
      reason: 'MissingEndpoints',
      message: 'endpoints for service/api in "ns" have no addresses',
      lastTransitionTime: '2026-01-01T00:00:00Z',
    };
    const updated = await apis().updateStatus({ ...a, status: { conditions: [cond] } });
    expect(updated.status?.conditions).toEqual([cond]);
    const s = await statusOf(() => apis().updateStatus({ ...updated, status: { conditions: [{ ...cond, status: 'Maybe' }] } }));
    expect(s).toMatchObject({
      code: 422,
      message:
        'APIService.apiregistration.k8s.io "v1beta1.example.com" is invalid: status.conditions[0].status: Unsupported value: "Maybe": supported values: "True", "False", "Unknown"',
      details: { causes: [{ field: 'status.conditions[0].status', reason: 'FieldValueNotSupported' }] },
    });
  });

  describe('caBundle must be a PEM bundle of CERTIFICATE blocks (not checked by Kubernetes itself)', () => {
    const NOT_PEM = 'spec.caBundle: Invalid value: must be a PEM-encoded CA bundle';
    let realCA = '';
    let realPair = '';
    beforeAll(async () => {
      const ca = await keyPair();
      const other = await keyPair({ name: 'RSASSA-PKCS1-v1_5', modulusLength: 2048 });
      const day = new Date('2026-01-01T00:00:00Z');
      const year = new Date('2027-01-01T00:00:00Z');
      realCA = await certificatePem(ca.publicKey, ca.privateKey, day, year);
      realPair = `# bundle of two CAs\n${realCA}some text between blocks\n${await certificatePem(other.publicKey, other.privateKey, day, year)}trailing text`;
    });

    it('accepts real certificates, several blocks, and text around them', async () => {
      const one = await apis().create(remote({ caBundle: b64(realCA) }));
      expect(Buffer.from(one.spec!.caBundle!, 'base64').toString()).toBe(realCA);
      await apis().delete(one.metadata!.name!);
      const two = await apis().create(remote({ caBundle: b64(realPair) }));
      expect(two.spec?.caBundle).toBe(b64(realPair));
    });

    it('accepts an empty caBundle', async () => {
      const a = await apis().create(remote({ caBundle: '' }));
      expect(a.spec?.caBundle ?? '').toBe('');
    });

    it.each([
      ['plain text', 'not a certificate'],
      ['a DER certificate without PEM armour', '\u0030\u0082\u0001\u0000binary'],
      ['a BEGIN line without END', '-----BEGIN CERTIFICATE-----\nMIIB\n'],
      ['mismatched BEGIN and END types', '-----BEGIN CERTIFICATE-----\nMIIB\n-----END PRIVATE KEY-----\n'],
      ['a private key block', '-----BEGIN PRIVATE KEY-----\nMIIB\n-----END PRIVATE KEY-----\n'],
      ['a lower-case type', '-----BEGIN certificate-----\nMIIB\n-----END certificate-----\n'],
      ['a body that is not base64', '-----BEGIN CERTIFICATE-----\nnot base64!\n-----END CERTIFICATE-----\n'],
    ])('rejects %s', async (_what, bundle) => {
      const s = await invalid(remote({ caBundle: b64(bundle) }), NOT_PEM);
      expect(s.details?.causes).toEqual([{ reason: 'FieldValueInvalid', field: 'spec.caBundle', message: 'Invalid value: must be a PEM-encoded CA bundle' }]);
      expect((await apis().list()).items).toEqual([]);
    });

    it('rejects a certificate followed by a non-certificate block (every block must be a CERTIFICATE)', async () => {
      const keys = await keyPair();
      await invalid(remote({ caBundle: b64(realCA + csrPem(await csrDer(keys))) }), NOT_PEM);
      await invalid(remote({ caBundle: b64(`${realCA}-----BEGIN RSA PRIVATE KEY-----\nMIIB\n-----END RSA PRIVATE KEY-----\n`) }), NOT_PEM);
    });

    it('reports both caBundle problems of a local APIService', async () => {
      const bad = b64('nope');
      const s = await invalid(local({ caBundle: bad }), NOT_PEM, 'spec.caBundle: Invalid value: "4 bytes": local APIServices may not have a caBundle');
      expect(s.details?.causes?.map((c) => c.field)).toEqual(['spec.caBundle', 'spec.caBundle']);
    });

    it('checks the bundle on update too, keeping the stored object', async () => {
      const a = await apis().create(remote({ caBundle: b64(realCA) }));
      const s = await statusOf(() => apis().update({ ...a, spec: { ...a.spec!, caBundle: b64('garbage') } }));
      expect(s).toMatchObject({ code: 422, message: `APIService.apiregistration.k8s.io "v1beta1.example.com" is invalid: ${NOT_PEM}` });
      expect((await apis().get('v1beta1.example.com')).spec?.caBundle).toBe(b64(realCA));
    });

    it('answers hostile bundles (many BEGIN lines, one END) quickly with 422', async () => {
      const hostile = '-----BEGIN CERTIFICATE-----\n'.repeat(60_000) + '-----END X-----\n';
      const started = Date.now();
      await invalid(remote({ caBundle: b64(hostile) }), NOT_PEM);
      expect(Date.now() - started).toBeLessThan(5_000);
    });
  });

  describe('status condition reason is one-word CamelCase (metav1.Condition rule; not checked by Kubernetes for APIService)', () => {
    const REASON_MSG =
      "a condition reason must start with alphabetic character, optionally followed by a string of alphanumeric characters or '_,:', and must end with an alphanumeric character or '_' (e.g. 'my_name',  or 'MY_NAME',  or 'MyName',  or 'ReasonA,ReasonB',  or 'ReasonA:ReasonB', regex used for validation is '[A-Za-z]([A-Za-z0-9_,:]*[A-Za-z0-9_])?')";
    const withReason = async (reason: string | undefined) => {
      const a = await apis().create(local());
      return apis().updateStatus({ ...a, status: { conditions: [{ type: 'Available', status: 'True', reason }] } });
    };

    it.each(['Passed', 'MissingEndpoints', 'my_name', 'ReasonA,ReasonB', 'ReasonA:ReasonB', 'A', 'x_', '', undefined])('accepts reason %j', async (reason) => {
      const a = await withReason(reason);
      expect(a.status?.conditions?.[0]).toMatchObject({ type: 'Available', status: 'True' });
      expect(a.status?.conditions?.[0]?.reason ?? '').toBe(reason ?? '');
    });

    it.each(['Missing Endpoints', '1Reason', '_Reason', 'Reason.', 'Reason,', 'Reason:', 'Réason', 'Reason-Name', 'Reason\n'])(
      'rejects reason %j on /status, keeping the stored status',
      async (reason) => {
        const a = await apis().create(local());
        const good = await apis().updateStatus({ ...a, status: { conditions: [{ type: 'Available', status: 'True', reason: 'Passed' }] } });
        const s = await statusOf(() => apis().updateStatus({ ...good, status: { conditions: [{ type: 'Available', status: 'True', reason }] } }));
        const body = `Invalid value: ${goQuote(reason)}: ${REASON_MSG}`;
        expect(s).toMatchObject({
          code: 422,
          reason: 'Invalid',
          message: `APIService.apiregistration.k8s.io "v1beta1.example.com" is invalid: status.conditions[0].reason: ${body}`,
          details: { causes: [{ reason: 'FieldValueInvalid', field: 'status.conditions[0].reason', message: body }] },
        });
        expect((await apis().get('v1beta1.example.com')).status?.conditions?.[0]?.reason).toBe('Passed');
      },
    );

    it('reports every bad condition with its index, next to a bad status', async () => {
      const a = await apis().create(local());
      const s = await statusOf(() =>
        apis().updateStatus({
          ...a,
          status: {
            conditions: [
              { type: 'Available', status: 'True', reason: 'Fine' },
              { type: 'Other', status: 'Maybe', reason: 'not ok' },
            ],
          },
        }),
      );
      expect(s.details?.causes?.map((c) => c.field)).toEqual(['status.conditions[1].status', 'status.conditions[1].reason']);
    });

    it('does not check reasons on the main resource, where status is ignored', async () => {
      const a = await apis().create({ ...local(), status: { conditions: [{ type: 'Available', status: 'True', reason: 'not ok' }] } });
      expect(a.status).toEqual({});
    });

    it('rejects a reason that is not a string while decoding', async () => {
      const a = await apis().create(local());
      const s = await statusOf(() =>
        apis().updateStatus({ ...a, status: { conditions: [{ type: 'Available', status: 'True', reason: 7 as unknown as string }] } }),
      );
      expect(s.code).toBe(400);
      expect((await apis().get('v1beta1.example.com')).status).toEqual({});
    });
  });
});
