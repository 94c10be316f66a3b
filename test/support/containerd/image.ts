/**
 * Builds, without docker, the two images the containerd harness imports: a busybox image for test
 * containers and a sandbox ("pause") image for the CRI plugin's `sandbox_image`, which cannot be
 * pulled from registry.k8s.io here. Both share one uncompressed layer (a static busybox and its
 * applet links) and are written as one OCI image layout archive, which `ctr images import` reads,
 * and served by the harness's registry (registry.ts), from which the CRI plugin pulls them.
 */
import { createHash } from 'node:crypto';
import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
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

/** One content-addressed blob of an image: a manifest, a config or a layer. */
export interface Blob {
  mediaType: string;
  /** `sha256:<hex>`. */
  digest: string;
  data: Buffer;
}

/** Images as an OCI image layout holds them: every blob by digest, and each image's manifest by name. */
export interface ImageSet {
  blobs: Map<string, Blob>;
  /** Image reference (e.g. `memkube.test/busybox:1`) to its manifest blob. */
  manifests: Map<string, Blob>;
}

/** OCI media types (image-spec v1.0): containerd 1.6 pulls, imports and unpacks them. */
export const MEDIA_TYPES = {
  manifest: 'application/vnd.oci.image.manifest.v1+json',
  index: 'application/vnd.oci.image.index.v1+json',
  config: 'application/vnd.oci.image.config.v1+json',
  /** An uncompressed layer: nothing to gain from gzip for 2 MB on a local socket. */
  layer: 'application/vnd.oci.image.layer.v1.tar',
} as const;

/** Every image of `specs` on the one busybox layer. */
export function buildImageSet(busybox: string, specs: readonly ImageSpec[]): ImageSet {
  const architecture = ARCHITECTURES[process.arch];
  if (!architecture) throw new Error(`no image architecture known for Node's process.arch ${process.arch}`);
  const blobs = new Map<string, Blob>();
  const add = (mediaType: string, data: Buffer): Blob => {
    const blob = { mediaType, digest: `sha256:${sha256(data)}`, data };
    blobs.set(blob.digest, blob);
    return blob;
  };
  const descriptor = (blob: Blob) => ({ mediaType: blob.mediaType, digest: blob.digest, size: blob.data.length });
  const layer = add(MEDIA_TYPES.layer, busyboxLayer(busybox));
  const manifests = new Map<string, Blob>();
  for (const spec of specs) {
    const config = add(
      MEDIA_TYPES.config,
      json({
        architecture,
        os: 'linux',
        created: '1970-01-01T00:00:00Z',
        config: {
          Env: ['PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin'],
          WorkingDir: '/',
          ...(spec.entrypoint ? { Entrypoint: spec.entrypoint } : {}),
          ...(spec.cmd ? { Cmd: spec.cmd } : {}),
        },
        // An uncompressed layer's diff ID is its own digest.
        rootfs: { type: 'layers', diff_ids: [layer.digest] },
        history: [{ created: '1970-01-01T00:00:00Z', created_by: 'memkube test harness: static busybox' }],
      }),
    );
    manifests.set(
      spec.name,
      add(MEDIA_TYPES.manifest, json({ schemaVersion: 2, mediaType: MEDIA_TYPES.manifest, config: descriptor(config), layers: [descriptor(layer)] })),
    );
  }
  return { blobs, manifests };
}

/**
 * `set` as an OCI image layout tar (oci-layout, index.json, blobs/sha256/...), the form
 * `ctr images import` reads. Each manifest in index.json carries its name twice: containerd's
 * `io.containerd.image.name`, which ctr import takes as the image name, and the OCI ref name.
 */
export function ociLayoutArchive(set: ImageSet): Buffer {
  const index = {
    schemaVersion: 2,
    mediaType: MEDIA_TYPES.index,
    manifests: [...set.manifests].map(([name, blob]) => ({
      mediaType: blob.mediaType,
      digest: blob.digest,
      size: blob.data.length,
      annotations: { 'io.containerd.image.name': name, 'org.opencontainers.image.ref.name': name.slice(name.lastIndexOf(':') + 1) },
    })),
  };
  return writeTar([
    { type: 'file', name: 'oci-layout', data: JSON.stringify({ imageLayoutVersion: '1.0.0' }) },
    { type: 'file', name: 'index.json', data: JSON.stringify(index) },
    { type: 'directory', name: 'blobs' },
    { type: 'directory', name: 'blobs/sha256' },
    ...[...set.blobs.values()].map((blob): TarEntry => ({ type: 'file', name: `blobs/sha256/${blob.digest.slice('sha256:'.length)}`, data: blob.data })),
  ]);
}

/** The busybox and pause images of {@link TEST_IMAGES}. */
export function buildTestImages(busybox: string): ImageSet {
  return buildImageSet(busybox, [
    { name: TEST_IMAGES.busybox, cmd: ['sh'] },
    // 2147483647 s (about 68 years): the largest sleep every busybox accepts.
    { name: TEST_IMAGES.pause, entrypoint: ['/bin/sleep', '2147483647'] },
  ]);
}

/** The test images, and where their OCI layout archive is cached for `ctr images import`. */
export interface CachedTestImages {
  set: ImageSet;
  archive: string;
}

/**
 * {@link buildTestImages} and its OCI layout archive, cached in `cacheDir` after the first build. The
 * archive's name carries a digest of the busybox binary, this file and the tar writer, so that a change
 * to either builds it anew; it is written by rename, so that a concurrent reader never sees half of it.
 * The set itself is read back from the archive (faster than building it again).
 */
export function cachedTestImages(busybox: string, cacheDir: string): CachedTestImages {
  const key = createHash('sha256')
    .update(readFileSync(busybox))
    .update(readFileSync(new URL('./image.ts', import.meta.url)))
    .update(readFileSync(new URL('./tar.ts', import.meta.url)))
    .digest('hex')
    .slice(0, 16);
  const archive = join(cacheDir, `test-images-${key}.tar`);
  if (existsSync(archive)) return { set: readOciLayoutArchive(readFileSync(archive)), archive };
  const set = buildTestImages(busybox);
  writeByRename(archive, ociLayoutArchive(set));
  // Archives of earlier versions of this code are of no further use.
  for (const old of readdirSync(cacheDir)) {
    if (/^test-images-[0-9a-f]+\.tar$/.test(old) && join(cacheDir, old) !== archive) rmSync(join(cacheDir, old), { force: true });
  }
  return { set, archive };
}

/** The images of an OCI layout archive written by {@link ociLayoutArchive}. */
export function readOciLayoutArchive(archive: Buffer): ImageSet {
  const files = readTar(archive);
  const index = JSON.parse(String(files.get('index.json') ?? '{}')) as {
    manifests?: { digest: string; mediaType: string; annotations?: Record<string, string> }[];
  };
  const blobs = new Map<string, Blob>();
  const blob = (digest: string, mediaType: string): Blob => {
    const data = files.get(`blobs/sha256/${digest.slice('sha256:'.length)}`);
    if (!data) throw new Error(`the image archive has no blob ${digest}`);
    const found = { mediaType, digest, data };
    blobs.set(digest, found);
    return found;
  };
  const manifests = new Map<string, Blob>();
  for (const entry of index.manifests ?? []) {
    const manifest = blob(entry.digest, entry.mediaType);
    const content = JSON.parse(String(manifest.data)) as { config: { digest: string; mediaType: string }; layers: { digest: string; mediaType: string }[] };
    for (const part of [content.config, ...content.layers]) blob(part.digest, part.mediaType);
    const name = entry.annotations?.['io.containerd.image.name'];
    if (name) manifests.set(name, manifest);
  }
  return { blobs, manifests };
}

/** The regular files of a ustar archive by name (what {@link writeTar} writes; no extensions). */
function readTar(archive: Buffer): Map<string, Buffer> {
  const files = new Map<string, Buffer>();
  for (let offset = 0; offset + 512 <= archive.length;) {
    const header = archive.subarray(offset, offset + 512);
    if (header.every((byte) => byte === 0)) break;
    const name = header.subarray(0, 100).toString('utf8').replace(/\0.*$/s, '');
    const size = parseInt(header.subarray(124, 136).toString('latin1').replace(/\0.*$/s, '').trim() || '0', 8);
    const type = String.fromCharCode(header[156]!);
    if (type === '0' || type === '\0') files.set(name, archive.subarray(offset + 512, offset + 512 + size));
    offset += 512 + Math.ceil(size / 512) * 512;
  }
  return files;
}

function writeByRename(file: string, data: string | Buffer): void {
  const partial = `${file}.${process.pid}.tmp`;
  writeFileSync(partial, data);
  renameSync(partial, file);
}

function json(value: unknown): Buffer {
  return Buffer.from(JSON.stringify(value));
}

function sha256(data: Uint8Array): string {
  return createHash('sha256').update(data).digest('hex');
}
