import { describe, expect, it } from 'vitest';
import { parseServeArgs, serve } from '../../src/cli/serve.js';

/** Runs `memkube serve` in process until it prints its URL, then stops it as SIGTERM would. */
async function serveOnce(args: string[]) {
  const stdout: string[] = [];
  const stderr: string[] = [];
  const out: string[] = [];
  let started!: () => void;
  const running = new Promise<void>((resolve) => (started = resolve));
  const done = serve(
    parseServeArgs(['--port', '0', ...args]),
    (line) => {
      out.push(line);
      started();
    },
    {
      stdout: { write: (t: string) => stdout.push(t) },
      stderr: { write: (t: string) => stderr.push(t) },
      now: () => Date.parse('2026-11-25T06:24:14.5Z'),
      pid: 4242,
      utc: true,
      callSite: () => ({ path: '/src/cli/serve.ts', line: 1 }),
      every: () => () => undefined,
    },
  );
  await Promise.race([running, done]);
  process.emit('SIGTERM');
  await done;
  return { out, stdout, stderr };
}

describe('memkube serve logging', () => {
  it('takes the logging flags as kube-apiserver spells them', () => {
    expect(parseServeArgs(['-v', '3']).logging).toEqual({ verbosity: 3 });
    expect(parseServeArgs(['-v=4']).logging).toEqual({ verbosity: 4 });
    expect(parseServeArgs(['-v5']).logging).toEqual({ verbosity: 5 });
    expect(parseServeArgs(['--v=2', '--vmodule', 'httplog=4']).logging).toEqual({ verbosity: 2, vmodule: [{ filePattern: 'httplog', verbosity: 4 }] });
    expect(parseServeArgs(['--logging-format=json', '--log-flush-frequency', '1s']).logging).toEqual({ format: 'json', flushFrequency: '1s' });
    expect(parseServeArgs(['--feature-gates', 'LoggingAlphaOptions=true', '--log-text-split-stream', '--log-text-info-buffer-size', '1Ki']).logging).toEqual({
      options: { text: { splitStream: true, infoBufferSize: '1Ki' } },
    });
    expect(parseServeArgs(['--feature-gates=LoggingAlphaOptions=true', '--log-json-split-stream=false']).logging).toEqual({
      options: { json: { splitStream: false } },
    });
  });

  it("refuses bad logging flags with pflag's and component-base's messages", () => {
    expect(() => parseServeArgs(['-v', 'x'])).toThrow('invalid argument "x" for "-v, --v" flag: strconv.ParseUint: parsing "x": invalid syntax');
    expect(() => parseServeArgs(['-v'])).toThrow("flag needs an argument: 'v' in -v");
    expect(() => parseServeArgs(['--vmodule'])).toThrow('flag needs an argument: --vmodule');
    expect(() => parseServeArgs(['--logging-format', 'xml'])).toThrow('format: Invalid value: "xml": Unsupported log format');
    expect(() => parseServeArgs(['--log-text-split-stream'])).toThrow('options.text.splitStream: Forbidden: Feature LoggingAlphaOptions is disabled');
    expect(() => parseServeArgs(['--logging-format', 'json', '--vmodule', 'a=1'])).toThrow('vmodule: Forbidden: Only supported for text log format');
    expect(() => parseServeArgs(['--feature-gates', 'LoggingBetaOptions=false', '--logging-format', 'json'])).toThrow(
      'format: Forbidden: Log format json is disabled, see LoggingBetaOptions feature',
    );
    expect(() => parseServeArgs(['--verbose'])).toThrow('unknown argument "--verbose"');
  });

  it('keeps its URL line for stdout and logs like kube-apiserver on stderr', async () => {
    const { out, stdout, stderr } = await serveOnce([]);
    expect(out).toHaveLength(1);
    expect(out[0]).toMatch(/^memkube serving on http:\/\/127\.0\.0\.1:\d+$/);
    expect(stdout).toEqual([]);
    const port = /:(\d+)$/.exec(out[0]!)![1];
    expect(stderr).toEqual([
      'I1125 06:24:14.500000    4242 serve.ts:1] Loaded 4 mutating admission controller(s) successfully in the following order: NamespaceLifecycle,ServiceAccount,Priority,DefaultTolerationSeconds.\n',
      expect.stringContaining('validating admission controller(s) successfully in the following order: '),
      `I1125 06:24:14.500000    4242 serve.ts:1] Serving insecurely on 127.0.0.1:${port}\n`,
    ]);
  });

  it('registers the admission plugins at -v=1, in JSON when asked', async () => {
    const { stderr } = await serveOnce(['--logging-format', 'json', '-v', '1']);
    const lines = stderr.map((l) => JSON.parse(l) as Record<string, unknown>);
    expect(lines[0]).toEqual({
      ts: Date.parse('2026-11-25T06:24:14.5Z'),
      caller: 'cli/serve.ts:1',
      msg: 'Registered admission plugin',
      v: 1,
      plugin: 'NamespaceLifecycle',
    });
    expect(lines.filter((l) => l.msg === 'Registered admission plugin').map((l) => l.plugin)).toEqual([
      'NamespaceLifecycle',
      'ServiceAccount',
      'Priority',
      'DefaultTolerationSeconds',
    ]);
    expect(lines.at(-1)!.msg).toMatch(/^Serving insecurely on 127\.0\.0\.1:\d+$/);
  });
});
