import { createHash } from 'node:crypto';
import { mkdtempSync, readFileSync, readdirSync, rmSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createPullRecords, PullRecordError, recordFileName } from '../../../src/nodeagent/images/pull-records.js';

let roots: string[] = [];
afterEach(() => {
  for (const r of roots) rmSync(r, { recursive: true, force: true });
  roots = [];
});
const newRecords = () => {
  const root = mkdtempSync(join(tmpdir(), 'memkube-records-'));
  roots.push(root);
  return createPullRecords(root);
};

describe('createPullRecords', () => {
  it('lays files out as the kubelet: image_manager/{pulling,pulled}/sha256-<hex>, 0700 dirs, 0600 files', () => {
    const records = newRecords();
    expect(records.pullingDir).toMatch(/image_manager\/pulling$/);
    expect(statSync(records.pulledDir).mode & 0o777).toBe(0o700);
    records.writeIntent('docker.io/library/nginx:latest');
    const name = `sha256-${createHash('sha256').update('docker.io/library/nginx:latest').digest('hex')}`;
    expect(recordFileName('docker.io/library/nginx:latest')).toBe(name);
    expect(readdirSync(records.pullingDir)).toEqual([name]);
    expect(statSync(join(records.pullingDir, name)).mode & 0o777).toBe(0o600);
    expect(JSON.parse(readFileSync(join(records.pullingDir, name), 'utf8'))).toEqual({
      kind: 'ImagePullIntent',
      apiVersion: 'nodeagent.config.k8s.io/v1beta1',
      image: 'docker.io/library/nginx:latest',
    });
    expect(records.intentExists('docker.io/library/nginx:latest')).toBe(true);
    records.deleteIntent('docker.io/library/nginx:latest');
    records.deleteIntent('docker.io/library/nginx:latest');
    expect(records.intentExists('docker.io/library/nginx:latest')).toBe(false);
  });

  it('writes and reads pulled records, and reads the kubelet v1alpha1 files', () => {
    const records = newRecords();
    const record = {
      lastUpdatedTime: '2026-12-01T10:00:00Z',
      imageRef: 'sha256:abc',
      credentialMapping: { 'docker.io/testing/test': { kubernetesSecrets: [{ uid: 'u', namespace: 'default', name: 'pull-secret', credentialHash: 'h' }] } },
    };
    records.writePulled(record);
    expect(records.getPulled('sha256:abc')).toEqual(record);
    expect(records.getPulled('sha256:other')).toBeUndefined();
    writeFileSync(
      join(records.pulledDir, recordFileName('testimageref')),
      '{"kind":"ImagePulledRecord","apiVersion":"kubelet.config.k8s.io/v1alpha1","lastUpdatedTime":"2024-10-21T12:26:40Z","imageRef":"testimageref","credentialMapping":{"docker.io/testing/test":{"nodePodsAccessible":true}}}',
    );
    expect(records.getPulled('testimageref')?.credentialMapping).toEqual({ 'docker.io/testing/test': { nodePodsAccessible: true } });
    expect(
      records
        .listPulled()
        .records.map((r) => r.imageRef)
        .sort(),
    ).toEqual(['sha256:abc', 'testimageref']);
    records.deletePulled('sha256:abc');
    expect(records.getPulled('sha256:abc')).toBeUndefined();
  });

  it('treats a record about another imageRef (renamed file) as absent', () => {
    const records = newRecords();
    records.writePulled({ lastUpdatedTime: '2026-12-01T10:00:00Z', imageRef: 'sha256:a', credentialMapping: {} });
    const bytes = readFileSync(join(records.pulledDir, recordFileName('sha256:a')));
    writeFileSync(join(records.pulledDir, recordFileName('sha256:b')), bytes);
    expect(records.getPulled('sha256:b')).toBeUndefined();
  });

  it('refuses tampered files: bad JSON, unknown fields, wrong kind, huge, symlinks', () => {
    const records = newRecords();
    const at = (ref: string) => join(records.pulledDir, recordFileName(ref));
    writeFileSync(at('bad'), '{"kind":');
    expect(() => records.getPulled('bad')).toThrow(PullRecordError);
    writeFileSync(at('extra'), JSON.stringify({ kind: 'ImagePulledRecord', apiVersion: 'nodeagent.config.k8s.io/v1beta1', imageRef: 'extra', owner: 'me' }));
    expect(() => records.getPulled('extra')).toThrow('strict decoding error: unknown field "owner"');
    writeFileSync(at('kind'), JSON.stringify({ kind: 'ImagePullIntent', apiVersion: 'nodeagent.config.k8s.io/v1beta1', image: 'kind' }));
    expect(() => records.getPulled('kind')).toThrow('no kind "ImagePullIntent" is registered');
    writeFileSync(at('huge'), 'x'.repeat(1024 * 1024 + 1));
    expect(() => records.getPulled('huge')).toThrow('larger than 1048576 bytes');
    symlinkSync('/etc/hostname', at('link'));
    expect(() => records.getPulled('link')).toThrow(PullRecordError);
    writeFileSync(join(records.pulledDir, 'sha256-x.tmp'), 'half written');
    writeFileSync(join(records.pulledDir, 'unrelated'), 'ignored');
    const listed = records.listPulled();
    expect(listed.records).toEqual([]);
    expect(listed.errors).toHaveLength(5);
    expect(listed.errors.every((e) => e.includes('into ImagePulledRecord'))).toBe(true);
  });
});

describe('createPullRecords with null-ridden files', () => {
  it('reads nulls as absent, never crashing', () => {
    const records = newRecords();
    writeFileSync(
      join(records.pulledDir, recordFileName('n')),
      JSON.stringify({
        kind: 'ImagePulledRecord',
        apiVersion: 'nodeagent.config.k8s.io/v1beta1',
        imageRef: 'n',
        credentialMapping: { a: null, b: { kubernetesSecrets: null } },
      }),
    );
    expect(records.getPulled('n')).toEqual({ lastUpdatedTime: '', imageRef: 'n', credentialMapping: { a: {}, b: {} } });
  });
});
