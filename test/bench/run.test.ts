import { spawnSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';

/** Runs `tsx bench/run.ts ARGS` and answers its exit status and output. */
function bench(...args: string[]): { status: number | null; stdout: string; stderr: string } {
  const r = spawnSync(process.execPath, ['--import', 'tsx', 'bench/run.ts', ...args], { encoding: 'utf8', timeout: 60_000 });
  return { status: r.status, stdout: r.stdout, stderr: r.stderr };
}

describe('npm run bench command line', () => {
  it('documents --quick and names the suites it runs', () => {
    const help = bench('--help');
    expect(help.status).toBe(0);
    expect(help.stdout).toContain('--quick');
    expect(help.stdout).toMatch(/without --only, the suites startup, http, client;/);
  });

  it('refuses too few rounds, with the limit of each mode', () => {
    const full = bench('--rounds', '3', '--only', 'client-list');
    expect(full.status).toBe(2);
    expect(full.stderr).toContain('--rounds needs a whole number of at least 5 (3 with --quick)');
    const quick = bench('--quick', '--rounds', '2', '--only', 'client-list');
    expect(quick.status).toBe(2);
    expect(quick.stderr).toContain('--rounds needs a whole number of at least 5 (3 with --quick)');
  });

  it('takes the scale suite size and pace, as positive whole numbers', () => {
    const help = bench('--help');
    expect(help.stdout).toMatch(/--scale-pods N\s+pods the scale suite creates \(default 100000, on at most 1000 nodes\)/);
    expect(help.stdout).toMatch(/--scale-rate N\s+pods per second it creates them at \(default 1000\)/);
    const bad = bench('--only', 'scale', '--scale-pods', '0');
    expect(bad.status).toBe(2);
    expect(bad.stderr).toContain('--scale-pods needs a whole number of at least 1');
  });
});
