import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { X509Certificate } from 'node:crypto';
import { createNodeAgentServer, type NodeAgentServer } from '../../../src/nodeagent/server/index.js';
import { FakeRuntime, plain, pod, podSource, secured, tempDir } from './fixtures.js';

describe('the node agent server: endpoints', () => {
  const tmp = tempDir();
  const runtime = new FakeRuntime();
  const pods = [pod('default', 'web', ['nginx'])];
  let syncLoop: string | undefined;
  let server: NodeAgentServer;
  let port = 0;
  let readOnlyPort = 0;

  beforeAll(async () => {
    server = createNodeAgentServer({
      address: '127.0.0.1',
      port: 0,
      readOnlyPort: -1,
      hostname: 'node-a',
      rootDir: tmp.dir,
      nodeName: 'node-a',
      pods: podSource(pods),
      runtime: runtime.asRuntime(),
      syncLoopHealth: () => syncLoop,
    });
    const address = await server.listen();
    port = address.port;
    readOnlyPort = address.readOnlyPort!;
  });
  afterAll(async () => {
    await server.close();
    tmp.remove();
  });

  it('answers /healthz ok, verbose with every check, and 500 with the reason withheld when the sync loop is unhealthy', async () => {
    const ok = await secured(port, '/healthz');
    expect([ok.status, ok.body, ok.headers['content-type'], ok.headers['x-content-type-options']]).toEqual([200, 'ok', 'text/plain; charset=utf-8', 'nosniff']);
    expect((await secured(port, '/healthz?verbose')).body).toBe('[+]ping ok\n[+]log ok\n[+]syncloop ok\nhealthz check passed\n');
    expect((await secured(port, '/healthz/ping')).body).toBe('ok');
    expect((await secured(port, '/healthz?verbose&exclude=log&exclude=nope')).body).toBe(
      '[+]ping ok\n[+]log excluded: ok\n[+]syncloop ok\nwarn: some health checks cannot be excluded: no matches for "nope"\nhealthz check passed\n',
    );
    syncLoop = 'sync Loop took longer than expected';
    try {
      const failed = await secured(port, '/healthz');
      expect([failed.status, failed.body]).toEqual([500, '[+]ping ok\n[+]log ok\n[-]syncloop failed: reason withheld\nhealthz check failed\n']);
      const one = await secured(port, '/healthz/syncloop');
      expect([one.status, one.body]).toEqual([500, 'internal server error: sync Loop took longer than expected\n']);
    } finally {
      syncLoop = undefined;
    }
  });

  it('lists its pods at /pods as a v1 PodList, and only for GET', async () => {
    const list = await secured(port, '/pods');
    expect(list.status).toBe(200);
    expect(list.headers['content-type']).toBe('application/json');
    const body = JSON.parse(list.body) as { kind: string; apiVersion: string; items: { metadata: { name: string } }[] };
    expect([body.kind, body.apiVersion, body.items.map((p) => p.metadata.name)]).toEqual(['PodList', 'v1', ['web']]);
    const post = await secured(port, '/pods', { method: 'POST' });
    expect([post.status, post.body, post.headers.allow]).toEqual([405, '405: Method Not Allowed', 'GET']);
    const notJson = await secured(port, '/pods', { headers: { Accept: 'text/plain' } });
    expect([notJson.status, notJson.body]).toEqual([406, '406: Not Acceptable']);
    expect((await secured(port, '/pods/extra')).body).toBe('404: Page Not Found');
  });

  it("answers unknown paths as Go's mux does, and cleans paths with a redirect", async () => {
    const unknown = await secured(port, '/nothing/here');
    expect([unknown.status, unknown.body, unknown.headers['content-type']]).toEqual([404, '404 page not found\n', 'text/plain; charset=utf-8']);
    expect((await secured(port, '/healthz/')).status).toBe(404);
    const dotted = await secured(port, '/pods/../healthz?verbose');
    expect([dotted.status, dotted.headers.location]).toEqual([301, '/healthz?verbose']);
    const tree = await secured(port, '/checkpoint', { method: 'POST' });
    expect([tree.status, tree.headers.location]).toEqual([301, '/checkpoint/']);
    expect((await secured(port, '/pods%zz')).status).toBe(400);
  });

  it('answers a checkpoint GET with 405 and the allowed method', async () => {
    const get = await secured(port, '/checkpoint/default/web/nginx');
    expect([get.status, get.body, get.headers.allow]).toEqual([405, '405: Method Not Allowed', 'POST']);
  });

  it('serves only /healthz and /pods on the read-only port, without authentication', async () => {
    expect((await plain(readOnlyPort, '/healthz')).body).toBe('ok');
    expect(JSON.parse((await plain(readOnlyPort, '/pods')).body).items).toHaveLength(1);
    const logs = await plain(readOnlyPort, '/containerLogs/default/web/nginx');
    expect([logs.status, logs.body]).toEqual([405, 'Debug endpoints are disabled.\n']);
    const checkpoint = await plain(readOnlyPort, '/checkpoint/default/web/nginx', 'POST');
    expect([checkpoint.status, checkpoint.body]).toEqual([404, '404 page not found\n']);
  });

  it('made a self-signed certificate for the host name, saved as kubelet.crt and kubelet.key in <root>/pki', async () => {
    const certFile = join(tmp.dir, 'pki', 'kubelet.crt');
    const keyFile = join(tmp.dir, 'pki', 'kubelet.key');
    const pem = readFileSync(certFile, 'utf8');
    expect(pem.match(/BEGIN CERTIFICATE/g)).toHaveLength(2);
    const cert = new X509Certificate(pem);
    expect(cert.subject).toMatch(/^CN=node-a@\d+$/);
    expect(cert.subjectAltName).toBe('DNS:node-a');
    expect(statSync(keyFile).mode & 0o777).toBe(0o600);
    expect(statSync(join(tmp.dir, 'checkpoints')).mode & 0o777).toBe(0o700);

    const again = createNodeAgentServer({ address: '127.0.0.1', port: 0, rootDir: tmp.dir, nodeName: 'n', pods: podSource([]), runtime: runtime.asRuntime() });
    try {
      const address = await again.listen();
      expect(address.certificate.generated).toBe(false);
      expect(address.certificate.cert).toBe(pem);
      expect(JSON.parse((await secured(address.port, '/pods')).body)).toEqual({ kind: 'PodList', apiVersion: 'v1', metadata: {}, items: null });
    } finally {
      await again.close();
    }
  });
});

describe('the node agent server: the ContainerCheckpoint gate off', () => {
  it('answers /checkpoint/... 404 as an unknown path and makes no checkpoints directory', async () => {
    const tmp = tempDir();
    const server = createNodeAgentServer({
      address: '127.0.0.1',
      port: 0,
      rootDir: tmp.dir,
      nodeName: 'n',
      pods: podSource([pod('default', 'web', ['nginx'])]),
      runtime: new FakeRuntime().asRuntime(),
      featureGates: { ContainerCheckpoint: false },
    });
    try {
      const { port } = await server.listen();
      const answer = await secured(port, '/checkpoint/default/web/nginx', { method: 'POST' });
      expect([answer.status, answer.body]).toEqual([404, '404 page not found\n']);
      expect(() => statSync(join(tmp.dir, 'checkpoints'))).toThrow();
    } finally {
      await server.close();
      tmp.remove();
    }
  });
});
