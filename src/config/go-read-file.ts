/**
 * Reading a file a configuration names (the configuration file itself, a CA bundle, a client
 * certificate) with Go's `os.ReadFile` error texts, which kube-apiserver's messages embed:
 * `open /etc/x.yaml: no such file or directory`.
 */
import { readFileSync, statSync } from 'node:fs';

/** Go's `syscall.Errno` texts for the errors reading a file can meet. */
const ERRNO_TEXT: Record<string, string> = {
  ENOENT: 'no such file or directory',
  EACCES: 'permission denied',
  ENOTDIR: 'not a directory',
  ELOOP: 'too many levels of symbolic links',
  ENAMETOOLONG: 'file name too long',
  EISDIR: 'is a directory',
};

/** Go's `*fs.PathError` text for a failed `os.ReadFile(path)`. */
function pathErrorText(path: string, e: unknown): string {
  const code = (e as NodeJS.ErrnoException | undefined)?.code ?? '';
  // Go opens a directory fine and fails reading it.
  const op = code === 'EISDIR' ? 'read' : 'open';
  return `${op} ${path}: ${ERRNO_TEXT[code] ?? (e instanceof Error ? e.message : String(e))}`;
}

/** A file's bytes, or Go's text for why it could not be read. */
export function goReadFile(path: string): { readonly ok: true; readonly data: Buffer } | { readonly ok: false; readonly error: string } {
  try {
    return { ok: true, data: readFileSync(path) };
  } catch (e) {
    return { ok: false, error: pathErrorText(path, e) };
  }
}

/** k8s.io/utils/path `Exists(CheckFollowSymlink, path)`: whether `path` names something (links followed). */
export function pathExists(path: string): boolean {
  try {
    statSync(path);
    return true;
  } catch {
    return false;
  }
}
