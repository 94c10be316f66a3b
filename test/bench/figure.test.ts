import { spawnSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { cpuTimePerOp, figure, meetsAbsolute } from '../../bench/figure.js';

const spec = { id: 'client-create', title: 'create', unit: 'ops/CPU-s', baselineName: 'Map' };

describe('bench figures with absolute targets', () => {
  it('judges the median of ours against an absolute target, in the figure unit', () => {
    // Medians: ours 60,000 ops/s; ratio 0.6. Only the absolute bound counts.
    const f = figure({ ...spec, absoluteTarget: { op: '>=', value: 50_000 } }, [40_000, 60_000, 70_000], [100_000, 100_000, 100_000]);
    expect(f.absoluteTarget).toEqual({ op: '>=', value: 50_000 });
    expect(f.target).toBeUndefined();
    expect(f.met).toBe(true);
    expect(f.metBy).toEqual({ absolute: true });
    const slow = figure({ ...spec, absoluteTarget: { op: '>=', value: 50_000 } }, [40_000, 45_000, 70_000], [1, 1, 1]);
    expect(slow.met).toBe(false);
    expect(meetsAbsolute(1536, { op: '<=', value: 1536 })).toBe(true);
    expect(meetsAbsolute(1537, { op: '<=', value: 1536 })).toBe(false);
    expect(meetsAbsolute(NaN, { op: '>=', value: 0 })).toBe(false);
  });

  it('is met only when every target it has is met', () => {
    const both = (ours: number[]) =>
      figure({ ...spec, unit: 'µs', target: { op: '<=', ratio: 2 }, absoluteTarget: { op: '<=', value: 100 } }, ours, [60, 60, 60]);
    expect(both([90, 90, 90])).toMatchObject({ met: true, metBy: { ratio: true, absolute: true } });
    // 130 µs: within 2× of 60 µs but above 100 µs.
    expect(both([130, 130, 130])).toMatchObject({ met: false, metBy: { ratio: false, absolute: false } });
    expect(both([110, 110, 110])).toMatchObject({ met: false, metBy: { ratio: true, absolute: false } });
  });

  it('may have no baseline: no ratio, and only an absolute target can judge it', () => {
    const f = figure({ ...spec, unit: 'ms', baselineName: 'none' }, [3, 1, 2], null);
    expect(f.ours.median).toBe(2);
    expect(f.baseline.n).toBe(0);
    expect(f.ratio.n).toBe(0);
    expect(f.samples.baseline).toEqual([]);
    expect(f.met).toBeUndefined();
    expect(figure({ ...spec, unit: 'ms', baselineName: 'none', absoluteTarget: { op: '<=', value: 2 } }, [3, 1, 2], null).met).toBe(true);
  });
});

describe('cpuTimePerOp', () => {
  /** A fixed amount of CPU work (not a wall-clock spin, which a loaded machine would stretch). */
  const work = () => {
    let x = 0;
    for (let k = 0; k < 200_000; k++) x = (x * 31 + k) % 1_000_003;
    return x;
  };

  it('does not count the time a call waits', () => {
    // Each call waits 2 ms on a timer and does next to no work: the round ends by the wall-clock
    // limit (20 × 5 ms), long before it used 5 ms of CPU time. It runs in a process of its own:
    // process CPU time counts every thread, and a test worker's process may still be busy with the
    // work of the files it ran before. A first round, not counted, lets the new process finish
    // what its start leaves to V8's helper threads (compiling, collecting), which a slow machine
    // still runs during the measured round otherwise.
    const script = [
      "import { cpuTimePerOp } from './bench/figure.ts';",
      'const wait = () => new Promise((resolve) => setTimeout(resolve, 2));',
      'await cpuTimePerOp(5, wait);',
      'const t0 = performance.now();',
      'const cpu = await cpuTimePerOp(5, wait);',
      'console.log(JSON.stringify({ wall: performance.now() - t0, cpu }));',
    ].join('\n');
    const r = spawnSync(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], { encoding: 'utf8', timeout: 60_000 });
    expect(r.stderr).toBe('');
    const { wall, cpu } = JSON.parse(r.stdout) as { wall: number; cpu: number };
    expect(wall).toBeLessThan(1000);
    expect(cpu).toBeGreaterThan(0);
    // Counting the waits would make it at least 2,000 µs per call.
    expect(cpu).toBeLessThan(1000);
  });

  it('counts the CPU time a call spends', async () => {
    // Against the same work timed directly; wide bounds: the JIT may speed it up between the two.
    const c0 = process.cpuUsage();
    for (let k = 0; k < 50; k++) work();
    const c = process.cpuUsage(c0);
    const direct = (c.user + c.system) / 50;
    const c1 = process.cpuUsage();
    const measured = await cpuTimePerOp(40, work);
    // The round lasted 40 ms of CPU time, give or take the last 32 calls.
    const round = process.cpuUsage(c1);
    expect(round.user + round.system).toBeGreaterThanOrEqual(40_000);
    expect(measured).toBeGreaterThan(direct * 0.25);
    expect(measured).toBeLessThan(direct * 4);
  });
});
