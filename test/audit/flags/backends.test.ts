/**
 * The backends made from the audit flags: none without a policy, each in its mode and behind
 * truncation when asked, the log file made at start, and the start-up errors.
 */
import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { auditBackendsFromFlags } from '../../../src/audit/flags/backends.js';
import { defaultAuditFlags, setAuditFlag, type AuditFlags } from '../../../src/config/audit-flags/index.js';
import { testCertificates, writeKubeconfig } from '../../auth/webhook/webhook-server.js';
import { sampleEvent } from '../log/events.js';

const dir = mkdtempSync(join(tmpdir(), 'memkube-audit-flags-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const policy = join(dir, 'policy.yaml');
writeFileSync(policy, 'apiVersion: audit.k8s.io/v1\nkind: Policy\nrules:\n- level: Metadata\n');

function flags(pairs: Record<string, string>): AuditFlags {
  const f = defaultAuditFlags();
  for (const [name, value] of Object.entries(pairs)) setAuditFlag(f, name, value);
  return f;
}

describe('auditBackendsFromFlags', () => {
  it('builds nothing without flags', () => {
    expect(auditBackendsFromFlags(defaultAuditFlags())).toEqual({ backends: [], notes: [] });
  });

  it('builds no backend without a policy file, and says so as kube-apiserver logs it', () => {
    const setup = auditBackendsFromFlags(flags({ '--audit-log-path': '-', '--audit-webhook-config-file': join(dir, 'none.yaml') }));
    expect(setup.backends).toEqual([]);
    expect(setup.policy).toBeUndefined();
    expect(setup.notes).toEqual([
      'No audit policy file provided, no events will be recorded for log backend',
      'No audit policy file provided, no events will be recorded for webhook backend',
    ]);
  });

  it('hands over the policy text and a blocking log backend that writes the file it made with mode 0600', async () => {
    const path = join(dir, 'logs', 'audit.log');
    const setup = auditBackendsFromFlags(flags({ '--audit-policy-file': policy, '--audit-log-path': path }));
    expect(setup.policy).toBe(readFileSync(policy, 'utf8'));
    expect(setup.backends.map((b) => b.name)).toEqual(['ignoreErrors<log>']);
    expect(statSync(path).mode & 0o777).toBe(0o600);
    expect(await setup.backends[0]!.processEvents([sampleEvent()])).toBe(true);
    await setup.backends[0]!.shutdown();
    expect(JSON.parse(readFileSync(path, 'utf8'))).toEqual(sampleEvent());
  });

  it('wraps each backend in its mode, then in truncation', async () => {
    await testCertificates();
    const kubeconfig = await writeKubeconfig(dir, 'https://127.0.0.1:1/audit');
    const out = { text: '', write: (t: string) => void (out.text += t), close: async () => undefined };
    const setup = auditBackendsFromFlags(
      flags({
        '--audit-policy-file': policy,
        '--audit-log-path': '-',
        '--audit-log-format': 'legacy',
        '--audit-log-mode': 'blocking-strict',
        '--audit-log-truncate-enabled': 'true',
        '--audit-webhook-config-file': kubeconfig,
        '--audit-webhook-truncate-enabled': 'true',
      }),
      { stdout: out },
    );
    expect(setup.backends.map((b) => b.name)).toEqual(['truncate<log>', 'truncate<buffered<webhook>>']);
    await setup.backends[0]!.processEvents([sampleEvent()]);
    expect(out.text).toContain(' AUDIT: id="0b5e2f46-1d6c-4c8f-9a52-3f1f3e1d2a10"');
    await Promise.all(setup.backends.map((b) => b.shutdown()));
  });

  it("stops with kube-apiserver's errors for a missing policy, an unusable log path or kubeconfig", () => {
    const missing = join(dir, 'missing.yaml');
    expect(() => auditBackendsFromFlags(flags({ '--audit-policy-file': missing }))).toThrow(
      `loading audit policy file: failed to read file path "${missing}": open ${missing}: no such file or directory`,
    );
    expect(() => auditBackendsFromFlags(flags({ '--audit-policy-file': policy, '--audit-log-path': join(policy, 'audit.log') }))).toThrow(
      `ensureLogFile: mkdir ${policy}: not a directory`,
    );
    expect(() => auditBackendsFromFlags(flags({ '--audit-policy-file': policy, '--audit-webhook-config-file': missing }))).toThrow(
      `initializing audit webhook: stat ${missing}: no such file or directory`,
    );
  });
});

describe('the backends of the flags, attached to a cluster', () => {
  it('count the events they lose in every cluster attached to them, and still tell the server', async () => {
    const told: Array<[string, number]> = [];
    const setup = auditBackendsFromFlags(flags({ '--audit-policy-file': policy, '--audit-log-path': '/dev/full', '--audit-log-mode': 'blocking-strict' }), {
      onError: (plugin, events) => void told.push([plugin, events]),
    });
    const counted: Array<[string, number]> = [];
    for (const backend of setup.backends) {
      backend.attach?.({
        handlePluginError: (plugin, _error, impacted) => void counted.push([plugin, typeof impacted === 'number' ? impacted : impacted.length]),
      });
    }
    expect(await setup.backends[0]!.processEvents([sampleEvent()])).toBe(false);
    expect(told).toEqual([['log', 1]]);
    expect(counted).toEqual([['log', 1]]);
    await setup.backends[0]!.shutdown();
  });
});
