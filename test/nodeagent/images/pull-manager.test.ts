import { mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { CombinedClock } from '../../../src/clock.js';
import { CriError, type AuthConfig, type Image, type ImageService } from '../../../src/cri/api.js';
import { createCredentialProviders } from '../../../src/nodeagent/images/credential-providers.js';
import { createImagePullManager, type ImagePullManagerOptions, type PodPullSecret } from '../../../src/nodeagent/images/pull-manager.js';
import { recordFileName } from '../../../src/nodeagent/images/pull-records.js';
import { PluginDir, v1Response } from './plugins.js';

/** An in-memory runtime whose registry wants `password` for images under `private.io`. */
class FakeImages implements ImageService {
  readonly images = new Map<string, Image>();
  readonly pulls: { image: string; auth?: AuthConfig }[] = [];
  password = 'right';
  failAll = false;

  preload(image: string, id = `sha256:${image.length}${image.replace(/\W/g, '')}`): void {
    this.images.set(image, { id, repoTags: [image], repoDigests: [], size: 1n });
  }
  async listImages() {
    return { images: [...this.images.values()] };
  }
  async imageStatus(request: { image: { image: string } }) {
    const image = this.images.get(request.image.image);
    return image ? { image } : {};
  }
  async pullImage(request: { image: { image: string }; auth?: AuthConfig }) {
    this.pulls.push({ image: request.image.image, ...(request.auth ? { auth: request.auth } : {}) });
    if (this.failAll) throw new CriError(2, `failed to pull and unpack image "${request.image.image}": connection refused`);
    if (request.image.image.startsWith('private.io/') && request.auth?.password !== this.password) {
      throw new CriError(2, `failed to pull and unpack image "${request.image.image}": 401 Unauthorized`);
    }
    if (!this.images.has(request.image.image)) this.preload(request.image.image);
    return { imageRef: this.images.get(request.image.image)!.id };
  }
  async removeImage() {
    return {};
  }
}

const secret = (name: string, password: string, registry = 'private.io'): PodPullSecret => ({
  namespace: 'team',
  name,
  uid: `uid-${name}`,
  dockerConfigJson: JSON.stringify({ auths: { [registry]: { username: 'robot', password } } }),
});

let roots: string[] = [];
const plugins = new PluginDir();
afterEach(() => {
  for (const r of roots) rmSync(r, { recursive: true, force: true });
  roots = [];
});
afterAll(() => plugins.remove());

function setup(options: Partial<ImagePullManagerOptions> = {}) {
  const rootDir = mkdtempSync(join(tmpdir(), 'memkube-pull-'));
  roots.push(rootDir);
  const images = new FakeImages();
  const clock = new CombinedClock({ frozenAt: Date.parse('2026-12-01T10:00:00Z') });
  const warnings: string[] = [];
  const manager = createImagePullManager({ rootDir, images, clock, onWarning: (m) => warnings.push(m), ...options });
  return { rootDir, images, clock, manager, warnings };
}

describe('ensureImage: pull policies', () => {
  it('Never: an absent image is ErrImageNeverPull, a present one is used', async () => {
    const { images, manager } = setup();
    expect(await manager.ensureImage({ image: 'nginx:1.25', pullPolicy: 'Never' })).toEqual({
      error: 'ErrImageNeverPull',
      message: 'Container image "nginx:1.25" is not present with pull policy of Never',
    });
    images.preload('nginx:1.25', 'sha256:n');
    expect(await manager.ensureImage({ image: 'nginx:1.25', pullPolicy: 'Never' })).toEqual({
      imageRef: 'sha256:n',
      message: 'Container image "nginx:1.25" already present on machine',
    });
    expect(images.pulls).toEqual([]);
  });

  it('IfNotPresent pulls once; Always pulls every time; untagged defaults to :latest and Always', async () => {
    const { images, manager } = setup();
    expect(await manager.ensureImage({ image: 'nginx:1.25' })).toMatchObject({ message: 'Successfully pulled image "nginx:1.25"' });
    expect(await manager.ensureImage({ image: 'nginx:1.25' })).toMatchObject({ message: 'Container image "nginx:1.25" already present on machine' });
    await manager.ensureImage({ image: 'nginx:1.25', pullPolicy: 'Always' });
    await manager.ensureImage({ image: 'busybox' });
    await manager.ensureImage({ image: 'busybox' });
    expect(images.pulls.map((p) => p.image)).toEqual(['nginx:1.25', 'nginx:1.25', 'busybox:latest', 'busybox:latest']);
  });

  it('refuses an invalid image name', async () => {
    const { manager } = setup();
    expect(await manager.ensureImage({ image: 'Not/Valid' })).toEqual({
      error: 'InvalidImageName',
      message:
        'Failed to apply default image tag "Not/Valid": couldn\'t parse image name "Not/Valid": invalid reference format: repository name (Valid) must be lowercase',
    });
  });

  it('a failed pull is ErrImagePull, then ImagePullBackOff until the back-off passes, doubling', async () => {
    const { images, clock, manager } = setup({ backoff: { initialMs: 10_000, maxMs: 40_000 } });
    images.failAll = true;
    const failed = 'Failed to pull image "r.io/app:v1": rpc error: code = Unknown desc = failed to pull and unpack image "r.io/app:v1": connection refused';
    expect(await manager.ensureImage({ image: 'r.io/app:v1', podUID: 'p1' })).toEqual({ error: 'ErrImagePull', message: failed });
    expect(await manager.ensureImage({ image: 'r.io/app:v1', podUID: 'p1' })).toEqual({
      error: 'ImagePullBackOff',
      message: `Back-off pulling image "r.io/app:v1": ${failed}`,
    });
    // Another pod is not held back.
    expect(await manager.ensureImage({ image: 'r.io/app:v1', podUID: 'p2' })).toMatchObject({ error: 'ErrImagePull' });
    clock.advance(10_000);
    expect(await manager.ensureImage({ image: 'r.io/app:v1', podUID: 'p1' })).toMatchObject({ error: 'ErrImagePull' });
    clock.advance(10_000);
    expect(await manager.ensureImage({ image: 'r.io/app:v1', podUID: 'p1' })).toMatchObject({ error: 'ImagePullBackOff' });
    clock.advance(10_000);
    images.failAll = false;
    expect(await manager.ensureImage({ image: 'r.io/app:v1', podUID: 'p1' })).toMatchObject({ imageRef: expect.any(String) });
    expect(images.pulls).toHaveLength(4);
  });
});

describe('ensureImage: credentials', () => {
  it('tries the pod secrets in order and records the one that worked', async () => {
    const { images, manager, rootDir } = setup();
    const result = await manager.ensureImage({ image: 'private.io/app:v1', pullSecrets: [secret('old', 'wrong'), secret('new', 'right')] });
    expect(result).toMatchObject({ imageRef: expect.any(String) });
    expect(images.pulls.map((p) => p.auth)).toEqual([
      { username: 'robot', password: 'wrong', serverAddress: 'private.io' },
      { username: 'robot', password: 'right', serverAddress: 'private.io' },
    ]);
    const record = manager.records.getPulled((result as { imageRef: string }).imageRef)!;
    expect(record.lastUpdatedTime).toBe('2026-12-01T10:00:00Z');
    expect(record.credentialMapping['private.io/app']!.kubernetesSecrets).toMatchObject([{ uid: 'uid-new', namespace: 'team', name: 'new' }]);
    // The intent is gone after the pull.
    expect(readdirSync(join(rootDir, 'image_manager', 'pulling'))).toEqual([]);
  });

  it('all secrets failing is one aggregated ErrImagePull', async () => {
    const { manager } = setup();
    const result = await manager.ensureImage({ image: 'private.io/app:v1', pullSecrets: [secret('a', 'x'), secret('b', 'y')] });
    expect(result).toMatchObject({ error: 'ErrImagePull' });
    expect((result as { message: string }).message).toMatch(
      /^Failed to pull image "private.io\/app:v1": \[rpc error: .*401 Unauthorized, rpc error: .*401 Unauthorized\]$/,
    );
  });

  it('NeverVerifyPreloadedImages: a preloaded image is free, a pulled one needs the pod to show credentials', async () => {
    const { images, manager } = setup();
    images.preload('private.io/preloaded:v1');
    expect(await manager.ensureImage({ image: 'private.io/preloaded:v1' })).toMatchObject({ message: expect.stringContaining('already present') });

    const first = await manager.ensureImage({ image: 'private.io/app:v1', pullSecrets: [secret('s', 'right')] });
    expect(first).toMatchObject({ imageRef: expect.any(String) });
    images.pulls.length = 0;
    // Same secret: no pull.
    expect(await manager.ensureImage({ image: 'private.io/app:v1', pullSecrets: [secret('s', 'right')] })).toMatchObject({
      message: expect.stringContaining('already present'),
    });
    // Another secret with the same credentials: no pull, and remembered.
    expect(await manager.ensureImage({ image: 'private.io/app:v1', pullSecrets: [secret('copy', 'right')] })).toMatchObject({
      message: expect.stringContaining('already present'),
    });
    // A pod without credentials must pull, and the registry refuses it.
    expect(await manager.ensureImage({ image: 'private.io/app:v1', podUID: 'intruder' })).toMatchObject({ error: 'ErrImagePull' });
    // With Never, it cannot pull: ErrImageNeverPull although the image is there.
    expect(await manager.ensureImage({ image: 'private.io/app:v1', pullPolicy: 'Never', podUID: 'intruder2' })).toMatchObject({ error: 'ErrImageNeverPull' });
    expect(images.pulls.map((p) => p.auth)).toEqual([undefined]);
    const ref = (first as { imageRef: string }).imageRef;
    expect(manager.records.getPulled(ref)!.credentialMapping['private.io/app']!.kubernetesSecrets!.map((s) => s.name)).toEqual(['s', 'copy']);
  });

  it('an anonymous pull makes the image free for every pod of the node', async () => {
    const { images, manager } = setup({ policy: 'AlwaysVerify' });
    await manager.ensureImage({ image: 'public.io/app:v1' });
    expect(await manager.ensureImage({ image: 'public.io/app:v1', podUID: 'other' })).toMatchObject({ message: expect.stringContaining('already present') });
    expect(images.pulls).toHaveLength(1);
  });

  it('AlwaysVerify checks preloaded images; NeverVerify never does; the allowlist frees listed images', async () => {
    const always = setup({ policy: 'AlwaysVerify' });
    always.images.preload('private.io/base:v1');
    expect(await always.manager.ensureImage({ image: 'private.io/base:v1' })).toMatchObject({ error: 'ErrImagePull' });

    const never = setup({ policy: 'NeverVerify' });
    await never.manager.ensureImage({ image: 'private.io/app:v1', pullSecrets: [secret('s', 'right')] });
    expect(await never.manager.ensureImage({ image: 'private.io/app:v1' })).toMatchObject({ message: expect.stringContaining('already present') });

    const listed = setup({ policy: 'NeverVerifyAllowlistedImages', allowlist: ['private.io/base', 'private.io/tools/*'] });
    for (const image of ['private.io/base:v1', 'private.io/tools/jq:1', 'private.io/other:v1']) listed.images.preload(image);
    expect(await listed.manager.ensureImage({ image: 'private.io/base:v1' })).toMatchObject({ imageRef: expect.any(String) });
    expect(await listed.manager.ensureImage({ image: 'private.io/tools/jq:1' })).toMatchObject({ imageRef: expect.any(String) });
    expect(await listed.manager.ensureImage({ image: 'private.io/other:v1' })).toMatchObject({ error: 'ErrImagePull' });
    expect(() => setup({ policy: 'NeverVerifyAllowlistedImages', allowlist: ['private.io/*/x'] })).toThrow(
      "not a valid wildcard pattern, only patterns ending with '/*' are allowed: private.io/*/x",
    );
  });

  it('uses the node credential providers after the pod secrets, recording node-wide access', async () => {
    plugins.answering('node', v1Response({ 'private.io': { username: 'node', password: 'right' } }));
    const providers = createCredentialProviders({
      config: {
        apiVersion: 'kubelet.config.k8s.io/v1',
        kind: 'CredentialProviderConfig',
        providers: [{ name: 'node', matchImages: ['private.io'], defaultCacheDuration: '1m', apiVersion: 'credentialprovider.kubelet.k8s.io/v1' }],
      },
      binDir: plugins.dir,
    });
    const { images, manager } = setup({ credentialProviders: providers });
    const result = await manager.ensureImage({ image: 'private.io/app:v1', pullSecrets: [secret('stale', 'wrong')] });
    expect(images.pulls.map((p) => p.auth?.username + ':' + p.auth?.password)).toEqual(['robot:wrong', 'node:right']);
    expect(manager.records.getPulled((result as { imageRef: string }).imageRef)!.credentialMapping).toEqual({ 'private.io/app': { nodePodsAccessible: true } });
  });
});

describe('secret rotation and garbage collection', () => {
  it('accepts the same secret with rotated credentials, recording the new hash', async () => {
    const { images, manager } = setup({ policy: 'AlwaysVerify' });
    const result = await manager.ensureImage({ image: 'private.io/app:v1', pullSecrets: [secret('s', 'right')] });
    const ref = (result as { imageRef: string }).imageRef;
    const before = manager.records.getPulled(ref)!.credentialMapping['private.io/app']!.kubernetesSecrets![0]!.credentialHash;
    images.pulls.length = 0;
    expect(await manager.ensureImage({ image: 'private.io/app:v1', pullSecrets: [secret('s', 'rotated')] })).toMatchObject({
      message: expect.stringContaining('already present'),
    });
    expect(images.pulls).toEqual([]);
    const after = manager.records.getPulled(ref)!.credentialMapping['private.io/app']!.kubernetesSecrets!;
    expect(after).toHaveLength(1);
    expect(after[0]!.credentialHash).not.toBe(before);
  });

  it('pruneUnknownRecords deletes old records of images no longer present', async () => {
    const { clock, manager } = setup();
    await manager.ensureImage({ image: 'public.io/a:v1' });
    await manager.ensureImage({ image: 'public.io/b:v1' });
    const refs = manager.records
      .listPulled()
      .records.map((r) => r.imageRef)
      .sort();
    expect(refs).toHaveLength(2);
    manager.pruneUnknownRecords([refs[0]!], clock.now() - 1000);
    expect(manager.records.listPulled().records).toHaveLength(2); // updated after `until`
    clock.advance(5000);
    manager.pruneUnknownRecords([refs[0]!], clock.now());
    expect(manager.records.listPulled().records.map((r) => r.imageRef)).toEqual([refs[0]]);
  });
});

describe('pull records across restarts and tampering', () => {
  it('turns a leftover intent of an image the runtime has into a record without credentials', async () => {
    const first = setup();
    first.images.preload('private.io/app:v1', 'sha256:app');
    first.manager.records.writeIntent('private.io/app:v1');
    const manager = createImagePullManager({ rootDir: first.rootDir, images: first.images, clock: first.clock });
    // Pulled by the node agent with unknown credentials: a pod must show its own.
    expect(await manager.ensureImage({ image: 'private.io/app:v1' })).toMatchObject({ error: 'ErrImagePull' });
    expect(manager.records.getPulled('sha256:app')).toMatchObject({ imageRef: 'sha256:app' });
    expect(manager.records.intentExists('private.io/app:v1')).toBe(false);
  });

  it('a tampered record means the pod must pull again', async () => {
    const { images, manager, warnings } = setup({ policy: 'AlwaysVerify' });
    const result = await manager.ensureImage({ image: 'private.io/app:v1', pullSecrets: [secret('s', 'right')] });
    const ref = (result as { imageRef: string }).imageRef;
    writeFileSync(
      join(manager.records.pulledDir, recordFileName(ref)),
      '{"kind":"ImagePulledRecord","apiVersion":"nodeagent.config.k8s.io/v1beta1","imageRef":',
    );
    images.pulls.length = 0;
    expect(await manager.ensureImage({ image: 'private.io/app:v1', pullSecrets: [secret('s', 'right')] })).toMatchObject({
      message: expect.stringContaining('Successfully pulled'),
    });
    expect(images.pulls).toHaveLength(1);
    expect(warnings.some((w) => w.startsWith('Unable to access cache records about image pulls'))).toBe(true);
    // The record is rewritten and valid again.
    expect(manager.records.getPulled(ref)?.credentialMapping['private.io/app']?.kubernetesSecrets).toHaveLength(1);
  });

  it('a record forged to grant node-wide access under another imageRef does not apply', async () => {
    const { images, manager } = setup({ policy: 'AlwaysVerify' });
    images.preload('private.io/app:v1', 'sha256:real');
    manager.records.writePulled({
      lastUpdatedTime: '2026-12-01T10:00:00Z',
      imageRef: 'sha256:forged',
      credentialMapping: { 'private.io/app': { nodePodsAccessible: true } },
    });
    const forged = join(manager.records.pulledDir, recordFileName('sha256:forged'));
    writeFileSync(join(manager.records.pulledDir, recordFileName('sha256:real')), (await import('node:fs')).readFileSync(forged));
    expect(await manager.ensureImage({ image: 'private.io/app:v1' })).toMatchObject({ error: 'ErrImagePull' });
  });
});
