/**
 * The built command, as `npm start` and the `memkube` bin run it (`dist/cli/main.js` loading the
 * one-file bundle with V8's code cache), driven by kubectl 1.33. The other e2e suites run the
 * command from `src/` under tsx; this one guards what bundling could break: TLS (pkijs), YAML,
 * protobuf bodies, OpenAPI, certificate parsing. `npm ci` builds `dist/` (the `prepare` script).
 */
import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { kubectlRunner } from '../support/kubectl.js';
import { BUILT_CLI, startServe, type ServeProcess } from '../support/serve.js';

const KUBECTL = '/usr/lib/google-cloud-sdk/bin/kubectl.1.33';
const BUILT = existsSync('dist/cli/memkube.cjs') && existsSync(BUILT_CLI);

describe.skipIf(!existsSync(KUBECTL) || !BUILT)('the built memkube command (npm run build) with kubectl 1.33', () => {
  let dir: string;
  let server: ServeProcess | undefined;
  const { kubectl, ok } = kubectlRunner(
    KUBECTL,
    () => join(dir, 'kubeconfig'),
    () => dir,
  );

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'memkube-built-'));
    await writeFile(join(dir, 'fixtures.yaml'), 'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: loaded\ndata:\n  a: "1"\n');
    server = await startServe(join(dir, 'kubeconfig'), ['--tls', '--load', join(dir, 'fixtures.yaml')], 'built');
  }, 30_000);
  afterAll(async () => {
    await server?.stop();
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  it('serves TLS with the objects it loaded from YAML', async () => {
    expect(server?.url).toMatch(/^https:\/\/127\.0\.0\.1:\d+$/);
    expect(await ok('get', 'configmap', 'loaded', '-o', 'jsonpath={.data.a}')).toBe('1');
  });

  it('takes kubectl generators (protobuf bodies) and answers explain from OpenAPI', async () => {
    expect(await ok('create', 'configmap', 'gen', '--from-literal=k=v')).toBe('configmap/gen created\n');
    expect(await ok('get', 'configmap', 'gen', '-o', 'jsonpath={.data.k}')).toBe('v');
    expect(await ok('explain', 'pods.spec.containers.name')).toContain('FIELD: name <string>');
  });

  it('parses certificate requests (pkijs) and answers a 422 as the source build does', async () => {
    await writeFile(
      join(dir, 'csr.yaml'),
      'apiVersion: certificates.k8s.io/v1\nkind: CertificateSigningRequest\nmetadata:\n  name: bad\nspec:\n  signerName: example.com/x\n  usages: [client auth]\n  request: aGVsbG8=\n',
    );
    const r = await kubectl('create', '-f', 'csr.yaml');
    expect(r.code).not.toBe(0);
    expect(r.stderr).toContain('spec.request: Invalid value: []byte{0x68, 0x65, 0x6c, 0x6c, 0x6f}: PEM block type must be CERTIFICATE REQUEST');
  });

  it('stops a bad --load with exit code 1 and the reason', async () => {
    await writeFile(join(dir, 'bad.yaml'), 'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: Bad_Name\n');
    const result = await new Promise<{ code: number | null; stderr: string }>((resolve) => {
      execFile(process.execPath, [BUILT_CLI, 'serve', '--port', '0', '--load', join(dir, 'bad.yaml')], { timeout: 20_000 }, (err, _out, stderr) =>
        resolve({ code: err ? ((err as { code?: number }).code ?? 1) : 0, stderr }),
      );
    });
    expect(result.code).toBe(1);
    expect(result.stderr).toContain(`memkube: --load ${join(dir, 'bad.yaml')}: ConfigMap "Bad_Name" is invalid: metadata.name: Invalid value: "Bad_Name"`);
  });
});
