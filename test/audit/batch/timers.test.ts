/** The timers of batching: real ones that hold any wait, and the manual clock of the tests. */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { ManualAuditTimers, MAX_TIMER_MS, REAL_AUDIT_TIMERS } from '../../../src/audit/batch/timers.js';

afterEach(() => {
  vi.useRealTimers();
});

describe('REAL_AUDIT_TIMERS', () => {
  it('waits longer than setTimeout can hold (a hostile --audit-*-batch-max-wait) instead of firing at once', () => {
    vi.useFakeTimers();
    const fired = vi.fn();
    REAL_AUDIT_TIMERS.after(MAX_TIMER_MS + 10, fired);
    vi.advanceTimersByTime(MAX_TIMER_MS);
    expect(fired).not.toHaveBeenCalled();
    vi.advanceTimersByTime(10);
    expect(fired).toHaveBeenCalledTimes(1);
  });

  it('can be cancelled, also after a first leg of a long wait', () => {
    vi.useFakeTimers();
    const fired = vi.fn();
    const cancel = REAL_AUDIT_TIMERS.after(MAX_TIMER_MS + 10, fired);
    vi.advanceTimersByTime(MAX_TIMER_MS);
    cancel();
    vi.advanceTimersByTime(MAX_TIMER_MS);
    expect(fired).not.toHaveBeenCalled();
  });
});

describe('ManualAuditTimers', () => {
  it('fires due timers in time order, each at its own time', () => {
    const timers = new ManualAuditTimers();
    const seen: [string, number][] = [];
    timers.after(20, () => seen.push(['b', timers.now()]));
    timers.after(10, () => {
      seen.push(['a', timers.now()]);
      timers.after(5, () => seen.push(['c', timers.now()]));
    });
    const cancel = timers.after(12, () => seen.push(['x', timers.now()]));
    cancel();
    timers.advance(30);
    expect(seen).toEqual([
      ['a', 10],
      ['c', 15],
      ['b', 20],
    ]);
    expect(timers.now()).toBe(30);
  });
});
