/**
 * kubectl's OpenAPI clients against `memkube serve`: `kubectl explain` (OpenAPI v3, and v2 with
 * `--output plaintext-openapiv2`), client-side validation of a `kind: List` manifest (which reads
 * `/openapi/v2` as gnostic protobuf), `apply` of a multi-document YAML and `kubectl diff`.
 */
import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServe, type ServeProcess } from '../support/serve.js';

const KUBECTL = '/usr/lib/google-cloud-sdk/bin/kubectl.1.33';

describe.skipIf(!existsSync(KUBECTL))('kubectl 1.33 OpenAPI clients against memkube serve', () => {
  let dir: string;
  let server: ServeProcess | undefined;

  const kubectl = (...args: string[]) =>
    new Promise<{ code: number; stdout: string; stderr: string }>((resolve) => {
      const env = { ...process.env, PATH: `/usr/bin:/bin:${process.env.PATH ?? ''}`, KUBECTL_EXTERNAL_DIFF: 'diff -u -N' };
      execFile(KUBECTL, ['--kubeconfig', join(dir, 'kubeconfig'), ...args], { cwd: dir, timeout: 20_000, env }, (err, stdout, stderr) => {
        resolve({ code: err ? ((err as { code?: number }).code ?? 1) : 0, stdout, stderr });
      });
    });
  const run = async (expectedCode: number, ...args: string[]) => {
    const r = await kubectl(...args);
    expect(r.stderr.replace(/^WARNING: version difference.*\n/m, ''), `kubectl ${args.join(' ')}`).toBe('');
    expect(r.code, `kubectl ${args.join(' ')}`).toBe(expectedCode);
    return r.stdout;
  };
  const ok = (...args: string[]) => run(0, ...args);

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'memkube-e2e-openapi-'));
    server = await startServe(join(dir, 'kubeconfig'));
  }, 30_000);

  afterAll(async () => {
    await server?.stop();
    await rm(dir, { recursive: true, force: true });
  });

  it('explain pods', async () => {
    const out = await ok('explain', 'pods');
    expect(out).toMatch(/^KIND:\s+Pod\nVERSION:\s+v1\n/);
    expect(out).toMatch(/^\s+metadata\s+<ObjectMeta>$/m);
    expect(out).toMatch(/^\s+spec\s+<PodSpec>$/m);
    expect(out).toMatch(/^\s+status\s+<PodStatus>$/m);
  });

  it('explain pods.spec.containers and deeper fields', async () => {
    const out = await ok('explain', 'pods.spec.containers');
    expect(out).toMatch(/^FIELD: containers <\[\]Container>$/m);
    expect(out).toMatch(/^\s+name\s+<string> -required-$/m);
    expect(out).toMatch(/^\s+ports\s+<\[\]ContainerPort>$/m);
    expect(await ok('explain', 'pods.spec.containers.livenessProbe.httpGet.port')).toMatch(/^FIELD: port <IntOrString>$/m);
    expect(await ok('explain', 'pod.spec.containers.resources.limits')).toMatch(/^FIELD: limits <map\[string\]Quantity>$/m);
  });

  it('explain configmaps --recursive', async () => {
    const out = await ok('explain', 'configmaps', '--recursive');
    expect(out).toMatch(/^KIND:\s+ConfigMap$/m);
    expect(out).toMatch(/^\s+data\s+<map\[string\]string>$/m);
    expect(out).toMatch(/^\s+ownerReferences\s+<\[\]OwnerReference>$/m);
    expect(out).toMatch(/^\s+uid\s+<string> -required-$/m);
  });

  it('explain from OpenAPI v2 (protobuf)', async () => {
    const out = await ok('explain', 'pods.spec', '--output', 'plaintext-openapiv2');
    expect(out).toMatch(/^RESOURCE: spec <Object>$/m);
    expect(out).toMatch(/^\s+containers\s+<\[\]Object> -required-$/m);
  });

  it('apply -f of a kind: List manifest (client-side validation from /openapi/v2)', async () => {
    await writeFile(
      join(dir, 'list.yaml'),
      [
        'apiVersion: v1',
        'kind: List',
        'items:',
        '- apiVersion: v1',
        '  kind: ConfigMap',
        '  metadata:',
        '    name: listed',
        '  data:',
        '    a: "1"',
        '- apiVersion: v1',
        '  kind: Pod',
        '  metadata:',
        '    name: listed',
        '  spec:',
        '    containers:',
        '    - name: c',
        '      image: nginx',
        '      ports:',
        '      - containerPort: 80',
        '      livenessProbe:',
        '        httpGet:',
        '          port: 80',
        '          path: /',
        '',
      ].join('\n'),
    );
    expect(await ok('apply', '-f', 'list.yaml')).toBe('configmap/listed created\npod/listed created\n');
    expect(await ok('apply', '-f', 'list.yaml')).toBe('configmap/listed unchanged\npod/listed unchanged\n');
    // The v2 schema is really used: an unknown field is caught on the client.
    await writeFile(
      join(dir, 'bad-list.yaml'),
      'apiVersion: v1\nkind: List\nitems:\n- apiVersion: v1\n  kind: ConfigMap\n  metadata:\n    name: bad\n  bogus: 1\n',
    );
    const bad = await kubectl('apply', '-f', 'bad-list.yaml');
    expect(bad.code).not.toBe(0);
    expect(bad.stderr).toContain('unknown field "bogus" in io.k8s.api.core.v1.ConfigMap');
  });

  it('apply -f of a multi-document YAML, then diff -f', async () => {
    const manifest = (value: string) =>
      [
        'apiVersion: v1',
        'kind: ConfigMap',
        'metadata:',
        '  name: multi-a',
        'data:',
        `  k: "${value}"`,
        '---',
        'apiVersion: v1',
        'kind: Pod',
        'metadata:',
        '  name: multi-b',
        'spec:',
        '  containers:',
        '  - name: c',
        '    image: nginx',
        '',
      ].join('\n');
    await writeFile(join(dir, 'multi.yaml'), manifest('1'));
    expect(await ok('apply', '-f', 'multi.yaml')).toBe('configmap/multi-a created\npod/multi-b created\n');
    expect(await ok('diff', '-f', 'multi.yaml')).toBe('');
    await writeFile(join(dir, 'multi.yaml'), manifest('2'));
    const diff = await run(1, 'diff', '-f', 'multi.yaml');
    expect(diff).toContain('-  k: "1"');
    expect(diff).toContain('+  k: "2"');
    expect(diff).not.toContain('multi-b');
  });
});
