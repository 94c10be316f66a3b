import { mkdtempSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { decodeConfig } from '../../../src/config/decode.js';
import {
  AdmissionConfigurationKind,
  AdmissionConfigFileError,
  AdmissionPluginConfigReadError,
  parseAdmissionConfiguration,
  readAdmissionConfiguration,
} from '../../../src/config/admission/index.js';

const dir = mkdtempSync(join(tmpdir(), 'admission-config-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const file = (name: string, text: string) => {
  const path = join(dir, name);
  writeFileSync(path, text);
  return path;
};

describe('AdmissionConfiguration decoding', () => {
  it('decodes apiserver.config.k8s.io/v1 and apiserver.k8s.io/v1alpha1', () => {
    for (const apiVersion of ['apiserver.config.k8s.io/v1', 'apiserver.k8s.io/v1alpha1']) {
      const text = `apiVersion: ${apiVersion}\nkind: AdmissionConfiguration\nplugins:\n- name: EventRateLimit\n  path: erl.yaml\n`;
      expect(decodeConfig(text, AdmissionConfigurationKind)).toEqual({
        apiVersion,
        value: { apiVersion, kind: 'AdmissionConfiguration', plugins: [{ name: 'EventRateLimit', path: 'erl.yaml' }] },
      });
    }
  });

  it('refuses unknown fields outside the embedded configuration, and accepts anything inside it', () => {
    const text =
      'apiVersion: apiserver.config.k8s.io/v1\nkind: AdmissionConfiguration\nplugins:\n- name: X\n  pathh: a\n  configuration: {anything: [1, {deep: true}]}\n';
    expect(() => decodeConfig(text, AdmissionConfigurationKind)).toThrow('strict decoding error: unknown field "plugins[0].pathh"');
  });

  it('does not know the kind in apiserver.config.k8s.io/v1alpha1', () => {
    expect(() => decodeConfig('apiVersion: apiserver.config.k8s.io/v1alpha1\nkind: AdmissionConfiguration\n', AdmissionConfigurationKind)).toThrow(
      'no kind "AdmissionConfiguration" is registered for version "apiserver.config.k8s.io/v1alpha1"',
    );
  });
});

describe('readAdmissionConfiguration', () => {
  it('is empty without a file', () => {
    const configs = readAdmissionConfiguration(['PodSecurity'], '');
    expect(configs.plugins).toEqual([]);
    expect(configs.configFor('PodSecurity')).toBeUndefined();
  });

  it("resolves a relative path against the file's directory, keeps an absolute one, and reads it per plugin", () => {
    mkdirSync(join(dir, 'sub'), { recursive: true });
    writeFileSync(join(dir, 'sub', 'erl.yaml'), 'kind: Configuration\n');
    const absolute = file('abs.yaml', 'absolute: true\n');
    const path = file(
      'relative.yaml',
      `apiVersion: apiserver.config.k8s.io/v1\nkind: AdmissionConfiguration\nplugins:\n- name: EventRateLimit\n  path: sub/erl.yaml\n- name: PodNodeSelector\n  path: ${absolute}\n- name: PodSecurity\n`,
    );
    const configs = readAdmissionConfiguration([], path);
    expect(configs.plugins).toEqual([
      { name: 'EventRateLimit', path: join(dir, 'sub', 'erl.yaml') },
      { name: 'PodNodeSelector', path: absolute },
      { name: 'PodSecurity', path: '' },
    ]);
    expect(configs.configFor('EventRateLimit')).toBe('kind: Configuration\n');
    expect(configs.configFor('PodNodeSelector')).toBe('absolute: true\n');
    // An entry with neither configuration nor path is no configuration.
    expect(configs.configFor('PodSecurity')).toBeUndefined();
    expect(configs.configFor('ResourceQuota')).toBeUndefined();
  });

  it('resolves against the working directory when the file is in it', () => {
    const configs = parseAdmissionConfiguration(
      [],
      'admission.yaml',
      'apiVersion: apiserver.config.k8s.io/v1\nkind: AdmissionConfiguration\nplugins:\n- {name: A, path: a.yaml}\n',
      { readFile: () => '', cwd: () => '/work/here' },
    );
    expect(configs.plugins[0]!.path).toBe('/work/here/a.yaml');
  });

  it('prefers the embedded configuration to the path, as JSON; the first entry of a name counts', () => {
    const path = file(
      'embedded.yaml',
      'apiVersion: apiserver.config.k8s.io/v1\nkind: AdmissionConfiguration\nplugins:\n- name: PodSecurity\n  path: missing.yaml\n  configuration:\n    apiVersion: pod-security.admission.config.k8s.io/v1\n    kind: PodSecurityConfiguration\n    defaults: {enforce: baseline}\n- name: PodSecurity\n  configuration: {second: true}\n',
    );
    const configs = readAdmissionConfiguration([], path);
    expect(JSON.parse(configs.configFor('PodSecurity')!)).toEqual({
      apiVersion: 'pod-security.admission.config.k8s.io/v1',
      kind: 'PodSecurityConfiguration',
      defaults: { enforce: 'baseline' },
    });
  });

  it("says in kube-apiserver's words when a plugin's path cannot be read", () => {
    const path = file(
      'missing-path.yaml',
      'apiVersion: apiserver.config.k8s.io/v1\nkind: AdmissionConfiguration\nplugins:\n- {name: EventRateLimit, path: nope.yaml}\n',
    );
    const configs = readAdmissionConfiguration([], path);
    const missing = join(dir, 'nope.yaml');
    expect(() => configs.configFor('EventRateLimit')).toThrow(AdmissionPluginConfigReadError);
    expect(() => configs.configFor('EventRateLimit')).toThrow(
      `Couldn't open admission plugin configuration ${missing}: &fs.PathError{Op:"open", Path:"${missing}", Err:0x2}`,
    );
  });

  it('says why the file itself cannot be read', () => {
    const missing = join(dir, 'absent.yaml');
    expect(() => readAdmissionConfiguration([], missing)).toThrow(
      `unable to read admission control configuration from "${missing}" [open ${missing}: no such file or directory]`,
    );
    expect(() => readAdmissionConfiguration([], dir)).toThrow(`unable to read admission control configuration from "${dir}" [read ${dir}: is a directory]`);
  });

  it('reads the legacy unversioned format for ImagePolicyWebhook and PodNodeSelector, when enabled', () => {
    const path = file('legacy.yaml', 'podNodeSelectorPluginConfig:\n  clusterDefaultNodeSelector: env=prod\n');
    const configs = readAdmissionConfiguration(['NamespaceLifecycle', 'PodNodeSelector'], path);
    expect(configs.plugins).toEqual([{ name: 'PodNodeSelector', path }]);
    expect(configs.configFor('PodNodeSelector')).toBe('podNodeSelectorPluginConfig:\n  clusterDefaultNodeSelector: env=prod\n');
    expect(configs.configFor('ImagePolicyWebhook')).toBeUndefined();
    const image = file('legacy-image.json', '{"imagePolicy": {"kubeConfigFile": "/k"}}');
    expect(readAdmissionConfiguration(['ImagePolicyWebhook', 'PodNodeSelector'], image).plugins.map((p) => p.name)).toEqual([
      'ImagePolicyWebhook',
      'PodNodeSelector',
    ]);
  });

  it("refuses any other file without a kind, with the decoder's message", () => {
    expect(() => readAdmissionConfiguration([], file('other.yaml', 'plugins: []\n'))).toThrow(AdmissionConfigFileError);
    expect(() => readAdmissionConfiguration([], file('other2.yaml', 'plugins: []\n'))).toThrow("Object 'Kind' is missing in 'plugins: []'");
    expect(() => readAdmissionConfiguration([], file('empty.yaml', ''))).toThrow("Object 'Kind' is missing in ''");
    expect(() => readAdmissionConfiguration([], file('list.yaml', '- imagePolicy\n'))).toThrow('json: cannot unmarshal array into Go value of type struct');
    expect(() => readAdmissionConfiguration([], file('wrong-kind.yaml', 'apiVersion: v1\nkind: ConfigMap\nimagePolicy: {}\n'))).not.toThrow();
    expect(() =>
      readAdmissionConfiguration([], file('strict.yaml', 'apiVersion: apiserver.config.k8s.io/v1\nkind: AdmissionConfiguration\nplugin: []\n')),
    ).toThrow('strict decoding error: unknown field "plugin"');
  });

  it('answers hostile files with an error, not a crash or a hang', () => {
    expect(() => readAdmissionConfiguration([], file('deep.yaml', `${'['.repeat(10_000)}${']'.repeat(10_000)}`))).toThrow(AdmissionConfigFileError);
    expect(() => readAdmissionConfiguration([], file('bad.yaml', 'a: [\n'))).toThrow('error converting YAML to JSON: yaml:');
    expect(() =>
      readAdmissionConfiguration(
        [],
        file('huge.yaml', `apiVersion: apiserver.config.k8s.io/v1\nkind: AdmissionConfiguration\nx: "${'a'.repeat(3 * 1024 * 1024)}"\n`),
      ),
    ).toThrow('configuration is larger than 3145728 bytes');
  });
});
