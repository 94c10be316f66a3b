/** `memkube serve`'s audit flags: parsed as pflag parses them, validated as kube-apiserver validates them. */
import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { parseServeArgs, serve, SERVE_USAGE } from '../../src/cli/serve.js';

const quiet = { stdout: { write: () => undefined }, stderr: { write: () => undefined }, every: () => () => undefined };
const dir = mkdtempSync(join(tmpdir(), 'memkube-serve-audit-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('memkube serve --audit-*', () => {
  it('takes the flags in both spellings, booleans alone', () => {
    const o = parseServeArgs([
      '--audit-policy-file',
      'policy.yaml',
      '--audit-log-path=-',
      '--audit-log-compress',
      '--audit-log-maxsize',
      '5',
      '--audit-webhook-config-file=hook.yaml',
      '--audit-webhook-batch-max-wait=5s',
      '--audit-webhook-batch-throttle-enable=false',
    ]);
    expect(o.audit?.policyFile).toBe('policy.yaml');
    expect(o.audit?.log).toMatchObject({ path: '-', compress: true, maxSize: 5, mode: 'blocking' });
    expect(o.audit?.webhook).toMatchObject({ configFile: 'hook.yaml', mode: 'batch' });
    expect(o.audit?.webhook.batch).toMatchObject({ maxBatchWaitMs: 5000, throttleEnable: false });
    expect(parseServeArgs([]).audit).toBeUndefined();
  });

  it('collects the deprecation warning of --audit-webhook-batch-initial-backoff', () => {
    const o = parseServeArgs(['--audit-webhook-batch-initial-backoff', '1s']);
    expect(o.audit?.webhook.initialBackoffMs).toBe(1000);
    expect(o.flagWarnings).toEqual([
      'Flag --audit-webhook-batch-initial-backoff has been deprecated, Deprecated, use --audit-webhook-initial-backoff instead.',
    ]);
  });

  it("stops with pflag's and kube-apiserver's messages", () => {
    expect(() => parseServeArgs(['--audit-log-maxbackup', 'many'])).toThrow(
      'invalid argument "many" for "--audit-log-maxbackup" flag: strconv.ParseInt: parsing "many": invalid syntax',
    );
    expect(() => parseServeArgs(['--audit-log-path', '/tmp/a.log', '--audit-log-mode', 'async'])).toThrow(
      'invalid audit log mode async, allowed modes are "batch,blocking,blocking-strict"',
    );
    expect(() => parseServeArgs(['--audit-log-path', '/tmp/a.log', '--audit-log-maxage', '-1', '--audit-log-format', 'text'])).toThrow(
      '[invalid audit log format text, allowed formats are "legacy,json", --audit-log-maxage -1 can\'t be a negative number]',
    );
    expect(() => parseServeArgs(['--audit-log-path'])).toThrow('--audit-log-path needs a value');
  });

  it('lists the audit flags in its usage', () => {
    expect(SERVE_USAGE).toContain('--audit-log-path FILE|-');
    expect(SERVE_USAGE).toContain('--audit-webhook-config-file FILE');
  });

  it('stops before serving when the policy, the log file or the webhook kubeconfig cannot be used', async () => {
    const policy = join(dir, 'policy.yaml');
    writeFileSync(policy, 'apiVersion: audit.k8s.io/v1\nkind: Policy\nrules:\n- level: Metadata\n');
    const missing = join(dir, 'missing.yaml');
    const start = (args: string[]) => serve(parseServeArgs(['--port', '0', ...args]), () => undefined, quiet);
    await expect(start(['--audit-policy-file', missing])).rejects.toThrow(`loading audit policy file: failed to read file path "${missing}"`);
    await expect(start(['--audit-policy-file', policy, '--audit-log-path', join(policy, 'audit.log')])).rejects.toThrow(
      `ensureLogFile: mkdir ${policy}: not a directory`,
    );
    await expect(start(['--audit-policy-file', policy, '--audit-webhook-config-file', missing])).rejects.toThrow(
      `initializing audit webhook: stat ${missing}: no such file or directory`,
    );
  });

  it('serves with a log backend, its file made with mode 0600 before the first request', async () => {
    const policy = join(dir, 'policy.yaml');
    writeFileSync(policy, 'apiVersion: audit.k8s.io/v1\nkind: Policy\nrules:\n- level: Metadata\n');
    const log = join(dir, 'logs', 'audit.log');
    let started!: (line: string) => void;
    const running = new Promise<string>((resolve) => (started = resolve));
    const done = serve(parseServeArgs(['--port', '0', '--audit-policy-file', policy, '--audit-log-path', log]), (line) => started(line), quiet);
    try {
      await Promise.race([running, done]);
      expect(statSync(log).mode & 0o777).toBe(0o600);
      expect(readFileSync(log, 'utf8')).toBe('');
    } finally {
      process.emit('SIGTERM');
      await done;
    }
  });
});
