/**
 * Reading sysfs files defensively: only regular files (a FIFO planted in a fake tree would block a
 * read forever), at most {@link MAX_SYSFS_FILE_BYTES}, errors worded as Go's `fs` errors with the
 * path relative to the sysfs root (as `os.DirFS` reports them).
 */
import { closeSync, constants, fstatSync, openSync, readlinkSync, readSync } from 'node:fs';
import { join } from 'node:path';
import { DeviceAttributeError } from './attributes.js';

/** The largest sysfs file read; a SLIT row of 1024 nodes is about 4 KiB. */
export const MAX_SYSFS_FILE_BYTES = 64 * 1024;

const GO_ERRNO_TEXT: Readonly<Record<string, string>> = {
  ENOENT: 'no such file or directory',
  ELOOP: 'too many levels of symbolic links',
  EACCES: 'permission denied',
  EPERM: 'operation not permitted',
  ENOTDIR: 'not a directory',
  EISDIR: 'is a directory',
  EINVAL: 'invalid argument',
  ENAMETOOLONG: 'file name too long',
};

/** `op path: reason` for a Node file system error, as Go's `*fs.PathError` prints. */
export function pathErrorText(op: string, path: string, e: unknown): string {
  const code = (e as NodeJS.ErrnoException).code ?? '';
  return `${op} ${path}: ${GO_ERRNO_TEXT[code] ?? (e as Error).message}`;
}

/** The text of `<root>/<relative>`; throws a {@link DeviceAttributeError} worded as Go's. */
export function readSysfsFile(root: string, relative: string): string {
  let fd: number;
  try {
    fd = openSync(join(root, relative), constants.O_RDONLY | constants.O_NONBLOCK);
  } catch (e) {
    throw new DeviceAttributeError(pathErrorText('open', relative, e));
  }
  try {
    const stat = fstatSync(fd);
    if (stat.isDirectory()) throw new DeviceAttributeError(`read ${relative}: is a directory`);
    if (!stat.isFile()) throw new DeviceAttributeError(`read ${relative}: not a regular file`);
    const buffer = Buffer.alloc(MAX_SYSFS_FILE_BYTES + 1);
    let length = 0;
    for (;;) {
      const n = readSync(fd, buffer, length, buffer.length - length, null);
      if (n === 0) break;
      length += n;
      if (length > MAX_SYSFS_FILE_BYTES) throw new DeviceAttributeError(`read ${relative}: file is larger than ${MAX_SYSFS_FILE_BYTES} bytes`);
    }
    return buffer.subarray(0, length).toString('utf8');
  } catch (e) {
    if (e instanceof DeviceAttributeError) throw e;
    throw new DeviceAttributeError(pathErrorText('read', relative, e));
  } finally {
    closeSync(fd);
  }
}

/** The target of the symbolic link `path` (absolute); throws a Go-worded error. */
export function readLink(path: string): string {
  try {
    return readlinkSync(path);
  } catch (e) {
    throw new DeviceAttributeError(pathErrorText('readlink', path, e));
  }
}

const MIN_INT64 = -(1n << 63n);
const MAX_INT64 = (1n << 63n) - 1n;

/**
 * `text` as Go's `strconv.Atoi`: an optional sign and decimal digits, nothing else; the error is
 * `strconv.Atoi: parsing "x": invalid syntax` or `...: value out of range`. Values beyond what a
 * JavaScript number holds exactly count as out of range.
 */
export function goAtoi(text: string): number {
  if (!/^[+-]?[0-9]+$/.test(text)) throw new DeviceAttributeError(`strconv.Atoi: parsing ${JSON.stringify(text)}: invalid syntax`);
  const value = BigInt(text);
  if (value < MIN_INT64 || value > MAX_INT64 || value > BigInt(Number.MAX_SAFE_INTEGER) || value < BigInt(Number.MIN_SAFE_INTEGER)) {
    throw new DeviceAttributeError(`strconv.Atoi: parsing ${JSON.stringify(text)}: value out of range`);
  }
  return Number(value);
}

/** An integer sysfs file (`readSysfsInt`): surrounding white space trimmed. */
export function readSysfsInt(root: string, relative: string): number {
  return goAtoi(readSysfsFile(root, relative).trim());
}
