import { mkdirSync, mkdtempSync, rmSync, unlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { harness, type Harness } from '../support/agent-harness.js';
import { MAX_MANIFEST_BYTES } from '../../../src/nodeagent/pods/sources/static-pod.js';

type Json = Record<string, any>;

let h: Harness | undefined;
let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'memkube-static-'));
});
afterEach(async () => {
  await h?.close();
  h = undefined;
  rmSync(dir, { recursive: true, force: true });
});

const manifest = (name: string, image = 'nginx:1.27') => `apiVersion: v1
kind: Pod
metadata:
  name: ${name}
  namespace: kube-system
  labels:
    tier: control-plane
spec:
  containers:
  - name: ${name}
    image: ${image}
`;

describe('static pods', () => {
  it('runs a static pod file as <name>-<node> and mirrors it in the API server', async () => {
    writeFileSync(join(dir, 'etcd.yaml'), manifest('etcd'));
    h = await harness({ staticPodPath: dir });
    await h.agent.syncOnce();
    const local = h.agent.pods.byName('kube-system', 'etcd-worker-1')!;
    expect(local).toBeDefined();
    const uid = local.metadata!.uid!;
    expect(uid).toMatch(/^[0-9a-f]{32}$/);
    expect(local.spec?.nodeName).toBe('worker-1');
    expect(local.metadata?.annotations).toMatchObject({
      'kubernetes.io/config.hash': uid,
      'kubernetes.io/config.source': 'file',
      'kubernetes.io/config.seen': '2026-12-01T10:00:00.000Z',
    });
    // the sandbox carries the static pod's own uid
    const sandboxes = (await h.runtime.listPodSandbox({})).items;
    expect(sandboxes.map((s) => s.metadata)).toEqual([{ name: 'etcd-worker-1', namespace: 'kube-system', uid, attempt: 0 }]);

    const node = await h.kube.request('GET', '/api/v1/nodes/worker-1');
    const mirror = (await h.pod('etcd-worker-1', 'kube-system')) as Json;
    expect(mirror.metadata.annotations).toMatchObject({
      'kubernetes.io/config.mirror': uid,
      'kubernetes.io/config.hash': uid,
      'kubernetes.io/config.source': 'file',
    });
    expect(mirror.metadata.ownerReferences).toEqual([{ apiVersion: 'v1', kind: 'Node', name: 'worker-1', uid: node.metadata?.uid, controller: true }]);
    expect(mirror.metadata.uid).not.toBe(uid);
    expect(mirror.metadata.labels).toEqual({ tier: 'control-plane' });
    // a second pass writes the static pod's status onto its mirror
    await h.agent.syncOnce();
    expect(((await h.pod('etcd-worker-1', 'kube-system')) as Json).status.phase).toBe('Running');
    // the mirror pod is not run a second time
    expect((await h.runtime.listPodSandbox({})).items).toHaveLength(1);
  });

  it('recreates a deleted mirror pod, and deletes the mirror and the containers when the file goes', async () => {
    writeFileSync(
      join(dir, 'api.json'),
      JSON.stringify({ apiVersion: 'v1', kind: 'Pod', metadata: { name: 'api' }, spec: { containers: [{ name: 'api', image: 'nginx:1.27' }] } }),
    );
    h = await harness({ staticPodPath: join(dir, 'api.json') });
    await h.agent.syncOnce();
    const first = (await h.pod('api-worker-1')) as Json;
    await h.kube.request('DELETE', '/api/v1/namespaces/default/pods/api-worker-1', { body: { gracePeriodSeconds: 0 } });
    await h.agent.syncOnce();
    const second = (await h.pod('api-worker-1')) as Json;
    expect(second.metadata.uid).not.toBe(first.metadata.uid);
    expect(second.metadata.annotations['kubernetes.io/config.mirror']).toBe(first.metadata.annotations['kubernetes.io/config.mirror']);
    // the static pod kept running through it
    expect(h.calls.filter((c) => c.method === 'runPodSandbox')).toHaveLength(1);

    // a mirror deleted gracefully (the default for a pod on a node) is replaced at once too
    await h.kube.request('DELETE', '/api/v1/namespaces/default/pods/api-worker-1');
    await h.agent.syncOnce();
    const third = (await h.pod('api-worker-1')) as Json;
    expect(third.metadata.uid).not.toBe(second.metadata.uid);
    expect(third.metadata.deletionTimestamp).toBeUndefined();

    unlinkSync(join(dir, 'api.json'));
    await h.agent.syncOnce();
    await h.agent.syncOnce();
    await expect(h.pod('api-worker-1')).rejects.toMatchObject({ code: 404 });
    expect((await h.runtime.listContainers({})).containers).toEqual([]);
    expect(h.agent.pods.all()).toEqual([]);
  });

  it('replaces the pod and its mirror when the manifest changes', async () => {
    writeFileSync(join(dir, 'web.yaml'), manifest('web'));
    h = await harness({ staticPodPath: dir });
    await h.agent.syncOnce();
    const before = h.agent.pods.byName('kube-system', 'web-worker-1')!.metadata!.uid;
    writeFileSync(join(dir, 'web.yaml'), manifest('web', 'nginx:1.28'));
    await h.agent.syncOnce();
    await h.agent.syncOnce();
    const after = h.agent.pods.byName('kube-system', 'web-worker-1')!.metadata!.uid;
    expect(after).not.toBe(before);
    const mirror = (await h.pod('web-worker-1', 'kube-system')) as Json;
    expect(mirror.metadata.annotations['kubernetes.io/config.mirror']).toBe(after);
    expect(mirror.spec.containers[0].image).toBe('nginx:1.28');
    const running = (await h.runtime.listContainers({})).containers.filter((c) => c.state === 'CONTAINER_RUNNING');
    expect(running.map((c) => c.labels?.['io.kubernetes.pod.uid'])).toEqual([after]);
  });

  it('skips hostile manifests (malformed, wrong kind, invalid, oversized, hidden, directories) and runs the good one', async () => {
    writeFileSync(join(dir, 'good.yaml'), manifest('good'));
    writeFileSync(join(dir, 'broken.yaml'), 'apiVersion: v1\nkind: Pod\nmetadata: [unclosed');
    writeFileSync(join(dir, 'broken.json'), '{"apiVersion": "v1", "kind": ');
    writeFileSync(join(dir, 'service.yaml'), 'apiVersion: v1\nkind: Service\nmetadata:\n  name: svc\n');
    writeFileSync(join(dir, 'noimage.yaml'), 'apiVersion: v1\nkind: Pod\nmetadata:\n  name: x\nspec:\n  containers:\n  - name: a\n');
    writeFileSync(join(dir, 'scalar.yaml'), '42\n');
    writeFileSync(join(dir, 'deep.yaml'), `${'['.repeat(10_000)}${']'.repeat(10_000)}`);
    writeFileSync(join(dir, 'huge.yaml'), Buffer.alloc(MAX_MANIFEST_BYTES + 1, 'a'));
    writeFileSync(join(dir, '.hidden.yaml'), manifest('hidden'));
    mkdirSync(join(dir, 'nested'));
    writeFileSync(join(dir, 'nested', 'inner.yaml'), manifest('inner'));
    h = await harness({ staticPodPath: dir });
    await h.agent.syncOnce();
    expect(h.agent.pods.all().map((p) => p.metadata?.name)).toEqual(['good-worker-1']);
    const errors = h.log.lines.filter((l) => l.startsWith('E Could not process manifest file'));
    expect(errors.map((l) => l.split(' ').at(-1))).toEqual(
      ['broken.json', 'broken.yaml', 'deep.yaml', 'huge.yaml', 'noimage.yaml', 'scalar.yaml', 'service.yaml'].map((f) => join(dir, f)),
    );
    expect(errors.find((l) => l.endsWith('service.yaml'))).toContain('want kind "Pod" of apiVersion "v1", got kind "Service"');
    expect(errors.find((l) => l.endsWith('noimage.yaml'))).toContain('spec.containers[0].image: Required value');
    expect(errors.find((l) => l.endsWith('huge.yaml'))).toContain(`larger than the ${MAX_MANIFEST_BYTES} bytes allowed`);
    expect(h.log.lines).toContain(`I Not recursing into manifest path path ${join(dir, 'nested')}`);
  });

  it('takes static pods from a URL with the configured headers, as a Pod or a PodList', async () => {
    const seen: Headers[] = [];
    let body: unknown = { apiVersion: 'v1', kind: 'Pod', metadata: { name: 'one' }, spec: { containers: [{ name: 'c', image: 'nginx:1.27' }] } };
    h = await harness({
      staticPodURL: 'http://config.invalid/pods',
      staticPodURLHeader: { 'X-Token': ['abc'], Accept: ['application/json'] },
      urlFetch: async (_url, init) => {
        seen.push(init.headers);
        return new Response(JSON.stringify(body), { status: 200 });
      },
    });
    await h.agent.syncOnce();
    expect(seen[0]!.get('x-token')).toBe('abc');
    const one = h.agent.pods.byName('default', 'one-worker-1')!;
    expect(one.metadata?.annotations?.['kubernetes.io/config.source']).toBe('http');
    body = {
      apiVersion: 'v1',
      kind: 'PodList',
      items: [
        { metadata: { name: 'a' }, spec: { containers: [{ name: 'c', image: 'nginx:1.27' }] } },
        { metadata: { name: 'b' }, spec: { containers: [{ name: 'c', image: 'nginx:1.27' }] } },
      ],
    };
    await h.agent.syncOnce();
    expect(
      h.agent.pods
        .all()
        .map((p) => p.metadata?.name)
        .sort(),
    ).toEqual(['a-worker-1', 'b-worker-1']);
  });

  it('keeps the URL pods it has when the URL answers an error or garbage', async () => {
    let answer = new Response(
      JSON.stringify({ apiVersion: 'v1', kind: 'Pod', metadata: { name: 'one' }, spec: { containers: [{ name: 'c', image: 'nginx:1.27' }] } }),
    );
    h = await harness({ staticPodURL: 'http://config.invalid/pods', urlFetch: async () => answer });
    await h.agent.syncOnce();
    answer = new Response('nope', { status: 500, statusText: 'Internal Server Error' });
    await h.agent.syncOnce();
    answer = new Response('{"kind": "Pod", "apiVersion": "v1"}', { status: 200 });
    await h.agent.syncOnce();
    expect(h.agent.pods.all().map((p) => p.metadata?.name)).toEqual(['one-worker-1']);
    const errors = h.log.lines.filter((l) => l.startsWith('E Unable to read config from URL'));
    expect(errors[0]).toContain('http://config.invalid/pods: 500 Internal Server Error');
    expect(errors[1]).toContain("couldn't parse as single pod");
  });
});
