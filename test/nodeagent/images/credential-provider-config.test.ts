import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import {
  CredentialProviderConfigError,
  decodeCredentialProviderConfig,
  readCredentialProviderConfig,
  validCredentialProviders,
} from '../../../src/nodeagent/images/credential-provider-config.js';

const provider = (fields: Record<string, unknown> = {}) => ({
  name: 'ecr',
  matchImages: ['*.dkr.ecr.*.amazonaws.com'],
  defaultCacheDuration: '12h',
  apiVersion: 'credentialprovider.kubelet.k8s.io/v1',
  ...fields,
});
const config = (providers: unknown[], apiVersion = 'kubelet.config.k8s.io/v1') => JSON.stringify({ apiVersion, kind: 'CredentialProviderConfig', providers });

let dirs: string[] = [];
afterEach(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
  dirs = [];
});
const tempDir = () => {
  const d = mkdtempSync(join(tmpdir(), 'memkube-cpc-'));
  dirs.push(d);
  return d;
};

describe('decodeCredentialProviderConfig', () => {
  it('reads every served version, YAML too', () => {
    for (const v of ['kubelet.config.k8s.io/v1', 'kubelet.config.k8s.io/v1beta1', 'kubelet.config.k8s.io/v1alpha1', 'nodeagent.config.k8s.io/v1beta1']) {
      expect(decodeCredentialProviderConfig(config([provider()], v)).providers).toEqual([provider()]);
    }
    const yaml = `apiVersion: kubelet.config.k8s.io/v1
kind: CredentialProviderConfig
providers:
  - name: gcr
    matchImages: ["gcr.io", "*.pkg.dev"]
    defaultCacheDuration: 10m
    apiVersion: credentialprovider.kubelet.k8s.io/v1
    args: [get-credentials]
    env:
      - name: REGION
        value: eu
`;
    const [p] = validCredentialProviders(decodeCredentialProviderConfig(yaml));
    expect(p).toEqual({
      name: 'gcr',
      matchImages: ['gcr.io', '*.pkg.dev'],
      defaultCacheDurationMs: 600_000,
      apiVersion: 'credentialprovider.kubelet.k8s.io/v1',
      args: ['get-credentials'],
      env: [{ name: 'REGION', value: 'eu' }],
    });
  });

  it('refuses unknown fields, kinds and versions strictly', () => {
    expect(() => decodeCredentialProviderConfig(config([provider({ nmae: 'x' })]))).toThrow(
      new CredentialProviderConfigError('strict decoding error: unknown field "providers[0].nmae"'),
    );
    expect(() => decodeCredentialProviderConfig(config([], 'kubelet.config.k8s.io/v2'))).toThrow(
      'no kind "CredentialProviderConfig" is registered for version "kubelet.config.k8s.io/v2"',
    );
    expect(() => decodeCredentialProviderConfig('providers: []')).toThrow("Object 'Kind' is missing");
  });
});

describe('validCredentialProviders (validateCredentialProviderConfig)', () => {
  const invalid = (providers: unknown[]) => () => validCredentialProviders(decodeCredentialProviderConfig(config(providers)));
  it.each([
    [[], 'providers: Required value: at least 1 item in plugins is required'],
    [[provider({ name: 'a/b' })], `providers.name: Invalid value: "a/b": provider name cannot contain '/'`],
    [[provider({ name: 'a b' })], 'providers.name: Invalid value: "a b": provider name cannot contain spaces'],
    [[provider({ name: '.' })], `providers.name: Invalid value: ".": provider name cannot be '.'`],
    [[provider({ name: '..' })], `providers.name: Invalid value: "..": provider name cannot be '..'`],
    [[provider(), provider()], 'providers.name: Duplicate value: "ecr"'],
    [[provider({ apiVersion: undefined })], 'providers.apiVersion: Required value'],
    [
      [provider({ apiVersion: 'credentialprovider.kubelet.k8s.io/v2' })],
      'providers.apiVersion: Unsupported value: "credentialprovider.kubelet.k8s.io/v2": supported values: "credentialprovider.kubelet.k8s.io/v1", "credentialprovider.kubelet.k8s.io/v1alpha1", "credentialprovider.kubelet.k8s.io/v1beta1"',
    ],
    [[provider({ matchImages: [] })], 'providers.matchImages: Required value: at least 1 item in matchImages is required'],
    [
      [provider({ matchImages: ['a b.io'] })],
      'providers.matchImages: Invalid value: "a b.io": match image is invalid: parse "https://a b.io": invalid character " " in host name',
    ],
    [[provider({ defaultCacheDuration: undefined })], 'providers.defaultCacheDuration: Required value'],
    [
      [provider({ defaultCacheDuration: '-1m' })],
      'providers.defaultCacheDuration: Invalid value: "-1m": defaultCacheDuration must be greater than or equal to 0',
    ],
    [
      [provider({ tokenAttributes: { serviceAccountTokenAudience: 'x' } })],
      'providers.tokenAttributes: Forbidden: tokenAttributes is not supported when KubeletServiceAccountTokenForCredentialProviders feature gate is disabled',
    ],
  ])('%j', (providers, message) => {
    expect(invalid(providers)).toThrow(new CredentialProviderConfigError(`failed to validate credential provider config: ${message}`));
  });

  it('aggregates several errors in brackets', () => {
    expect(invalid([provider({ name: 'a b/c', matchImages: [] })])).toThrow(
      `failed to validate credential provider config: [providers.name: Invalid value: "a b/c": provider name cannot contain '/', providers.name: Invalid value: "a b/c": provider name cannot contain spaces, providers.matchImages: Required value: at least 1 item in matchImages is required]`,
    );
  });
});

describe('readCredentialProviderConfig', () => {
  it('merges a directory of files in lexical order, ignoring other files', () => {
    const dir = tempDir();
    writeFileSync(join(dir, '20-b.yaml'), config([provider({ name: 'b' })]));
    writeFileSync(join(dir, '10-a.json'), config([provider({ name: 'a' })]));
    writeFileSync(join(dir, 'README.txt'), 'not a config');
    mkdirSync(join(dir, 'sub.json'));
    expect(readCredentialProviderConfig(dir).providers!.map((p) => p.name)).toEqual(['a', 'b']);
  });

  it('explains an empty path, a missing path, an empty directory, bad files and duplicated names', () => {
    const dir = tempDir();
    expect(() => readCredentialProviderConfig('')).toThrow('credential provider config path is empty');
    expect(() => readCredentialProviderConfig(join(dir, 'nope'))).toThrow(`unable to access path "${dir}/nope": stat ${dir}/nope: no such file or directory`);
    expect(() => readCredentialProviderConfig(dir)).toThrow(`no configuration files found in directory "${dir}"`);
    writeFileSync(join(dir, 'a.json'), config([provider()]));
    writeFileSync(join(dir, 'b.yml'), config([provider()]));
    expect(() => readCredentialProviderConfig(dir)).toThrow('duplicate provider name "ecr" found in configuration file(s)');
    writeFileSync(join(dir, 'b.yml'), '{ not: [json');
    expect(() => readCredentialProviderConfig(dir)).toThrow(`error decoding config "${dir}/b.yml": error converting YAML to JSON`);
  });
});
