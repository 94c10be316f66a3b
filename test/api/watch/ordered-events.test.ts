/**
 * The ordered way into a watch channel: whatever mix of immediate and delayed conversions, events
 * come out in the order they were sent, none lost, and a failure ends the stream after the events
 * before it.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { WatchEvent } from '../../../src/machinery/request.js';
import { WatchChannel } from '../../../src/api/watch/channel.js';
import { OrderedEvents } from '../../../src/api/watch/ordered-events.js';

type Step = { op: 'send'; delay: number } | { op: 'sendAll'; count: number; delay: number } | { op: 'bookmark' };

const step: fc.Arbitrary<Step> = fc.oneof(
  fc.record({ op: fc.constant('send' as const), delay: fc.integer({ min: -1, max: 5 }) }),
  fc.record({ op: fc.constant('sendAll' as const), count: fc.integer({ min: 0, max: 4 }), delay: fc.integer({ min: -1, max: 5 }) }),
  fc.record({ op: fc.constant('bookmark' as const) }),
);

/** A conversion that answers at once for a negative delay, after `delay` ms otherwise; fails on `failOn`. */
function conversion(delays: Map<number, number>, failOn?: number) {
  const convert = (v: number): number | Promise<number> => {
    const d = delays.get(v) ?? -1;
    if (d < 0 && v !== failOn) return v * 10;
    return new Promise((resolve, reject) => setTimeout(() => (v === failOn ? reject(new Error(`bad ${v}`)) : resolve(v * 10)), Math.max(0, d)));
  };
  return {
    one: (value: unknown) => convert(value as number),
    many: (values: unknown[]) => {
      const out = values.map((v) => convert(v as number));
      return out.some((o) => o instanceof Promise) ? Promise.all(out) : (out as number[]);
    },
  };
}

async function drain(channel: WatchChannel): Promise<WatchEvent[]> {
  const out: WatchEvent[] = [];
  for await (const e of channel) out.push(e);
  return out;
}

describe('OrderedEvents', () => {
  it('keeps the order of everything sent, whatever each conversion takes', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(step, { maxLength: 25 }), async (steps) => {
        const channel = new WatchChannel(10_000);
        const delays = new Map<number, number>();
        const events = new OrderedEvents(channel, 10_000, conversion(delays), (e) => {
          throw e;
        });
        const expected: string[] = [];
        let next = 0;
        for (const s of steps) {
          if (s.op === 'bookmark') {
            events.sendEvent({ type: 'BOOKMARK', object: { n: next } });
            expected.push(`BOOKMARK ${next}`);
          } else {
            const values = Array.from({ length: s.op === 'send' ? 1 : s.count }, () => next++);
            for (const v of values) {
              delays.set(v, s.delay);
              expected.push(`ADDED ${v * 10}`);
            }
            if (s.op === 'send') events.send('ADDED', values[0], true);
            else events.sendAll('ADDED', values, false);
          }
        }
        events.end();
        const got = (await drain(channel)).map((e) => `${e.type} ${e.type === 'BOOKMARK' ? (e.object as { n: number }).n : (e.object as number)}`);
        expect(got).toEqual(expected);
      }),
      { numRuns: 60 },
    );
  });

  it('ends the stream through `fail` after the events before a failed conversion, dropping those after', async () => {
    const channel = new WatchChannel(100);
    const delays = new Map([
      [1, 5],
      [2, 1],
      [3, 0],
    ]);
    const failures: unknown[] = [];
    const events = new OrderedEvents(channel, 100, conversion(delays, 2), (e) => {
      failures.push(e);
      channel.push({ type: 'ERROR', object: String((e as Error).message) }, false);
      channel.end();
    });
    events.send('ADDED', 0, true);
    events.send('ADDED', 1, true);
    events.send('MODIFIED', 2, true);
    events.send('DELETED', 3, true);
    events.sendEvent({ type: 'BOOKMARK', object: {} });
    expect((await drain(channel)).map((e) => `${e.type} ${String(e.object)}`)).toEqual(['ADDED 0', 'ADDED 10', 'ERROR bad 2']);
    expect(failures).toHaveLength(1);
  });

  it('closes a watcher whose events wait behind a slow conversion beyond the channel capacity', async () => {
    const channel = new WatchChannel(3);
    const events = new OrderedEvents(channel, 3, conversion(new Map([[0, 20]])), () => undefined);
    for (let v = 0; v < 5; v++) events.send('ADDED', v, true);
    expect(channel.overflowed).toBe(true);
    expect(await drain(channel)).toEqual([]);
  });

  it('passes synchronous conversions straight through', () => {
    const channel = new WatchChannel(10);
    const events = new OrderedEvents(channel, 10, conversion(new Map()), () => undefined);
    events.send('ADDED', 1, true);
    events.sendAll('ADDED', [2, 3], false);
    expect(channel.pending).toBe(3);
  });
});
