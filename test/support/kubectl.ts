/** Runs a real kubectl binary against a kubeconfig, for the e2e suites. */
import { execFile } from 'node:child_process';
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
