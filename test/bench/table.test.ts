import { describe, expect, it } from 'vitest';
import { figure } from '../../bench/figure.js';
import { figureTable, metText, ratioTable, renderTable, targetText } from '../../bench/table.js';

const get = figure({ id: 'http-get', title: 'HTTP GET', unit: 'req/s', baselineName: 'bare', target: { op: '>=', ratio: 0.8 } }, [50, 60, 70], [100, 100, 100]);
const list = figure({ id: 'client-list', title: 'list', unit: 'ops/s', baselineName: 'Map' }, [10, 11, 12], [10, 10, 10]);
const memory = figure(
  { id: 'memory', title: 'heap', unit: 'B/object', baselineName: 'JSON', absoluteTarget: { op: '<=', value: 1536 } },
  [1200, 1230, 1250],
  [1378, 1378, 1378],
);
const cpu = figure(
  { id: 'http-create-cpu', title: 'CPU', unit: 'µs', baselineName: 'bare', target: { op: '<=', ratio: 3 }, absoluteTarget: { op: '<=', value: 100 } },
  [120, 125, 130],
  [50, 50, 50],
);
const p99 = figure({ id: 'scale-delivery-p99', title: 'p99', unit: 'ms', baselineName: 'none' }, [4.5], null);

describe('bench/table.ts', () => {
  it('writes targets and aligns columns', () => {
    expect(targetText(get)).toBe('>= 0.8×');
    expect(targetText(list)).toBe('report');
    expect(targetText(memory)).toBe('<= 1,536 B/object');
    expect(targetText(cpu)).toBe('<= 100 µs and <= 3×');
    expect(metText(memory)).toBe('yes');
    expect(metText(cpu)).toBe('NO (absolute)');
    expect(metText(get)).toBe('NO');
    expect(metText(list)).toBe('-');
    expect(renderTable(['a', 'long header'], [['wide cell', 'x']]).split('\n')).toEqual([
      'a         | long header',
      '----------|------------',
      'wide cell | x',
    ]);
  });

  it('prints every figure in full, or only the ratios for --quick, with errors as NO', () => {
    const error = { id: 'startup', title: 'startup', error: 'build failed\nat line 2' };
    const full = figureTable([get, list], [error]);
    expect(full).toContain('http-get: HTTP GET | 60 [50–70] req/s | 100 [100–100] req/s | 0.6 [0.5–0.7]× | >= 0.8× | NO');
    expect(full).toMatch(/startup: startup\s+\| ERROR\s+\| build failed\s+\|/);
    const quick = ratioTable([get, list], [error]).split('\n');
    expect(quick[0]).toMatch(/^figure\s+\| ratio \(ours \/ baseline\) \| ours \| target\s+\| met\?$/);
    expect(quick[2]).toMatch(/^http-get\s+\| 0.6 \[0.5–0.7\]×\s+\|\s+\| >= 0.8× \| NO$/);
    expect(quick[3]).toMatch(/^client-list \| 1.1 \[1–1.2\]×\s+\|\s+\| report\s+\| -$/);
    expect(quick[4]).toMatch(/^startup\s+\| ERROR/);
    expect(quick.join('\n')).not.toContain('req/s');
  });

  it('shows ours beside an absolute target, and no ratio for a figure without a baseline', () => {
    const full = figureTable([memory, cpu, p99], []);
    expect(full).toMatch(
      /^memory: heap\s+\| 1,230 \[1,200–1,250\] B\/object \| 1,378 \[1,378–1,378\] B\/object \| 0.893 \[0.871–0.907\]× \| <= 1,536 B\/object\s+\| yes$/m,
    );
    expect(full).toMatch(
      /^http-create-cpu: CPU\s+\| 125 \[120–130\] µs\s+\| 50 \[50–50\] µs\s+\| 2.5 \[2.4–2.6\]×\s+\| <= 100 µs and <= 3× \| NO \(absolute\)$/m,
    );
    expect(full).toMatch(/^scale-delivery-p99: p99\s+\| 4.5 ms\s+\| -\s+\| -\s+\| report\s+\| -$/m);
    const quick = ratioTable([list, memory, cpu], []).split('\n');
    expect(quick[0]).toMatch(/^figure\s+\| ratio \(ours \/ baseline\) \| ours\s+\| target\s+\| met\?$/);
    expect(quick[2]).toMatch(/^client-list\s+\| 1.1 \[1–1.2\]×\s+\|\s+\| report/);
    expect(quick[3]).toMatch(/^memory\s+\| 0.893 \[0.871–0.907\]×\s+\| 1,230 \[1,200–1,250\] B\/object \| <= 1,536 B\/object\s+\| yes$/);
    expect(quick[4]).toMatch(/^http-create-cpu \| 2.5 \[2.4–2.6\]×\s+\| 125 \[120–130\] µs\s+\| <= 100 µs and <= 3× \| NO \(absolute\)$/);
  });
});
