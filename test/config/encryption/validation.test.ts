import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { loadEncryptionConfig } from '../../../src/config/encryption/index.js';
import { decodeEncryptionConfig, EncryptionConfigError } from '../../../src/config/encryption/index.js';

const K16 = Buffer.alloc(16, 1).toString('base64');
const K32 = Buffer.alloc(32, 2).toString('base64');

/** The message of a configuration that kube-apiserver would refuse. */
function refused(config: unknown): string {
  try {
    decodeEncryptionConfig(typeof config === 'string' ? config : (config as never));
  } catch (e) {
    expect(e).toBeInstanceOf(EncryptionConfigError);
    return (e as Error).message;
  }
  throw new Error('expected the configuration to be refused');
}

const file = (resources: unknown) => ({ apiVersion: 'apiserver.config.k8s.io/v1', kind: 'EncryptionConfiguration', resources });
const one = (resources: string[], ...providers: unknown[]) => file([{ resources, providers }]);
const aescbc = (...keys: unknown[]) => ({ aescbc: { keys } });
const PREFIX = 'error while parsing file: ';

describe('EncryptionConfiguration validation', () => {
  it('needs resources, and in each entry resources and providers', () => {
    expect(refused(file([]))).toBe(`${PREFIX}resources: Required value: at least one resources is required`);
    expect(refused(file([{ resources: [], providers: [] }]))).toBe(
      `${PREFIX}[resources[0].resources: Required value: at least one resources[0].resources is required, resources[0].providers: Required value: at least one resources[0].providers is required]`,
    );
  });

  it('needs exactly one provider type per element (the Go struct in the message, secrets included as kube-apiserver prints them)', () => {
    expect(refused(one(['secrets'], {}))).toBe(
      `${PREFIX}resources[0].providers[0]: Invalid value: {"AESGCM":null,"AESCBC":null,"Secretbox":null,"Identity":null,"KMS":null}: provider does not contain any of the expected providers: KMS, AESGCM, AESCBC, Secretbox, Identity`,
    );
    expect(refused(one(['secrets'], { ...aescbc({ name: 'k', secret: K16 }), identity: {} }))).toBe(
      `${PREFIX}resources[0].providers[0]: Invalid value: {"AESGCM":null,"AESCBC":{"Keys":[{"Name":"k","Secret":"${K16}"}]},"Secretbox":null,"Identity":{},"KMS":null}: more than one provider specified in a single element, should split into different list elements`,
    );
  });

  it('checks keys: present, named, base64, and of the provider sizes', () => {
    expect(refused(one(['secrets'], { aesgcm: { keys: [] } }))).toBe(
      `${PREFIX}resources[0].providers[0].aesgcm.keys: Required value: at least one keys is required`,
    );
    expect(refused(one(['secrets'], aescbc({ name: '', secret: '' })))).toBe(
      `${PREFIX}[resources[0].providers[0].aescbc.keys[0].name: Required value: name is a mandatory field for a key, resources[0].providers[0].aescbc.keys[0].secret: Required value: secret is a mandatory field for a key]`,
    );
    expect(refused(one(['secrets'], aescbc({ name: 'k', secret: 'not base64!' })))).toBe(
      `${PREFIX}resources[0].providers[0].aescbc.keys[0].secret: Invalid value: "REDACTED": secrets must be base64 encoded`,
    );
    expect(refused(one(['secrets'], aescbc({ name: 'k', secret: Buffer.alloc(16).toString('base64').replace(/=+$/, '') })))).toBe(
      `${PREFIX}resources[0].providers[0].aescbc.keys[0].secret: Invalid value: "REDACTED": secrets must be base64 encoded`,
    );
    expect(refused(one(['secrets'], aescbc({ name: 'k', secret: Buffer.alloc(8).toString('base64') })))).toBe(
      `${PREFIX}resources[0].providers[0].aescbc.keys[0].secret: Invalid value: "REDACTED": secret is not of the expected length, got 8, expected one of [16 24 32]`,
    );
    expect(refused(one(['secrets'], { secretbox: { keys: [{ name: 'k', secret: K16 }] } }))).toBe(
      `${PREFIX}resources[0].providers[0].secretbox.keys[0].secret: Invalid value: "REDACTED": secret is not of the expected length, got 16, expected one of [32]`,
    );
    // Go's decoder skips line breaks inside base64.
    expect(() => decodeEncryptionConfig(one(['secrets'], aescbc({ name: 'k', secret: `${K32.slice(0, 20)}\n${K32.slice(20)}` })) as never)).not.toThrow();
  });

  it('checks resource names: capitals, *, resources without REST APIs, events.k8s.io, extensions, <resource>.*', () => {
    const detail = (res: string) =>
      refused(one([res], { identity: {} })).replace(`${PREFIX}resources[0].resources[0]: Invalid value: ${JSON.stringify(res)}: `, '');
    expect(detail('Secrets')).toBe('resource name should not contain capital letters');
    expect(detail('*')).toBe("use '*.' to encrypt all the resources from core API group or *.* to encrypt all resources");
    for (const r of ['apiserveripinfo', 'serviceipallocations', 'servicenodeportallocations']) {
      expect(detail(r)).toBe('resources which do not have REST API/s cannot be encrypted');
    }
    expect(detail('events.events.k8s.io')).toBe(
      "'*.events.k8s.io' objects are stored using the 'events' API group in etcd. Use 'events' instead in the config file",
    );
    expect(detail('*.extensions')).toBe("'extensions' group has been removed and cannot be used for encryption");
    expect(detail('secrets.*')).toBe('encrypting the same resource across groups is not supported');
  });

  it('refuses duplicated and overlapping resources in one list', () => {
    expect(refused(one(['secrets', 'secrets'], { identity: {} }))).toBe(
      `${PREFIX}resources[0].resources: Invalid value: ["secrets","secrets"]: the same resource cannot be specified multiple times`,
    );
    const overlap = "using overlapping resources such as 'secrets' and '*.' in the same resource list is not allowed as they will be masked";
    expect(refused(one(['secrets', '*.'], { identity: {} }))).toBe(`${PREFIX}resources[0].resources: Invalid value: ["secrets","*."]: ${overlap}`);
    expect(refused(one(['deployments.apps', '*.*'], { identity: {} }))).toBe(
      `${PREFIX}resources[0].resources: Invalid value: ["deployments.apps","*.*"]: ${overlap}`,
    );
    expect(refused(one(['*.apps', 'deployments.apps', '*.apps'], { identity: {} }))).toBe(
      `${PREFIX}[resources[0].resources: Invalid value: ["*.apps","deployments.apps","*.apps"]: the same resource cannot be specified multiple times, resources[0].resources: Invalid value: ["*.apps","deployments.apps","*.apps"]: ${overlap}]`,
    );
    expect(() => decodeEncryptionConfig(one(['secrets', 'configmaps', '*.apps', 'widgets.example.com'], { identity: {} }) as never)).not.toThrow();
  });

  it('validates KMS providers (defaults applied first: v1, 3s, a cache of 1000)', () => {
    const kms = (fields: Record<string, unknown>) => refused(one(['secrets'], { kms: { name: 'p', endpoint: 'unix:///kms.sock', ...fields } }));
    const at = `${PREFIX}resources[0].providers[0].kms`;
    expect(kms({ name: '' })).toBe(`${at}.name: Required value: name is a mandatory field for a provider`);
    expect(kms({ apiVersion: 'v2', name: 'a:b' })).toBe(`${at}.name: Invalid value: "a:b": invalid KMS provider name a:b, must not contain ':'`);
    expect(kms({ timeout: '0s' })).toBe(`${at}.timeout: Invalid value: "0s": timeout should be a positive value`);
    expect(kms({ timeout: '-1500ms' })).toBe(`${at}.timeout: Invalid value: "-1.5s": timeout should be a positive value`);
    expect(kms({ endpoint: '' })).toBe(`${at}.endpoint: Invalid value: "": endpoint is a mandatory field for a kms`);
    expect(kms({ endpoint: 'tcp://localhost:1' })).toBe(
      `${at}.endpoint: Invalid value: "tcp://localhost:1": unsupported scheme "tcp" for KMS provider, only unix is supported`,
    );
    expect(kms({ endpoint: 'unix://%zz' })).toMatch(
      new RegExp(`^${at.replace(/[[\]().]/g, '\\$&')}\\.endpoint: Invalid value: "unix://%zz": invalid endpoint for kms provider, error: parse "unix://%zz": `),
    );
    expect(kms({ cachesize: 0 })).toBe(`${at}.cachesize: Invalid value: 0: cachesize should be a positive value, or negative to disable`);
    expect(kms({ apiVersion: 'v2', cachesize: 10 })).toBe(`${at}.cachesize: Invalid value: 10: cachesize is not supported in v2`);
    expect(kms({ apiVersion: 'v3' })).toBe(
      `${at}.apiVersion: Invalid value: "v3": unsupported apiVersion apiVersion for KMS provider, only v1 and v2 are supported`,
    );
    const twoV2 = refused(
      one(['secrets'], { kms: { apiVersion: 'v2', name: 'p', endpoint: 'unix:///a' } }, { kms: { apiVersion: 'v2', name: 'p', endpoint: 'unix:///b' } }),
    );
    expect(twoV2).toBe(`${PREFIX}resources[0].providers[1].kms.name: Invalid value: "p": duplicate KMS provider name p, names must be unique`);
    const defaulted = decodeEncryptionConfig(one(['secrets'], { kms: { name: 'p', endpoint: 'unix:///a' } }) as never);
    expect(defaulted.resources[0]!.providers[0]!.kms).toEqual({ apiVersion: 'v1', name: 'p', endpoint: 'unix:///a', timeout: '3s', cachesize: 1000 });
  });

  it('reports every problem of a file at once', () => {
    const message = refused(
      file([
        { resources: ['Secrets'], providers: [aescbc({ name: 'k', secret: 'AA==' })] },
        { resources: ['configmaps'], providers: [{}] },
      ]),
    );
    expect(message).toBe(
      `${PREFIX}[resources[0].resources[0]: Invalid value: "Secrets": resource name should not contain capital letters, resources[0].providers[0].aescbc.keys[0].secret: Invalid value: "REDACTED": secret is not of the expected length, got 1, expected one of [16 24 32], resources[1].providers[0]: Invalid value: {"AESGCM":null,"AESCBC":null,"Secretbox":null,"Identity":null,"KMS":null}: provider does not contain any of the expected providers: KMS, AESGCM, AESCBC, Secretbox, Identity]`,
    );
  });
});

describe('hostile EncryptionConfiguration input', () => {
  const provider = fc.record(
    {
      aescbc: fc.record({
        keys: fc.array(fc.record({ name: fc.string(), secret: fc.oneof(fc.string(), fc.constant(K16), fc.constant(K32)) }), { maxLength: 3 }),
      }),
      secretbox: fc.record({ keys: fc.array(fc.record({ name: fc.string(), secret: fc.constant(K32) }), { maxLength: 2 }) }),
      identity: fc.constant({}),
      kms: fc.record({ name: fc.string(), endpoint: fc.string(), timeout: fc.string(), cachesize: fc.integer() }, { requiredKeys: [] }),
      extra: fc.anything(),
    },
    { requiredKeys: [] },
  );
  const resources = fc.array(
    fc.oneof(fc.constantFrom('secrets', '*.', '*.*', '*.apps', 'deployments.apps', 'Secrets', '*', 'events.events.k8s.io'), fc.string()),
    { maxLength: 4 },
  );

  it('answers every configuration with a plan or an EncryptionConfigError, never another exception', () => {
    fc.assert(
      fc.property(fc.array(fc.record({ resources, providers: fc.array(provider, { maxLength: 3 }) }), { maxLength: 4 }), (entries) => {
        try {
          const plan = loadEncryptionConfig(file(entries) as never);
          for (const rule of plan.rules) expect(rule.providers.length).toBeGreaterThan(0);
        } catch (e) {
          expect(e).toBeInstanceOf(EncryptionConfigError);
          expect((e as Error).message).toMatch(/^error while (parsing file|building transformers): /);
        }
      }),
      { numRuns: 300 },
    );
  });

  it('answers any value or text without crashing', () => {
    fc.assert(
      fc.property(fc.oneof(fc.anything(), fc.string(), fc.json()), (input) => {
        try {
          loadEncryptionConfig(input as never);
        } catch (e) {
          expect(e).toBeInstanceOf(EncryptionConfigError);
        }
      }),
      { numRuns: 300 },
    );
  });

  it('refuses deeply nested and very long YAML quickly', () => {
    const deep = `apiVersion: apiserver.config.k8s.io/v1\nkind: EncryptionConfiguration\nresources: ${'['.repeat(5000)}${']'.repeat(5000)}\n`;
    expect(refused(deep)).toMatch(/^error while parsing file: error decoding encryption provider configuration file "\(inline\)": /);
    const many = file(Array.from({ length: 2000 }, (_, i) => ({ resources: [`r${i}`], providers: [{ identity: {} }] })));
    expect(loadEncryptionConfig(many as never).rules.length).toBe(2000);
  });
});
