import { describe, expect, it } from 'vitest';
import { CounterRegistry } from '../../src/machinery/counters.js';

describe('CounterRegistry', () => {
  it('counts per name and label set, whatever the order of the labels', () => {
    const r = new CounterRegistry();
    r.define('a_total', 'How many a.');
    r.inc('a_total', { x: '1', y: '2' });
    r.inc('a_total', { y: '2', x: '1' }, 2);
    r.inc('a_total', { x: 'other' });
    r.inc('b_total');
    expect(r.value('a_total', { x: '1', y: '2' })).toBe(3);
    expect(r.value('a_total', { x: 'other' })).toBe(1);
    expect(r.value('a_total')).toBe(0);
    expect(r.value('never')).toBe(0);
    expect(r.samples()).toEqual([
      { name: 'a_total', help: 'How many a.', labels: { x: '1', y: '2' }, value: 3 },
      { name: 'a_total', help: 'How many a.', labels: { x: 'other' }, value: 1 },
      { name: 'b_total', help: '', labels: {}, value: 1 },
    ]);
  });

  it('refuses to count down, as a Prometheus counter does', () => {
    const r = new CounterRegistry();
    expect(() => r.inc('a_total', {}, -1)).toThrow('counter a_total: cannot add -1');
    expect(() => r.inc('a_total', {}, Number.NaN)).toThrow(RangeError);
  });

  it('hands out copies, so readers cannot change the counts', () => {
    const r = new CounterRegistry();
    const labels = { s: 'x' };
    r.inc('c_total', labels);
    labels.s = 'y';
    const [sample] = r.samples();
    (sample!.labels as Record<string, string>).s = 'z';
    expect(r.value('c_total', { s: 'x' })).toBe(1);
  });
});
