/**
 * Reading a container's log file as kubelet does (`pkg/kubelet/kuberuntime/logs/logs.go`
 * `ReadLogs`): lines in the CRI format (`<RFC3339Nano time> <stdout|stderr> <P|F> <text>`, a `P`
 * line being part of a longer line) or Docker's JSON format, the last `tail` lines, lines older
 * than `since` skipped, at most `limitBytes` bytes written, each line prefixed with its time when
 * asked; with `follow`, new lines are written as they come until the container is no longer
 * running.
 */
import { watch, type FSWatcher } from 'node:fs';
import { open, stat, type FileHandle } from 'node:fs/promises';
import { goQuote } from '../../util/go-format.js';

/** What to read (kubelet's internal `LogOptions`). */
export interface CriLogReadOptions {
  /** Lines from the end; -1 reads everything. */
  tail: number;
  /** Bytes to write at most; -1 is unlimited. */
  limitBytes: number;
  /** Prefix every line with its RFC3339Nano time. */
  timestamps: boolean;
  /** Lines before this time (nanoseconds since the epoch) are skipped. */
  sinceNs?: bigint;
  /** Keep writing new lines while the container runs. */
  follow: boolean;
  /** The streams to write; both by default. */
  streams?: { stdout: boolean; stderr: boolean };
}

/** How a follow learns the container stopped, and when to give up. */
export interface CriLogFollow {
  /** Whether the container still runs (not exited or unknown); a rejection ends the read with its error. */
  isRunning(): Promise<boolean>;
  /** The request's end (the client went away). */
  signal: AbortSignal;
  /** How long to wait for a change of the file before looking again (kubelet: 1 second). */
  forceCheckMs?: number;
}

/** Where the log's bytes go; resolves when the bytes may be followed by more. */
export type LogSink = (bytes: Buffer) => Promise<void>;

interface LogMessage {
  timeNs: bigint;
  /** The time as RFC3339Nano in the line's own offset. */
  timeText: string;
  stream: 'stdout' | 'stderr';
  log: Buffer;
}

type ParseLine = (line: Buffer) => LogMessage | string;

const NEWLINE = 0x0a;
const BLOCK_SIZE = 4096;
const READ_SIZE = 64 * 1024;

const TIME_PATTERN = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2}):(\d{2})(?:\.(\d+))?(Z|[+-]\d{2}:\d{2})$/;

/**
 * A time as Go's RFC3339 parse reads it, in nanoseconds since the epoch, and as RFC3339Nano
 * formats it again (fraction without trailing zeros, `Z` for a zero offset); undefined if malformed.
 */
export function parseRfc3339(text: string): { ns: bigint; formatted: string } | undefined {
  const m = TIME_PATTERN.exec(text);
  if (!m) return undefined;
  const [year, month, day, hour, minute, second] = m.slice(1, 7).map(Number) as [number, number, number, number, number, number];
  if (month < 1 || month > 12 || day < 1 || day > new Date(Date.UTC(year, month, 0)).getUTCDate() || hour > 23 || minute > 59 || second > 59) return undefined;
  const zone = m[8]!;
  let offsetMinutes = 0;
  if (zone !== 'Z') {
    const hours = Number(zone.slice(1, 3));
    const minutes = Number(zone.slice(4, 6));
    if (hours > 23 || minutes > 59) return undefined;
    offsetMinutes = (zone[0] === '-' ? -1 : 1) * (hours * 60 + minutes);
  }
  const nanos = (m[7] ?? '').padEnd(9, '0').slice(0, 9);
  const utcMs = Date.UTC(year, month - 1, day, hour, minute, second) - offsetMinutes * 60_000;
  const ns = BigInt(utcMs) * 1_000_000n + BigInt(nanos);
  const fraction = nanos.replace(/0+$/, '');
  const formatted = `${text.slice(0, 19)}${fraction ? `.${fraction}` : ''}${offsetMinutes === 0 ? 'Z' : zone}`;
  return { ns, formatted };
}

/** kubelet's `parseCRILog`. */
const parseCriLine: ParseLine = (line) => {
  let rest = line;
  const field = (): Buffer | undefined => {
    const i = rest.indexOf(0x20);
    if (i < 0) return undefined;
    const value = rest.subarray(0, i);
    rest = rest.subarray(i + 1);
    return value;
  };
  const timeField = field();
  if (!timeField) return 'timestamp is not found';
  const time = parseRfc3339(timeField.toString('latin1'));
  if (!time) return `unexpected timestamp format "2006-01-02T15:04:05.999999999Z07:00"`;
  const stream = field();
  if (!stream) return 'stream type is not found';
  const streamName = stream.toString('latin1');
  if (streamName !== 'stdout' && streamName !== 'stderr') return `unexpected stream type ${goQuote(streamName)}`;
  const i = rest.indexOf(0x20);
  if (i < 0) return 'log tag is not found';
  // Tags are `:`-separated for forward compatibility; only the first (P or F) matters.
  const partial = rest.subarray(0, i).toString('latin1').split(':')[0] === 'P';
  let log = rest.subarray(i + 1);
  if (partial && log.length && log[log.length - 1] === NEWLINE) log = log.subarray(0, -1);
  return { timeNs: time.ns, timeText: time.formatted, stream: streamName, log };
};

/** kubelet's `parseDockerJSONLog`: `{"log": ..., "stream": ..., "time": ...}`. */
const parseDockerJsonLine: ParseLine = (line) => {
  let value: unknown;
  try {
    value = JSON.parse(line.toString('utf8'));
  } catch (err) {
    return `failed with ${String(err)} to unmarshal log`;
  }
  const entry = (value ?? {}) as { log?: unknown; stream?: unknown; time?: unknown };
  const time = typeof entry.time === 'string' ? parseRfc3339(entry.time) : undefined;
  if (!time || (entry.stream !== 'stdout' && entry.stream !== 'stderr')) return 'unexpected docker JSON log line';
  return { timeNs: time.ns, timeText: time.formatted, stream: entry.stream, log: Buffer.from(typeof entry.log === 'string' ? entry.log : '') };
};

/** kubelet's `getParseFunc`: the first line decides the format. */
function parseFunctionFor(line: Buffer): ParseLine | undefined {
  for (const parse of [parseCriLine, parseDockerJsonLine]) if (typeof parse(line) !== 'string') return parse;
  return undefined;
}

/**
 * Where the last `n` lines start (k8s.io `tail.FindTailLineStartIndex`): just after the
 * (n+1)-th newline from the end, or the file's start when it has fewer.
 */
export async function tailStartOffset(file: FileHandle, size: number, n: number): Promise<number> {
  if (n < 0) return 0;
  let seen = 0;
  const block = Buffer.alloc(BLOCK_SIZE);
  for (let right = size; right > 0; right -= BLOCK_SIZE) {
    const left = Math.max(0, right - BLOCK_SIZE);
    const { bytesRead } = await file.read(block, 0, right - left, left);
    for (let i = bytesRead - 1; i >= 0; i--) {
      if (block[i] === NEWLINE && ++seen > n) return left + i + 1;
    }
  }
  return 0;
}

/** A log file read line by line, a line without its newline left for a later read. */
class LineReader {
  private pending = Buffer.alloc(0);
  private readonly chunk = Buffer.alloc(READ_SIZE);

  constructor(
    private file: FileHandle,
    private position: number,
  ) {}

  /** Continues with another file from its start (the log was rotated). */
  reset(file: FileHandle): void {
    this.file = file;
    this.position = 0;
    this.pending = Buffer.alloc(0);
  }

  /** The next whole line with its newline; at the end, what is left (kept for the next call). */
  async next(): Promise<{ line: Buffer; complete: boolean }> {
    for (;;) {
      const at = this.pending.indexOf(NEWLINE);
      if (at >= 0) {
        const line = this.pending.subarray(0, at + 1);
        this.pending = this.pending.subarray(at + 1);
        return { line, complete: true };
      }
      const { bytesRead } = await this.file.read(this.chunk, 0, READ_SIZE, this.position);
      if (bytesRead === 0) return { line: this.pending, complete: false };
      this.position += bytesRead;
      this.pending = Buffer.concat([this.pending, this.chunk.subarray(0, bytesRead)]);
    }
  }
}

/** Waits for the file to change, at most `ms`, or for the request to end. */
class ChangeWaiter {
  private watcher: FSWatcher | undefined;
  private wake: (() => void) | undefined;

  constructor(private readonly path: string) {}

  wait(ms: number, signal: AbortSignal): Promise<void> {
    if (!this.watcher) {
      try {
        this.watcher = watch(this.path, () => this.wake?.());
        this.watcher.on('error', () => undefined);
      } catch {
        /* no watching here: the timer alone paces the follow */
      }
    }
    return new Promise((resolve) => {
      const done = () => {
        clearTimeout(timer);
        signal.removeEventListener('abort', done);
        this.wake = undefined;
        resolve();
      };
      const timer = setTimeout(done, ms);
      signal.addEventListener('abort', done, { once: true });
      this.wake = done;
    });
  }

  close(): void {
    this.watcher?.close();
  }
}

/** The error ReadLogs returns, its text as kubelet words it. */
export class CriLogError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'CriLogError';
  }
}

/** Writes the log at `path` to `sink`; rejects with a {@link CriLogError} as kubelet's `ReadLogs` fails. */
export async function readCriLogFile(path: string, options: CriLogReadOptions, sink: LogSink, follow?: CriLogFollow): Promise<void> {
  let file: FileHandle;
  try {
    file = await open(path, 'r');
  } catch (err) {
    throw new CriLogError(`failed to open log file ${goQuote(path)}: open ${path}: ${goErrnoText(err)}`);
  }
  let waiter = new ChangeWaiter(path);
  try {
    const { size, ino } = await file.stat();
    let inode = ino;
    const reader = new LineReader(file, await tailStartOffset(file, size, options.tail));
    const followed = options.follow && follow !== undefined;
    const limitedMode = options.tail >= 0 && !options.follow;
    let limited = options.tail;
    let remaining = options.limitBytes < 0 ? Number.POSITIVE_INFINITY : options.limitBytes;
    const streams = options.streams ?? { stdout: true, stderr: true };
    let parse: ParseLine | undefined;
    let stop = false;
    let found = true;
    let atLineStart = true;
    for (;;) {
      if (stop || (limitedMode && limited === 0)) return;
      const { line, complete } = await reader.next();
      if (!complete) {
        if (followed) {
          if (!found || follow.signal.aborted) return;
          // kubelet's waitLogs: a stopped container ends the follow once the rest is read.
          found = await follow.isRunning();
          if (!found) continue;
          await waiter.wait(follow.forceCheckMs ?? 1000, follow.signal);
          // kubelet reopens a log that was recreated under its name (rotated) and reads it from the start.
          const now = await stat(path).catch(() => undefined);
          if (now && now.ino !== inode) {
            const next = await open(path, 'r').catch(() => undefined);
            if (next) {
              await file.close();
              file = next;
              inode = now.ino;
              reader.reset(file);
              waiter.close();
              waiter = new ChangeWaiter(path);
            }
          }
          continue;
        }
        stop = true;
        if (line.length === 0) continue;
      }
      parse ??= parseFunctionFor(line);
      if (!parse) throw new CriLogError(`failed to get parse function: unsupported log format: ${goQuote(line.toString('latin1'))}`);
      const message = parse(line);
      if (typeof message === 'string') continue;
      if (options.sinceNs === undefined || message.timeNs >= options.sinceNs) {
        if (streams[message.stream]) {
          let out = options.timestamps && atLineStart ? Buffer.concat([Buffer.from(`${message.timeText} `), message.log]) : message.log;
          if (out.length > remaining) out = out.subarray(0, remaining);
          await sink(out);
          remaining -= out.length;
          if (remaining <= 0) return;
        }
      }
      if (limitedMode) limited--;
      atLineStart = message.log.length === 0 || message.log[message.log.length - 1] === NEWLINE;
    }
  } finally {
    waiter.close();
    await file.close();
  }
}

/** Go's text of a file system error (`no such file or directory`, ...). */
function goErrnoText(err: unknown): string {
  const code = (err as NodeJS.ErrnoException | undefined)?.code;
  const texts: Record<string, string> = {
    ENOENT: 'no such file or directory',
    EACCES: 'permission denied',
    EISDIR: 'is a directory',
    ENOTDIR: 'not a directory',
  };
  return (code && texts[code]) ?? (err instanceof Error ? err.message : String(err));
}
