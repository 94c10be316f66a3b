import { describe, expect, it } from 'vitest';
import type { LoggingConfiguration } from '../../src/config/logging/index.js';
import { goDurationString, HTTP_LOG_LEVEL, Logger, logHttpRequest, normalizedVerb, type LoggerEnvironment } from '../../src/log/index.js';

/** 2026-11-25T06:24:14.123456Z, with microseconds. */
const NOW = Date.parse('2026-11-25T06:24:14.123Z') + 0.456;

function collect(config: LoggingConfiguration = {}, env: Partial<LoggerEnvironment> = {}) {
  const stdout: string[] = [];
  const stderr: string[] = [];
  const timers: { ms: number; run: () => void; stopped: boolean }[] = [];
  const logger = new Logger(config, {
    stdout: { write: (t: string) => stdout.push(t) },
    stderr: { write: (t: string) => stderr.push(t) },
    now: () => NOW,
    pid: 12345,
    utc: true,
    callSite: () => ({ path: '/work/src/cli/serve.ts', line: 123 }),
    every: (ms, run) => {
      const timer = { ms, run, stopped: false };
      timers.push(timer);
      return () => (timer.stopped = true);
    },
    ...env,
  });
  return { logger, stdout, stderr, timers };
}

describe('the klog text format', () => {
  it("writes klog's header exactly, then the structured message", () => {
    const { logger, stderr, stdout } = collect();
    logger.infoS('Serving', 'address', '127.0.0.1:6443', 'port', 6443, 'tls', true, 'missing', undefined);
    expect(stderr).toEqual(['I1125 06:24:14.123456   12345 serve.ts:123] "Serving" address="127.0.0.1:6443" port=6443 tls=true missing=<nil>\n']);
    expect(stdout).toEqual([]);
  });

  it('writes printf-style messages as they are, warnings and errors with their letters', () => {
    const { logger, stderr } = collect();
    logger.info('Serving insecurely on 127.0.0.1:6443');
    logger.warning('careful\n');
    logger.error('broken');
    logger.errorS(new Error('boom'), 'Failed to do it', 'name', 'x "quoted"');
    logger.errorS(undefined, 'No error value');
    expect(stderr).toEqual([
      'I1125 06:24:14.123456   12345 serve.ts:123] Serving insecurely on 127.0.0.1:6443\n',
      'W1125 06:24:14.123456   12345 serve.ts:123] careful\n',
      'E1125 06:24:14.123456   12345 serve.ts:123] broken\n',
      'E1125 06:24:14.123456   12345 serve.ts:123] "Failed to do it" err="boom" name="x \\"quoted\\""\n',
      'E1125 06:24:14.123456   12345 serve.ts:123] "No error value"\n',
    ]);
  });

  it('writes multi-line values as indented blocks and objects as JSON; a lone key is MISSING', () => {
    const { logger, stderr } = collect();
    logger.infoS('Multi', 'text', 'a\nb\n', 'obj', { a: [1] }, 'alone');
    expect(stderr).toEqual([
      'I1125 06:24:14.123456   12345 serve.ts:123] "Multi" text=<\n\ta\n\tb\n >  obj={"a":[1]} alone="(MISSING)"\n'.replace(' >  obj', ' > obj'),
    ]);
  });

  it('pads a short pid, and uses the real call site when none is injected', () => {
    const { logger, stderr } = collect({}, { pid: 7, callSite: undefined });
    logger.info('here');
    expect(stderr[0]).toMatch(/^I1125 06:24:14\.123456 {7}7 logger\.test\.ts:\d+\] here\n$/);
  });

  it('filters by verbosity', () => {
    const { logger, stderr } = collect({ verbosity: 2 });
    logger.V(2).infoS('two');
    logger.V(3).infoS('three');
    logger.V(2).info('two printf');
    expect(logger.V(2).enabled).toBe(true);
    expect(logger.V(3).enabled).toBe(false);
    expect(stderr.map((l) => l.slice(44))).toEqual(['"two"\n', 'two printf\n']);
  });

  it('raises the verbosity of matching files with vmodule (base name without extension, globs, full paths)', () => {
    const at = (path: string, vmodule: LoggingConfiguration['vmodule']) => {
      const { logger } = collect({ verbosity: 1, vmodule }, { callSite: () => ({ path, line: 1 }) });
      return [1, 2, 3, 4, 5].filter((v) => logger.V(v).enabled);
    };
    expect(at('/src/log/httplog.ts', [{ filePattern: 'httplog', verbosity: 3 }])).toEqual([1, 2, 3]);
    expect(at('/src/log/httplog.ts', [{ filePattern: 'http*', verbosity: 4 }])).toEqual([1, 2, 3, 4]);
    expect(at('/src/log/httplog.ts', [{ filePattern: 'h?tplog', verbosity: 2 }])).toEqual([1, 2]);
    expect(at('/src/log/httplog.ts', [{ filePattern: '/*/log/httplog', verbosity: 5 }])).toEqual([1, 2, 3, 4, 5]);
    expect(at('/src/cli/serve.ts', [{ filePattern: 'httplog', verbosity: 5 }])).toEqual([1]);
    // The first matching pattern counts; vmodule never lowers the global verbosity.
    expect(
      at('/src/log/httplog.ts', [
        { filePattern: 'httplog', verbosity: 2 },
        { filePattern: '*', verbosity: 5 },
      ]),
    ).toEqual([1, 2]);
    expect(at('/src/log/httplog.ts', [{ filePattern: 'httplog', verbosity: 0 }])).toEqual([1]);
  });

  it('sends errors to stderr and info to stdout with split streams', () => {
    const { logger, stdout, stderr } = collect({ options: { text: { splitStream: true } } });
    logger.info('info');
    logger.warning('warning');
    logger.errorS(new Error('e'), 'error');
    expect(stdout.map((l) => l.slice(44))).toEqual(['info\n', 'warning\n']);
    expect(stderr.map((l) => l.slice(44))).toEqual(['"error" err="e"\n']);
  });

  it('buffers the info stream up to infoBufferSize, flushing when full, on the timer and on close', () => {
    const { logger, stdout, stderr, timers } = collect({ flushFrequency: '250ms', options: { text: { splitStream: true, infoBufferSize: 200 } } });
    expect(timers.map((t) => t.ms)).toEqual([250]);
    logger.info('one');
    logger.info('two');
    expect(stdout).toEqual([]);
    logger.errorS(new Error('x'), 'errors are not buffered');
    expect(stderr).toHaveLength(1);
    timers[0]!.run();
    expect(stdout).toHaveLength(1);
    expect(stdout[0]).toContain('] one\n');
    expect(stdout[0]).toContain('] two\n');
    // 46-byte lines: the fifth would pass 200 bytes, so the first four go out together.
    for (const n of [1, 2, 3, 4, 5]) logger.info(String(n));
    expect(stdout).toHaveLength(2);
    logger.info('x'.repeat(300));
    expect(stdout).toHaveLength(4);
    expect(stdout[3]).toContain('x'.repeat(300));
    logger.info('last');
    logger.close();
    expect(stdout.at(-1)).toContain('] last\n');
    expect(timers[0]!.stopped).toBe(true);
  });
});

describe('the JSON format', () => {
  it("writes component-base's fields: ts in milliseconds, caller, msg, v, then the pairs; err last", () => {
    const { logger, stderr } = collect({ format: 'json', verbosity: 4 });
    logger.V(4).infoS('Pod status updated', 'pod', { name: 'nginx', namespace: 'default' }, 'ready', true);
    logger.info('printf style');
    logger.errorS(new Error('boom'), 'Failed', 'attempt', 2);
    expect(stderr.map((l) => JSON.parse(l))).toEqual([
      { ts: NOW, caller: 'cli/serve.ts:123', msg: 'Pod status updated', v: 4, pod: { name: 'nginx', namespace: 'default' }, ready: true },
      { ts: NOW, caller: 'cli/serve.ts:123', msg: 'printf style', v: 0 },
      { ts: NOW, caller: 'cli/serve.ts:123', msg: 'Failed', attempt: 2, err: 'boom' },
    ]);
    expect(stderr[0]).toBe(
      `{"ts":${NOW},"caller":"cli/serve.ts:123","msg":"Pod status updated","v":4,"pod":{"name":"nginx","namespace":"default"},"ready":true}\n`,
    );
    expect(stderr[2]).toBe(`{"ts":${NOW},"caller":"cli/serve.ts:123","msg":"Failed","attempt":2,"err":"boom"}\n`);
  });

  it('filters by verbosity, ignores vmodule, and splits streams with its own options', () => {
    const { logger, stdout, stderr } = collect({
      format: 'json',
      verbosity: 1,
      vmodule: [{ filePattern: 'serve', verbosity: 9 }],
      options: { json: { splitStream: true } },
    });
    logger.V(2).infoS('hidden');
    logger.V(1).infoS('shown');
    logger.errorS(new Error('e'), 'error');
    expect(stdout.map((l) => JSON.parse(l).msg)).toEqual(['shown']);
    expect(stderr.map((l) => JSON.parse(l).msg)).toEqual(['error']);
  });

  it('escapes hostile strings into valid JSON lines', () => {
    const { logger, stderr } = collect({ format: 'json' });
    logger.infoS('a"b\n\u0000', 'k\n', '\u2028"');
    expect(stderr[0]!.endsWith('}\n')).toBe(true);
    expect(stderr[0]!.slice(0, -1)).not.toContain('\n');
    expect(JSON.parse(stderr[0]!)).toMatchObject({ msg: 'a"b\n\u0000', 'k\n': '\u2028"' });
  });
});

describe('the HTTP request line', () => {
  it("is httplog's line, at verbosity 3 only", () => {
    const request = {
      verb: 'LIST',
      uri: '/api/v1/namespaces/default/pods?limit=500',
      latencyMs: 1.2345678,
      userAgent: 'kubectl/v1.33.0 (linux/amd64) kubernetes/abc',
      contentType: 'application/json',
      auditId: 'a'.repeat(70),
      srcIP: '127.0.0.1:54321',
      status: 200,
    };
    const quiet = collect({ verbosity: 2 });
    logHttpRequest(quiet.logger, request);
    expect(quiet.stderr).toEqual([]);
    const { logger, stderr } = collect({ verbosity: HTTP_LOG_LEVEL });
    logHttpRequest(logger, request);
    logHttpRequest(logger, { ...request, verb: 'CONNECT', status: undefined });
    expect(stderr).toEqual([
      `I1125 06:24:14.123456   12345 serve.ts:123] "HTTP" verb="LIST" URI="/api/v1/namespaces/default/pods?limit=500" latency="1.234568ms" userAgent="kubectl/v1.33.0 (linux/amd64) kubernetes/abc" contentType="application/json" audit-ID="${'a'.repeat(64)}" srcIP="127.0.0.1:54321" resp=200\n`,
      `I1125 06:24:14.123456   12345 serve.ts:123] "HTTP" verb="CONNECT" URI="/api/v1/namespaces/default/pods?limit=500" latency="1.234568ms" userAgent="kubectl/v1.33.0 (linux/amd64) kubernetes/abc" contentType="application/json" audit-ID="${'a'.repeat(64)}" srcIP="127.0.0.1:54321" hijacked=true\n`,
    ]);
  });

  it('normalizes the verb as the request metrics do', () => {
    expect(normalizedVerb({ method: 'GET', resource: true })).toBe('LIST');
    expect(normalizedVerb({ method: 'GET', resource: true, named: true })).toBe('GET');
    expect(normalizedVerb({ method: 'GET', resource: false })).toBe('GET');
    expect(normalizedVerb({ method: 'get', resource: true, watch: true })).toBe('WATCH');
    expect(normalizedVerb({ method: 'PATCH', contentType: 'application/apply-patch+yaml' })).toBe('APPLY');
    expect(normalizedVerb({ method: 'PATCH', contentType: 'application/merge-patch+json' })).toBe('PATCH');
    expect(normalizedVerb({ method: 'POST', resource: true, named: true, subresource: 'exec' })).toBe('CONNECT');
    expect(normalizedVerb({ method: 'POST', resource: true, subresource: 'status' })).toBe('POST');
  });

  it("prints latencies as Go's Duration does", () => {
    expect(goDurationString(0)).toBe('0s');
    expect(goDurationString(850)).toBe('850ns');
    expect(goDurationString(1500)).toBe('1.5µs');
    expect(goDurationString(1_000_000)).toBe('1ms');
    expect(goDurationString(1_234_567)).toBe('1.234567ms');
    expect(goDurationString(2_500_000_000)).toBe('2.5s');
    expect(goDurationString(123_500_000_000)).toBe('2m3.5s');
    expect(goDurationString(3_600_000_000_000)).toBe('1h0m0s');
    expect(goDurationString(-1500)).toBe('-1.5µs');
  });
});

describe('the verb of an arriving request', () => {
  it('reads the path as the request info factory does', async () => {
    const { requestVerb } = await import('../../src/log/httplog.js');
    expect(requestVerb('GET', '/api/v1/namespaces/default/pods?limit=500')).toBe('LIST');
    expect(requestVerb('GET', '/api/v1/namespaces/default/pods/web')).toBe('GET');
    expect(requestVerb('GET', '/api/v1/namespaces/default')).toBe('GET');
    expect(requestVerb('GET', '/api/v1/namespaces')).toBe('LIST');
    expect(requestVerb('GET', '/apis/apps/v1/deployments?watch=true&resourceVersion=1')).toBe('WATCH');
    expect(requestVerb('GET', '/api/v1/watch/namespaces/default/pods')).toBe('WATCH');
    expect(requestVerb('PATCH', '/apis/apps/v1/namespaces/a/deployments/d', 'application/apply-patch+yaml')).toBe('APPLY');
    expect(requestVerb('POST', '/api/v1/namespaces/a/pods/p/exec?command=sh')).toBe('CONNECT');
    expect(requestVerb('PUT', '/api/v1/namespaces/a/pods/p/status')).toBe('PUT');
    expect(requestVerb('GET', '/healthz')).toBe('GET');
    expect(requestVerb('GET', '/apis')).toBe('GET');
    expect(requestVerb('GET', '/apis/apps/v1')).toBe('GET');
  });
});
