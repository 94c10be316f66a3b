import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { parse, stringify } from 'yaml';
import { createCluster, type Cluster } from '../../../src/cluster.js';
import { kubeApiClientFromKubeconfig } from '../../../src/nodeagent/apiclient/kubeconfig-client.js';
import type { KubeApiClient } from '../../../src/nodeagent/kube-api.js';

let cluster: Cluster | undefined;
let client: KubeApiClient | undefined;
let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'memkube-kubeconfig-'));
});
afterEach(async () => {
  client?.close();
  client = undefined;
  await cluster?.close();
  cluster = undefined;
  rmSync(dir, { recursive: true, force: true });
});

async function tlsServer(): Promise<{ url: string; kubeconfig: Record<string, any> }> {
  cluster = await createCluster();
  const server = await cluster.listen({ tls: true });
  return { url: server.url, kubeconfig: parse(server.kubeconfig()) as Record<string, any> };
}

function write(config: unknown): string {
  const path = join(dir, 'kubeconfig');
  writeFileSync(path, stringify(config));
  return path;
}

describe('kubeApiClientFromKubeconfig', () => {
  it('talks HTTPS to a TLS API server with the kubeconfig CA and client certificate, and watches', async () => {
    const { kubeconfig } = await tlsServer();
    client = kubeApiClientFromKubeconfig(write(kubeconfig));
    const review = await client.request<{ status: { userInfo: { username: string } } }>('POST', '/apis/authentication.k8s.io/v1/selfsubjectreviews', {
      body: { apiVersion: 'authentication.k8s.io/v1', kind: 'SelfSubjectReview' },
    });
    expect(review.status.userInfo.username).toBe('system:admin');
    await client.request('POST', '/api/v1/namespaces/default/configmaps', { body: { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'a' } } });
    const abort = new AbortController();
    const seen: string[] = [];
    for await (const e of client.watch('/api/v1/namespaces/default/configmaps', { query: { resourceVersion: '0' }, signal: abort.signal })) {
      seen.push(`${e.type} ${e.object.metadata?.name}`);
      if (seen.length === 1) {
        await client.request('POST', '/api/v1/namespaces/default/configmaps', { body: { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'b' } } });
      } else break;
    }
    abort.abort();
    expect(seen).toEqual(['ADDED a', 'ADDED b']);
    const missing = await client.request('GET', '/api/v1/namespaces/default/configmaps/none').catch((e: unknown) => e);
    expect(missing).toMatchObject({ code: 404, reason: 'NotFound' });
  });

  it('reads certificate files relative to the kubeconfig and honours tls-server-name', async () => {
    const { kubeconfig } = await tlsServer();
    const c = kubeconfig['clusters'][0].cluster;
    const u = kubeconfig['users'][0].user;
    writeFileSync(join(dir, 'ca.crt'), Buffer.from(c['certificate-authority-data'], 'base64'));
    writeFileSync(join(dir, 'client.crt'), Buffer.from(u['client-certificate-data'], 'base64'));
    writeFileSync(join(dir, 'client.key'), Buffer.from(u['client-key-data'], 'base64'));
    kubeconfig['clusters'][0].cluster = { server: c.server, 'certificate-authority': 'ca.crt', 'tls-server-name': 'localhost' };
    kubeconfig['users'][0].user = { 'client-certificate': 'client.crt', 'client-key': 'client.key' };
    client = kubeApiClientFromKubeconfig(write(kubeconfig));
    const ns = await client.request<{ metadata: { name: string } }>('GET', '/api/v1/namespaces/default');
    expect(ns.metadata.name).toBe('default');
  });

  it('refuses a server whose certificate the CA does not sign, unless insecure-skip-tls-verify', async () => {
    const { kubeconfig } = await tlsServer();
    const user = kubeconfig['users'][0].user;
    const server = kubeconfig['clusters'][0].cluster.server;
    kubeconfig['clusters'][0].cluster = { server };
    client = kubeApiClientFromKubeconfig(write(kubeconfig));
    await expect(client.request('GET', '/api/v1/namespaces/default')).rejects.toThrow(/self-signed|unable to verify|certificate/);
    client.close();
    kubeconfig['clusters'][0].cluster = { server, 'insecure-skip-tls-verify': true };
    kubeconfig['users'][0].user = user;
    client = kubeApiClientFromKubeconfig(write(kubeconfig));
    await expect(client.request('GET', '/api/v1/namespaces/default')).resolves.toMatchObject({ kind: 'Namespace' });
  });

  it("gives client-go's messages for a kubeconfig that will not do", () => {
    expect(() => kubeApiClientFromKubeconfig(join(dir, 'absent'))).toThrow(`stat ${join(dir, 'absent')}: no such file or directory`);
    const path = write({
      apiVersion: 'v1',
      kind: 'Config',
      clusters: [{ name: 'c', cluster: { server: 'https://127.0.0.1:1' } }],
      contexts: [{ name: 'x', context: { cluster: 'c', user: 'u' } }],
      'current-context': 'x',
      users: [{ name: 'u', user: { 'client-certificate': 'missing.crt' } }],
    });
    expect(() => kubeApiClientFromKubeconfig(path)).toThrow(/^invalid configuration: \[client-key-data or client-key must be specified for u/);
  });
});
