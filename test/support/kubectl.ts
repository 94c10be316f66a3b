/** Runs a real kubectl binary against a kubeconfig, for the e2e suites. */
import { execFile } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { parse, stringify } from 'yaml';
import { expect } from 'vitest';

/** What one kubectl run printed and how it ended. */
export interface KubectlResult {
  code: number;
  stdout: string;
  stderr: string;
}

/**
 * `kubectl(...args)` runs `binary --kubeconfig <kubeconfig()> ...args` in `cwd()`; `ok(...args)` also
 * expects success with nothing on stderr (but kubectl's version-skew warning) and answers stdout.
 */
export function kubectlRunner(binary: string, kubeconfig: () => string, cwd: () => string) {
  const kubectl = (...args: string[]) =>
    new Promise<KubectlResult>((resolve) => {
      execFile(binary, ['--kubeconfig', kubeconfig(), ...args], { cwd: cwd(), timeout: 20_000 }, (err, stdout, stderr) => {
        resolve({ code: err ? ((err as { code?: number }).code ?? 1) : 0, stdout, stderr });
      });
    });
  const ok = async (...args: string[]) => {
    const r = await kubectl(...args);
    expect(r.stderr.replace(/^WARNING: version difference.*\n/m, ''), `kubectl ${args.join(' ')}`).toBe('');
    expect(r.code).toBe(0);
    return r.stdout;
  };
  return { kubectl, ok };
}

/**
 * Writes `file`: the kubeconfig at `adminKubeconfig` with its user replaced by `user`, a bearer
 * token or a client certificate and key (PEM file paths). kubectl sends credentials over TLS only.
 */
export function kubeconfigAs(adminKubeconfig: string, file: string, user: { token: string } | { cert: string; key: string }): string {
  const config = parse(readFileSync(adminKubeconfig, 'utf8')) as { users: { user: Record<string, string> }[] };
  config.users[0]!.user = 'token' in user ? { token: user.token } : { 'client-certificate': user.cert, 'client-key': user.key };
  writeFileSync(file, stringify(config));
  return file;
}
