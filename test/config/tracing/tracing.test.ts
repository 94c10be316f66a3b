/**
 * TracingConfiguration: its three versions, component-base's validation messages and the
 * `--tracing-config-file` loader's messages.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  DEFAULT_TRACING_ENDPOINT,
  loadTracingConfiguration,
  parseTracingConfiguration,
  readTracingConfiguration,
  samplingFraction,
  TracingConfigError,
  validateTracingConfiguration,
  type TracingConfiguration,
} from '../../../src/config/tracing/index.js';
import { fieldErrorMessage } from '../../../src/machinery/field-errors.js';

let dir: string;
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'memkube-tracing-config-'));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const file = (name: string, text: string) => {
  const path = join(dir, name);
  writeFileSync(path, text);
  return path;
};
const messages = (fields: Partial<TracingConfiguration>) =>
  validateTracingConfiguration({ apiVersion: 'apiserver.config.k8s.io/v1', kind: 'TracingConfiguration', ...fields } as TracingConfiguration).map(
    fieldErrorMessage,
  );

describe('decoding', () => {
  it.each(['apiserver.config.k8s.io/v1', 'apiserver.config.k8s.io/v1beta1', 'apiserver.config.k8s.io/v1alpha1'])('reads %s', (apiVersion) => {
    expect(parseTracingConfiguration(`apiVersion: ${apiVersion}\nkind: TracingConfiguration\nendpoint: collector:4317\nsamplingRatePerMillion: 100\n`)).toEqual(
      {
        apiVersion,
        kind: 'TracingConfiguration',
        endpoint: 'collector:4317',
        samplingRatePerMillion: 100,
      },
    );
  });

  it('refuses other groups, unknown fields, wrong types and rates beyond int32', () => {
    expect(() => parseTracingConfiguration('apiVersion: apiserver.k8s.io/v1\nkind: TracingConfiguration\n')).toThrow(
      new TracingConfigError('no kind "TracingConfiguration" is registered for version "apiserver.k8s.io/v1"'),
    );
    // The v1beta1 and v1alpha1 of apiserver.k8s.io are read as well.
    expect(parseTracingConfiguration('apiVersion: apiserver.k8s.io/v1beta1\nkind: TracingConfiguration\nsamplingRatePerMillion: 5\n')).toMatchObject({
      samplingRatePerMillion: 5,
    });
    expect(() => parseTracingConfiguration('apiVersion: apiserver.config.k8s.io/v1\nkind: TracingConfiguration\nsamplingRate: 1\n')).toThrow(
      'strict decoding error: unknown field "samplingRate"',
    );
    expect(() => parseTracingConfiguration('apiVersion: apiserver.config.k8s.io/v1\nkind: TracingConfiguration\nsamplingRatePerMillion: "1"\n')).toThrow(
      TracingConfigError,
    );
    expect(() => parseTracingConfiguration('apiVersion: apiserver.config.k8s.io/v1\nkind: TracingConfiguration\nsamplingRatePerMillion: 3000000000\n')).toThrow(
      TracingConfigError,
    );
  });
});

describe('validation (ValidateTracingConfiguration)', () => {
  it('accepts the unset configuration and gRPC targets', () => {
    expect(messages({})).toEqual([]);
    for (const endpoint of ['localhost:4317', 'dns:///collector:4317', 'unix:///run/otel.sock', 'unix-abstract://otel'])
      expect(messages({ endpoint, samplingRatePerMillion: 1_000_000 })).toEqual([]);
  });

  it("reports the rate's range and the endpoint's scheme and syntax with upstream's text", () => {
    expect(messages({ samplingRatePerMillion: -1 })).toEqual(['samplingRatePerMillion: Invalid value: -1: sampling rate must be positive']);
    expect(messages({ samplingRatePerMillion: 1_000_001 })).toEqual([
      'samplingRatePerMillion: Invalid value: 1000001: sampling rate per million must be less than or equal to one million',
    ]);
    expect(messages({ endpoint: 'http://collector:4318' })).toEqual([
      'endpoint: Invalid value: "http://collector:4318": unsupported scheme: http.  Options are none, dns, unix, or unix-abstract.  See https://github.com/grpc/grpc/blob/master/doc/naming.md',
    ]);
    expect(messages({ endpoint: 'collector:%zz', samplingRatePerMillion: -5 })).toEqual([
      'samplingRatePerMillion: Invalid value: -5: sampling rate must be positive',
      'endpoint: Invalid value: "dns://collector:%zz": parse "dns://collector:%zz": invalid port ":%zz" after host',
    ]);
    expect(messages({ endpoint: 'dns:///coll%zzector:4317' })).toEqual([
      'endpoint: Invalid value: "dns:///coll%zzector:4317": parse "dns:///coll%zzector:4317": invalid URL escape "%zz"',
    ]);
  });
});

describe('defaults', () => {
  it('exports to localhost:4317 and samples new traces only at a positive rate', () => {
    expect(DEFAULT_TRACING_ENDPOINT).toBe('localhost:4317');
    expect(samplingFraction({})).toBe(0);
    expect(samplingFraction({ samplingRatePerMillion: 0 })).toBe(0);
    expect(samplingFraction({ samplingRatePerMillion: 250_000 })).toBe(0.25);
    expect(samplingFraction({ samplingRatePerMillion: 1_000_000 })).toBe(1);
  });
});

describe('loadTracingConfiguration (--tracing-config-file)', () => {
  const fail = (path: string) => {
    try {
      loadTracingConfiguration(path);
    } catch (e) {
      expect(e).toBeInstanceOf(TracingConfigError);
      return (e as Error).message;
    }
    throw new Error('loaded');
  };

  it("loads a valid file, and refuses others with kube-apiserver's messages", () => {
    expect(
      loadTracingConfiguration(file('ok.yaml', 'apiVersion: apiserver.config.k8s.io/v1\nkind: TracingConfiguration\nsamplingRatePerMillion: 10\n')),
    ).toMatchObject({
      samplingRatePerMillion: 10,
    });
    expect(fail(join(dir, 'none.yaml'))).toBe(`tracing-config-file ${join(dir, 'none.yaml')} does not exist`);
    expect(fail(dir)).toBe(`failed to read tracing config: unable to read tracing configuration from "${dir}": read ${dir}: is a directory`);
    expect(fail(file('bad.yaml', 'apiVersion: apiserver.config.k8s.io/v1\nkind: TracingConfiguration\nfoo: 1\n'))).toBe(
      'failed to read tracing config: unable to decode tracing configuration data: strict decoding error: unknown field "foo"',
    );
    expect(
      fail(file('invalid.yaml', 'apiVersion: apiserver.config.k8s.io/v1\nkind: TracingConfiguration\nendpoint: https://x\nsamplingRatePerMillion: 2000000\n')),
    ).toBe(
      'failed to validate tracing configuration: [samplingRatePerMillion: Invalid value: 2000000: sampling rate per million must be less than or equal to one million, endpoint: Invalid value: "https://x": unsupported scheme: https.  Options are none, dns, unix, or unix-abstract.  See https://github.com/grpc/grpc/blob/master/doc/naming.md]',
    );
    expect(() => readTracingConfiguration('')).toThrow('tracing config file was empty');
    expect(() => readTracingConfiguration(join(dir, 'none.yaml'))).toThrow(
      `unable to read tracing configuration from "${join(dir, 'none.yaml')}": open ${join(dir, 'none.yaml')}: no such file or directory`,
    );
  });
});
