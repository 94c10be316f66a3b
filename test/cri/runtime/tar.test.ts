import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { readTar, writeTar } from '../../../src/cri/runtime/tar.js';

describe('ustar writer', () => {
  it('writes archives that read back, padded to blocks with two zero blocks at the end', () => {
    const data = Buffer.from('x'.repeat(700));
    const archive = writeTar([
      { name: 'dir/', mode: 0o700, mtime: 1_700_000_000 },
      { name: 'dir/file.txt', mode: 0o600, mtime: 1_700_000_000, data },
    ]);
    expect(archive.length).toBe(512 + 512 + 1024 + 1024);
    const members = readTar(archive);
    expect(members.map((m) => [m.name, m.type, m.mode, m.mtime])).toEqual([
      ['dir/', 'directory', 0o700, 1_700_000_000],
      ['dir/file.txt', 'file', 0o600, 1_700_000_000],
    ]);
    expect(members[1]!.data.equals(data)).toBe(true);
  });

  it('stores names over 100 bytes in the prefix field', () => {
    const name = `${'a'.repeat(80)}/${'b'.repeat(90)}.img`;
    const [member] = readTar(writeTar([{ name, mode: 0o600, mtime: 0, data: Buffer.from('z') }]));
    expect(member!.name).toBe(name);
    expect(() => writeTar([{ name: 'c'.repeat(120), mode: 0o600, mtime: 0 }])).toThrow(/does not fit a ustar header/);
  });

  it('is read by the system tar', () => {
    const dir = mkdtempSync(join(tmpdir(), 'memkube-tar-'));
    try {
      const file = join(dir, 'a.tar');
      writeFileSync(
        file,
        writeTar([
          { name: 'checkpoint/', mode: 0o700, mtime: 0 },
          { name: 'checkpoint/inventory.img', mode: 0o600, mtime: 0, data: Buffer.from('hi') },
        ]),
      );
      const listing = execFileSync('tar', ['-tvf', file], { encoding: 'utf8' });
      expect(listing).toMatch(/^drwx------ root\/root\s+0 .* checkpoint\/$/m);
      expect(listing).toMatch(/^-rw------- root\/root\s+2 .* checkpoint\/inventory\.img$/m);
      execFileSync('tar', ['-xf', file, '-C', dir]);
      expect(readFileSync(join(dir, 'checkpoint/inventory.img'), 'utf8')).toBe('hi');
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('rejects a corrupted header and a member running past the end', () => {
    const archive = writeTar([{ name: 'f', mode: 0o600, mtime: 0, data: Buffer.alloc(600) }]);
    const corrupted = Buffer.from(archive);
    corrupted[0] = 'g'.charCodeAt(0);
    expect(() => readTar(corrupted)).toThrow(/bad header checksum/);
    expect(() => readTar(archive.subarray(0, 700))).toThrow(/runs past the end/);
  });
});
