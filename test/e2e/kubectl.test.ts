/**
 * kubectl against `memkube serve`: the real CLI, started as a child process on a free port.
 * The generators (`kubectl create configmap ...`, which send protobuf) are covered by
 * kubectl-generators.test.ts.
 */
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServe, type ServeProcess } from '../support/serve.js';
import { kubectlRunner } from '../support/kubectl.js';

/** The kubectl binaries this suite drives: the v1.33 client memkube targets, and the machine's default. */
const KUBECTLS = ['/usr/lib/google-cloud-sdk/bin/kubectl.1.33', '/usr/bin/kubectl'].filter((k) => existsSync(k));

describe.each(KUBECTLS)('kubectl (%s) against memkube serve', (KUBECTL) => {
  let dir: string;
  let server: ServeProcess | undefined;

  const { kubectl, ok } = kubectlRunner(
    KUBECTL,
    () => join(dir, 'kubeconfig'),
    () => dir,
  );

  /** A long-running kubectl (`get -w`, `wait`): its output as it comes, stopped by its PID. */
  const background = (...args: string[]) => {
    const child = spawn(KUBECTL, ['--kubeconfig', join(dir, 'kubeconfig'), ...args], { cwd: dir, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
    return {
      lines: () => stdout.split('\n').filter(Boolean),
      stderr: () => stderr,
      exited,
      /** Waits until the output has at least `n` lines. */
      async waitForLines(n: number, timeoutMs = 10_000) {
        const until = Date.now() + timeoutMs;
        while (stdout.split('\n').filter(Boolean).length < n) {
          if (Date.now() > until) throw new Error(`kubectl ${args.join(' ')}: waited for ${n} lines, got:\n${stdout}\n${stderr}`);
          await new Promise((r) => setTimeout(r, 25));
        }
      },
      async kill() {
        if (child.pid !== undefined && child.exitCode === null && child.signalCode === null) process.kill(child.pid, 'SIGTERM');
        await exited;
      },
    };
  };
  const cmYaml = (name: string, labels: Record<string, string> = {}, namespace?: string) =>
    `apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: ${name}\n${namespace ? `  namespace: ${namespace}\n` : ''}` +
    (Object.keys(labels).length
      ? `  labels:\n${Object.entries(labels)
          .map(([k, v]) => `    ${k}: ${v}\n`)
          .join('')}`
      : '') +
    'data:\n  k: v\n';

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'memkube-e2e-'));
    server = await startServe(join(dir, 'kubeconfig'));
  }, 30_000);

  afterAll(async () => {
    await server?.stop();
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

  it('apply --server-side: conflicts between managers, then --force-conflicts takes the field over', async () => {
    const write = (v: string) => writeFile(join(dir, 'ssa.yaml'), `apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: ssa\ndata:\n  v: "${v}"\n`);
    await write('1');
    expect(await ok('apply', '--server-side', '--field-manager=alice', '-f', 'ssa.yaml')).toBe('configmap/ssa serverside-applied\n');
    await write('2');
    const conflict = await kubectl('apply', '--server-side', '--field-manager=bob', '-f', 'ssa.yaml');
    expect(conflict.code).not.toBe(0);
    expect(conflict.stderr).toContain('Apply failed with 1 conflict: conflict with "alice": .data.v');
    expect(await ok('get', 'cm', 'ssa', '-o', 'jsonpath={.data.v}')).toBe('1');
    expect(await ok('apply', '--server-side', '--field-manager=bob', '--force-conflicts', '-f', 'ssa.yaml')).toBe('configmap/ssa serverside-applied\n');
    expect(await ok('get', 'cm', 'ssa', '-o', 'jsonpath={.data.v} {.metadata.managedFields[*].manager}')).toBe('2 bob');
  });

  it('patch (merge, json, strategic), label, annotate, delete', async () => {
    expect(await ok('patch', 'cm', 'x', '--type=merge', '-p', '{"data":{"m":"1"}}')).toBe('configmap/x patched\n');
    expect(await ok('patch', 'cm', 'x', '--type=json', '-p', '[{"op":"add","path":"/data/j","value":"2"}]')).toBe('configmap/x patched\n');
    expect(await ok('patch', 'cm', 'x', '--type=strategic', '-p', '{"data":{"s":"3"}}')).toBe('configmap/x patched\n');
    expect(await ok('label', 'cm', 'x', 'env=prod')).toBe('configmap/x labeled\n');
    expect(await ok('annotate', 'cm', 'x', 'note=hi')).toBe('configmap/x annotated\n');
    expect(await ok('get', 'cm', 'x', '-o', 'jsonpath={.data} {.metadata.labels.env} {.metadata.annotations.note}')).toBe(
      '{"a":"1","j":"2","m":"1","s":"3"} prod hi',
    );
    expect(await ok('delete', 'cm', 'x')).toBe('configmap "x" deleted\n');
    const gone = await kubectl('get', 'cm', 'x');
    expect(gone.stderr).toContain('Error from server (NotFound): configmaps "x" not found');
  });

  it('get cm -w --output-watch-events prints the list, then every change', async () => {
    await writeFile(join(dir, 'ns-w.yaml'), 'apiVersion: v1\nkind: Namespace\nmetadata:\n  name: watched\n');
    await ok('create', '-f', 'ns-w.yaml');
    await writeFile(join(dir, 'w1.yaml'), cmYaml('w1', {}, 'watched'));
    await ok('create', '-f', 'w1.yaml');
    const watch = background('get', 'cm', '-n', 'watched', '-w', '--output-watch-events');
    try {
      await watch.waitForLines(2);
      await writeFile(join(dir, 'w2.yaml'), cmYaml('w2', {}, 'watched'));
      await ok('create', '-f', 'w2.yaml');
      await ok('-n', 'watched', 'patch', 'cm', 'w1', '--type=merge', '-p', '{"data":{"k2":"v2"}}');
      await ok('-n', 'watched', 'delete', 'cm', 'w2');
      await watch.waitForLines(5);
      const lines = watch.lines();
      expect(lines[0]).toMatch(/^EVENT\s+NAME\s+DATA\s+AGE$/);
      expect(lines.slice(1).map((l) => l.split(/\s+/).slice(0, 3).join(' '))).toEqual(['ADDED w1 1', 'ADDED w2 1', 'MODIFIED w1 2', 'DELETED w2 1']);
    } finally {
      await watch.kill();
    }
    expect(watch.stderr()).toBe('');
  });

  it('get cm -w -o name in all namespaces, stopped by PID', async () => {
    const watch = background('get', 'cm', '-A', '-w', '-o', 'name');
    try {
      await watch.waitForLines(1);
      const before = watch.lines().length;
      await writeFile(join(dir, 'w3.yaml'), cmYaml('w3', {}, 'watched'));
      await ok('create', '-f', 'w3.yaml');
      await watch.waitForLines(before + 1);
      expect(watch.lines().at(-1)).toBe('configmap/w3');
    } finally {
      await watch.kill();
    }
  });

  it('get cm --chunk-size=2 over more items than a chunk; -l; --field-selector; -o json/name/jsonpath', async () => {
    await writeFile(join(dir, 'ns-l.yaml'), 'apiVersion: v1\nkind: Namespace\nmetadata:\n  name: listed\n');
    await ok('create', '-f', 'ns-l.yaml');
    const docs = ['c1', 'c2', 'c3', 'c4', 'c5'].map((n, i) => cmYaml(n, { app: i % 2 ? 'odd' : 'even' }, 'listed'));
    await writeFile(join(dir, 'many.yaml'), docs.join('---\n'));
    expect(await ok('create', '-f', 'many.yaml')).toBe(['c1', 'c2', 'c3', 'c4', 'c5'].map((n) => `configmap/${n} created\n`).join(''));

    const chunked = await ok('-n', 'listed', 'get', 'cm', '--chunk-size=2');
    expect(
      chunked
        .split('\n')
        .filter(Boolean)
        .map((l) => l.split(/\s+/)[0]),
    ).toEqual(['NAME', 'c1', 'c2', 'c3', 'c4', 'c5']);
    const chunkedVerbose = await kubectl('-n', 'listed', 'get', 'cm', '--chunk-size=2', '-o', 'name', '-v=6');
    expect(chunkedVerbose.stdout).toBe('configmap/c1\nconfigmap/c2\nconfigmap/c3\nconfigmap/c4\nconfigmap/c5\n');
    // Three requests: limit=2, then two continues.
    expect(chunkedVerbose.stderr.match(/configmaps\?(continue=[^&"]+&)?limit=2/g)?.length).toBe(3);

    expect(await ok('-n', 'listed', 'get', 'cm', '-l', 'app=odd', '-o', 'name')).toBe('configmap/c2\nconfigmap/c4\n');
    expect(await ok('-n', 'listed', 'get', 'cm', '-l', 'app!=odd,app', '-o', 'name')).toBe('configmap/c1\nconfigmap/c3\nconfigmap/c5\n');
    expect(await ok('-n', 'listed', 'get', 'cm', '--field-selector', 'metadata.name=c3')).toMatch(/^NAME\s+DATA\s+AGE\nc3\s+1\s+\d+s\n$/);
    expect(await ok('-n', 'listed', 'get', 'cm', '--field-selector', 'metadata.name!=c3', '-l', 'app=even', '-o', 'name')).toBe('configmap/c1\nconfigmap/c5\n');
    const bad = await kubectl('-n', 'listed', 'get', 'cm', '--field-selector', 'data.k=v');
    expect(bad.code).not.toBe(0);
    expect(bad.stderr).toContain('Error from server (BadRequest)');
    expect(bad.stderr).toContain('"data.k" is not a known field selector');

    const list = JSON.parse(await ok('-n', 'listed', 'get', 'cm', '-o', 'json')) as {
      kind: string;
      apiVersion: string;
      items: { kind: string; metadata: { name: string } }[];
    };
    expect(list.kind).toBe('List');
    expect(list.items.map((i) => [i.kind, i.metadata.name])).toEqual(['c1', 'c2', 'c3', 'c4', 'c5'].map((n) => ['ConfigMap', n]));
    const one = JSON.parse(await ok('-n', 'listed', 'get', 'cm', 'c2', '-o', 'json')) as {
      apiVersion: string;
      kind: string;
      metadata: { labels: Record<string, string> };
    };
    expect(one).toMatchObject({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { labels: { app: 'odd' } } });
    expect(await ok('-n', 'listed', 'get', 'cm', '-o', 'name')).toBe(['c1', 'c2', 'c3', 'c4', 'c5'].map((n) => `configmap/${n}\n`).join(''));
    expect(await ok('-n', 'listed', 'get', 'cm', '-o', 'jsonpath={range .items[*]}{.metadata.name}={.metadata.labels.app}{"\\n"}{end}')).toBe(
      'c1=even\nc2=odd\nc3=even\nc4=odd\nc5=even\n',
    );
    expect(await ok('get', 'cm', '-A', '-l', 'app=odd', '-o', 'jsonpath={.items[*].metadata.namespace}')).toBe('listed listed');
  });

  it('delete cm -l app=x', async () => {
    expect(await ok('-n', 'listed', 'delete', 'cm', '-l', 'app=even')).toBe('configmap "c1" deleted\nconfigmap "c3" deleted\nconfigmap "c5" deleted\n');
    expect(await ok('-n', 'listed', 'get', 'cm', '-o', 'name')).toBe('configmap/c2\nconfigmap/c4\n');
    // kubectl prints this one on stdout.
    expect(await ok('-n', 'listed', 'delete', 'cm', '-l', 'app=even')).toBe('No resources found\n');
  });

  it('wait --for=delete while the object is being deleted', async () => {
    const wait = background('-n', 'listed', 'wait', '--for=delete', 'cm/c2', '--timeout=10s');
    await new Promise((r) => setTimeout(r, 500));
    expect(wait.lines()).toEqual([]);
    await ok('-n', 'listed', 'delete', 'cm', 'c2');
    expect(await wait.exited).toBe(0);
    expect(wait.lines()).toEqual(['configmap/c2 condition met']);
    // Already gone: at once.
    expect(await ok('-n', 'listed', 'wait', '--for=delete', 'cm/c2', '--timeout=2s')).toBe('');
    // Still there after the timeout: exit 1 with kubectl's message.
    const timedOut = await kubectl('-n', 'listed', 'wait', '--for=delete', 'cm/c4', '--timeout=1s');
    expect(timedOut.code).toBe(1);
    expect(timedOut.stderr).toContain('timed out waiting for the condition on configmaps/c4');
  });

  it('delete -f of a manifest that starts with its Namespace deletes everything in it, then the namespace goes', async () => {
    await writeFile(
      join(dir, 'app.yaml'),
      `apiVersion: v1\nkind: Namespace\nmetadata:\n  name: doomed\n---\n${cmYaml('one', {}, 'doomed')}---\n${cmYaml('two', {}, 'doomed')}`,
    );
    expect(await ok('apply', '-f', 'app.yaml')).toBe('namespace/doomed created\nconfigmap/one created\nconfigmap/two created\n');
    // The namespace stays Terminating with its content a moment, so kubectl's deletes of the rest find it.
    expect(await ok('delete', '-f', 'app.yaml', '--wait=false')).toBe('namespace "doomed" deleted\nconfigmap "one" deleted\nconfigmap "two" deleted\n');
    expect(await ok('wait', '--for=delete', 'namespace/doomed', '--timeout=15s')).toBe('namespace/doomed condition met\n');
  });

  it('create --dry-run=server -f keeps nothing', async () => {
    await writeFile(join(dir, 'dry.yaml'), cmYaml('dry', { app: 'dry' }));
    expect(await ok('create', '--dry-run=server', '-f', 'dry.yaml')).toBe('configmap/dry created (server dry run)\n');
    const shown = JSON.parse(await ok('create', '--dry-run=server', '-f', 'dry.yaml', '-o', 'json')) as { metadata: Record<string, unknown> };
    expect(shown.metadata).toMatchObject({ name: 'dry', namespace: 'default', uid: expect.any(String), creationTimestamp: expect.any(String) });
    const gone = await kubectl('get', 'cm', 'dry');
    expect(gone.stderr).toContain('Error from server (NotFound): configmaps "dry" not found');
    // A dry run still checks what a real create would: the name is taken.
    await ok('create', '-f', 'dry.yaml');
    const taken = await kubectl('create', '--dry-run=server', '-f', 'dry.yaml');
    expect(taken.stderr).toContain('Error from server (AlreadyExists): error when creating "dry.yaml": configmaps "dry" already exists');
  });
});
