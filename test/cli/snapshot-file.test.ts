import { execFile } from 'node:child_process';
import { mkdtemp, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseServeArgs } from '../../src/cli/serve.js';
import { checkSaveFile, readLoadFiles, writeSnapshotFile } from '../../src/cli/snapshot-file.js';
import { loadSnapshot } from '../../src/storage/snapshot.js';
import { startServe } from '../support/serve.js';
import { testCluster } from '../support/cluster.js';
import { ConfigMapKind } from '../../src/kinds/index.js';

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'memkube-snapshot-'));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

const manifest = 'apiVersion: v1\nkind: ConfigMap\nmetadata: { name: from-manifest }\ndata: { a: b }\n';
const invalid = JSON.stringify({ apiVersion: 'memkube.io/v1', kind: 'ClusterSnapshot', revision: -1, objects: [] });

describe('--load and --save files', () => {
  it('takes --save FILE', () => {
    expect(parseServeArgs(['--save', 'state.json']).save).toBe('state.json');
    expect(parseServeArgs(['--save=state.json']).save).toBe('state.json');
    expect(() => parseServeArgs(['--save'])).toThrow('--save needs a value');
  });

  it('tells a snapshot from manifests, and refuses an invalid or second snapshot naming the file', async () => {
    const cluster = await testCluster();
    await cluster.client.resource(ConfigMapKind).create({ metadata: { name: 'saved' } });
    const snapshotFile = join(dir, 'unit.json');
    await writeSnapshotFile(snapshotFile, cluster.snapshot());
    await cluster.close();
    expect((await stat(snapshotFile)).mode & 0o777).toBe(0o600);
    const manifestFile = join(dir, 'unit.yaml');
    await writeFile(manifestFile, manifest);
    const jsonManifest = join(dir, 'unit-manifest.json');
    await writeFile(jsonManifest, JSON.stringify({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'json' } }));

    const files = await readLoadFiles([manifestFile, snapshotFile, jsonManifest]);
    expect(files.snapshot?.size).toBe(loadSnapshot(await readFile(snapshotFile, 'utf8')).size);
    expect(files.manifests.map((m) => m.file)).toEqual([manifestFile, jsonManifest]);

    await expect(readLoadFiles([snapshotFile, snapshotFile])).rejects.toThrow(`--load ${snapshotFile}: only one cluster snapshot can be loaded`);
    const bad = join(dir, 'unit-bad.json');
    await writeFile(bad, invalid);
    await expect(readLoadFiles([bad])).rejects.toThrow(`--load ${bad}: invalid cluster snapshot: revision: expected a non-negative integer`);
    await expect(checkSaveFile(join(dir, 'missing', 'x.json'))).rejects.toThrow(/^--save .*x\.json: ENOENT/);
  });
});

describe('memkube serve --load and --save', () => {
  it('saves the cluster when stopped and starts from that file again: same objects, uids and resourceVersions', async () => {
    const state = join(dir, 'state.json');
    const manifestFile = join(dir, 'fixture.yaml');
    await writeFile(manifestFile, manifest);
    const first = await startServe(join(dir, 'kubeconfig-1'), ['--load', manifestFile, '--save', state]);
    let created: { metadata: { uid: string; resourceVersion: string } };
    try {
      const res = await fetch(`${first.url}/api/v1/namespaces/default/configmaps`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ metadata: { name: 'made-over-http' }, data: { x: 'y' } }),
      });
      expect(res.status).toBe(201);
      created = (await res.json()) as typeof created;
    } finally {
      await first.stop();
    }
    expect(first.child.exitCode).toBe(0);
    const saved = loadSnapshot(await readFile(state, 'utf8'));
    expect(saved.revision).toBeGreaterThanOrEqual(Number(created.metadata.resourceVersion));

    // Started from the saved file (with the manifest no longer given), it serves the same objects.
    const second = await startServe(join(dir, 'kubeconfig-2'), ['--load', state]);
    try {
      const got = (await (await fetch(`${second.url}/api/v1/namespaces/default/configmaps/made-over-http`)).json()) as typeof created;
      expect(got).toEqual(created);
      const list = (await (await fetch(`${second.url}/api/v1/namespaces/default/configmaps`)).json()) as {
        metadata: { resourceVersion: string };
        items: { metadata: { name: string } }[];
      };
      expect(list.items.map((i) => i.metadata.name)).toEqual(['from-manifest', 'made-over-http']);
      expect(Number(list.metadata.resourceVersion)).toBeGreaterThanOrEqual(saved.revision);
    } finally {
      await second.stop();
    }
  });

  it('refuses an invalid snapshot file before serving anything, with exit code 1 and the reason', async () => {
    const bad = join(dir, 'bad-snapshot.json');
    await writeFile(bad, invalid);
    const { code, stdout, stderr } = await new Promise<{ code: number | null; stdout: string; stderr: string }>((resolve) => {
      const child = execFile(
        process.execPath,
        ['--import', 'tsx', 'src/cli/main.ts', 'serve', '--port', '0', '--load', bad],
        { timeout: 30_000 },
        (_err, out, err) => resolve({ code: child.exitCode, stdout: out, stderr: err }),
      );
    });
    expect(code).toBe(1);
    expect(stdout).not.toContain('serving on');
    expect(stderr).toContain(`memkube: --load ${bad}: invalid cluster snapshot: revision: expected a non-negative integer`);
  });
});
