import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { helpHint, wantsHelp } from '../../src/cli/help.js';
import { parseServeArgs, SERVE_USAGE } from '../../src/cli/serve.js';
import { AUDIT_FLAG_NAMES } from '../../src/config/audit-flags/index.js';
import { LOGGING_FLAGS } from '../../src/config/logging/index.js';

/** Every flag a usage text names, `--a-{x,y}-b` expanded into `--a-x-b` and `--a-y-b`. */
function flagsOf(usage: string): Set<string> {
  let text = usage;
  for (let m = /\{([^{}]*)\}/.exec(text); m; m = /\{([^{}]*)\}/.exec(text)) {
    const start = text.lastIndexOf(' ', m.index) + 1;
    const end = text.indexOf(' ', m.index + m[0].length);
    const word = text.slice(start, end < 0 ? undefined : end);
    const expanded = m[1]!
      .split(',')
      .map((alt) => word.replace(m![0], alt))
      .join(' ');
    text = text.slice(0, start) + expanded + (end < 0 ? '' : text.slice(end));
  }
  return new Set(text.match(/(?<![\w-])--?[a-z][a-z0-9-]*/g) ?? []);
}

/**
 * The flags `parseServeArgs` takes: its switch's labels (read from its source, so a flag added
 * there is seen here), the per-signer pattern, and the tables of the audit and logging flags.
 */
function parserFlags(): string[] {
  const source = readFileSync(new URL('../../src/cli/serve.ts', import.meta.url), 'utf8');
  const labels = [...source.matchAll(/case '(--[a-z0-9-]+)':/g)].map((m) => m[1]!);
  const signers = ['kubelet-serving', 'kubelet-client', 'kube-apiserver-client', 'legacy-unknown'].flatMap((s) =>
    ['cert', 'key'].map((k) => `--cluster-signing-${s}-${k}-file`),
  );
  const logging = LOGGING_FLAGS.map((f) => (f === 'v' ? '-v' : `--${f}`));
  return [...labels, ...signers, ...AUDIT_FLAG_NAMES, ...logging];
}

interface Ran {
  code: number;
  stdout: string;
  stderr: string;
}

/** The command from src/ under tsx, as a user runs it; killed by its PID after 30 s. */
function memkube(...args: string[]): Promise<Ran> {
  return new Promise((resolve) => {
    execFile(process.execPath, ['--import', 'tsx', 'src/cli/run.ts', ...args], { timeout: 30_000 }, (error, stdout, stderr) => {
      resolve({ code: error ? (typeof error.code === 'number' ? error.code : -1) : 0, stdout, stderr });
    });
  });
}

describe('memkube help', () => {
  it('sees -h and --help anywhere among the arguments', () => {
    expect(wantsHelp(['--port', '1', '--help'])).toBe(true);
    expect(wantsHelp(['-h'])).toBe(true);
    expect(wantsHelp(['--helpful', '-hh', '--port=-h'])).toBe(false);
    expect(helpHint('serve')).toBe('run "memkube serve --help" for usage');
    expect(helpHint(undefined)).toBe('run "memkube --help" for usage');
  });

  it('lists every flag memkube serve accepts', () => {
    const listed = flagsOf(SERVE_USAGE);
    const missing = parserFlags().filter((f) => !listed.has(f));
    // The deprecated alias stays out of the usage, as kube-apiserver hides it.
    expect(missing).toEqual(['--audit-webhook-batch-initial-backoff']);
  });

  it('lists no flag memkube serve would refuse', () => {
    const refused = [...flagsOf(SERVE_USAGE)].filter((flag) => {
      try {
        parseServeArgs([flag, 'x']);
      } catch (e) {
        return (e as Error).message === `unknown argument ${JSON.stringify(flag)}`;
      }
      return false;
    });
    expect(refused).toEqual([]);
  });

  it('prints the usage to stdout and exits 0 for --help, -h and help <command>', async () => {
    // Three starts of the command only: each costs seconds under tsx on a busy machine.
    const [top, short, viaHelp] = await Promise.all([memkube('--help'), memkube('serve', '--port', '1', '-h'), memkube('help', 'cri')]);
    expect(top).toMatchObject({ code: 0, stderr: '' });
    expect(top.stdout).toContain('usage: memkube <command>');
    expect(short).toEqual({ code: 0, stdout: `${SERVE_USAGE}\n`, stderr: '' });
    expect(viaHelp).toMatchObject({ code: 0, stderr: '' });
    expect(viaHelp.stdout).toMatch(/^usage: memkube cri --socket PATH/);
  }, 60_000);

  it('fails an unknown argument with exit 1 and a hint to --help, and an unknown command with exit 2', async () => {
    const [flag, command] = await Promise.all([memkube('serve', '--no-such-flag'), memkube('frobnicate')]);
    expect(flag).toEqual({ code: 1, stdout: '', stderr: 'memkube: unknown argument "--no-such-flag"\nrun "memkube serve --help" for usage\n' });
    expect(command).toEqual({ code: 2, stdout: '', stderr: 'unknown command "frobnicate"\nrun "memkube --help" for usage\n' });
  }, 60_000);
});
