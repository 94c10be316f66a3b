import { describe, expect, it } from 'vitest';
import type { WatchEvent } from '../../../src/machinery/request.js';
import { WatchChannel } from '../../../src/api/watch/channel.js';

const ev = (n: number): WatchEvent<number> => ({ type: 'MODIFIED', object: n });

/** Reads what the channel holds now (every event is buffered synchronously). */
async function readAll(channel: WatchChannel<number>, count: number): Promise<number[]> {
  const it = channel[Symbol.asyncIterator]();
  const out: number[] = [];
  for (let i = 0; i < count; i++) out.push((await it.next()).value!.object);
  return out;
}

describe('WatchChannel', () => {
  it('does not count the events a watch starts with against its capacity, however many', () => {
    const channel = new WatchChannel<number>(3);
    for (let i = 0; i < 5000; i++) channel.push(ev(i), false);
    expect(channel.closed).toBe(false);
    expect(channel.pending).toBe(5000);
    expect(channel.pendingLive).toBe(0);
  });

  it('bounds live events only: capacity of them behind a long unread start are kept, one more closes the stream', async () => {
    const channel = new WatchChannel<number>(3);
    for (let i = 0; i < 10; i++) channel.push(ev(i), false);
    for (let i = 10; i < 13; i++) channel.push(ev(i));
    expect(channel.closed).toBe(false);
    expect(channel.pendingLive).toBe(3);
    channel.push(ev(13));
    expect(channel.closed).toBe(true);
    expect(channel.overflowed).toBe(true);
    expect(channel.pending).toBe(0);
    await channel.done;
  });

  it('frees live room as the consumer reads live events, not when it reads the start', async () => {
    const channel = new WatchChannel<number>(2);
    for (let i = 0; i < 4; i++) channel.push(ev(i), false);
    channel.push(ev(4));
    channel.push(ev(5));
    expect(await readAll(channel, 4)).toEqual([0, 1, 2, 3]);
    expect(channel.pendingLive).toBe(2);
    expect(await readAll(channel, 1)).toEqual([4]);
    expect(channel.pendingLive).toBe(1);
    channel.push(ev(6));
    expect(channel.closed).toBe(false);
    expect(await readAll(channel, 2)).toEqual([5, 6]);
    expect(channel.pendingLive).toBe(0);
  });

  it('keeps its count right across the buffer compaction of a long stream', async () => {
    const channel = new WatchChannel<number>(2);
    const it = channel[Symbol.asyncIterator]();
    for (let i = 0; i < 3000; i++) {
      channel.push(ev(i), i % 3 !== 0);
      if (i % 2 === 1) {
        await it.next();
        await it.next();
      }
    }
    expect(channel.closed).toBe(false);
    expect(channel.pending).toBe(0);
    expect(channel.pendingLive).toBe(0);
  });

  it('overflow() ends the stream at once as one whose consumer fell behind', async () => {
    const channel = new WatchChannel<number>(5);
    channel.push(ev(1), false);
    channel.overflow();
    expect(channel.overflowed).toBe(true);
    expect(await channel[Symbol.asyncIterator]().next()).toEqual({ value: undefined, done: true });
  });

  it('reads every event in order while its consumer keeps up, after a long start too, and still bounds live events', async () => {
    const channel = new WatchChannel<number>(2);
    const it = channel[Symbol.asyncIterator]();
    for (let i = 0; i < 3000; i++) channel.push(ev(i), false);
    for (let i = 0; i < 3000; i++) expect((await it.next()).value!.object).toBe(i);
    for (let i = 3000; i < 6000; i++) {
      channel.push(ev(i));
      expect(channel.pending).toBe(1);
      expect((await it.next()).value!.object).toBe(i);
      expect(channel.pending).toBe(0);
    }
    const waiting = it.next();
    channel.push(ev(6000));
    expect((await waiting).value!.object).toBe(6000);
    channel.push(ev(6001));
    channel.push(ev(6002));
    expect(channel.pendingLive).toBe(2);
    channel.push(ev(6003));
    expect(channel.overflowed).toBe(true);
    expect(await it.next()).toEqual({ value: undefined, done: true });
  });

  it('hands each reader its own form of every event, counted by onTake as it is taken', async () => {
    const channel = new WatchChannel<number>(5);
    let taken = 0;
    channel.onTake(() => taken++);
    const doubled = channel.reader((e) => e.object * 2);
    channel.push(ev(1), false);
    channel.push(ev(2));
    expect(taken).toBe(0);
    expect(await doubled.next()).toEqual({ value: 2, done: false });
    expect(taken).toBe(1);
    const buffered = doubled.next();
    expect(taken).toBe(2);
    expect(await buffered).toEqual({ value: 4, done: false });
    const next = doubled.next();
    expect(taken).toBe(2);
    channel.push(ev(3));
    channel.end();
    expect(await next).toEqual({ value: 6, done: false });
    expect(await doubled.next()).toEqual({ value: undefined, done: true });
    expect(taken).toBe(3);
  });
});
