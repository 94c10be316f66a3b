/**
 * `memkube serve --tls` as a child process (stopped by its PID): kubectl v1.33 and
 * `@kubernetes/client-node` over HTTPS, trusting the CA the written kubeconfig carries (no
 * insecure-skip-tls-verify). Also `--load`, `--reserved-domain`, and a clean stop on SIGTERM with
 * a watch open.
 */
import { CoreV1Api, KubeConfig } from '@kubernetes/client-node';
import { execFile } from 'node:child_process';
import { X509Certificate } from 'node:crypto';
import { existsSync } from 'node:fs';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { request } from 'node:https';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { startServe, type ServeProcess } from '../support/serve.js';

const KUBECTL = '/usr/lib/google-cloud-sdk/bin/kubectl.1.33';

interface Kubeconfig {
  clusters: { cluster: Record<string, unknown> }[];
}

const MANIFEST = `apiVersion: v1
kind: Namespace
metadata:
  name: loaded
---
apiVersion: v1
kind: ConfigMap
metadata:
  name: from-file
  namespace: loaded
data:
  k: v
---
apiVersion: v1
kind: Node
metadata:
  name: node-1
`;

describe('memkube serve --tls', () => {
  let dir: string;
  let server: ServeProcess | undefined;
  const kubeconfig = () => join(dir, 'kubeconfig');

  const kubectl = (...args: string[]) =>
    new Promise<{ code: number; stdout: string; stderr: string }>((resolve) => {
      execFile(KUBECTL, ['--kubeconfig', kubeconfig(), ...args], { cwd: dir, timeout: 20_000 }, (err, stdout, stderr) => {
        resolve({ code: err ? ((err as { code?: number }).code ?? 1) : 0, stdout, stderr });
      });
    });

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'memkube-e2e-tls-'));
    await writeFile(join(dir, 'objects.yaml'), MANIFEST);
    server = await startServe(kubeconfig(), [
      '--tls',
      '--load',
      join(dir, 'objects.yaml'),
      '--reserved-domain',
      'example.test',
      '--api-domain',
      'example.test',
    ]);
  });

  afterAll(async () => {
    await server?.stop();
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  it('prints an https URL and writes a kubeconfig that trusts its CA', async () => {
    expect(server!.url).toMatch(/^https:\/\/127\.0\.0\.1:\d+$/);
    const config = parse(await readFile(kubeconfig(), 'utf8')) as Kubeconfig;
    const cluster = config.clusters[0]!.cluster;
    expect(cluster.server).toBe(server!.url);
    expect(cluster['insecure-skip-tls-verify']).toBeUndefined();
    expect(new X509Certificate(Buffer.from(cluster['certificate-authority-data'] as string, 'base64')).ca).toBe(true);
  });

  it.runIf(existsSync(KUBECTL))('kubectl v1.33 gets namespaces over TLS', async () => {
    const r = await kubectl('get', 'ns', '-o', 'name');
    expect(r.stderr.replace(/^WARNING: version difference.*\n/m, '')).toBe('');
    expect(r.code).toBe(0);
    expect(r.stdout.split('\n').filter(Boolean).sort()).toEqual([
      'namespace/default',
      'namespace/kube-node-lease',
      'namespace/kube-public',
      'namespace/kube-system',
      'namespace/loaded',
    ]);
  });

  it.runIf(existsSync(KUBECTL))('kubectl sees what --load created, with --reserved-domain applied', async () => {
    const cm = await kubectl('get', 'configmap', 'from-file', '-n', 'loaded', '-o', 'jsonpath={.data.k}');
    expect(cm.code).toBe(0);
    expect(cm.stdout).toBe('v');
    const node = await kubectl('get', 'node', 'node-1', '-o', 'jsonpath={.spec.taints[*].key}');
    expect(node.stdout).toBe('node.example.test/not-ready');
  });

  it.runIf(existsSync(KUBECTL))('kubectl refuses the server without the CA', async () => {
    const config = parse(await readFile(kubeconfig(), 'utf8')) as Kubeconfig;
    delete config.clusters[0]!.cluster['certificate-authority-data'];
    const { stringify } = await import('yaml');
    const untrusted = join(dir, 'untrusted');
    await writeFile(untrusted, stringify(config));
    const r = await new Promise<{ code: number; stderr: string }>((resolve) =>
      execFile(KUBECTL, ['--kubeconfig', untrusted, 'get', 'ns'], { timeout: 20_000 }, (err, _stdout, stderr) => resolve({ code: err ? 1 : 0, stderr })),
    );
    expect(r.code).not.toBe(0);
    expect(r.stderr).toMatch(/certificate signed by unknown authority/);
  });

  it('@kubernetes/client-node lists namespaces over TLS', async () => {
    const kc = new KubeConfig();
    kc.loadFromFile(kubeconfig());
    expect(kc.getCurrentCluster()?.skipTLSVerify).toBeFalsy();
    const list = await kc.makeApiClient(CoreV1Api).listNamespace();
    expect(list.items.map((n) => n.metadata?.name).sort()).toEqual(['default', 'kube-node-lease', 'kube-public', 'kube-system', 'loaded']);
  });
});

describe('memkube serve stopping', () => {
  it('closes open watches and exits 0 on SIGTERM', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'memkube-e2e-stop-'));
    try {
      const server = await startServe(join(dir, 'kubeconfig'), ['--tls']);
      const config = parse(await readFile(join(dir, 'kubeconfig'), 'utf8')) as Kubeconfig;
      const ca = Buffer.from(config.clusters[0]!.cluster['certificate-authority-data'] as string, 'base64');
      let received = '';
      const watchEnded = new Promise<void>((resolve, reject) => {
        request(`${server.url}/api/v1/namespaces?watch=true`, { ca }, (res) => {
          expect(res.statusCode).toBe(200);
          res.on('data', (d: Buffer) => (received += d.toString()));
          res.on('close', resolve);
        })
          .on('error', reject)
          .end();
      });
      // The watch is open once the initial ADDED events arrived.
      const until = Date.now() + 10_000;
      while (!received.includes('kube-node-lease') && Date.now() < until) await new Promise((r) => setTimeout(r, 20));
      expect(received).toContain('"type":"ADDED"');
      await server.stop();
      expect(server.child.exitCode).toBe(0);
      await watchEnded;
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
