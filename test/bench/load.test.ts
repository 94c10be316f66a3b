import { spawn } from 'node:child_process';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { LOAD_USAGE, parseDuration, parseLoadArgs, runLoad, type LoadResult } from '../../bench/load.js';

interface Seen {
  requests: number;
  connections: number;
  posts: { path: string; contentType: string | undefined; body: string }[];
}

const servers: Server[] = [];
afterEach(async () => {
  for (const s of servers.splice(0)) {
    s.closeAllConnections();
    await new Promise((resolve) => s.close(resolve));
  }
});

/** A tiny server: 404 for /missing, never answers /hang, 201 for POST, 200 otherwise; counts what it saw. */
async function tinyServer(): Promise<{ url: string; seen: Seen }> {
  const seen: Seen = { requests: 0, connections: 0, posts: [] };
  const server = createServer((req, res) => {
    seen.requests++;
    if (req.url === '/hang') return;
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      if (req.method === 'POST') {
        seen.posts.push({ path: req.url!, contentType: req.headers['content-type'], body: Buffer.concat(chunks).toString() });
        res.writeHead(201).end('{}');
      } else res.writeHead(req.url === '/missing' ? 404 : 200).end('{"ok":true}');
    });
  });
  server.on('connection', () => seen.connections++);
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, seen };
}

describe('bench/load.ts runLoad', () => {
  it('sends exactly the requested number over at most `concurrency` kept-alive connections', async () => {
    const { url, seen } = await tinyServer();
    const r = await runLoad({ url, path: '/x', concurrency: 8, requests: 300 });
    expect(r.requests).toBe(300);
    expect(seen.requests).toBe(300);
    expect(r.statusCodes).toEqual({ '200': 300 });
    expect(r.errors).toBe(0);
    expect(seen.connections).toBeLessThanOrEqual(8);
    expect(r.requestsPerSecond).toBeCloseTo(300 / r.seconds);
    expect(r.latencyMs.p50).toBeGreaterThan(0);
    expect(r.latencyMs.p50).toBeLessThanOrEqual(r.latencyMs.p99);
    expect(r.latencyMs.p99).toBeLessThanOrEqual(r.latencyMs.max);
    expect(r.url).toBe(`${url}/x`);
  });

  it("reports its own CPU share and, given the server's PID, the server's CPU time per request", async () => {
    const { url } = await tinyServer();
    // The tiny server runs in this process: its PID is ours.
    const r = await runLoad({ url, concurrency: 4, requests: 400, serverPid: process.pid });
    expect(r.generatorCpuShare).toBeGreaterThan(0);
    if (process.platform === 'linux') {
      expect(r.serverCpuSeconds).toBeGreaterThanOrEqual(0);
      expect(r.serverCpuMicrosPerRequest).toBeCloseTo((r.serverCpuSeconds! * 1e6) / 400);
    }
    const without = await runLoad({ url, concurrency: 2, requests: 10 });
    expect(without.serverCpuMicrosPerRequest).toBeUndefined();
  });

  it('counts answers by status code', async () => {
    const { url } = await tinyServer();
    const r = await runLoad({ url, path: '/missing', concurrency: 2, requests: 10 });
    expect(r.statusCodes).toEqual({ '404': 10 });
    expect(r.errors).toBe(0);
  });

  it('does not record the warm-up', async () => {
    const { url, seen } = await tinyServer();
    const r = await runLoad({ url, concurrency: 4, warmupMs: 50, requests: 20 });
    expect(r.requests).toBe(20);
    expect(seen.requests).toBeGreaterThan(20);
  });

  it('reports transport errors and timeouts instead of failing', async () => {
    const { url } = await tinyServer();
    const hung = await runLoad({ url, path: '/hang', concurrency: 2, requests: 2, timeoutMs: 50 });
    expect(hung.requests).toBe(0);
    expect(hung.errors).toBe(2);
    expect(hung.errorMessages).toEqual({ 'timeout after 50 ms': 2 });

    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const port = (closed.address() as AddressInfo).port;
    await new Promise((resolve) => closed.close(resolve));
    const refused = await runLoad({ url: `http://127.0.0.1:${port}`, concurrency: 2, requests: 4 });
    expect(refused.requests).toBe(0);
    expect(refused.errors).toBe(4);
    expect(Object.keys(refused.errorMessages).join()).toMatch(/ECONNREFUSED/);

    // A request node:http refuses to send at all is an error of that request, not of the run.
    const invalid = await runLoad({ url, headers: { 'x-bad': 'a\nb' }, concurrency: 1, requests: 3 });
    expect(invalid.errors).toBe(3);
    expect(Object.keys(invalid.errorMessages).join()).toMatch(/Invalid character/);
  });

  it('creates unique ~1 KB ConfigMaps with --create-configmaps', async () => {
    const { url, seen } = await tinyServer();
    const { options } = parseLoadArgs(['--url', url, '--create-configmaps', '--namespace', 'ns1', '--requests', '50', '--concurrency', '4']);
    const r: LoadResult = await runLoad(options);
    expect(r.method).toBe('POST');
    expect(r.statusCodes).toEqual({ '201': 50 });
    expect(seen.posts).toHaveLength(50);
    const names = new Set<string>();
    for (const post of seen.posts) {
      expect(post.path).toBe('/api/v1/namespaces/ns1/configmaps');
      expect(post.contentType).toBe('application/json');
      expect(post.body.length).toBe(1024);
      const cm = JSON.parse(post.body) as { kind: string; metadata: { name: string } };
      expect(cm.kind).toBe('ConfigMap');
      names.add(cm.metadata.name);
    }
    expect(names.size).toBe(50);
  });
});

describe('bench/load.ts command line', () => {
  it('parses durations', () => {
    expect(parseDuration('5s')).toBe(5000);
    expect(parseDuration('1m30s')).toBe(90_000);
    expect(parseDuration('250ms')).toBe(250);
    expect(parseDuration('2')).toBe(2000);
    expect(() => parseDuration('5 seconds')).toThrow(/invalid duration/);
  });

  it('parses flags, with GET by default and POST when a body is given', () => {
    const get = parseLoadArgs([
      '--url',
      'http://127.0.0.1:1',
      '--path',
      '/version',
      '--concurrency',
      '16',
      '--duration',
      '5s',
      '--header',
      'Authorization: Bearer t',
    ]);
    expect(get.options).toMatchObject({
      url: 'http://127.0.0.1:1',
      path: '/version',
      method: 'GET',
      concurrency: 16,
      durationMs: 5000,
      headers: { Authorization: 'Bearer t' },
    });
    const post = parseLoadArgs(['--url', 'http://127.0.0.1:1', '--body', '{}', '--json']);
    expect(post.options.method).toBe('POST');
    expect(post.json).toBe(true);
    expect(parseLoadArgs(['--help']).help).toBe(true);
    expect(() => parseLoadArgs([])).toThrow(/--url is required/);
    expect(() => parseLoadArgs(['--url', 'http://x', '--concurrency', '0'])).toThrow(/positive whole number/);
    expect(() => parseLoadArgs(['--url', 'http://x', '--bogus'])).toThrow(/unknown flag/);
    expect(() => parseLoadArgs(['--url', 'http://x', '--create-configmaps', '--body', '{}'])).toThrow(/makes its own bodies/);
    for (const flag of ['--url', '--path', '--method', '--create-configmaps', '--concurrency', '--duration', '--requests', '--json'])
      expect(LOAD_USAGE).toContain(flag);
  });

  it('runs as a command and prints JSON', async () => {
    const { url, seen } = await tinyServer();
    const child = spawn(process.execPath, ['--import', 'tsx', 'bench/load.ts', '--url', url, '--requests', '25', '--concurrency', '5', '--json'], {
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    child.stdout.on('data', (d: Buffer) => (out += d.toString()));
    const code = await new Promise((resolve) => child.on('exit', resolve));
    expect(code).toBe(0);
    const result = JSON.parse(out) as LoadResult;
    expect(result.requests).toBe(25);
    expect(result.statusCodes).toEqual({ '200': 25 });
    expect(seen.requests).toBe(25);
  });
});
