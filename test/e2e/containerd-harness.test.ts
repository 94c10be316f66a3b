/**
 * The containerd harness (test/support/containerd/) itself: its tar writer read back by GNU tar, and a
 * real containerd started, proven with containerd's own client (ctr), and stopped without leftovers.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, readlinkSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { alive, descendants, mountsUnder, ownCgroupDirs, shimPids } from '../support/containerd/cleanup.js';
import { containerdConfig, registryHostsToml } from '../support/containerd/config.js';
import { acquireLock, LOCK_POLL_MS } from '../support/debs.js';
import { pluginStatus, startContainerd, type RunningContainerd } from '../support/containerd/start.js';
import { buildImageSet, MEDIA_TYPES, ociLayoutArchive, readOciLayoutArchive, type ImageSet } from '../support/containerd/image.js';
import { startTestRegistry, type TestRegistry } from '../support/containerd/registry.js';
import { writeTar } from '../support/containerd/tar.js';

describe('writeTar', () => {
  const listing = (archive: Buffer) => {
    const dir = mkdtempSync(join(tmpdir(), 'memkube-tar-'));
    try {
      writeFileSync(join(dir, 'a.tar'), archive);
      return execFileSync('tar', ['--list', '--verbose', '--numeric-owner', '--file', join(dir, 'a.tar')], { encoding: 'utf8' });
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  };

  it('writes directories, files and symlinks GNU tar reads back with their modes and contents', () => {
    const archive = writeTar([
      { type: 'directory', name: 'bin' },
      { type: 'file', name: 'bin/tool', data: 'x'.repeat(700), mode: 0o755 },
      { type: 'symlink', name: 'bin/sh', target: 'tool' },
      { type: 'directory', name: 'tmp/', mode: 0o1777 },
    ]);
    expect(archive.length % 512).toBe(0);
    const lines = listing(archive).trim().split('\n');
    expect(lines[0]).toMatch(/^drwxr-xr-x 0\/0 +0 1970-01-01 00:00 bin\/$/);
    expect(lines[1]).toMatch(/^-rwxr-xr-x 0\/0 +700 1970-01-01 00:00 bin\/tool$/);
    expect(lines[2]).toMatch(/^lrwxrwxrwx 0\/0 +0 1970-01-01 00:00 bin\/sh -> tool$/);
    expect(lines[3]).toMatch(/^drwxrwxrwt 0\/0 +0 1970-01-01 00:00 tmp\/$/);
  });

  it('gives the same bytes for the same entries, so image digests are stable', () => {
    const entries = [{ type: 'file' as const, name: 'f', data: 'same' }];
    expect(writeTar(entries).equals(writeTar(entries))).toBe(true);
  });

  it('refuses names that leave the archive or do not fit the header', () => {
    expect(() => writeTar([{ type: 'file', name: '/etc/passwd', data: '' }])).toThrow(/must be relative/);
    expect(() => writeTar([{ type: 'file', name: 'a/../../b', data: '' }])).toThrow(/stay inside/);
    expect(() => writeTar([{ type: 'file', name: 'n'.repeat(101), data: '' }])).toThrow(/longer than 100 bytes/);
    expect(() => writeTar([{ type: 'symlink', name: 'l', target: 't'.repeat(101) }])).toThrow(/link target .* longer than 100 bytes/);
  });
});

describe('test images and their registry', () => {
  // Any static executable stands in for busybox in these tests: only its bytes and `--list` matter.
  let set: ImageSet;
  let registry: TestRegistry;
  let dir: string;
  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'memkube-images-'));
    const fakeBusybox = join(dir, 'busybox');
    writeFileSync(fakeBusybox, '#!/bin/sh\nprintf "sh\\nsleep\\necho\\n"\n', { mode: 0o755 });
    set = buildImageSet(fakeBusybox, [
      { name: 'memkube.test/busybox:1', cmd: ['sh'] },
      { name: 'memkube.test/tools/pause:2', entrypoint: ['/bin/sleep', '1'] },
    ]);
    registry = await startTestRegistry(set, 'memkube.test');
  });
  afterAll(async () => {
    await registry?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  const get = (path: string, method = 'GET') => fetch(`${registry.url}${path}`, { method });

  it('builds OCI manifests on one layer holding /bin/busybox and a link per applet', () => {
    const manifest = JSON.parse(String(set.manifests.get('memkube.test/busybox:1')!.data));
    expect(manifest.mediaType).toBe(MEDIA_TYPES.manifest);
    expect(manifest.layers).toHaveLength(1);
    const layer = set.blobs.get(manifest.layers[0].digest)!;
    expect(layer.mediaType).toBe(MEDIA_TYPES.layer);
    const config = JSON.parse(String(set.blobs.get(manifest.config.digest)!.data));
    expect(config.rootfs.diff_ids).toEqual([layer.digest]);
    expect(config.config.Cmd).toEqual(['sh']);
    expect(config.os).toBe('linux');
    const paused = JSON.parse(String(set.manifests.get('memkube.test/tools/pause:2')!.data));
    expect(paused.layers[0].digest).toBe(layer.digest);
  });

  it('reads back from its OCI layout archive the same names and bytes', () => {
    const back = readOciLayoutArchive(ociLayoutArchive(set));
    expect([...back.manifests.keys()].sort()).toEqual(['memkube.test/busybox:1', 'memkube.test/tools/pause:2']);
    for (const [digest, blob] of set.blobs) expect(back.blobs.get(digest)?.data.equals(blob.data)).toBe(true);
  });

  it('serves manifests by tag and digest, and blobs, with their digests and media types', async () => {
    expect((await get('/v2/')).status).toBe(200);
    const manifest = set.manifests.get('memkube.test/tools/pause:2')!;
    for (const reference of ['2', manifest.digest]) {
      const res = await get(`/v2/tools/pause/manifests/${reference}`);
      expect(res.status).toBe(200);
      expect(res.headers.get('content-type')).toBe(MEDIA_TYPES.manifest);
      expect(res.headers.get('docker-content-digest')).toBe(manifest.digest);
      expect(Buffer.from(await res.arrayBuffer()).equals(manifest.data)).toBe(true);
    }
    const head = await get('/v2/tools/pause/manifests/2', 'HEAD');
    expect(head.headers.get('content-length')).toBe(String(manifest.data.length));
    const layerDigest = JSON.parse(String(manifest.data)).layers[0].digest;
    const blob = await get(`/v2/tools/pause/blobs/${layerDigest}`);
    expect(blob.status).toBe(200);
    expect(blob.headers.get('docker-content-digest')).toBe(layerDigest);
  });

  it('answers unknown names, tags, blobs and pushes with the distribution API errors', async () => {
    const unknownTag = await get('/v2/busybox/manifests/9');
    expect(unknownTag.status).toBe(404);
    expect(await unknownTag.json()).toEqual({ errors: [{ code: 'MANIFEST_UNKNOWN', message: 'manifest unknown: busybox:9' }] });
    // A blob of another repository is not this repository's.
    const pauseConfig = JSON.parse(String(set.manifests.get('memkube.test/tools/pause:2')!.data)).config.digest;
    expect((await get(`/v2/busybox/blobs/${pauseConfig}`)).status).toBe(404);
    expect((await get('/v2/busybox/blobs/sha256:' + '0'.repeat(64))).status).toBe(404);
    expect((await get('/v2/busybox/manifests/1', 'PUT')).status).toBe(405);
    expect(registry.requests).toContain('GET /v2/busybox/manifests/9');
  });
});

describe('acquireLock (two test files fetching the packages at once)', () => {
  let dir: string;
  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'memkube-lock-'));
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('makes a second taker wait until the first releases', async () => {
    const lock = join(dir, 'held.lock');
    const releaseFirst = await acquireLock(lock);
    expect(readFileSync(join(lock, 'pid'), 'utf8')).toBe(String(process.pid));
    let second = false;
    const secondTaken = acquireLock(lock).then((release) => {
      second = true;
      return release;
    });
    // Two of the waiter's polls: still held, so still waiting.
    await new Promise((resolve) => setTimeout(resolve, 2 * LOCK_POLL_MS));
    expect(second).toBe(false);
    releaseFirst();
    (await secondTaken)();
    expect(second).toBe(true);
    expect(existsSync(lock)).toBe(false);
  });

  it('takes over a lock whose owner died', async () => {
    const lock = join(dir, 'stale.lock');
    const dead = spawnSync('true').pid!; // exited and reaped: no process has this PID now
    mkdirSync(lock);
    writeFileSync(join(lock, 'pid'), String(dead));
    const release = await acquireLock(lock);
    expect(readFileSync(join(lock, 'pid'), 'utf8')).toBe(String(process.pid));
    release();
  });
});

describe('containerdConfig', () => {
  it('writes paths as TOML strings, escaping what TOML needs escaped', () => {
    const toml = containerdConfig({
      root: '/tmp/a "quoted" dir\\x',
      state: '/s',
      socket: '/s.sock',
      runc: '/runc',
      sandboxImage: 'memkube.test/pause:1',
      snapshotter: 'native',
      cniConfDir: '/c',
      cniBinDir: '/b',
      optDir: '/o',
      registryConfigDir: '/certs.d',
    });
    expect(toml).toContain('root = "/tmp/a \\"quoted\\" dir\\\\x"');
    expect(toml).toContain('snapshotter = "native"');
    expect(toml).toContain('Root = "/s/runc"');
    expect(toml).toContain('config_path = "/certs.d"');
  });

  it('sends a registry host to the test registry over plain HTTP', () => {
    expect(registryHostsToml('http://127.0.0.1:5000')).toBe(
      'server = "http://127.0.0.1:5000"\n\n[host."http://127.0.0.1:5000"]\n  capabilities = ["pull", "resolve"]\n',
    );
  });
});

describe('pluginStatus', () => {
  it("reads ctr plugins ls's table by plugin type and id", () => {
    const table = [
      'TYPE                            ID                       PLATFORMS      STATUS    ',
      'io.containerd.snapshotter.v1    overlayfs                linux/amd64    ok        ',
      'io.containerd.content.v1        content                  -              ok        ',
      'io.containerd.grpc.v1           cri                      linux/amd64    error     ',
    ].join('\n');
    const status = pluginStatus(table);
    expect(status.get('io.containerd.snapshotter.v1.overlayfs')).toBe('ok');
    expect(status.get('io.containerd.content.v1.content')).toBe('ok');
    expect(status.get('io.containerd.grpc.v1.cri')).toBe('error');
  });
});

describe('startContainerd', () => {
  let containerd: RunningContainerd;

  beforeAll(async () => {
    containerd = await startContainerd();
  }, 300_000);
  afterAll(() => containerd?.stop());

  it('runs Debian containerd 1.6 with its CRI plugin loaded', async () => {
    expect(await containerd.ctr('version')).toMatch(/Server:\s+Version:\s+1\.6\./);
    const plugins = pluginStatus(await containerd.ctr('plugins', 'ls'));
    expect(plugins.get('io.containerd.grpc.v1.cri')).toBe('ok');
    expect(plugins.get(`io.containerd.snapshotter.v1.${containerd.snapshotter}`)).toBe('ok');
    expect(containerd.endpoint).toBe(`unix://${containerd.socket}`);
  });

  it('has the busybox and sandbox images in namespace k8s.io, for this machine', async () => {
    const images = await containerd.ctr('images', 'ls');
    const arch = { x64: 'amd64', arm64: 'arm64' }[process.arch as string] ?? process.arch;
    for (const image of [containerd.images.busybox, containerd.images.pause]) {
      expect(images).toMatch(new RegExp(`^${image.replace(/[.:/]/g, '\\$&')}\\s.*linux/${arch}`, 'm'));
    }
  });

  it('runs a busybox container with runc (ctr run, no cgroup); stop() kills containerd, its shims and containers, unmounts and removes its directory', async () => {
    // A container left running: stop() must not leave its shim, its process or its rootfs mount behind.
    await containerd.ctr(
      'run',
      '--detach',
      '--cgroup',
      '',
      '--runc-binary',
      containerd.binaries.runc,
      '--runc-root',
      join(containerd.state, 'runc'),
      '--fifo-dir',
      join(containerd.dir, 'fifo'),
      containerd.images.busybox,
      'left-running',
      'sleep',
      '1000',
    );
    const shims = shimPids(containerd.socket);
    expect(shims).toHaveLength(1);
    const containerProcesses = descendants(shims);
    // The container's process runs busybox's sleep, inside the container's root file system.
    const sleeper = containerProcesses.find((pid) => readFileSync(`/proc/${pid}/cmdline`, 'utf8') === 'sleep\u00001000\u0000');
    expect(sleeper).toBeDefined();
    expect(readlinkSync(`/proc/${sleeper}/exe`)).toBe('/bin/busybox');
    expect(readFileSync(`/proc/${sleeper}/root/bin/busybox`).equals(readFileSync(containerd.binaries.busybox))).toBe(true);
    expect(readFileSync(`/proc/${sleeper}/root/etc/passwd`, 'utf8')).toMatch(/^root:x:0:0:/);
    expect(mountsUnder(containerd.dir).length).toBeGreaterThan(0);

    await containerd.stop();

    expect(alive(containerd.pid)).toBe(false);
    expect(shims.filter(alive)).toEqual([]);
    expect(containerProcesses.filter(alive)).toEqual([]);
    expect(mountsUnder(containerd.dir)).toEqual([]);
    expect(existsSync(containerd.dir)).toBe(false);
    // runc made the container a cgroup in every hierarchy even without a cgroupsPath; it went with the task.
    expect(ownCgroupDirs().length).toBeGreaterThan(0);
    expect(ownCgroupDirs().filter((dir) => existsSync(join(dir, 'left-running')))).toEqual([]);
    await containerd.stop(); // idempotent
  });
});
