import { afterAll, describe, expect, it } from 'vitest';
import { appendFileSync, renameSync, writeFileSync } from 'node:fs';
import { open } from 'node:fs/promises';
import { join } from 'node:path';
import { parseRfc3339, readCriLogFile, tailStartOffset, type CriLogReadOptions } from '../../../src/nodeagent/server/cri-log-file.js';
import { tempDir } from './fixtures.js';

const tmp = tempDir();
afterAll(() => tmp.remove());

let n = 0;
function logFile(text: string): string {
  const path = join(tmp.dir, `log-${n++}.log`);
  writeFileSync(path, text);
  return path;
}

const LOG = [
  '2026-12-01T10:00:00.000000001Z stdout F one\n',
  '2026-12-01T10:00:01Z stderr F two\n',
  '2026-12-01T10:00:02.5Z stdout P thr\n',
  '2026-12-01T10:00:02.6Z stdout F ee\n',
  '2026-12-01T10:00:03+02:00 stdout F four\n',
].join('');

async function read(path: string, o: Partial<CriLogReadOptions> = {}): Promise<string> {
  let out = '';
  await readCriLogFile(path, { tail: -1, limitBytes: -1, timestamps: false, follow: false, ...o }, async (b) => void (out += b.toString()));
  return out;
}

describe('readCriLogFile', () => {
  it('joins partial lines and writes both streams', async () => {
    expect(await read(logFile(LOG))).toBe('one\ntwo\nthree\nfour\n');
  });

  it('prefixes each line once with its RFC3339Nano time', async () => {
    expect(await read(logFile(LOG), { timestamps: true })).toBe(
      '2026-12-01T10:00:00.000000001Z one\n2026-12-01T10:00:01Z two\n2026-12-01T10:00:02.5Z three\n2026-12-01T10:00:03+02:00 four\n',
    );
  });

  it('keeps the last lines of the file with tail, none with tail 0', async () => {
    const path = logFile(LOG);
    expect(await read(path, { tail: 1 })).toBe('four\n');
    expect(await read(path, { tail: 2 })).toBe('ee\nfour\n');
    expect(await read(path, { tail: 0 })).toBe('');
    expect(await read(path, { tail: 99 })).toBe('one\ntwo\nthree\nfour\n');
  });

  it('cuts at limitBytes, skips lines before since, picks streams', async () => {
    const path = logFile(LOG);
    expect(await read(path, { limitBytes: 6 })).toBe('one\ntw');
    expect(await read(path, { sinceNs: parseRfc3339('2026-12-01T10:00:01Z')!.ns })).toBe('two\nthree\n');
    expect(await read(path, { streams: { stdout: false, stderr: true } })).toBe('two\n');
  });

  it('skips lines it cannot parse once the format is known, and refuses a file of neither format', async () => {
    expect(await read(logFile(`2026-12-01T10:00:00Z stdout F a\ngarbage\n2026-12-01T10:00:01Z stdout F b\n`))).toBe('a\nb\n');
    await expect(read(logFile('garbage\n'))).rejects.toThrow('failed to get parse function: unsupported log format: "garbage\\n"');
    expect(await read(logFile('{"log":"hi\\n","stream":"stdout","time":"2026-12-01T10:00:00Z"}\n'))).toBe('hi\n');
  });

  it('writes a last line without a newline when not following', async () => {
    expect(await read(logFile('2026-12-01T10:00:00Z stdout F a\n2026-12-01T10:00:01Z stdout F b'))).toBe('a\nb');
  });

  it("fails with kubelet's text for a missing file", async () => {
    const path = join(tmp.dir, 'missing.log');
    await expect(read(path)).rejects.toThrow(`failed to open log file "${path}": open ${path}: no such file or directory`);
  });

  it('finds where the last lines start across blocks', async () => {
    const lines = Array.from({ length: 3000 }, (_, i) => `line ${i}\n`).join('');
    const path = logFile(lines);
    const file = await open(path, 'r');
    try {
      const size = Buffer.byteLength(lines);
      expect(await tailStartOffset(file, size, 1)).toBe(size - 'line 2999\n'.length);
      expect(await tailStartOffset(file, size, 2999)).toBe('line 0\n'.length);
      expect(await tailStartOffset(file, size, 5000)).toBe(0);
      expect(await tailStartOffset(file, size, -1)).toBe(0);
    } finally {
      await file.close();
    }
  });

  it('follows new lines until the container stops, then writes the rest', async () => {
    const path = logFile('2026-12-01T10:00:00Z stdout F a\n');
    let running = true;
    let out = '';
    const abort = new AbortController();
    const done = readCriLogFile(
      path,
      { tail: -1, limitBytes: -1, timestamps: false, follow: true },
      async (b) => {
        out += b.toString();
        if (out === 'a\n') appendFileSync(path, '2026-12-01T10:00:01Z stdout P b');
        if (out === 'a\nb') {
          appendFileSync(path, '2026-12-01T10:00:01Z stdout F c\n');
          running = false;
        }
      },
      { isRunning: async () => running, signal: abort.signal, forceCheckMs: 10 },
    );
    // The partial line is held back until its newline arrives.
    setTimeout(() => appendFileSync(path, '\n'), 30);
    await done;
    // The partial line b and the full line c are one line.
    expect(out).toBe('a\nbc\n');
  });

  it('follows a log across its rotation, reading the new file from its start', async () => {
    const path = logFile('2026-12-01T10:00:00Z stdout F a\n');
    let running = true;
    let out = '';
    await readCriLogFile(
      path,
      { tail: -1, limitBytes: -1, timestamps: false, follow: true },
      async (b) => {
        out += b.toString();
        if (out === 'a\n') {
          renameSync(path, `${path}.1`);
          writeFileSync(path, '2026-12-01T10:00:01Z stdout F b\n');
        } else running = false;
      },
      { isRunning: async () => running, signal: new AbortController().signal, forceCheckMs: 10 },
    );
    expect(out).toBe('a\nb\n');
  });

  it('parses RFC3339 times as Go does and refuses malformed ones', () => {
    expect(parseRfc3339('2026-12-01T10:00:00.100Z')).toEqual({
      ns: BigInt(Date.UTC(2026, 11, 1, 10)) * 1_000_000n + 100_000_000n,
      formatted: '2026-12-01T10:00:00.1Z',
    });
    expect(parseRfc3339('2026-12-01T12:00:00+02:00')!.ns).toBe(BigInt(Date.UTC(2026, 11, 1, 10)) * 1_000_000n);
    for (const bad of ['2026-02-30T00:00:00Z', '2026-12-01 10:00:00Z', '2026-12-01T24:00:00Z', '2026-12-01T10:00:00'])
      expect(parseRfc3339(bad), bad).toBeUndefined();
  });
});
