/**
 * Benchmarks: each figure is measured beside a baseline in the same run, because shared machines
 * drift. This first set covers the in-process client against a plain Map with structuredClone.
 * `npm run bench -- --json` prints JSON.
 */
import { createCluster, kinds } from '../src/index.js';

interface Figure {
  name: string;
  opsPerSecond: number;
  baselineOpsPerSecond: number;
  ratio: number;
}

async function rate(ops: number, fn: (i: number) => Promise<unknown> | unknown): Promise<number> {
  const start = process.hrtime.bigint();
  for (let i = 0; i < ops; i++) await fn(i);
  const seconds = Number(process.hrtime.bigint() - start) / 1e9;
  return ops / seconds;
}

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)]!;
}

async function measure(name: string, ops: number, run: () => Promise<(i: number) => Promise<unknown>>, baseline: () => (i: number) => unknown): Promise<Figure> {
  const ours: number[] = [];
  const base: number[] = [];
  for (let r = 0; r < 5; r++) {
    ours.push(await rate(ops, await run()));
    base.push(await rate(ops, baseline()));
  }
  const o = median(ours);
  const b = median(base);
  return { name, opsPerSecond: Math.round(o), baselineOpsPerSecond: Math.round(b), ratio: Number((o / b).toFixed(3)) };
}

const payload = (i: number) => ({ metadata: { name: `cm-${i}` }, data: { value: 'x'.repeat(900) } });

const figures: Figure[] = [];
figures.push(
  await measure(
    'in-process create (1 KB ConfigMap)',
    2000,
    async () => {
      const cluster = await createCluster();
      const cms = cluster.client.resource(kinds.ConfigMapKind);
      return (i) => cms.create(payload(i), { namespace: 'default' });
    },
    () => {
      const map = new Map<string, unknown>();
      return (i) => map.set(`default/cm-${i}`, structuredClone(payload(i)));
    },
  ),
);
figures.push(
  await measure(
    'in-process get',
    5000,
    async () => {
      const cluster = await createCluster();
      const cms = cluster.client.resource(kinds.ConfigMapKind);
      for (let i = 0; i < 100; i++) await cms.create(payload(i), { namespace: 'default' });
      return (i) => cms.get(`cm-${i % 100}`, { namespace: 'default' });
    },
    () => {
      const map = new Map<string, unknown>();
      for (let i = 0; i < 100; i++) map.set(`default/cm-${i}`, payload(i));
      return (i) => structuredClone(map.get(`default/cm-${i % 100}`));
    },
  ),
);

if (process.argv.includes('--json')) {
  console.log(JSON.stringify(figures, null, 2));
} else {
  for (const f of figures) {
    console.log(`${f.name}: ${f.opsPerSecond} ops/s; baseline ${f.baselineOpsPerSecond} ops/s; ratio ${f.ratio}`);
  }
}
