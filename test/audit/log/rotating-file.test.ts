/**
 * The audit log's rotation as lumberjack does it for kube-apiserver: backups named with the UTC
 * time, pruned by count and age, gzipped, the file's mode kept; and the start-up file check.
 */
import { chmodSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { afterEach, describe, expect, it } from 'vitest';
import { backupTimestamp, ensureLogFile, RotatingFile } from '../../../src/audit/log/rotating-file.js';

const MB = 1024 * 1024;
const dirs: string[] = [];
function tempDir(): string {
  const dir = mkdtempSync(join(tmpdir(), 'memkube-audit-log-'));
  dirs.push(dir);
  return dir;
}
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

/** A line of `size` bytes, newline included, made of `c`. */
const line = (c: string, size: number) => `${c.repeat(size - 1)}\n`;

/** A clock at 2026-12-02T01:02:03.004Z that moves a second on each read. */
function ticking(start = Date.UTC(2026, 11, 2, 1, 2, 3, 4)): () => number {
  let t = start - 1000;
  return () => (t += 1000);
}

describe('RotatingFile', () => {
  it('names backups <name>-<UTC time>.<ext> as lumberjack does', () => {
    expect(backupTimestamp(Date.UTC(2026, 11, 2, 1, 2, 3, 4))).toBe('2026-12-02T01-02-03.004');
  });

  it('appends to an existing file and creates a new one with mode 0600', () => {
    const dir = tempDir();
    const path = join(dir, 'audit.log');
    const file = new RotatingFile({ path });
    file.write('a\n');
    file.write('b\n');
    expect(readFileSync(path, 'utf8')).toBe('a\nb\n');
    expect(statSync(path).mode & 0o777).toBe(0o600);
  });

  it('rotates a write that would pass maxsize megabytes, keeping the old file as a backup with its mode', async () => {
    const dir = tempDir();
    const path = join(dir, 'audit.log');
    writeFileSync(path, line('0', 100));
    chmodSync(path, 0o640);
    const file = new RotatingFile({ path, maxSizeMB: 1, now: ticking() });
    file.write(line('a', 0.6 * MB));
    file.write(line('b', 0.6 * MB));
    file.write(line('c', 0.3 * MB));
    await file.close();
    expect(readdirSync(dir).sort()).toEqual(['audit-2026-12-02T01-02-03.004.log', 'audit.log']);
    expect(readFileSync(join(dir, 'audit-2026-12-02T01-02-03.004.log'), 'utf8')).toBe(line('0', 100) + line('a', 0.6 * MB));
    expect(readFileSync(path, 'utf8')).toBe(line('b', 0.6 * MB) + line('c', 0.3 * MB));
    expect(statSync(path).mode & 0o777).toBe(0o640);
  });

  it('rotates at open when the existing file and the first write reach the maximum', async () => {
    const dir = tempDir();
    const path = join(dir, 'audit');
    writeFileSync(path, line('0', MB - 10));
    const file = new RotatingFile({ path, maxSizeMB: 1, now: ticking() });
    file.write(line('a', 10));
    await file.close();
    // No extension: the time is the suffix.
    expect(readdirSync(dir).sort()).toEqual(['audit', 'audit-2026-12-02T01-02-03.004']);
    expect(readFileSync(path, 'utf8')).toBe(line('a', 10));
  });

  it('refuses a line larger than the maximum size with lumberjack words', () => {
    const file = new RotatingFile({ path: join(tempDir(), 'audit.log'), maxSizeMB: 1 });
    expect(() => file.write('x'.repeat(MB + 1))).toThrow(`write length ${MB + 1} exceeds maximum file size ${MB}`);
  });

  it('keeps only the newest maxbackup backups', async () => {
    const dir = tempDir();
    const path = join(dir, 'audit.log');
    const file = new RotatingFile({ path, maxSizeMB: 1, maxBackups: 2, now: ticking() });
    for (const c of 'abcde') file.write(line(c, 0.6 * MB));
    await file.close();
    expect(readdirSync(dir).sort()).toEqual(['audit-2026-12-02T01-02-05.004.log', 'audit-2026-12-02T01-02-06.004.log', 'audit.log']);
    expect(readFileSync(join(dir, 'audit-2026-12-02T01-02-06.004.log'), 'utf8')).toBe(line('d', 0.6 * MB));
  });

  it('gzips backups to <backup>.gz and removes the plain ones', async () => {
    const dir = tempDir();
    const path = join(dir, 'audit.log');
    const file = new RotatingFile({ path, maxSizeMB: 1, compress: true, now: ticking() });
    for (const c of 'abc') file.write(line(c, 0.6 * MB));
    await file.close();
    expect(readdirSync(dir).sort()).toEqual(['audit-2026-12-02T01-02-03.004.log.gz', 'audit-2026-12-02T01-02-04.004.log.gz', 'audit.log']);
    expect(gunzipSync(readFileSync(join(dir, 'audit-2026-12-02T01-02-03.004.log.gz'))).toString()).toBe(line('a', 0.6 * MB));
    expect(statSync(join(dir, 'audit-2026-12-02T01-02-03.004.log.gz')).mode & 0o777).toBe(0o600);
  });

  it('removes backups older than maxage days by the time in their names, and leaves other files alone', async () => {
    const dir = tempDir();
    const path = join(dir, 'audit.log');
    const now = Date.UTC(2026, 11, 10, 0, 0, 0, 0);
    writeFileSync(join(dir, 'audit-2026-12-01T00-00-00.000.log'), 'old\n');
    writeFileSync(join(dir, 'audit-2026-12-08T00-00-00.000.log.gz'), 'recent');
    writeFileSync(join(dir, 'audit-notatime.log'), 'other\n');
    writeFileSync(join(dir, 'unrelated.txt'), 'x');
    // The file's own mtime plays no part.
    utimesSync(join(dir, 'audit-2026-12-08T00-00-00.000.log.gz'), 0, 0);
    const file = new RotatingFile({ path, maxAgeDays: 3, now: () => now });
    file.write('a\n');
    await file.close();
    expect(readdirSync(dir).sort()).toEqual(['audit-2026-12-08T00-00-00.000.log.gz', 'audit-notatime.log', 'audit.log', 'unrelated.txt']);
  });

  it('fails writes after close', async () => {
    const file = new RotatingFile({ path: join(tempDir(), 'audit.log') });
    await file.close();
    expect(() => file.write('a\n')).toThrow(/file already closed/);
  });
});

describe('ensureLogFile', () => {
  it('makes the directory and an empty file with mode 0600, keeping what is there', () => {
    const dir = tempDir();
    const path = join(dir, 'sub', 'audit.log');
    ensureLogFile(path);
    expect(statSync(path).mode & 0o777).toBe(0o600);
    expect(statSync(join(dir, 'sub')).mode & 0o777).toBe(0o700);
    writeFileSync(path, 'kept\n');
    ensureLogFile(path);
    expect(readFileSync(path, 'utf8')).toBe('kept\n');
  });

  it("fails with Go's error when the path cannot be a file", () => {
    const dir = tempDir();
    writeFileSync(join(dir, 'file'), '');
    expect(() => ensureLogFile(join(dir, 'file', 'audit.log'))).toThrow(`ensureLogFile: mkdir ${join(dir, 'file')}: not a directory`);
    expect(existsSync(join(dir, 'file', 'audit.log'))).toBe(false);
    expect(() => ensureLogFile(dir)).toThrow(`ensureLogFile: open ${dir}: is a directory`);
  });
});
