/**
 * The audit flags: defaults, pflag's parsing of each type with its errors, and kube-apiserver's
 * validation messages for each backend that is on.
 */
import { describe, expect, it } from 'vitest';
import {
  AUDIT_FLAG_NAMES,
  defaultAuditFlags,
  isBooleanAuditFlag,
  setAuditFlag,
  validateAuditFlags,
  type AuditFlags,
} from '../../../src/config/audit-flags/index.js';

function flags(pairs: Record<string, string>): AuditFlags {
  const f = defaultAuditFlags();
  for (const [name, value] of Object.entries(pairs)) setAuditFlag(f, name, value);
  return f;
}

describe('audit flag defaults', () => {
  it("are kube-apiserver's", () => {
    const f = defaultAuditFlags();
    expect(f.log).toMatchObject({ format: 'json', mode: 'blocking', maxSize: 0, maxBackups: 0, maxAge: 0, compress: false, version: 'audit.k8s.io/v1' });
    expect(f.log.batch).toEqual({ bufferSize: 10000, maxBatchSize: 1, maxBatchWaitMs: 0, throttleEnable: false, throttleQPS: 0, throttleBurst: 0 });
    expect(f.webhook).toMatchObject({ mode: 'batch', initialBackoffMs: 10_000, version: 'audit.k8s.io/v1' });
    expect(f.webhook.batch).toEqual({ bufferSize: 10000, maxBatchSize: 400, maxBatchWaitMs: 30_000, throttleEnable: true, throttleQPS: 10, throttleBurst: 15 });
    expect(f.webhook.truncate).toEqual({ enabled: false, maxBatchSize: 10485760, maxEventSize: 102400 });
  });

  it('name every flag of both backends', () => {
    for (const plugin of ['log', 'webhook']) {
      for (const suffix of [
        'mode',
        'batch-buffer-size',
        'batch-max-size',
        'batch-max-wait',
        'batch-throttle-enable',
        'batch-throttle-qps',
        'batch-throttle-burst',
        'truncate-enabled',
        'truncate-max-batch-size',
        'truncate-max-event-size',
        'version',
      ]) {
        expect(AUDIT_FLAG_NAMES).toContain(`--audit-${plugin}-${suffix}`);
      }
    }
    expect(isBooleanAuditFlag('--audit-log-compress')).toBe(true);
    expect(isBooleanAuditFlag('--audit-log-path')).toBe(false);
  });
});

describe('setAuditFlag', () => {
  it('reads ints as Go does (base prefixes, underscores), durations, floats and booleans', () => {
    const f = flags({
      '--audit-log-maxsize': '0x10',
      '--audit-log-maxbackup': '1_000',
      '--audit-log-maxage': '010',
      '--audit-webhook-batch-max-wait': '1m30s',
      '--audit-webhook-batch-throttle-qps': '2.5',
      '--audit-log-compress': 'T',
      '--audit-webhook-initial-backoff': '250ms',
    });
    expect([f.log.maxSize, f.log.maxBackups, f.log.maxAge]).toEqual([16, 1000, 8]);
    expect(f.webhook.batch.maxBatchWaitMs).toBe(90_000);
    expect(f.webhook.batch.throttleQPS).toBe(2.5);
    expect(f.log.compress).toBe(true);
    expect(f.webhook.initialBackoffMs).toBe(250);
  });

  it("refuses values its type does not read, with pflag's message", () => {
    const f = defaultAuditFlags();
    expect(() => setAuditFlag(f, '--audit-log-maxsize', 'ten')).toThrow(
      'invalid argument "ten" for "--audit-log-maxsize" flag: strconv.ParseInt: parsing "ten": invalid syntax',
    );
    expect(() => setAuditFlag(f, '--audit-log-maxsize', '99999999999999999999')).toThrow(
      'invalid argument "99999999999999999999" for "--audit-log-maxsize" flag: strconv.ParseInt: parsing "99999999999999999999": value out of range',
    );
    expect(() => setAuditFlag(f, '--audit-log-maxsize', '1__0')).toThrow(/invalid syntax/);
    expect(() => setAuditFlag(f, '--audit-log-maxsize', '08')).toThrow(/invalid syntax/);
    expect(() => setAuditFlag(f, '--audit-log-maxsize', '')).toThrow(/invalid syntax/);
    expect(() => setAuditFlag(f, '--audit-webhook-batch-max-wait', '30')).toThrow(
      'invalid argument "30" for "--audit-webhook-batch-max-wait" flag: time: invalid duration "30"',
    );
    expect(() => setAuditFlag(f, '--audit-webhook-batch-throttle-qps', '1e39')).toThrow(
      'invalid argument "1e39" for "--audit-webhook-batch-throttle-qps" flag: strconv.ParseFloat: parsing "1e39": value out of range',
    );
    expect(() => setAuditFlag(f, '--audit-webhook-batch-throttle-qps', '1,5')).toThrow(/strconv.ParseFloat: parsing "1,5": invalid syntax/);
    expect(() => setAuditFlag(f, '--audit-log-compress', 'yes')).toThrow(
      'invalid argument "yes" for "--audit-log-compress" flag: strconv.ParseBool: parsing "yes": invalid syntax',
    );
    expect(() => setAuditFlag(f, '--audit-log-nope', '1')).toThrow('unknown flag: --audit-log-nope');
  });

  it('takes the deprecated --audit-webhook-batch-initial-backoff and says it is deprecated', () => {
    const f = defaultAuditFlags();
    expect(setAuditFlag(f, '--audit-webhook-batch-initial-backoff', '5s')).toBe(
      'Flag --audit-webhook-batch-initial-backoff has been deprecated, Deprecated, use --audit-webhook-initial-backoff instead.',
    );
    expect(f.webhook.initialBackoffMs).toBe(5000);
  });
});

describe('validateAuditFlags', () => {
  it('checks nothing of a backend that is off', () => {
    expect(validateAuditFlags(flags({ '--audit-log-mode': 'fast', '--audit-webhook-version': 'v2' }))).toEqual([]);
  });

  it("reports the log's problems in kube-apiserver's order and words", () => {
    expect(
      validateAuditFlags(
        flags({
          '--audit-log-path': '/var/log/audit.log',
          '--audit-log-mode': 'fast',
          '--audit-log-truncate-max-event-size': '0',
          '--audit-log-version': 'audit.k8s.io/v1beta1',
          '--audit-log-format': 'xml',
          '--audit-log-maxage': '-1',
          '--audit-log-maxbackup': '-2',
          '--audit-log-maxsize': '-3',
        }),
      ),
    ).toEqual([
      'invalid audit log mode fast, allowed modes are "batch,blocking,blocking-strict"',
      'invalid audit truncate log max event size 0, must be a positive number',
      'invalid group version, allowed versions are ["audit.k8s.io/v1"]',
      'invalid audit log format xml, allowed formats are "legacy,json"',
      "--audit-log-maxage -1 can't be a negative number",
      "--audit-log-maxbackup -2 can't be a negative number",
      "--audit-log-maxsize -3 can't be a negative number",
    ]);
  });

  it('checks the batch settings only in batch mode, the first problem only', () => {
    const base = { '--audit-webhook-config-file': 'kubeconfig', '--audit-webhook-batch-buffer-size': '0', '--audit-webhook-batch-max-size': '-1' };
    expect(validateAuditFlags(flags(base))).toEqual(['invalid audit batch webhook buffer size 0, must be a positive number']);
    expect(validateAuditFlags(flags({ ...base, '--audit-webhook-mode': 'blocking' }))).toEqual([]);
    expect(validateAuditFlags(flags({ '--audit-webhook-config-file': 'k', '--audit-webhook-batch-max-size': '0' }))).toEqual([
      'invalid audit batch webhook max batch size 0, must be a positive number',
    ]);
    expect(validateAuditFlags(flags({ '--audit-webhook-config-file': 'k', '--audit-webhook-batch-throttle-qps': '-0.5' }))).toEqual([
      'invalid audit batch webhook throttle QPS -0.5, must be a positive number',
    ]);
    expect(validateAuditFlags(flags({ '--audit-webhook-config-file': 'k', '--audit-webhook-batch-throttle-qps': 'NaN' }))).toEqual([
      'invalid audit batch webhook throttle QPS NaN, must be a positive number',
    ]);
    expect(validateAuditFlags(flags({ '--audit-webhook-config-file': 'k', '--audit-webhook-batch-throttle-burst': '0' }))).toEqual([
      'invalid audit batch webhook throttle burst 0, must be a positive number',
    ]);
    // Throttle rates are not checked with the throttle off: the log's defaults are 0.
    expect(validateAuditFlags(flags({ '--audit-log-path': '-', '--audit-log-mode': 'batch' }))).toEqual([]);
    expect(validateAuditFlags(flags({ '--audit-log-path': '-', '--audit-log-mode': 'batch', '--audit-log-batch-throttle-enable': 'true' }))).toEqual([
      'invalid audit batch log throttle QPS 0, must be a positive number',
    ]);
  });

  it('wants a truncate batch at least as large as an event, and a known version', () => {
    expect(
      validateAuditFlags(
        flags({
          '--audit-webhook-config-file': 'k',
          '--audit-webhook-truncate-max-batch-size': '100',
          '--audit-webhook-truncate-max-event-size': '101',
          '--audit-webhook-version': 'a/b/c',
        }),
      ),
    ).toEqual(['invalid audit truncate webhook max batch size 100, must be greater than max event size (101)', 'unexpected GroupVersion string: a/b/c']);
    expect(validateAuditFlags(flags({ '--audit-webhook-config-file': 'k', '--audit-webhook-version': '' }))).toEqual([
      'invalid group version, allowed versions are ["audit.k8s.io/v1"]',
    ]);
  });
});
