/**
 * kubectl 1.33 with a kubeconfig whose user is an `exec` entry running `memkube credential`: kubectl
 * runs the plugin (passing KUBERNETES_EXEC_INFO), takes its ExecCredential and talks to
 * `memkube serve --tls` with it; the server authenticates the token (`--token-auth-file`) or the
 * client certificate (`--client-ca-file`), and `kubectl auth whoami` shows who it took kubectl for.
 */
import { existsSync, readFileSync } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { generateServingCertificate, type ServingCertificate } from '../../src/pki/self-signed.js';
import { kubectlRunner } from '../support/kubectl.js';
import { startServe, type ServeProcess } from '../support/serve.js';

const KUBECTL = '/usr/lib/google-cloud-sdk/bin/kubectl.1.33';
const WHO = ['auth', 'whoami', '-o', 'jsonpath={.status.userInfo.username} {.status.userInfo.groups}'];

describe.skipIf(!existsSync(KUBECTL))('kubectl 1.33 with memkube credential as its exec plugin', () => {
  let dir: string;
  let server: ServeProcess | undefined;
  let serverCA: string;
  let clientCa: ServingCertificate;
  const { kubectl } = kubectlRunner(
    KUBECTL,
    () => join(dir, 'kubeconfig'),
    () => process.cwd(),
  );

  /** A kubeconfig for the server whose user runs `memkube credential ...args`. */
  const writeKubeconfig = (execApiVersion: string, args: readonly string[]) =>
    writeFile(
      join(dir, 'kubeconfig'),
      JSON.stringify({
        apiVersion: 'v1',
        kind: 'Config',
        clusters: [{ name: 'memkube', cluster: { server: server!.url, 'certificate-authority-data': serverCA } }],
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
        contexts: [{ name: 'memkube', context: { cluster: 'memkube', user: 'plugin' } }],
        'current-context': 'memkube',
      }),
    );

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'memkube-exec-'));
    clientCa = await generateServingCertificate({ hosts: ['127.0.0.1'] });
    await writeFile(join(dir, 'client-ca.crt'), clientCa.ca.cert);
    await writeFile(join(dir, 'client-ca.key'), clientCa.ca.key);
    await writeFile(join(dir, 'tokens.csv'), 'token-from-plugin,plugin-user,u1,plugins\n');
    server = await startServe(join(dir, 'serve.kubeconfig'), [
      '--tls',
      '--anonymous-auth=false',
      '--token-auth-file',
      join(dir, 'tokens.csv'),
      '--client-ca-file',
      join(dir, 'client-ca.crt'),
    ]);
    const served = parse(readFileSync(join(dir, 'serve.kubeconfig'), 'utf8')) as { clusters: { cluster: Record<string, string> }[] };
    serverCA = served.clusters[0]!.cluster['certificate-authority-data']!;
  }, 60_000);
  afterAll(async () => {
    await server?.stop();
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  it('sends the token the plugin prints (exec apiVersion v1), which the server authenticates', async () => {
    await writeKubeconfig('client.authentication.k8s.io/v1', ['--token', 'token-from-plugin']);
    const r = await kubectl(...WHO);
    expect(r.stderr).toBe('');
    expect(r.stdout).toBe('plugin-user ["plugins","system:authenticated"]');
  }, 60_000);

  it('presents the client certificate the plugin signs (exec apiVersion v1beta1): CommonName and Organization are the user', async () => {
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
    const r = await kubectl(...WHO);
    expect(r.stderr).toBe('');
    expect(r.stdout).toBe('jane ["dev","system:authenticated"]');
  }, 60_000);

  it('is refused (401) when the plugin prints a token the server does not know', async () => {
    await writeKubeconfig('client.authentication.k8s.io/v1', ['--token', 'stolen']);
    // A raw GET: `kubectl get namespaces` would retry discovery for seconds before it gives up.
    const r = await kubectl('get', '--raw', '/api/v1/namespaces');
    expect(r.code).not.toBe(0);
    expect(r.stderr).toBe('error: You must be logged in to the server (Unauthorized)\n');
  }, 60_000);

  it('fails when the plugin fails, with its message', async () => {
    await writeKubeconfig('client.authentication.k8s.io/v1', ['--token-file', join(dir, 'absent')]);
    const r = await kubectl('get', '--raw', '/api/v1/namespaces');
    expect(r.code).not.toBe(0);
    expect(r.stderr).toContain(`memkube: --token-file ${join(dir, 'absent')}: no such file or directory`);
  }, 60_000);
});
