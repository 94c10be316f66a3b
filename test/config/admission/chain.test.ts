import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { admissionChain, AdmissionConfigError, buildAdmissionChain } from '../../../src/admission/chain.js';
import { BUILTIN_PLUGINS } from '../../../src/admission/builtin-plugins.js';
import type { AdmissionPlugin } from '../../../src/admission/plugin.js';
import { parseServeArgs } from '../../../src/cli/serve.js';

const dir = mkdtempSync(join(tmpdir(), 'admission-chain-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const file = (name: string, text: string) => {
  const path = join(dir, name);
  writeFileSync(path, text);
  return path;
};

/** A plugin that takes a configuration, as EventRateLimit does upstream; it remembers what it got. */
interface Configured extends AdmissionPlugin {
  readonly configuration?: string;
}
const eventRateLimit = (configuration?: string): Configured => ({
  name: 'EventRateLimit',
  configuration,
  validate: () => undefined,
  withConfiguration(text) {
    if (text.includes('refuse')) throw new Error('invalid configuration');
    return eventRateLimit(text);
  },
});
const chainWith = (configFile: string, enable: string[] = ['EventRateLimit']) =>
  buildAdmissionChain({ enable, configFile }, [...BUILTIN_PLUGINS, eventRateLimit()]);
const configOf = (plugins: readonly AdmissionPlugin[], name: string) => (plugins.find((p) => p.name === name) as Configured | undefined)?.configuration;

describe('the admission chain with --admission-control-config-file', () => {
  it('gives a plugin that takes a configuration its own, embedded or from its path', () => {
    const embedded = file(
      'embedded.yaml',
      'apiVersion: apiserver.config.k8s.io/v1\nkind: AdmissionConfiguration\nplugins:\n- name: EventRateLimit\n  configuration: {kind: Configuration, limits: [{type: Server, qps: 5}]}\n',
    );
    expect(JSON.parse(configOf(chainWith(embedded).plugins, 'EventRateLimit')!)).toEqual({ kind: 'Configuration', limits: [{ type: 'Server', qps: 5 }] });
    file('erl.yaml', 'kind: Configuration\n');
    const byPath = file(
      'by-path.yaml',
      'apiVersion: apiserver.k8s.io/v1alpha1\nkind: AdmissionConfiguration\nplugins:\n- {name: EventRateLimit, path: erl.yaml}\n',
    );
    expect(configOf(chainWith(byPath).plugins, 'EventRateLimit')).toBe('kind: Configuration\n');
  });

  it('leaves a plugin without configuration unconfigured, and plugins that take none as they are', () => {
    const none = file(
      'none.yaml',
      'apiVersion: apiserver.config.k8s.io/v1\nkind: AdmissionConfiguration\nplugins:\n- {name: NamespaceLifecycle, configuration: {x: 1}}\n',
    );
    const chain = chainWith(none);
    expect(configOf(chain.plugins, 'EventRateLimit')).toBeUndefined();
    expect(chain.plugins.find((p) => p.name === 'NamespaceLifecycle')).toBe(BUILTIN_PLUGINS.find((p) => p.name === 'NamespaceLifecycle'));
  });

  it('ignores entries for plugins that are not enabled or not known, without reading their path (as kube-apiserver)', () => {
    const path = file(
      'ignored.yaml',
      'apiVersion: apiserver.config.k8s.io/v1\nkind: AdmissionConfiguration\nplugins:\n- {name: NoSuchPlugin, path: missing.yaml}\n- {name: AlwaysPullImages, path: missing.yaml}\n- {name: EventRateLimit, configuration: {refuse: true}}\n',
    );
    const chain = buildAdmissionChain({ configFile: path }, [...BUILTIN_PLUGINS, eventRateLimit()]);
    expect(chain.names).toEqual(['NamespaceLifecycle', 'ServiceAccount', 'Priority', 'DefaultTolerationSeconds']);
  });

  it("refuses a configuration the plugin refuses, in kube-apiserver's words", () => {
    const path = file(
      'refused.yaml',
      'apiVersion: apiserver.config.k8s.io/v1\nkind: AdmissionConfiguration\nplugins:\n- {name: EventRateLimit, configuration: {refuse: true}}\n',
    );
    expect(() => chainWith(path)).toThrow(new AdmissionConfigError(['couldn\'t init admission plugin "EventRateLimit": invalid configuration']));
  });

  it('fails for an unreadable path of an enabled plugin, even one that takes no configuration', () => {
    const path = file(
      'unreadable.yaml',
      'apiVersion: apiserver.config.k8s.io/v1\nkind: AdmissionConfiguration\nplugins:\n- {name: ServiceAccount, path: gone.yaml}\n',
    );
    const gone = join(dir, 'gone.yaml');
    expect(() => admissionChain({ configFile: path })).toThrow(
      `Couldn't open admission plugin configuration ${gone}: &fs.PathError{Op:"open", Path:"${gone}", Err:0x2}`,
    );
  });

  it('prefixes errors of the file with "failed to read plugin config"', () => {
    const missing = join(dir, 'absent.yaml');
    expect(() => admissionChain({ configFile: missing })).toThrow(
      `failed to read plugin config: unable to read admission control configuration from "${missing}" [open ${missing}: no such file or directory]`,
    );
    const strict = file('strict.yaml', 'apiVersion: apiserver.config.k8s.io/v1\nkind: AdmissionConfiguration\nplugins: [{name: A, bogus: 1}]\n');
    expect(() => admissionChain({ configFile: strict })).toThrow('failed to read plugin config: strict decoding error: unknown field "plugins[0].bogus"');
  });

  it('checks plugin names before reading the file', () => {
    expect(() => admissionChain({ enable: ['Nope'], configFile: join(dir, 'absent.yaml') })).toThrow('enable-admission-plugins plugin "Nope" is unknown');
  });

  it('is the --admission-control-config-file flag of memkube serve, checked when parsed', () => {
    const ok = file('ok.yaml', 'apiVersion: apiserver.config.k8s.io/v1\nkind: AdmissionConfiguration\nplugins: []\n');
    expect(parseServeArgs(['--admission-control-config-file', ok]).admission).toEqual({ configFile: ok });
    expect(parseServeArgs([`--admission-control-config-file=${ok}`, '--disable-admission-plugins', 'Priority']).admission).toEqual({
      configFile: ok,
      disable: ['Priority'],
    });
    expect(() => parseServeArgs(['--admission-control-config-file', join(dir, 'absent.yaml')])).toThrow('failed to read plugin config: unable to read');
  });
});
