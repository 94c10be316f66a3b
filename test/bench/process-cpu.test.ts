import { describe, expect, it } from 'vitest';
import { parseProcStat, parseSchedstat, processCpuSeconds, threadCpuMs } from '../../bench/process-cpu.js';

/** A millisecond or so of arithmetic the engine cannot drop. */
function busy(): number {
  let x = 0;
  for (let i = 0; i < 200_000; i++) x += Math.sqrt(x + i);
  expect(x).toBeGreaterThan(0);
  return x;
}

describe('bench/process-cpu.ts', () => {
  it('reads utime and stime from a /proc/PID/stat line, whatever the command name holds', () => {
    const fields = (name: string) => `4242 (${name}) S 1 4242 4242 0 -1 4194560 1000 0 0 0 250 50 0 0 20 0 11 0 12345 1000000 5000`;
    expect(parseProcStat(fields('node'), 100)).toBe(3);
    expect(parseProcStat(fields('we ird) (name'), 100)).toBe(3);
    expect(parseProcStat(fields('node'), 1000)).toBe(0.3);
    expect(() => parseProcStat('no parenthesis here', 100)).toThrow('not a /proc/PID/stat line');
    expect(() => parseProcStat('1 (x) S 1', 100)).toThrow('no CPU times');
  });

  it("reads this process's CPU time, growing as it works, and nothing for a process that does not exist", () => {
    const before = processCpuSeconds(process.pid);
    if (before === undefined) {
      // No /proc here (not Linux): there is nothing to read, and the figures leave the CPU out.
      expect(process.platform).not.toBe('linux');
      return;
    }
    // Work until the reading moves (it counts clock ticks), however often the machine takes the core
    // away meanwhile; the deadline only keeps a reading that never moves from hanging the test.
    let after = before;
    const deadline = performance.now() + 10_000;
    while (after <= before && performance.now() < deadline) {
      busy();
      after = processCpuSeconds(process.pid)!;
    }
    expect(after).toBeGreaterThan(before);
    expect(processCpuSeconds(2 ** 30)).toBeUndefined();
  });

  it("reads a thread's on-CPU nanoseconds from its schedstat line, in milliseconds", () => {
    expect(parseSchedstat('123456789 2000 17\n')).toBe(123.456789);
    expect(parseSchedstat('0 0 0')).toBe(0);
    expect(() => parseSchedstat('')).toThrow('not a schedstat line');
    expect(() => parseSchedstat('many words here')).toThrow('not a schedstat line');
  });

  it("reads this process's threads' CPU time, growing as it works, and nothing for a process that does not exist", () => {
    const before = threadCpuMs(process.pid);
    if (before === undefined) {
      expect(process.platform).not.toBe('linux');
      return;
    }
    expect(before.all).toBeGreaterThanOrEqual(before.main);
    // The work runs on whichever thread runs this test file: all threads together have it. Work
    // until 10 ms of CPU time were counted, however long the machine makes that take.
    let after = before;
    const deadline = performance.now() + 10_000;
    while (after.all - before.all <= 10 && performance.now() < deadline) {
      busy();
      after = threadCpuMs(process.pid)!;
    }
    expect(after.all - before.all).toBeGreaterThan(10);
    expect(after.main).toBeGreaterThanOrEqual(before.main);
    expect(threadCpuMs(2 ** 30)).toBeUndefined();
  });
});
