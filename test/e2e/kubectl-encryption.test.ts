/**
 * `memkube serve --encryption-provider-config FILE` as a child process, driven by kubectl v1.33:
 * Secrets kept encrypted at rest are created, read, listed by label and field, patched, watched
 * (`kubectl get --watch`), rewritten with `kubectl replace` (the rotation step) and deleted as on any
 * cluster; a file kube-apiserver would refuse stops the server before it serves.
 */
import { spawn } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { kubectlRunner } from '../support/kubectl.js';
import { startServe, type ServeProcess } from '../support/serve.js';

const KUBECTL = '/usr/lib/google-cloud-sdk/bin/kubectl.1.33';
const K1 = Buffer.alloc(32, 1).toString('base64');

const CONFIG = `apiVersion: apiserver.config.k8s.io/v1
kind: EncryptionConfiguration
resources:
  - resources:
      - secrets
    providers:
      - aesgcm:
          keys:
            - name: key1
              secret: ${Buffer.alloc(16, 3).toString('base64')}
      - aescbc:
          keys:
            - name: old
              secret: ${K1}
      - identity: {}
`;

describe('memkube serve --encryption-provider-config', () => {
  let dir: string;
  let server: ServeProcess | undefined;
  const kubeconfig = () => join(dir, 'kubeconfig');

  const { kubectl } = kubectlRunner(KUBECTL, kubeconfig, () => dir);

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'memkube-e2e-encryption-'));
    await writeFile(join(dir, 'encryption.yaml'), CONFIG);
    server = await startServe(kubeconfig(), ['--encryption-provider-config', join(dir, 'encryption.yaml')]);
  }, 30_000);

  afterAll(async () => {
    await server?.stop();
    await rm(dir, { recursive: true, force: true });
  });

  it('serves encrypted Secrets to kubectl as any cluster does', async () => {
    expect((await kubectl('create', 'secret', 'generic', 'db', '--from-literal=password=hunter2')).code).toBe(0);
    expect((await kubectl('label', 'secret', 'db', 'app=db')).code).toBe(0);
    expect((await kubectl('create', 'secret', 'generic', 'web', '--from-literal=password=letmein', '-n', 'kube-system')).code).toBe(0);

    const get = await kubectl('get', 'secret', 'db', '-o', 'jsonpath={.data.password}');
    expect(Buffer.from(get.stdout, 'base64').toString()).toBe('hunter2');
    expect((await kubectl('get', 'secrets', '-l', 'app=db', '-o', 'name')).stdout).toBe('secret/db\n');
    expect((await kubectl('get', 'secrets', '-A', '--field-selector', 'metadata.name=web', '-o', 'name')).stdout).toBe('secret/web\n');

    // A watch from the list's resourceVersion sees the patch, decrypted.
    const child = spawn(KUBECTL, [
      '--kubeconfig',
      kubeconfig(),
      'get',
      'secret',
      'db',
      '--watch',
      '--output-watch-events',
      '-o',
      'jsonpath={.type} {.object.metadata.labels.stage}{"\\n"}',
    ]);
    const lines: string[] = [];
    let buffered = '';
    const seen = (n: number) =>
      new Promise<void>((resolve, reject) => {
        const check = () => (lines.length >= n ? resolve() : undefined);
        child.stdout.on('data', (d: Buffer) => {
          buffered += d.toString();
          const parts = buffered.split('\n');
          buffered = parts.pop()!;
          lines.push(...parts);
          check();
        });
        child.on('exit', () => reject(new Error(`kubectl watch exited: ${lines.join('|')}`)));
        check();
      });
    try {
      await seen(1);
      expect((await kubectl('patch', 'secret', 'db', '--type=merge', '-p', '{"metadata":{"labels":{"stage":"patched"}}}')).code).toBe(0);
      await seen(2);
    } finally {
      child.kill();
    }
    expect(lines).toEqual(['ADDED ', 'MODIFIED patched']);
  }, 60_000);

  it('rewrites every Secret with kubectl replace (the rotation step) and deletes them', async () => {
    const all = await kubectl('get', 'secrets', '-A', '-o', 'json');
    expect(all.code).toBe(0);
    await writeFile(join(dir, 'all.json'), all.stdout);
    const replaced = await kubectl('replace', '-f', join(dir, 'all.json'));
    expect(replaced.stderr).toBe('');
    expect(replaced.stdout).toContain('secret/db replaced');
    const get = await kubectl('get', 'secret', 'web', '-n', 'kube-system', '-o', 'jsonpath={.data.password}');
    expect(Buffer.from(get.stdout, 'base64').toString()).toBe('letmein');
    expect((await kubectl('delete', 'secret', 'db')).stdout).toBe('secret "db" deleted\n');
    expect((await kubectl('get', 'secret', 'db')).stderr).toBe('Error from server (NotFound): secrets "db" not found\n');
  }, 60_000);

  it('refuses to start with a file kube-apiserver would refuse', async () => {
    const bad = join(dir, 'bad.yaml');
    await writeFile(bad, CONFIG.replace('name: key1\n', 'name: key1\n              algorithm: aes\n'));
    await expect(startServe(join(dir, 'bad-kubeconfig'), ['--encryption-provider-config', bad])).rejects.toThrow(
      `memkube: error while parsing file: error decoding encryption provider configuration file "${bad}": strict decoding error: unknown field "resources[0].providers[0].aesgcm.keys[0].algorithm"`,
    );
    const kms = join(dir, 'kms.yaml');
    await writeFile(
      kms,
      CONFIG.replace('      - identity: {}\n', '      - kms:\n          apiVersion: v2\n          name: vault\n          endpoint: unix:///tmp/kms.sock\n'),
    );
    await expect(startServe(join(dir, 'kms-kubeconfig'), ['--encryption-provider-config', kms])).rejects.toThrow(
      'memkube: error while building transformers: KMS provider "vault" cannot be used',
    );
  }, 60_000);
});
