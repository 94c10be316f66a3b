/**
 * `promtool check metrics` (Debian's prometheus 2.42) on an exposition: it parses the text format
 * and lints it with client_golang's promlint. It exits 3 when it only found lint problems and 1 when
 * the text does not parse; both are answered here, never thrown, so that tests can tell which.
 */
import { spawn } from 'node:child_process';
import { promtool } from './binaries.js';

/** One problem promlint reported: the metric family and what is wrong with it. */
export interface LintProblem {
  readonly metric: string;
  readonly text: string;
}

/** What one `promtool check metrics` run said. */
export interface CheckMetricsResult {
  /** Exit code 0: it parsed and promlint found nothing. */
  readonly ok: boolean;
  /** promtool's exit code: 0, 3 (lint problems only) or 1 (the text did not parse). */
  readonly exitCode: number;
  /** Everything it printed (it prints to stderr). */
  readonly output: string;
  /** The lint problems, one per line of output (`<metric> <problem>`). */
  readonly problems: readonly LintProblem[];
  /** The parse error (`text format parsing error in line 3: ...`) when the text did not parse. */
  readonly parseError?: string;
}

const CHECK_TIMEOUT_MS = 20_000;

/** Runs `promtool check metrics` with `text` on its stdin. */
export async function checkMetrics(text: string, cacheDir?: string): Promise<CheckMetricsResult> {
  const binary = await promtool(cacheDir);
  const { exitCode, output } = await new Promise<{ exitCode: number; output: string }>((resolve, reject) => {
    const child = spawn(binary, ['check', 'metrics'], { stdio: ['pipe', 'pipe', 'pipe'] });
    let printed = '';
    child.stdout.on('data', (d: Buffer) => (printed += d.toString()));
    child.stderr.on('data', (d: Buffer) => (printed += d.toString()));
    const timer = setTimeout(() => child.kill('SIGKILL'), CHECK_TIMEOUT_MS);
    child.once('error', (err) => {
      clearTimeout(timer);
      reject(err);
    });
    child.once('close', (code, signal) => {
      clearTimeout(timer);
      if (code === null)
        reject(new Error(`promtool check metrics ended by ${signal}${signal === 'SIGKILL' ? ` after ${CHECK_TIMEOUT_MS} ms` : ''}: ${printed}`));
      else resolve({ exitCode: code, output: printed });
    });
    // A promtool that stopped reading (a parse error early on) must not fail the write.
    child.stdin.on('error', () => undefined);
    child.stdin.end(text);
  });
  return { ok: exitCode === 0, exitCode, output, ...parseOutput(output) };
}

/** promtool's lines: `<metric> <problem>` per lint problem, or `error while linting: <why>`. */
export function parseOutput(output: string): { problems: LintProblem[]; parseError?: string } {
  const problems: LintProblem[] = [];
  let parseError: string | undefined;
  for (const line of output.split('\n').map((l) => l.trim())) {
    if (line === '') continue;
    const failed = /^error while linting: (.*)$/.exec(line);
    if (failed) {
      parseError = failed[1]!;
      continue;
    }
    const space = line.indexOf(' ');
    if (space > 0) problems.push({ metric: line.slice(0, space), text: line.slice(space + 1) });
    else problems.push({ metric: line, text: '' });
  }
  return parseError === undefined ? { problems } : { problems, parseError };
}
