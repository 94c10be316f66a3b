/**
 * Figure 4, the in-process client: create, get, update, list and patch, one call at a time, each
 * against a plain Map with structuredClone doing the least the same call must do (store a copy,
 * hand the caller a copy). No floor yet: the ratio shows what the engine's pipeline costs (schema
 * decoding and validation, defaulting, admission, resourceVersions, managedFields, the change log
 * and watch fan-out, copies at the client boundary) over bare storage.
 */
import type { KubeObject, ResourceClient } from '../../src/index.js';
import { benchConfigMap, type BenchConfigMap } from '../configmap.js';
import { cpuTimePerOp, figure, interleave, timePerOp, type AbsoluteTarget, type FigureResult, type Suite } from '../figure.js';

/** Length of one measured round per side (shorter with `--quick`). */
const PACE = { full: 250, quick: 120 };
/** Objects in the namespace that get and list work on. */
const OBJECTS = 100;

type Obj = BenchConfigMap & { metadata: { resourceVersion?: string } };
type Op = () => unknown;
type ConfigMaps = ResourceClient<KubeObject>;

const template = benchConfigMap('template');
/** A ConfigMap named `name`, made the same cheap way on both sides. */
const named = (name: string): Obj => ({ ...template, metadata: { name } });

/** Clusters to close once their case is measured. */
const opened: { close(): Promise<void> }[] = [];

/** Our side: a fresh cluster, prepared, then the operation to time. */
async function ours(prepare: (cms: ConfigMaps) => Promise<Op>): Promise<Op> {
  // Imported here, so suites that do not need the engine do not load it.
  const { createCluster, kinds } = await import('../../src/index.js');
  const cluster = await createCluster();
  opened.push(cluster);
  return prepare(cluster.client.resource(kinds.ConfigMapKind) as unknown as ConfigMaps);
}

async function fillOurs(cms: ConfigMaps): Promise<void> {
  for (let i = 0; i < OBJECTS; i++) await cms.create(named(`o-${i}`) as unknown as KubeObject);
}

function fillMap(map: Map<string, Obj>): void {
  for (let i = 0; i < OBJECTS; i++) map.set(`o-${i}`, structuredClone(named(`o-${i}`)));
}

interface Case {
  id: string;
  title: string;
  baselineName: string;
  /**
   * Bound of ours in ops per CPU-second; such a case is timed by the process's CPU time
   * (`cpuTimePerOp`), both sides, so the shared machine's other work moves it less.
   */
  cpuTarget?: AbsoluteTarget;
  ours(): Promise<Op>;
  baseline(): Op;
}

const cases: Case[] = [
  {
    id: 'client-create',
    title: 'in-process create 1 KB ConfigMap',
    baselineName: 'Map.set(structuredClone) + clone back',
    cpuTarget: { op: '>=', value: 50_000 },
    ours: () =>
      ours(async (cms) => {
        let n = 0;
        return () => cms.create(named(`c-${n++}`) as unknown as KubeObject);
      }),
    baseline: () => {
      const map = new Map<string, Obj>();
      let n = 0;
      return () => {
        const key = `c-${n++}`;
        if (map.has(key)) throw new Error(`${key} exists`);
        const stored = structuredClone(named(key));
        map.set(key, stored);
        return structuredClone(stored);
      };
    },
  },
  {
    id: 'client-get',
    title: 'in-process get',
    baselineName: 'structuredClone(Map.get)',
    cpuTarget: { op: '>=', value: 500_000 },
    ours: () =>
      ours(async (cms) => {
        await fillOurs(cms);
        let n = 0;
        return () => cms.get(`o-${n++ % OBJECTS}`);
      }),
    baseline: () => {
      const map = new Map<string, Obj>();
      fillMap(map);
      let n = 0;
      return () => structuredClone(map.get(`o-${n++ % OBJECTS}`));
    },
  },
  {
    id: 'client-update',
    title: 'in-process update',
    baselineName: 'Map.set(structuredClone) + clone back',
    ours: () =>
      ours(async (cms) => {
        let current = (await cms.create(named('u') as unknown as KubeObject)) as unknown as Obj;
        let n = 0;
        return async () => {
          current = (await cms.update({ ...current, data: { ...template.data, n: String(n++) } } as unknown as KubeObject)) as unknown as Obj;
        };
      }),
    baseline: () => {
      const map = new Map<string, Obj>([['u', structuredClone(named('u'))]]);
      let n = 0;
      return () => {
        const stored = structuredClone({ ...map.get('u')!, data: { ...template.data, n: String(n++) } });
        map.set('u', stored);
        return structuredClone(stored);
      };
    },
  },
  {
    id: 'client-list',
    title: `in-process list of ${OBJECTS}`,
    baselineName: `structuredClone of ${OBJECTS} Map values`,
    ours: () =>
      ours(async (cms) => {
        await fillOurs(cms);
        return () => cms.list({ namespace: 'default' });
      }),
    baseline: () => {
      const map = new Map<string, Obj>();
      fillMap(map);
      return () => ({ items: structuredClone(Array.from(map.values())) });
    },
  },
  {
    id: 'client-patch',
    title: 'in-process merge patch',
    baselineName: 'clone, assign, Map.set + clone back',
    ours: () =>
      ours(async (cms) => {
        await cms.create(named('p') as unknown as KubeObject);
        let n = 0;
        return () => cms.patch('p', { data: { n: String(n++) } }, { type: 'merge' });
      }),
    baseline: () => {
      const map = new Map<string, Obj>([['p', structuredClone(named('p'))]]);
      let n = 0;
      return () => {
        const next = structuredClone(map.get('p')!);
        Object.assign(next.data, { n: String(n++) });
        map.set('p', next);
        return structuredClone(next);
      };
    },
  },
];

/** The in-process client suite. */
export const clientSuite: Suite = {
  name: 'client',
  figures: cases.map((c) => ({ id: c.id, title: c.title })),
  quick: true,
  async run(rounds, log, pace) {
    const ROUND_MS = pace.quick ? PACE.quick : PACE.full;
    const results: FigureResult[] = [];
    for (const c of cases) {
      log(c.id);
      const oursOp = await c.ours();
      const baseOp = c.baseline();
      const time = c.cpuTarget ? cpuTimePerOp : timePerOp;
      // One untimed round each first: JIT warm-up.
      // The warm-up is as long either way: shorter ones leave the JIT cold and the figure wrong.
      await time(PACE.full, oursOp);
      await time(PACE.full, baseOp);
      const { ours: a, baseline: z } = await interleave(
        rounds,
        async () => 1e6 / (await time(ROUND_MS, oursOp)),
        async () => 1e6 / (await time(ROUND_MS, baseOp)),
      );
      for (const cluster of opened.splice(0)) await cluster.close();
      results.push(
        figure(
          c.cpuTarget
            ? {
                id: c.id,
                title: `${c.title} (one core)`,
                unit: 'ops/CPU-s',
                baselineName: c.baselineName,
                absoluteTarget: c.cpuTarget,
                note: `one call at a time, ${ROUND_MS} ms of CPU time per round; both sides timed by the process's CPU time (process.cpuUsage, user + system), so ops per CPU-second: what one core does`,
              }
            : { id: c.id, title: c.title, unit: 'ops/s', baselineName: c.baselineName, note: `one call at a time, ${ROUND_MS} ms per round` },
          a,
          z,
        ),
      );
    }
    return results;
  },
};
