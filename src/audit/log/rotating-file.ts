/**
 * The audit log file with the rotation kube-apiserver gets from gopkg.in/natefinch/lumberjack.v2
 * (`--audit-log-maxsize`, `--audit-log-maxbackup`, `--audit-log-maxage`, `--audit-log-compress`):
 * a write that would take the file past the maximum size first renames it to a backup named
 * `<name>-<UTC time 2006-01-02T15-04-05.000><ext>` and starts a new file (mode 0600, or the mode of
 * the file it replaces); then, in the background, backups beyond the newest `maxBackups` or older
 * than `maxAgeDays` are removed and the others gzipped to `<backup>.gz`.
 */
import { closeSync, mkdirSync, openSync, readdirSync, renameSync, statSync, writeSync, type Stats } from 'node:fs';
import { createReadStream, createWriteStream } from 'node:fs';
import { rm, stat } from 'node:fs/promises';
import { basename, dirname, extname, join } from 'node:path';
import { pipeline } from 'node:stream/promises';
import { createGzip } from 'node:zlib';

/** Where log lines go: a rotating file or standard output. */
export interface AuditLogWriter {
  /** Writes the text or throws (the error's message says why, in Go's words where it can). */
  write(text: string): void;
  /** Finishes background work (pruning, compression) and closes the file. */
  close(): Promise<void>;
}

/** The rotation settings, as the flags give them (0 = lumberjack's default or no limit). */
export interface RotatingFileOptions {
  readonly path: string;
  /** Megabytes before the file is rotated; 0 means lumberjack's 100. */
  readonly maxSizeMB?: number;
  /** Backups kept; 0 keeps all. */
  readonly maxBackups?: number;
  /** Days a backup is kept, by the time in its name; 0 keeps them whatever their age. */
  readonly maxAgeDays?: number;
  /** Gzip backups. */
  readonly compress?: boolean;
  /** The wall clock of backup names and ages; `Date.now` by default. */
  readonly now?: () => number;
}

const MEGABYTE = 1024 * 1024;
const DEFAULT_MAX_SIZE_MB = 100;
const BACKUP_TIME = /^(\d{4})-(\d\d)-(\d\d)T(\d\d)-(\d\d)-(\d\d)\.(\d{3})$/;

/** `2006-01-02T15-04-05.000` in UTC (kube-apiserver leaves lumberjack's LocalTime off). */
export function backupTimestamp(epochMs: number): string {
  const iso = new Date(epochMs).toISOString();
  return `${iso.slice(0, 10)}T${iso.slice(11, 13)}-${iso.slice(14, 16)}-${iso.slice(17, 19)}.${iso.slice(20, 23)}`;
}

/** The time in a backup's name, or undefined when the name is not one of this log's backups. */
function timeOfBackup(name: string, prefix: string, ext: string): number | undefined {
  if (!name.startsWith(prefix) || !name.endsWith(ext) || name.length < prefix.length + ext.length) return undefined;
  const m = BACKUP_TIME.exec(name.slice(prefix.length, name.length - ext.length));
  if (!m) return undefined;
  const t = Date.UTC(+m[1]!, +m[2]! - 1, +m[3]!, +m[4]!, +m[5]!, +m[6]!, +m[7]!);
  return Number.isNaN(t) ? undefined : t;
}

/** Go's `*PathError` text of a failed file operation. */
export function goPathError(op: string, path: string, e: unknown): Error {
  let code = (e as NodeJS.ErrnoException | undefined)?.code;
  // Go's MkdirAll finds a file where a directory should be and says so; Node says EEXIST.
  if (op === 'mkdir' && code === 'EEXIST') code = 'ENOTDIR';
  const reasons: Record<string, string> = {
    ENOENT: 'no such file or directory',
    EACCES: 'permission denied',
    ENOTDIR: 'not a directory',
    EISDIR: 'is a directory',
    ENOSPC: 'no space left on device',
    EROFS: 'read-only file system',
    EEXIST: 'file exists',
  };
  return new Error(`${op} ${path}: ${(code && reasons[code]) ?? (e instanceof Error ? e.message : String(e))}`);
}

/** A lumberjack.Logger over a file. */
export class RotatingFile implements AuditLogWriter {
  private fd: number | undefined;
  private size = 0;
  private readonly maxBytes: number;
  private readonly now: () => number;
  private milling: Promise<void> = Promise.resolve();
  private closed = false;

  constructor(private readonly options: RotatingFileOptions) {
    this.maxBytes = (options.maxSizeMB && options.maxSizeMB > 0 ? options.maxSizeMB : DEFAULT_MAX_SIZE_MB) * MEGABYTE;
    this.now = options.now ?? Date.now;
  }

  write(text: string): void {
    if (this.closed) throw new Error(`write ${this.options.path}: file already closed`);
    const data = Buffer.from(text, 'utf8');
    if (data.length > this.maxBytes) throw new Error(`write length ${data.length} exceeds maximum file size ${this.maxBytes}`);
    if (this.fd === undefined) this.openExistingOrNew(data.length);
    else if (this.size + data.length > this.maxBytes) this.rotate();
    let written = 0;
    try {
      while (written < data.length) written += writeSync(this.fd!, data, written);
    } catch (e) {
      throw goPathError('write', this.options.path, e);
    } finally {
      this.size += written;
    }
  }

  /** Waits for the background pruning and compression started so far. */
  idle(): Promise<void> {
    return this.milling;
  }

  async close(): Promise<void> {
    this.closed = true;
    if (this.fd !== undefined) closeSync(this.fd);
    this.fd = undefined;
    await this.milling;
  }

  /** Opens the file to append, or rotates it first when this write would not fit. */
  private openExistingOrNew(writeLength: number): void {
    this.mill();
    let info: Stats;
    try {
      info = statSync(this.options.path);
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code === 'ENOENT') return this.openNew();
      throw new Error(`error getting log file info: ${goPathError('stat', this.options.path, e).message}`);
    }
    if (info.size + writeLength >= this.maxBytes) return this.rotate();
    try {
      this.fd = openSync(this.options.path, 'a');
      this.size = info.size;
    } catch {
      // lumberjack starts a new file when the old one cannot be opened.
      this.openNew();
    }
  }

  /** Moves the current file aside (keeping its mode) and opens an empty one. */
  private openNew(): void {
    const path = this.options.path;
    try {
      mkdirSync(dirname(path), { recursive: true, mode: 0o755 });
    } catch (e) {
      throw new Error(`can't make directories for new logfile: ${goPathError('mkdir', dirname(path), e).message}`);
    }
    let mode = 0o600;
    let existing: Stats | undefined;
    try {
      existing = statSync(path);
    } catch {
      existing = undefined;
    }
    if (existing) {
      mode = existing.mode & 0o777;
      const backup = this.backupName();
      try {
        renameSync(path, backup);
      } catch (e) {
        throw new Error(`can't rename log file: ${goPathError('rename', path, e).message}`);
      }
    }
    try {
      this.fd = openSync(path, 'w', mode);
    } catch (e) {
      throw new Error(`can't open new logfile: ${goPathError('open', path, e).message}`);
    }
    this.size = 0;
  }

  private rotate(): void {
    if (this.fd !== undefined) closeSync(this.fd);
    this.fd = undefined;
    this.openNew();
    this.mill();
  }

  private backupName(): string {
    const path = this.options.path;
    const ext = extname(path);
    const prefix = basename(path).slice(0, basename(path).length - ext.length);
    return join(dirname(path), `${prefix}-${backupTimestamp(this.now())}${ext}`);
  }

  /** Queues one pass of pruning and compression after those already queued. */
  private mill(): void {
    const { maxBackups = 0, maxAgeDays = 0, compress = false } = this.options;
    if (maxBackups === 0 && maxAgeDays === 0 && !compress) return;
    this.milling = this.milling.then(() => this.millOnce()).catch(() => undefined);
  }

  /** The backups of this log, newest first. */
  private backups(): { name: string; time: number }[] {
    const path = this.options.path;
    const ext = extname(path);
    const prefix = `${basename(path).slice(0, basename(path).length - ext.length)}-`;
    let names: string[];
    try {
      names = readdirSync(dirname(path));
    } catch {
      return [];
    }
    const out: { name: string; time: number }[] = [];
    for (const name of names) {
      const time = timeOfBackup(name, prefix, ext) ?? timeOfBackup(name, prefix, `${ext}.gz`);
      if (time !== undefined) out.push({ name, time });
    }
    return out.sort((a, b) => b.time - a.time);
  }

  private async millOnce(): Promise<void> {
    const { maxBackups = 0, maxAgeDays = 0, compress = false } = this.options;
    const dir = dirname(this.options.path);
    let files = this.backups();
    const remove: string[] = [];
    if (maxBackups > 0 && maxBackups < files.length) {
      // A backup and its gzipped twin count once.
      const kept = new Set<string>();
      const remaining: typeof files = [];
      for (const f of files) {
        kept.add(f.name.endsWith('.gz') ? f.name.slice(0, -3) : f.name);
        if (kept.size > maxBackups) remove.push(f.name);
        else remaining.push(f);
      }
      files = remaining;
    }
    if (maxAgeDays > 0) {
      const cutoff = this.now() - maxAgeDays * 24 * 3_600_000;
      const remaining: typeof files = [];
      for (const f of files) {
        if (f.time < cutoff) remove.push(f.name);
        else remaining.push(f);
      }
      files = remaining;
    }
    for (const name of remove) await rm(join(dir, name), { force: true });
    if (compress) for (const f of files) if (!f.name.endsWith('.gz')) await gzipFile(join(dir, f.name));
  }
}

/** Gzips `src` to `src.gz` with the same mode, then removes `src`. */
async function gzipFile(src: string): Promise<void> {
  const info = await stat(src);
  await pipeline(createReadStream(src), createGzip(), createWriteStream(`${src}.gz`, { mode: info.mode & 0o777 }));
  await rm(src);
}

/** Standard output (`--audit-log-path -`). */
export const STDOUT_AUDIT_LOG: AuditLogWriter = {
  write(text) {
    process.stdout.write(text);
  },
  close: async () => undefined,
};

/**
 * Makes sure the log file can be written before the server starts, as kube-apiserver's
 * `ensureLogFile` does: its directory made (0700), the file created (0600) if missing; throws
 * `ensureLogFile: <Go's error>`.
 */
export function ensureLogFile(path: string): void {
  try {
    mkdirSync(dirname(path), { recursive: true, mode: 0o700 });
  } catch (e) {
    throw new Error(`ensureLogFile: ${goPathError('mkdir', dirname(path), e).message}`);
  }
  let fd: number;
  try {
    fd = openSync(path, 'a+', 0o600);
  } catch (e) {
    throw new Error(`ensureLogFile: ${goPathError('open', path, e).message}`);
  }
  closeSync(fd);
}
