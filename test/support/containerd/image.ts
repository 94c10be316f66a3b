/**
 * Builds, without docker, the two images the containerd harness imports: a busybox image for test
 * containers and a sandbox ("pause") image for the CRI plugin's `sandbox_image`, which cannot be
 * pulled from registry.k8s.io here. Both share one uncompressed layer (a static busybox and its
 * applet links) and are written as one docker-archive (`docker save` layout: manifest.json naming
 * each config, its layers and its RepoTags), which `ctr images import` reads in containerd 1.6.
 */
import { createHash } from 'node:crypto';
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { writeTar, type TarEntry } from './tar.js';

/** The names the harness gives its images. */
export const TEST_IMAGES = {
  /** busybox with `/bin/sh` and every applet; default command `sh`. */
  busybox: 'memkube.test/busybox:1',
  /** The sandbox image: busybox sleeping for ever, since a pod's sandbox has only to stay alive. */
  pause: 'memkube.test/pause:1',
} as const;

/** What one image of the archive runs. */
export interface ImageSpec {
  /** The image reference written into RepoTags, e.g. `memkube.test/busybox:1`. */
  name: string;
  entrypoint?: string[];
  cmd?: string[];
}

/** The OCI/docker names of Node's `process.arch`, for the image config's `architecture`. */
const ARCHITECTURES: Record<string, string> = { x64: 'amd64', arm64: 'arm64', arm: 'arm', ppc64: 'ppc64le', s390x: 's390x', riscv64: 'riscv64' };

/** The applets a static busybox provides, asked from the binary itself (`busybox --list`). */
export function busyboxApplets(busybox: string): string[] {
  const applets = execFileSync(busybox, ['--list'], { encoding: 'utf8' })
    .split('\n')
    .map((line) => line.trim())
    .filter((line) => /^[a-z0-9_.[-]+$/i.test(line) && line !== 'busybox');
  if (!applets.includes('sh')) throw new Error(`${busybox} --list names no sh applet: is it busybox?`);
  return applets;
}

/** The root filesystem layer: /bin/busybox, a link per applet in /bin, a world-writable /tmp, root's passwd/group entries. */
export function busyboxLayer(busybox: string): Buffer {
  const entries: TarEntry[] = [
    { type: 'directory', name: 'bin' },
    { type: 'file', name: 'bin/busybox', data: readFileSync(busybox), mode: 0o755 },
    ...busyboxApplets(busybox).map((applet): TarEntry => ({ type: 'symlink', name: `bin/${applet}`, target: 'busybox' })),
    { type: 'directory', name: 'etc' },
    { type: 'file', name: 'etc/passwd', data: 'root:x:0:0:root:/root:/bin/sh\nnobody:x:65534:65534:nobody:/nonexistent:/bin/false\n' },
    { type: 'file', name: 'etc/group', data: 'root:x:0:\nnogroup:x:65534:\n' },
    { type: 'directory', name: 'root', mode: 0o700 },
    { type: 'directory', name: 'tmp', mode: 0o1777 },
  ];
  return writeTar(entries);
}

/**
 * One docker-archive holding every image of `specs` on the busybox layer. Config and layer files are
 * named by their sha256, as `docker save` names them.
 */
export function buildImageArchive(busybox: string, specs: readonly ImageSpec[]): Buffer {
  const architecture = ARCHITECTURES[process.arch];
  if (!architecture) throw new Error(`no image architecture known for Node's process.arch ${process.arch}`);
  const layer = busyboxLayer(busybox);
  const layerDigest = sha256(layer);
  const entries: TarEntry[] = [
    { type: 'directory', name: layerDigest },
    { type: 'file', name: `${layerDigest}/layer.tar`, data: layer },
  ];
  const manifest = specs.map((spec) => {
    const config = Buffer.from(
      JSON.stringify({
        architecture,
        os: 'linux',
        created: '1970-01-01T00:00:00Z',
        config: {
          Env: ['PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin'],
          WorkingDir: '/',
          ...(spec.entrypoint ? { Entrypoint: spec.entrypoint } : {}),
          ...(spec.cmd ? { Cmd: spec.cmd } : {}),
        },
        rootfs: { type: 'layers', diff_ids: [`sha256:${layerDigest}`] },
        history: [{ created: '1970-01-01T00:00:00Z', created_by: 'memkube test harness: static busybox' }],
      }),
    );
    const configFile = `${sha256(config)}.json`;
    entries.push({ type: 'file', name: configFile, data: config });
    return { Config: configFile, RepoTags: [spec.name], Layers: [`${layerDigest}/layer.tar`] };
  });
  entries.push({ type: 'file', name: 'manifest.json', data: JSON.stringify(manifest) });
  return writeTar(entries);
}

/** The busybox and pause images of {@link TEST_IMAGES} as one archive. */
export function buildTestImages(busybox: string): Buffer {
  return buildImageArchive(busybox, [
    { name: TEST_IMAGES.busybox, cmd: ['sh'] },
    // 2147483647 s (about 68 years): the largest sleep every busybox accepts.
    { name: TEST_IMAGES.pause, entrypoint: ['/bin/sleep', '2147483647'] },
  ]);
}

/**
 * The path of the {@link buildTestImages} archive cached in `cacheDir`, built on first use. Its name
 * carries a digest of the busybox binary and of this file and the tar writer, so that a change to
 * either builds it anew; it is written by rename, so that a concurrent reader never sees half of it.
 */
export function cachedTestImages(busybox: string, cacheDir: string): string {
  const key = createHash('sha256')
    .update(readFileSync(busybox))
    .update(readFileSync(new URL('./image.ts', import.meta.url)))
    .update(readFileSync(new URL('./tar.ts', import.meta.url)))
    .digest('hex')
    .slice(0, 16);
  const file = join(cacheDir, `test-images-${key}.tar`);
  if (!existsSync(file)) {
    const partial = `${file}.${process.pid}.tmp`;
    writeFileSync(partial, buildTestImages(busybox));
    renameSync(partial, file);
  }
  return file;
}

function sha256(data: Uint8Array): string {
  return createHash('sha256').update(data).digest('hex');
}
