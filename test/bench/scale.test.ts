import { spawnSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import type { ScaleResult } from '../../bench/suites/scale-child.js';

describe('the scale suite child', () => {
  it('creates the pods on their nodes, checks every informer cache and lists them all in pages of 500', () => {
    // 600 pods on 3 nodes: two pages for the full list.
    const r = spawnSync(process.execPath, ['--expose-gc', '--import', 'tsx', 'bench/suites/scale-child.ts', '600', '3', '5000', '1'], {
      encoding: 'utf8',
      timeout: 120_000,
    });
    expect(r.stderr).not.toContain('caches are wrong');
    expect(r.status).toBe(0);
    const result = JSON.parse(r.stdout.trim().split('\n').pop()!) as ScaleResult;
    expect(result).toMatchObject({ pods: 600, nodes: 3, informers: 3, targetRate: 5000 });
    expect(result.segmentRates).toHaveLength(5);
    expect(result.segmentP99Ms).toHaveLength(5);
    expect(result.list.pages).toBe(2);
    expect(result.list.ours).toHaveLength(1);
    expect(result.delivery.p99).toBeGreaterThan(0);
    expect(result.createCpuMs).toBeGreaterThan(0);
    expect(result.delivery.max).toBeLessThan(60_000);
    expect(result.storedPodJsonBytes).toBeGreaterThan(500);
  }, 150_000);

  it('refuses arguments that are not positive whole numbers', () => {
    const r = spawnSync(process.execPath, ['--expose-gc', '--import', 'tsx', 'bench/suites/scale-child.ts', '10', '0', '5', '1'], {
      encoding: 'utf8',
      timeout: 60_000,
    });
    expect(r.status).not.toBe(0);
    expect(r.stderr).toContain('usage: scale-child.ts PODS NODES RATE LIST_ROUNDS');
  });
});
