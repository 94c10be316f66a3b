/**
 * kubectl against `memkube serve`: the real CLI, started as a child process on a free port.
 * kubectl's generators (`kubectl create configmap ...`) send protobuf, which memkube does not
 * decode yet, so manifests are used instead.
 */
import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

/** The kubectl binaries this suite drives: the v1.33 client memkube targets, and the machine's default. */
const KUBECTLS = ['/usr/lib/google-cloud-sdk/bin/kubectl.1.33', '/usr/bin/kubectl'].filter((k) => existsSync(k));

describe.each(KUBECTLS)('kubectl (%s) against memkube serve', (KUBECTL) => {
  let dir: string;
  let server: ChildProcess | undefined;

  const kubectl = (...args: string[]) =>
    new Promise<{ code: number; stdout: string; stderr: string }>((resolve) => {
      execFile(KUBECTL, ['--kubeconfig', join(dir, 'kubeconfig'), ...args], { cwd: dir, timeout: 20_000 }, (err, stdout, stderr) => {
        resolve({ code: err ? ((err as { code?: number }).code ?? 1) : 0, stdout, stderr });
      });
    });
  const ok = async (...args: string[]) => {
    const r = await kubectl(...args);
    expect(r.stderr.replace(/^WARNING: version difference.*\n/m, ''), `kubectl ${args.join(' ')}`).toBe('');
    expect(r.code).toBe(0);
    return r.stdout;
  };

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'memkube-e2e-'));
    const child = spawn(process.execPath, ['--import', 'tsx', 'src/cli/main.ts', 'serve', '--port', '0', '--host', '127.0.0.1', '--kubeconfig', join(dir, 'kubeconfig')], {
      cwd: process.cwd(),
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    server = child;
    await new Promise<void>((resolve, reject) => {
      let out = '';
      let err = '';
      child.stdout!.on('data', (d: Buffer) => {
        out += d.toString();
        if (/serving on http:\/\/127\.0\.0\.1:\d+/.test(out)) resolve();
      });
      child.stderr!.on('data', (d: Buffer) => (err += d.toString()));
      child.on('exit', (code) => reject(new Error(`memkube serve exited with ${code}: ${err}`)));
      setTimeout(() => reject(new Error(`memkube serve did not start: ${out} ${err}`)), 20_000);
    });
  }, 30_000);

  afterAll(async () => {
    if (server?.pid !== undefined && server.exitCode === null) {
      const exited = new Promise((resolve) => server!.once('exit', resolve));
      process.kill(server.pid, 'SIGTERM');
      await exited;
    }
    await rm(dir, { recursive: true, force: true });
  });

  it('version, api-resources, get ns', async () => {
    expect(await ok('version')).toContain('Server Version: v1.36.0');
    const resources = await ok('api-resources');
    expect(resources).toMatch(/^configmaps\s+cm\s+v1\s+true\s+ConfigMap$/m);
    expect(await ok('get', 'ns')).toMatch(/^NAME\s+STATUS\s+AGE\ndefault\s+Active\s+\d+s\n/);
  });

  it('create -f, get -o yaml, get -l', async () => {
    await writeFile(join(dir, 'cm.yaml'), 'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: x\n  labels:\n    app: demo\ndata:\n  a: "1"\n');
    expect(await ok('create', '-f', 'cm.yaml')).toBe('configmap/x created\n');
    const yaml = await ok('get', 'cm', 'x', '-o', 'yaml');
    expect(yaml).toContain('kind: ConfigMap');
    expect(yaml).toContain('  a: "1"');
    expect(await ok('get', 'cm', '-l', 'app=demo')).toMatch(/^NAME\s+DATA\s+AGE\nx\s+1\s+\d+s\n$/);
    const none = await kubectl('get', 'cm', '-l', 'app=nope');
    expect(none.stderr).toContain('No resources found in default namespace.');
  });

  it('apply twice (client-side, strategic merge patch) and apply --server-side', async () => {
    const write = (v: string) => writeFile(join(dir, 'app.yaml'), `apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: app\ndata:\n  v: "${v}"\n`);
    await write('1');
    expect(await ok('apply', '-f', 'app.yaml')).toBe('configmap/app created\n');
    await write('2');
    expect(await ok('apply', '-f', 'app.yaml')).toBe('configmap/app configured\n');
    expect(await ok('get', 'cm', 'app', '-o', 'jsonpath={.data.v}')).toBe('2');
    await write('3');
    expect(await ok('apply', '--server-side', '-f', 'app.yaml')).toBe('configmap/app serverside-applied\n');
    expect(await ok('get', 'cm', 'app', '-o', 'jsonpath={.data.v}')).toBe('3');
  });

  it('patch (merge, json, strategic), label, annotate, delete', async () => {
    expect(await ok('patch', 'cm', 'x', '--type=merge', '-p', '{"data":{"m":"1"}}')).toBe('configmap/x patched\n');
    expect(await ok('patch', 'cm', 'x', '--type=json', '-p', '[{"op":"add","path":"/data/j","value":"2"}]')).toBe('configmap/x patched\n');
    expect(await ok('patch', 'cm', 'x', '--type=strategic', '-p', '{"data":{"s":"3"}}')).toBe('configmap/x patched\n');
    expect(await ok('label', 'cm', 'x', 'env=prod')).toBe('configmap/x labeled\n');
    expect(await ok('annotate', 'cm', 'x', 'note=hi')).toBe('configmap/x annotated\n');
    expect(await ok('get', 'cm', 'x', '-o', 'jsonpath={.data} {.metadata.labels.env} {.metadata.annotations.note}')).toBe('{"a":"1","j":"2","m":"1","s":"3"} prod hi');
    expect(await ok('delete', 'cm', 'x')).toBe('configmap "x" deleted\n');
    const gone = await kubectl('get', 'cm', 'x');
    expect(gone.stderr).toContain('Error from server (NotFound): configmaps "x" not found');
  });
});
