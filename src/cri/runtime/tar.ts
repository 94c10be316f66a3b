/**
 * A minimal POSIX ustar writer: regular files and directories, names up to 255 bytes (split into
 * the header's prefix and name fields), sizes up to the 8 GiB the octal size field holds. Enough
 * for checkpoint archives, which `tar`, checkpointctl and CRI-O's restore code read as ustar.
 */

/** One member of an archive. */
export interface TarEntry {
  /** Path inside the archive; a directory's ends in `/` or has `type: 'directory'`. */
  readonly name: string;
  readonly type?: 'file' | 'directory';
  /** Permission bits, e.g. `0o600`. */
  readonly mode: number;
  /** Modification time, seconds since the epoch. */
  readonly mtime: number;
  readonly data?: Uint8Array;
}

const BLOCK = 512;
const MAX_SIZE = 8 ** 11 - 1;

function octal(value: number, width: number): string {
  // width - 1 digits and a NUL, as GNU tar and Go's archive/tar write numeric fields.
  return value.toString(8).padStart(width - 1, '0') + '\0';
}

function splitName(name: string): { prefix: string; name: string } {
  if (Buffer.byteLength(name) <= 100) return { prefix: '', name };
  // ustar stores long names as prefix (<= 155 bytes) + '/' + name (<= 100 bytes).
  for (let i = name.length - 1; i > 0; i--) {
    if (name[i] !== '/') continue;
    const prefix = name.slice(0, i);
    const rest = name.slice(i + 1);
    if (Buffer.byteLength(prefix) <= 155 && Buffer.byteLength(rest) <= 100 && rest !== '') return { prefix, name: rest };
  }
  throw new RangeError(`tar: the name ${JSON.stringify(name)} does not fit a ustar header`);
}

function header(entry: TarEntry, size: number): Buffer {
  const block = Buffer.alloc(BLOCK);
  const isDir = entry.type === 'directory' || entry.name.endsWith('/');
  const fullName = isDir && !entry.name.endsWith('/') ? `${entry.name}/` : entry.name;
  const { prefix, name } = splitName(fullName);
  block.write(name, 0, 100, 'utf8');
  block.write(octal(entry.mode & 0o7777, 8), 100, 'ascii');
  block.write(octal(0, 8), 108, 'ascii'); // uid: root
  block.write(octal(0, 8), 116, 'ascii'); // gid: root
  block.write(octal(size, 12), 124, 'ascii');
  block.write(octal(Math.max(0, Math.floor(entry.mtime)), 12), 136, 'ascii');
  block.write('        ', 148, 'ascii'); // checksum is computed with its field as spaces
  block.write(isDir ? '5' : '0', 156, 'ascii');
  block.write('ustar\0', 257, 'ascii');
  block.write('00', 263, 'ascii');
  block.write('root', 265, 'ascii');
  block.write('root', 297, 'ascii');
  block.write(prefix, 345, 155, 'utf8');
  let sum = 0;
  for (const byte of block) sum += byte;
  block.write(sum.toString(8).padStart(6, '0') + '\0 ', 148, 'ascii');
  return block;
}

/** The archive's bytes: each header and its data padded to 512 bytes, then two zero blocks. */
export function writeTar(entries: readonly TarEntry[]): Buffer {
  const parts: Buffer[] = [];
  for (const entry of entries) {
    const isDir = entry.type === 'directory' || entry.name.endsWith('/');
    const data = isDir ? new Uint8Array(0) : (entry.data ?? new Uint8Array(0));
    if (data.length > MAX_SIZE) throw new RangeError(`tar: ${entry.name} is larger than a ustar header can say`);
    parts.push(header(entry, data.length));
    if (data.length > 0) {
      parts.push(Buffer.from(data.buffer, data.byteOffset, data.length));
      const pad = (BLOCK - (data.length % BLOCK)) % BLOCK;
      if (pad > 0) parts.push(Buffer.alloc(pad));
    }
  }
  parts.push(Buffer.alloc(BLOCK * 2));
  return Buffer.concat(parts);
}

/**
 * One member read back by {@link readTar}.
 * @category CRI runtime
 */
export interface TarMember {
  readonly name: string;
  readonly type: 'file' | 'directory';
  readonly mode: number;
  readonly mtime: number;
  readonly data: Buffer;
}

function field(block: Buffer, start: number, length: number): string {
  const raw = block.subarray(start, start + length);
  const end = raw.indexOf(0);
  return raw.subarray(0, end === -1 ? length : end).toString('utf8');
}

/**
 * Reads a ustar archive (as `writeTar` writes one), checking each header's checksum.
 * @category CRI runtime
 */
export function readTar(archive: Buffer): TarMember[] {
  const members: TarMember[] = [];
  let offset = 0;
  while (offset + BLOCK <= archive.length) {
    const block = archive.subarray(offset, offset + BLOCK);
    if (block.every((b) => b === 0)) break;
    const stored = parseInt(field(block, 148, 8).trim(), 8);
    let sum = 0;
    for (let i = 0; i < BLOCK; i++) sum += i >= 148 && i < 156 ? 32 : block[i]!;
    if (stored !== sum) throw new Error(`tar: bad header checksum at offset ${offset}`);
    const prefix = field(block, 345, 155);
    const name = prefix ? `${prefix}/${field(block, 0, 100)}` : field(block, 0, 100);
    const size = parseInt(field(block, 124, 12), 8);
    const typeflag = field(block, 156, 1);
    if (offset + BLOCK + size > archive.length) throw new Error(`tar: ${name} runs past the end of the archive`);
    members.push({
      name,
      type: typeflag === '5' ? 'directory' : 'file',
      mode: parseInt(field(block, 100, 8), 8),
      mtime: parseInt(field(block, 136, 12), 8),
      data: Buffer.from(archive.subarray(offset + BLOCK, offset + BLOCK + size)),
    });
    offset += BLOCK + Math.ceil(size / BLOCK) * BLOCK;
  }
  return members;
}
