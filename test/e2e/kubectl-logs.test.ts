/**
 * `kubectl logs` and `kubectl get --raw .../nodes/<n>/proxy/...` with the real v1.33 CLI against
 * memkube's HTTP server (listen()), reaching a fake node agent over HTTPS with the API server's
 * client certificate.
 */
import { existsSync } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { Cluster } from '../../src/cluster.js';
import type { Listening } from '../../src/http/listen.js';
import { nodeFor, startFakeKubelet, type FakeKubelet } from '../support/fake-kubelet.js';
import { kubectlRunner } from '../support/kubectl.js';
import { testCluster } from '../support/cluster.js';

const KUBECTL = '/usr/lib/google-cloud-sdk/bin/kubectl.1.33';

const LOG = ['starting', 'listening on :8080', 'ready'];

describe.skipIf(!existsSync(KUBECTL))('kubectl logs and node proxy', () => {
  let dir: string;
  let kubelet: FakeKubelet;
  let cluster: Cluster;
  let server: Listening;
  const { kubectl, ok } = kubectlRunner(
    KUBECTL,
    () => join(dir, 'kubeconfig'),
    () => dir,
  );

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'memkube-logs-'));
    kubelet = await startFakeKubelet();
    cluster = await testCluster({ kubeletClient: { ca: kubelet.servingCA, cert: kubelet.client.cert, key: kubelet.client.key } });
    await cluster.client.resource({ version: 'v1', resource: 'nodes' }).create(nodeFor('n1', kubelet.port));
    await cluster.client.resource({ version: 'v1', resource: 'pods' }).create({
      metadata: { name: 'web', namespace: 'default' },
      spec: {
        nodeName: 'n1',
        containers: [
          { name: 'app', image: 'nginx' },
          { name: 'sidecar', image: 'busybox' },
        ],
      },
    });
    server = await cluster.listen();
    await writeFile(join(dir, 'kubeconfig'), server.kubeconfig());
  });
  afterAll(async () => {
    await cluster?.close();
    await kubelet?.close();
    await rm(dir, { recursive: true, force: true });
  });
  beforeEach(() => {
    kubelet.requests.length = 0;
    // A small agent: the container's lines, `tailLines` honoured, `follow` ends after the lines too.
    kubelet.handle = (req, res) => {
      const url = new URL(req.url ?? '/', 'https://agent');
      const container = url.pathname.split('/')[4];
      const lines = LOG.map((l) => `${container}: ${l}\n`);
      const tail = url.searchParams.get('tailLines');
      res.writeHead(200, { 'content-type': 'text/plain' });
      const chosen = tail !== null ? lines.slice(lines.length - Number(tail)) : lines;
      if (url.searchParams.get('follow') !== 'true') return void res.end(chosen.join(''));
      // Followed: one chunk at a time, then the agent ends the stream.
      let i = 0;
      const next = () => (i < chosen.length ? res.write(chosen[i++], () => setImmediate(next)) : res.end());
      next();
    };
  });

  it('kubectl logs -c names the container; the agent sees the API server as its client', async () => {
    expect(await ok('logs', 'web', '-c', 'sidecar')).toBe('sidecar: starting\nsidecar: listening on :8080\nsidecar: ready\n');
    expect(kubelet.requests[0]).toMatchObject({ url: '/containerLogs/default/web/sidecar', clientCN: 'kube-apiserver-kubelet-client', clientAuthorized: true });
  });

  it('kubectl logs defaults to the first container, and --tail=1 asks for one line', async () => {
    const all = await kubectl('logs', 'web');
    expect(all).toMatchObject({ code: 0, stdout: 'app: starting\napp: listening on :8080\napp: ready\n' });
    // kubectl picks the container itself and says so.
    expect(all.stderr).toContain('Defaulted container "app" out of: app, sidecar');
    expect(await kubectl('logs', 'web', '--tail=1')).toMatchObject({ code: 0, stdout: 'app: ready\n' });
    expect(kubelet.requests.map((r) => r.url)).toEqual(['/containerLogs/default/web/app', '/containerLogs/default/web/app?tailLines=1']);
  });

  it('kubectl logs -f streams until the agent ends the stream', async () => {
    expect(await ok('logs', '-f', 'web', '-c', 'app')).toBe('app: starting\napp: listening on :8080\napp: ready\n');
    expect(kubelet.requests[0]!.url).toBe('/containerLogs/default/web/app?follow=true');
  });

  it("kubectl logs of a container the pod does not have shows the API server's error", async () => {
    const r = await kubectl('logs', 'web', '-c', 'nope');
    expect(r.code).not.toBe(0);
    expect(r.stderr).toContain('container nope is not valid for pod web');
  });

  it('kubectl get --raw reaches the agent through nodes/proxy, and POST with --raw too', async () => {
    kubelet.handle = (req, res) => {
      res.writeHead(200, { 'content-type': 'text/plain' });
      res.end(req.method === 'POST' ? '{"items":["checkpoint.tar"]}' : 'ok');
    };
    expect(await ok('get', '--raw', '/api/v1/nodes/n1/proxy/healthz')).toBe('ok');
    await writeFile(join(dir, 'empty.json'), '{}');
    expect(await ok('create', '--raw', '/api/v1/nodes/n1/proxy/checkpoint/default/web/app', '-f', join(dir, 'empty.json'))).toBe(
      '{"items":["checkpoint.tar"]}',
    );
    expect(kubelet.requests.map((r) => [r.method, r.url])).toEqual([
      ['GET', '/healthz'],
      ['POST', '/checkpoint/default/web/app'],
    ]);
  });
});
