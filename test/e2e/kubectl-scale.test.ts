/**
 * `kubectl scale statefulset` against `memkube serve` (a child process, stopped by PID): the real
 * v1.33 CLI driving the `/scale` subresource.
 */
import { existsSync } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { kubectlRunner } from '../support/kubectl.js';
import { startServe, type ServeProcess } from '../support/serve.js';

const KUBECTL = '/usr/lib/google-cloud-sdk/bin/kubectl.1.33';

const STS_YAML = `apiVersion: apps/v1
kind: StatefulSet
metadata:
  name: web
spec:
  serviceName: nginx
  selector:
    matchLabels:
      app: web
  template:
    metadata:
      labels:
        app: web
    spec:
      containers:
      - name: nginx
        image: nginx:1.27
`;

describe.skipIf(!existsSync(KUBECTL))('kubectl scale statefulset', () => {
  let dir: string;
  let server: ServeProcess | undefined;

  const { kubectl, ok } = kubectlRunner(
    KUBECTL,
    () => join(dir, 'kubeconfig'),
    () => dir,
  );

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'memkube-scale-'));
    server = await startServe(join(dir, 'kubeconfig'));
    await writeFile(join(dir, 'sts.yaml'), STS_YAML);
  }, 30_000);
  afterAll(async () => {
    await server?.stop();
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  it('creates, scales and lists a StatefulSet', async () => {
    expect(await ok('create', '-f', 'sts.yaml')).toBe('statefulset.apps/web created\n');
    expect(await ok('scale', 'statefulset', 'web', '--replicas=3')).toBe('statefulset.apps/web scaled\n');
    expect(await ok('get', 'sts', 'web', '-o', 'jsonpath={.spec.replicas} {.status.replicas}')).toBe('3 0');
    const table = await ok('get', 'sts');
    expect(table).toMatch(/^NAME\s+READY\s+AGE\nweb\s+0\/3\s+\d+s\n$/);
    expect(await ok('get', 'sts', 'web', '-o', 'jsonpath={.spec.replicas}')).toBe('3');
  });

  it('honours the --current-replicas precondition', async () => {
    const r = await kubectl('scale', 'statefulset', 'web', '--current-replicas=5', '--replicas=1');
    expect(r.code).not.toBe(0);
    expect(r.stderr).toContain('Expected replicas to be 5, was 3');
    expect(await ok('scale', 'sts', 'web', '--current-replicas=3', '--replicas=1')).toBe('statefulset.apps/web scaled\n');
  });
});
