import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import {
  EncryptionConfigError,
  EncryptionConfigurationKind,
  EncryptionConfigurationSchema,
  loadEncryptionConfig,
  readEncryptionConfigFile,
} from '../../../src/config/encryption/index.js';
import { decodeConfig } from '../../../src/config/decode.js';
import type { EncryptionPlan } from '../../../src/storage/encryption/plan.js';

const K16 = Buffer.alloc(16, 1).toString('base64');
const K32 = Buffer.alloc(32, 2).toString('base64');

const dir = mkdtempSync(join(tmpdir(), 'memkube-encryption-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function refused(input: string | object, path?: string): string {
  try {
    loadEncryptionConfig(input as never, { path });
  } catch (e) {
    expect(e).toBeInstanceOf(EncryptionConfigError);
    return (e as Error).message;
  }
  throw new Error('expected the configuration to be refused');
}

/** The plan as `resource.group: [provider/keys...]`, for readable expectations. */
function summary(plan: EncryptionPlan): Record<string, string[]> {
  const out: Record<string, string[]> = {};
  for (const r of plan.rules) {
    const name = r.group === '' && r.resource === '*' ? '*.' : r.group ? `${r.resource}.${r.group}` : r.resource;
    out[name] = r.providers.map((p) => (p.type === 'identity' ? 'identity' : `${p.type}/${p.keys.map((k) => `${k.name}:${k.secret.length}`).join(',')}`));
  }
  return out;
}

const YAML = `apiVersion: apiserver.config.k8s.io/v1
kind: EncryptionConfiguration
resources:
  - resources:
      - events
    providers:
      - identity: {}
  - resources:
      - secrets
      - configmaps
      - pandas.awesome.bears.example
    providers:
      - aescbc:
          keys:
            - name: key1
              secret: ${K32}
            - name: key0
              secret: ${K16}
      - identity: {}
  - resources:
      - '*.apps'
    providers:
      - aesgcm:
          keys:
            - name: key2
              secret: ${K16}
  - resources:
      - '*.*'
    providers:
      - secretbox:
          keys:
            - name: key3
              secret: ${K32}
`;

describe('loading an EncryptionConfiguration', () => {
  it('maps each resource to its providers, in order, keys decoded', () => {
    expect(summary(loadEncryptionConfig(YAML))).toEqual({
      events: ['identity'],
      secrets: ['aescbc/key1:32,key0:16', 'identity'],
      configmaps: ['aescbc/key1:32,key0:16', 'identity'],
      'pandas.awesome.bears.example': ['aescbc/key1:32,key0:16', 'identity'],
      '*.apps': ['aesgcm/key2:16'],
      '*.*': ['secretbox/key3:32'],
    });
  });

  it('takes the object as well as its JSON text', () => {
    const object = decodeConfig(YAML, EncryptionConfigurationKind).value;
    expect(summary(loadEncryptionConfig(object as never))).toEqual(summary(loadEncryptionConfig(JSON.stringify(object))));
    expect(EncryptionConfigurationSchema().safeParse(object).success).toBe(true);
  });

  it('gives a resource named in two entries the providers of both, the earlier first', () => {
    const plan = loadEncryptionConfig({
      apiVersion: 'apiserver.config.k8s.io/v1',
      kind: 'EncryptionConfiguration',
      resources: [
        { resources: ['secrets'], providers: [{ aesgcm: { keys: [{ name: 'a', secret: K16 }] } }] },
        { resources: ['configmaps'], providers: [{ identity: {} }] },
        { resources: ['secrets'], providers: [{ aescbc: { keys: [{ name: 'b', secret: K16 }] } }] },
      ],
    });
    expect(summary(plan)).toEqual({ secrets: ['aesgcm/a:16', 'aescbc/b:16'], configmaps: ['identity'] });
  });

  it('refuses a resource an earlier wildcard masks', () => {
    const entries = (...lists: string[][]) => ({
      apiVersion: 'apiserver.config.k8s.io/v1' as const,
      kind: 'EncryptionConfiguration' as const,
      resources: lists.map((resources) => ({ resources, providers: [{ identity: {} }] })),
    });
    expect(refused(entries(['*.'], ['secrets']))).toBe('error while building transformers: resource "secrets" is masked by earlier rule "*."');
    expect(refused(entries(['*.apps'], ['deployments.apps']))).toBe(
      'error while building transformers: resource "deployments.apps" is masked by earlier rule "*.apps"',
    );
    expect(refused(entries(['*.*'], ['*.apps']))).toBe('error while building transformers: resource "*.apps" is masked by earlier rule "*.*"');
    expect(refused(entries(['*.*'], ['*.']))).toBe('error while building transformers: resource "*." is masked by earlier rule "*.*"');
    // The other way round is fine: the specific rule comes first.
    expect(summary(loadEncryptionConfig(entries(['secrets'], ['*.'], ['*.apps'], ['*.*'])))).toEqual({
      secrets: ['identity'],
      '*.': ['identity'],
      '*.apps': ['identity'],
      '*.*': ['identity'],
    });
  });

  it('refuses KMS providers: memkube has no plugin to call', () => {
    const config = `apiVersion: apiserver.config.k8s.io/v1
kind: EncryptionConfiguration
resources:
- resources: [secrets]
  providers:
  - kms: {apiVersion: v2, name: vault, endpoint: unix:///var/run/kms.sock}
  - identity: {}
`;
    expect(refused(config)).toBe(
      'error while building transformers: KMS provider "vault" cannot be used: memkube has no KMS plugin to reach at "unix:///var/run/kms.sock"; use aescbc, aesgcm, secretbox or identity',
    );
  });

  it("refuses undecodable files with kube-apiserver's wording", () => {
    const at = (path: string) => `error while parsing file: error decoding encryption provider configuration file ${JSON.stringify(path)}: `;
    expect(refused('', 'enc.yaml')).toBe('error while parsing file: error while loading file: encryption provider configuration file "enc.yaml" is empty');
    expect(
      refused(YAML.replace('      - identity: {}\n  - resources:\n      - secrets', '      - identity: {foo: 1}\n  - resources:\n      - secrets'), 'enc.yaml'),
    ).toBe(`${at('enc.yaml')}strict decoding error: unknown field "resources[0].providers[0].identity.foo"`);
    expect(refused(YAML.replace('name: key1', 'name: key1\n              extra: true'))).toBe(
      `${at('(inline)')}strict decoding error: unknown field "resources[1].providers[0].aescbc.keys[0].extra"`,
    );
    expect(refused(YAML.replace('kind: EncryptionConfiguration', 'kind: AuthenticationConfiguration'))).toBe(
      `${at('(inline)')}no kind "AuthenticationConfiguration" is registered for version "apiserver.config.k8s.io/v1"`,
    );
    expect(refused(YAML.replace('apiserver.config.k8s.io/v1', 'apiserver.config.k8s.io/v1beta1'))).toBe(
      `${at('(inline)')}no kind "EncryptionConfiguration" is registered for version "apiserver.config.k8s.io/v1beta1"`,
    );
    expect(refused('apiVersion: apiserver.config.k8s.io/v1\nkind: EncryptionConfiguration\nresources: {}\n')).toBe(
      `${at('(inline)')}json: cannot unmarshal object into Go struct field EncryptionConfiguration.resources of type []v1.ResourceConfiguration`,
    );
    expect(
      refused(
        'apiVersion: apiserver.config.k8s.io/v1\nkind: EncryptionConfiguration\nresources:\n- resources: [secrets]\n  providers:\n  - kms: {name: k, endpoint: "unix:///a", timeout: soon}\n',
      ),
    ).toBe(`${at('(inline)')}time: invalid duration "soon"`);
    expect(refused('resources: [')).toMatch(
      /^error while parsing file: error decoding encryption provider configuration file "\(inline\)": error converting YAML to JSON: yaml: /,
    );
  });

  it('refuses huge texts without decoding them', () => {
    const huge = `${YAML}# ${'x'.repeat(3 * 1024 * 1024)}\n`;
    expect(refused(huge)).toBe(
      'error while parsing file: error decoding encryption provider configuration file "(inline)": configuration is larger than 3145728 bytes',
    );
  });
});

describe('reading --encryption-provider-config FILE', () => {
  it('answers the text of a good file', async () => {
    const path = join(dir, 'good.yaml');
    writeFileSync(path, YAML);
    expect(await readEncryptionConfigFile(path)).toBe(YAML);
  });

  it('names the file in its errors: missing, a directory, empty, invalid, too large', async () => {
    const failure = async (path: string) => {
      const e = await readEncryptionConfigFile(path).catch((err: unknown) => err);
      expect(e).toBeInstanceOf(EncryptionConfigError);
      return (e as Error).message;
    };
    const missing = join(dir, 'missing.yaml');
    expect(await failure(missing)).toBe(
      `error while parsing file: error while loading file: error reading encryption provider configuration file "${missing}": open ${missing}: no such file or directory`,
    );
    expect(await failure(dir)).toBe(
      `error while parsing file: error while loading file: error reading encryption provider configuration file "${dir}": read ${dir}: is a directory`,
    );
    const empty = join(dir, 'empty.yaml');
    writeFileSync(empty, '');
    expect(await failure(empty)).toBe(`error while parsing file: error while loading file: encryption provider configuration file "${empty}" is empty`);
    const short = join(dir, 'short.yaml');
    writeFileSync(short, YAML.replaceAll(K32, Buffer.alloc(31).toString('base64')));
    expect(await failure(short)).toBe(
      'error while parsing file: [resources[1].providers[0].aescbc.keys[0].secret: Invalid value: "REDACTED": secret is not of the expected length, got 31, expected one of [16 24 32], resources[3].providers[0].secretbox.keys[0].secret: Invalid value: "REDACTED": secret is not of the expected length, got 31, expected one of [32]]',
    );
    const huge = join(dir, 'huge.yaml');
    writeFileSync(huge, Buffer.alloc(3 * 1024 * 1024 + 1, 0x20));
    expect(await failure(huge)).toBe(
      `error while parsing file: error decoding encryption provider configuration file "${huge}": configuration is larger than 3145728 bytes`,
    );
  });
});
