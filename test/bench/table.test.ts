import { describe, expect, it } from 'vitest';
import { figure } from '../../bench/figure.js';
import { figureTable, ratioTable, renderTable, targetText } from '../../bench/table.js';

const get = figure({ id: 'http-get', title: 'HTTP GET', unit: 'req/s', baselineName: 'bare', target: { op: '>=', ratio: 0.8 } }, [50, 60, 70], [100, 100, 100]);
const list = figure({ id: 'client-list', title: 'list', unit: 'ops/s', baselineName: 'Map' }, [10, 11, 12], [10, 10, 10]);

describe('bench/table.ts', () => {
  it('writes targets and aligns columns', () => {
    expect(targetText(get)).toBe('>= 0.8×');
    expect(targetText(list)).toBe('report');
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
    expect(quick[0]).toMatch(/^figure\s+\| ratio \(ours \/ baseline\) \| target\s+\| met\?$/);
    expect(quick[2]).toMatch(/^http-get\s+\| 0.6 \[0.5–0.7\]×\s+\| >= 0.8× \| NO$/);
    expect(quick[3]).toMatch(/^client-list \| 1.1 \[1–1.2\]×\s+\| report\s+\| -$/);
    expect(quick[4]).toMatch(/^startup\s+\| ERROR/);
    expect(quick.join('\n')).not.toContain('req/s');
  });
});
