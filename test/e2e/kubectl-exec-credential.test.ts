/**
 * kubectl 1.33 with a kubeconfig whose user is an `exec` entry running `memkube credential`: kubectl
 * runs the plugin (passing KUBERNETES_EXEC_INFO), takes its ExecCredential and talks to the cluster
 * with it. `memkube serve` does not check credentials, so kubectl talks to a small HTTPS proxy in
 * front of it that records the Authorization header and the client certificate of every request.
 */
import type { TLSSocket } from 'node:tls';
import { existsSync } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:https';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generateServingCertificate, type ServingCertificate } from '../../src/pki/self-signed.js';
import { kubectlRunner } from '../support/kubectl.js';
import { startServe, type ServeProcess } from '../support/serve.js';

const KUBECTL = '/usr/lib/google-cloud-sdk/bin/kubectl.1.33';

interface Seen {
  readonly path: string;
  readonly authorization?: string;
  readonly clientSubject?: string;
}

describe.skipIf(!existsSync(KUBECTL))('kubectl 1.33 with memkube credential as its exec plugin', () => {
  let dir: string;
  let server: ServeProcess | undefined;
  let proxy: Server;
  let proxyUrl: string;
  let proxyPki: ServingCertificate;
  let clientCa: ServingCertificate;
  const seen: Seen[] = [];
  const { kubectl } = kubectlRunner(
    KUBECTL,
    () => join(dir, 'kubeconfig'),
    () => process.cwd(),
  );

  /** A kubeconfig for the proxy whose user runs `memkube credential ...args`. */
  const writeKubeconfig = (execApiVersion: string, args: readonly string[]) =>
    writeFile(
      join(dir, 'kubeconfig'),
      JSON.stringify({
        apiVersion: 'v1',
        kind: 'Config',
        clusters: [{ name: 'proxy', cluster: { server: proxyUrl, 'certificate-authority-data': Buffer.from(proxyPki.ca.cert).toString('base64') } }],
        users: [
          {
            name: 'plugin',
            user: {
              exec: {
                apiVersion: execApiVersion,
                command: process.execPath,
                args: ['--import', 'tsx', resolve('src/cli/main.ts'), 'credential', ...args],
                interactiveMode: 'Never',
                provideClusterInfo: true,
              },
            },
          },
        ],
        contexts: [{ name: 'proxy', context: { cluster: 'proxy', user: 'plugin' } }],
        'current-context': 'proxy',
      }),
    );

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'memkube-exec-'));
    [proxyPki, clientCa] = await Promise.all([generateServingCertificate({ hosts: ['127.0.0.1'] }), generateServingCertificate({ hosts: ['127.0.0.1'] })]);
    await writeFile(join(dir, 'client-ca.crt'), clientCa.ca.cert);
    await writeFile(join(dir, 'client-ca.key'), clientCa.ca.key);
    server = await startServe(join(dir, 'serve.kubeconfig'));
    const upstream = server.url;
    proxy = createServer({ cert: proxyPki.serving.cert, key: proxyPki.serving.key, requestCert: true, rejectUnauthorized: false }, (req, res) => {
      const peer = (req.socket as TLSSocket).getPeerCertificate();
      const subject =
        peer && peer.subject
          ? Object.entries(peer.subject)
              .map(([k, v]) => `${k}=${Array.isArray(v) ? v.join('+') : v}`)
              .join(',')
          : undefined;
      seen.push({
        path: req.url ?? '',
        ...(req.headers.authorization ? { authorization: req.headers.authorization } : {}),
        ...(subject ? { clientSubject: subject } : {}),
      });
      const chunks: Buffer[] = [];
      req.on('data', (d: Buffer) => chunks.push(d));
      req.on('end', () => {
        const headers: Record<string, string> = {};
        for (const [k, v] of Object.entries(req.headers)) {
          if (typeof v === 'string' && !['host', 'connection', 'content-length', 'accept-encoding', 'transfer-encoding'].includes(k)) headers[k] = v;
        }
        const body = chunks.length ? Buffer.concat(chunks) : undefined;
        fetch(`${upstream}${req.url}`, { method: req.method, headers, body })
          .then(async (r) => {
            const out: Record<string, string> = {};
            r.headers.forEach((v, k) => {
              if (!['content-encoding', 'content-length', 'transfer-encoding', 'connection'].includes(k)) out[k] = v;
            });
            res.writeHead(r.status, out).end(Buffer.from(await r.arrayBuffer()));
          })
          .catch(() => res.writeHead(502).end());
      });
    });
    await new Promise<void>((done) => proxy.listen(0, '127.0.0.1', done));
    proxyUrl = `https://127.0.0.1:${(proxy.address() as AddressInfo).port}`;
  }, 60_000);
  afterAll(async () => {
    await new Promise<void>((done) => (proxy ? proxy.close(() => done()) : done()));
    await server?.stop();
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  it('sends the token the plugin prints (exec apiVersion v1)', async () => {
    await writeKubeconfig('client.authentication.k8s.io/v1', ['--token', 'token-from-plugin']);
    seen.length = 0;
    const r = await kubectl('get', 'namespace', 'default', '-o', 'jsonpath={.metadata.name}');
    expect(r.stderr).toBe('');
    expect(r.stdout).toBe('default');
    expect(seen.length).toBeGreaterThan(0);
    expect(seen.every((s) => s.authorization === 'Bearer token-from-plugin')).toBe(true);
  }, 60_000);

  it('presents the client certificate the plugin signs (exec apiVersion v1beta1)', async () => {
    await writeKubeconfig('client.authentication.k8s.io/v1beta1', [
      '--ca-cert',
      join(dir, 'client-ca.crt'),
      '--ca-key',
      join(dir, 'client-ca.key'),
      '--user',
      'jane',
      '--group',
      'dev',
    ]);
    seen.length = 0;
    const r = await kubectl('get', 'namespaces', '-o', 'name');
    expect(r.stderr).toBe('');
    expect(r.stdout).toContain('namespace/default');
    expect(seen.length).toBeGreaterThan(0);
    expect(seen.every((s) => s.authorization === undefined && s.clientSubject === 'O=dev,CN=jane')).toBe(true);
  }, 60_000);

  it('fails when the plugin fails, with its message', async () => {
    await writeKubeconfig('client.authentication.k8s.io/v1', ['--token-file', join(dir, 'absent')]);
    const r = await kubectl('get', 'namespaces');
    expect(r.code).not.toBe(0);
    expect(r.stderr).toContain(`memkube: --token-file ${join(dir, 'absent')}: no such file or directory`);
  }, 60_000);
});
