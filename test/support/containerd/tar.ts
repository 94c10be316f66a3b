/**
 * A minimal ustar (POSIX.1-1988) writer: directories, regular files and symbolic links, which is all
 * an image layer and a docker-archive need. Names longer than the 100-byte name field are refused
 * rather than split into the prefix field, since nothing here needs them.
 */

/** One member of a tar archive. */
export type TarEntry =
  | { type: 'directory'; name: string; mode?: number }
  | { type: 'file'; name: string; data: Uint8Array | string; mode?: number }
  | { type: 'symlink'; name: string; target: string };

const BLOCK = 512;
const NAME_FIELD = 100;

/** Writes `entries`, in order, as one tar archive ending in the two zero blocks tar readers expect. */
export function writeTar(entries: readonly TarEntry[]): Buffer {
  const parts: Buffer[] = [];
  for (const entry of entries) {
    const data = entry.type === 'file' ? Buffer.from(entry.data) : Buffer.alloc(0);
    parts.push(header(entry, data.length));
    if (data.length > 0) {
      parts.push(data, Buffer.alloc((BLOCK - (data.length % BLOCK)) % BLOCK));
    }
  }
  parts.push(Buffer.alloc(BLOCK * 2));
  return Buffer.concat(parts);
}

function header(entry: TarEntry, size: number): Buffer {
  const name = entry.type === 'directory' && !entry.name.endsWith('/') ? `${entry.name}/` : entry.name;
  if (name.length === 0 || name.startsWith('/') || name.split('/').includes('..')) {
    throw new Error(`tar: entry name ${JSON.stringify(entry.name)} must be relative and stay inside the archive`);
  }
  const block = Buffer.alloc(BLOCK);
  field(block, 0, NAME_FIELD, name, 'name');
  const mode = entry.type === 'symlink' ? 0o777 : (entry.mode ?? (entry.type === 'directory' ? 0o755 : 0o644));
  octal(block, 100, 8, mode);
  octal(block, 108, 8, 0); // uid: root
  octal(block, 116, 8, 0); // gid: root
  octal(block, 124, 12, size);
  octal(block, 136, 12, 0); // mtime: the epoch, so that the same inputs give the same digest
  block.write(' '.repeat(8), 148, 'latin1'); // the checksum counts its own field as spaces
  block.write(entry.type === 'file' ? '0' : entry.type === 'symlink' ? '2' : '5', 156, 'latin1');
  if (entry.type === 'symlink') field(block, 157, NAME_FIELD, entry.target, 'link target');
  block.write('ustar\u000000', 257, 'latin1');
  field(block, 265, 32, 'root', 'user name');
  field(block, 297, 32, 'root', 'group name');
  let sum = 0;
  for (const byte of block) sum += byte;
  block.write(`${sum.toString(8).padStart(6, '0')}\u0000 `, 148, 'latin1');
  return block;
}

function field(block: Buffer, offset: number, length: number, value: string, what: string): void {
  const bytes = Buffer.from(value, 'utf8');
  if (bytes.length > length) throw new Error(`tar: ${what} ${JSON.stringify(value)} is longer than ${length} bytes`);
  bytes.copy(block, offset);
}

function octal(block: Buffer, offset: number, length: number, value: number): void {
  const digits = value.toString(8);
  if (digits.length > length - 1) throw new Error(`tar: ${value} does not fit a ${length}-byte field`);
  block.write(`${digits.padStart(length - 1, '0')}\u0000`, offset, 'latin1');
}
