/** `memkube serve --egress-selector-config-file` and `--tracing-config-file`: parsed, loaded and refused as kube-apiserver does. */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadServeConfigFiles, parseServeArgs } from '../../src/cli/serve.js';

let dir: string;
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'memkube-serve-config-'));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const file = (name: string, text: string) => {
  const path = join(dir, name);
  writeFileSync(path, text);
  return path;
};

describe('memkube serve configuration files', () => {
  it('takes both flags, with a space or =', () => {
    expect(parseServeArgs(['--egress-selector-config-file', 'egress.yaml', '--tracing-config-file=tracing.yaml'])).toMatchObject({
      egressSelectorConfigFile: 'egress.yaml',
      tracingConfigFile: 'tracing.yaml',
    });
    expect(() => parseServeArgs(['--tracing-config-file'])).toThrow('--tracing-config-file needs a value');
  });

  it('loads nothing without the flags, and the files with them', () => {
    expect(loadServeConfigFiles({})).toEqual({});
    const loaded = loadServeConfigFiles({
      egressSelectorConfigFile: file(
        'egress.yaml',
        'apiVersion: apiserver.k8s.io/v1beta1\nkind: EgressSelectorConfiguration\negressSelections:\n- name: cluster\n  connection:\n    proxyProtocol: HTTPConnect\n    transport:\n      uds:\n        udsName: /run/proxy.sock\n',
      ),
      tracingConfigFile: file('tracing.yaml', 'apiVersion: apiserver.config.k8s.io/v1\nkind: TracingConfiguration\nsamplingRatePerMillion: 100\n'),
    });
    expect(loaded.tracing).toEqual({ apiVersion: 'apiserver.config.k8s.io/v1', kind: 'TracingConfiguration', samplingRatePerMillion: 100 });
    expect(typeof loaded.egress?.dialerFor('cluster')).toBe('function');
    expect(loaded.egress?.dialerFor('controlplane')).toBeUndefined();
  });

  it("refuses bad files with the loaders' messages", () => {
    expect(() => loadServeConfigFiles({ tracingConfigFile: join(dir, 'missing.yaml') })).toThrow(
      `tracing-config-file ${join(dir, 'missing.yaml')} does not exist`,
    );
    expect(() =>
      loadServeConfigFiles({
        tracingConfigFile: file('bad-tracing.yaml', 'apiVersion: apiserver.config.k8s.io/v1\nkind: TracingConfiguration\nsamplingRatePerMillion: -1\n'),
      }),
    ).toThrow('failed to validate tracing configuration: samplingRatePerMillion: Invalid value: -1: sampling rate must be positive');
    expect(() =>
      loadServeConfigFiles({
        egressSelectorConfigFile: file(
          'bad-egress.yaml',
          'apiVersion: apiserver.k8s.io/v1beta1\nkind: EgressSelectorConfiguration\negressSelections:\n- name: nodes\n  connection:\n    proxyProtocol: Direct\n',
        ),
      }),
    ).toThrow(
      'failed to validate egress selector configuration: service.connection: Unsupported value: "nodes": supported values: "cluster", "controlplane", "etcd"',
    );
  });
});
