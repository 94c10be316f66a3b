/**
 * Snapshots, resets and forks of a cluster holding a fixture of 5,000 ConfigMaps (1 KB each, one of
 * ten labels): what per-test isolation costs. Snapshot and reset are measured beside a plain Map
 * copy of 5,000 entries, the least a copying fixture would cost; fork beside `createCluster()`
 * without a fixture, whose work a fork shares with its source instead of doing it again. Before
 * each reset one fixture object is changed and one object created (what a test does), and only
 * the reset is timed.
 */
import type { Cluster, ClusterSnapshot } from '../../src/index.js';
import { benchConfigMap } from '../configmap.js';
import { figure, interleave, type FigureResult, type Suite } from '../figure.js';

const FIXTURE = 5000;
/** Operations per round (fewer for the forks, which each build a cluster). */
const OPS = { full: 200, quick: 50 };
const FORKS = { full: 20, quick: 5 };

async function fixtureCluster(): Promise<Cluster> {
  // Imported here, so suites that do not need the engine do not load it.
  const { createCluster, kinds } = await import('../../src/index.js');
  const cluster = await createCluster({ metrics: false });
  const cms = cluster.client.resource(kinds.ConfigMapKind);
  for (let i = 0; i < FIXTURE; i++) await cms.create(benchConfigMap(`fixture-${i}`, { app: `a${i % 10}` }));
  await cluster.settle();
  return cluster;
}

/** Mean microseconds of `timed` over `n` calls, each after an untimed `before`. */
async function meanMicros(n: number, timed: () => unknown, before?: (i: number) => Promise<unknown>): Promise<number> {
  let total = 0;
  for (let i = 0; i < n; i++) {
    await before?.(i);
    const t0 = performance.now();
    await timed();
    total += performance.now() - t0;
  }
  return (total * 1000) / n;
}

/** The baseline of snapshot and reset: a copy of a Map of 5,000 entries. */
function mapCopy(): () => unknown {
  const map = new Map<string, object>();
  for (let i = 0; i < FIXTURE; i++) map.set(`default/fixture-${i}`, { i });
  return () => new Map(map);
}

const FIGURES = [
  { id: 'fork-snapshot', title: `cluster.snapshot() of ${FIXTURE} objects` },
  { id: 'fork-reset', title: `cluster.reset() to ${FIXTURE} objects after a test's writes` },
  { id: 'fork', title: `cluster.fork() of ${FIXTURE} objects` },
];

/** The fork suite. */
export const forkSuite: Suite = {
  name: 'fork',
  figures: FIGURES,
  async run(rounds, log, pace) {
    const ops = pace.quick ? OPS.quick : OPS.full;
    const forks = pace.quick ? FORKS.quick : FORKS.full;
    const { createCluster, kinds } = await import('../../src/index.js');
    log('fixture');
    const cluster = await fixtureCluster();
    const cms = cluster.client.resource(kinds.ConfigMapKind);
    const snapshot: ClusterSnapshot = cluster.snapshot();
    const copy = mapCopy();
    const results: FigureResult[] = [];
    try {
      log('fork-snapshot');
      const snap = await interleave(
        rounds,
        () => meanMicros(ops, () => cluster.snapshot()),
        () => meanMicros(ops, copy),
      );
      results.push(
        figure({ id: 'fork-snapshot', title: FIGURES[0]!.title, unit: 'µs', baselineName: `new Map() of ${FIXTURE} entries` }, snap.ours, snap.baseline),
      );

      log('fork-reset');
      const aTest = async (i: number) => {
        await cms.patch(`fixture-${i % FIXTURE}`, { data: { changed: 'yes' } }, { type: 'merge', namespace: 'default' });
        await cms.create(benchConfigMap(`made-by-test-${i}`));
      };
      const reset = await interleave(
        rounds,
        () => meanMicros(ops, () => cluster.reset(snapshot), aTest),
        () => meanMicros(ops, copy),
      );
      results.push(
        figure(
          {
            id: 'fork-reset',
            title: FIGURES[1]!.title,
            unit: 'µs',
            baselineName: `new Map() of ${FIXTURE} entries`,
            note: 'aim: under 1 ms; includes settle()',
          },
          reset.ours,
          reset.baseline,
        ),
      );

      log('fork');
      const opened: Cluster[] = [];
      const fork = await interleave(
        rounds,
        () => meanMicros(forks, async () => opened.push(await cluster.fork())),
        () => meanMicros(forks, async () => opened.push(await createCluster({ metrics: false }))),
      );
      for (const c of opened.splice(0)) await c.close();
      results.push(
        figure(
          {
            id: 'fork',
            title: FIGURES[2]!.title,
            unit: 'µs',
            baselineName: 'createCluster() without a fixture',
            note: 'aim: under 1 ms; a fork shares with its source what the options make',
          },
          fork.ours,
          fork.baseline,
        ),
      );
    } finally {
      await cluster.close();
    }
    return results;
  },
};
