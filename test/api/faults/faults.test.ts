import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createCluster, type AuditEvent, type Cluster } from '../../../src/index.js';
import { ApiError } from '../../../src/machinery/errors.js';
import type { ApiRequest, WatchEvent, WatchStream } from '../../../src/machinery/request.js';

const CM = { group: '', version: 'v1', resource: 'configmaps' };
const cm = (name: string) => ({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name, namespace: 'default' } });
const get = (name: string, user = 'tester'): ApiRequest => ({
  verb: 'get',
  resource: CM,
  namespace: 'default',
  name,
  user: { username: user, groups: ['system:masters'] },
});

let cluster: Cluster;
beforeEach(async () => {
  cluster = await createCluster({ clock: new Date('2026-01-01T00:00:00Z') });
  await cluster.request({ verb: 'create', resource: CM, namespace: 'default', body: cm('a'), user: { username: 'admin', groups: ['system:masters'] } });
});
afterEach(() => cluster.close());

async function failure(p: Promise<unknown>): Promise<ApiError> {
  const e: unknown = await p.then(
    () => undefined,
    (x: unknown) => x,
  );
  if (!(e instanceof ApiError)) throw new Error(`expected an ApiError, got ${String(e)}`);
  return e;
}

describe('error answers', () => {
  it('answers 409 Conflict with the object in its details', async () => {
    cluster.faults.add({ answer: { error: 'Conflict' } });
    const e = await failure(cluster.request(get('a')));
    expect(e.status).toMatchObject({ code: 409, reason: 'Conflict', details: { name: 'a', kind: 'configmaps' } });
    expect(e.message).toBe(
      'Operation cannot be fulfilled on configmaps "a": the object has been modified; please apply your changes to the latest version and try again',
    );
  });
  it('answers 429 with retryAfterSeconds, 500 InternalError, 504 Timeout, 500 ServerTimeout and 503', async () => {
    const cases = [
      [
        { error: 'TooManyRequests', retryAfterSeconds: 3 },
        { code: 429, reason: 'TooManyRequests', details: { retryAfterSeconds: 3 } },
      ],
      [
        { error: 'InternalError', message: 'boom' },
        { code: 500, reason: 'InternalError', message: 'Internal error occurred: boom', details: { causes: [{ message: 'boom' }] } },
      ],
      [{ error: 'Timeout' }, { code: 504, reason: 'Timeout', details: { retryAfterSeconds: 1 } }],
      [
        { error: 'ServerTimeout' },
        { code: 500, reason: 'ServerTimeout', message: 'The get operation against configmaps could not be completed at this time, please try again.' },
      ],
      [{ error: 'ServiceUnavailable' }, { code: 503, reason: 'ServiceUnavailable' }],
    ] as const;
    for (const [answer, status] of cases) {
      const f = cluster.faults.add({ answer, times: 1 });
      expect((await failure(cluster.request(get('a')))).status).toMatchObject(status);
      expect(f).toMatchObject({ hits: 1, active: false });
    }
  });
});

describe('times and matching', () => {
  it('applies once with times: 1, always without times, and not after remove() or clear()', async () => {
    const once = cluster.faults.add({ times: 1, answer: { error: 'InternalError' } });
    await failure(cluster.request(get('a')));
    expect((await cluster.request(get('a'))).code).toBe(200);
    expect(once.hits).toBe(1);
    const always = cluster.faults.add({ answer: { error: 'InternalError' } });
    for (let i = 0; i < 3; i++) await failure(cluster.request(get('a')));
    expect(always.hits).toBe(3);
    always.remove();
    expect((await cluster.request(get('a'))).code).toBe(200);
    cluster.faults.add({ answer: { error: 'InternalError' } });
    cluster.faults.clear();
    expect((await cluster.request(get('a'))).code).toBe(200);
  });
  it('matches by every field, and by when()', async () => {
    const matchers = [
      { verb: 'list' as const },
      { verb: ['list', 'watch'] as ('list' | 'watch')[] },
      { resource: 'secrets' },
      { group: 'apps' },
      { namespace: 'kube-system' },
      { name: 'b' },
      { user: 'someone-else' },
      { subresource: 'status' },
      { when: (r: ApiRequest) => r.name === 'b' },
    ];
    for (const match of matchers) {
      const f = cluster.faults.add({ match, answer: { error: 'InternalError' } });
      expect((await cluster.request(get('a'))).code, JSON.stringify(match)).toBe(200);
      f.remove();
    }
    const hit = [
      { verb: 'get' as const },
      { resource: 'configmaps', group: '', namespace: 'default', name: 'a', user: 'tester', subresource: '' },
      { when: (r: ApiRequest) => r.name === 'a' },
    ];
    for (const match of hit) {
      const f = cluster.faults.add({ match, answer: { error: 'InternalError' } });
      await failure(cluster.request(get('a')));
      f.remove();
    }
  });
  it('leaves the built-in controllers alone', async () => {
    const f = cluster.faults.add({ answer: { error: 'InternalError' } });
    cluster.requests.start();
    await cluster
      .request({
        verb: 'create',
        resource: { group: '', version: 'v1', resource: 'namespaces' },
        body: { metadata: { name: 'x' } },
        user: { username: 'u', groups: ['system:masters'] },
      })
      .catch(() => undefined);
    f.remove();
    await cluster.request({
      verb: 'create',
      resource: { group: '', version: 'v1', resource: 'namespaces' },
      body: { metadata: { name: 'x' } },
      user: { username: 'u', groups: ['system:masters'] },
    });
    await cluster.settle();
    // The service account controller made the namespace's default ServiceAccount, unlogged and unfaulted.
    expect(
      (
        await cluster.request({
          verb: 'get',
          resource: { group: '', version: 'v1', resource: 'serviceaccounts' },
          namespace: 'x',
          name: 'default',
          user: { username: 'u', groups: ['system:masters'] },
        })
      ).code,
    ).toBe(200);
    expect(cluster.requests.entries.map((e) => `${e.verb} ${e.resource} ${e.code}`)).toEqual([
      'create namespaces 500',
      'create namespaces 201',
      'get serviceaccounts 200',
    ]);
  });
});

describe('delays and functions', () => {
  it('holds a request until the cluster clock moved on by delayMs', async () => {
    cluster.faults.add({ answer: { delayMs: 5000 } });
    let answered = false;
    const p = cluster.request(get('a')).then((r) => ((answered = true), r));
    await new Promise((r) => setImmediate(r));
    cluster.clock.advance(4999);
    await new Promise((r) => setImmediate(r));
    expect(answered).toBe(false);
    cluster.clock.advance(1);
    expect((await p).code).toBe(200);
  });
  it('lets a function answer or pass the request on', async () => {
    cluster.faults.add({ answer: async (req, pass) => (req.name === 'b' ? { code: 200, body: cm('fake'), warnings: [] } : pass(req)) });
    expect((await cluster.request(get('b'))).body).toMatchObject({ metadata: { name: 'fake' } });
    expect((await cluster.request(get('a'))).body).toMatchObject({ metadata: { name: 'a' } });
  });
});

describe('watch faults', () => {
  const watch = async () =>
    (await cluster.request({ verb: 'watch', resource: CM, namespace: 'default', user: { username: 't', groups: ['system:masters'] } })).body as WatchStream;
  const drain = async (s: WatchStream) => {
    const out: WatchEvent[] = [];
    for await (const e of s) out.push(e);
    return out;
  };
  it('drops a watch after N events', async () => {
    cluster.faults.add({ answer: { watch: 'drop', afterEvents: 1 } });
    const s = await watch();
    const p = drain(s);
    await cluster.request({ verb: 'create', resource: CM, namespace: 'default', body: cm('b'), user: { username: 'admin', groups: ['system:masters'] } });
    expect((await p).map((e) => e.type)).toEqual(['ADDED']);
    await s.done;
    expect(cluster.activeWatchers).toBe(0);
  });
  it('expires a watch with a 410 Expired ERROR event', async () => {
    cluster.faults.add({ answer: { watch: 'expire', afterEvents: 1 } });
    const events = await drain(await watch());
    expect(events.map((e) => e.type)).toEqual(['ADDED', 'ERROR']);
    expect(events[1]!.object).toMatchObject({ kind: 'Status', code: 410, reason: 'Expired' });
    expect((events[1]!.object as { message: string }).message).toMatch(/^too old resource version: \d+ \(\d+\)$/);
  });
  it('does not apply a watch fault to other verbs', async () => {
    const f = cluster.faults.add({ answer: { watch: 'drop' } });
    expect((await cluster.request(get('a'))).code).toBe(200);
    expect(f.hits).toBe(0);
  });
});

describe('the request log', () => {
  it('records nothing until started, then every caller request with its code', async () => {
    await cluster.request(get('a'));
    expect(cluster.requests.entries).toEqual([]);
    cluster.requests.start();
    cluster.faults.add({ times: 1, answer: { error: 'TooManyRequests' } });
    await failure(cluster.request(get('a')));
    await cluster.request(get('a'));
    await failure(cluster.request(get('nope')));
    expect(cluster.requests.entries).toEqual([
      {
        verb: 'get',
        group: '',
        version: 'v1',
        resource: 'configmaps',
        namespace: 'default',
        name: 'a',
        user: 'tester',
        code: 429,
        reason: 'TooManyRequests',
        faulted: true,
      },
      { verb: 'get', group: '', version: 'v1', resource: 'configmaps', namespace: 'default', name: 'a', user: 'tester', code: 200, faulted: false },
      {
        verb: 'get',
        group: '',
        version: 'v1',
        resource: 'configmaps',
        namespace: 'default',
        name: 'nope',
        user: 'tester',
        code: 404,
        reason: 'NotFound',
        faulted: false,
      },
    ]);
    cluster.requests.clear();
    cluster.requests.stop();
    await cluster.request(get('a'));
    expect(cluster.requests.entries).toEqual([]);
  });
});

describe('the HTTP doors', () => {
  it('cluster.fetch answers the fault Status with Retry-After, and the log records it', async () => {
    cluster.requests.start();
    cluster.faults.add({ match: { resource: 'configmaps' }, times: 1, answer: { error: 'TooManyRequests', retryAfterSeconds: 2 } });
    const url = 'http://memkube/api/v1/namespaces/default/configmaps/a';
    const headers = { authorization: `Bearer ${cluster.adminToken}` };
    const first = await cluster.fetch(new Request(url, { headers }));
    expect(first.status).toBe(429);
    expect(first.headers.get('retry-after')).toBe('2');
    expect(await first.json()).toMatchObject({ kind: 'Status', reason: 'TooManyRequests', details: { retryAfterSeconds: 2 } });
    expect((await cluster.fetch(new Request(url, { headers }))).status).toBe(200);
    expect(cluster.requests.entries.map((e) => [e.user, e.code])).toEqual([
      ['system:admin', 429],
      ['system:admin', 200],
    ]);
  });
  it('applies over a real listen() with node fetch', async () => {
    const server = await cluster.listen();
    try {
      cluster.faults.add({ match: { verb: 'list' }, answer: { error: 'Timeout' } });
      const res = await fetch(`${server.url}/api/v1/namespaces/default/configmaps`, { headers: { authorization: `Bearer ${cluster.adminToken}` } });
      expect(res.status).toBe(504);
      expect(await res.json()).toMatchObject({ reason: 'Timeout', code: 504 });
    } finally {
      await server.close();
    }
  });
});

describe('audit and metrics', () => {
  it("audits and counts a request a fault answers in process, with the fault's code, as any other answer", async () => {
    const events: AuditEvent[] = [];
    const audited = await createCluster({
      audit: {
        policy: { apiVersion: 'audit.k8s.io/v1', kind: 'Policy', rules: [{ level: 'Metadata' }] },
        backends: [{ name: 'test', processEvents: (e) => (events.push(...e), true), shutdown: async () => undefined }],
      },
    });
    try {
      audited.faults.add({ match: { verb: 'get', name: 'a' }, times: 1, answer: { error: 'Conflict' } });
      const labels = { verb: 'GET', resource: 'configmaps', code: '409' };
      expect(await audited.metrics.value('apiserver_request_total', labels)).toBe(0);
      expect((await failure(audited.request(get('a')))).code).toBe(409);
      expect(await audited.metrics.value('apiserver_request_total', labels)).toBe(1);
      const gets = events.filter((e) => e.verb === 'get' && e.stage === 'ResponseComplete');
      expect(gets.map((e) => e.responseStatus?.code)).toEqual([409]);
    } finally {
      await audited.close();
    }
  });
});

describe('hostile input', () => {
  it('rejects unusable faults with a TypeError and adds nothing', () => {
    const bad: unknown[] = [
      null,
      { answer: { error: 'Teapot' } },
      { answer: { error: 'TooManyRequests', retryAfterSeconds: -1 } },
      { times: -1, answer: { error: 'Conflict' } },
      { times: 0, answer: { error: 'Conflict' } },
      { times: 1.5, answer: { error: 'Conflict' } },
      { answer: { delayMs: Number.NaN } },
      { answer: { watch: 'explode' } },
      { answer: { watch: 'drop', afterEvents: -2 } },
      { answer: {} },
      { answer: 42 },
      { match: { verb: 'destroy' }, answer: { error: 'Conflict' } },
      { match: { name: 7 }, answer: { error: 'Conflict' } },
    ];
    for (const spec of bad) expect(() => cluster.faults.add(spec as never), JSON.stringify(spec)).toThrow(TypeError);
    expect(cluster.faults.size).toBe(0);
  });
});
