/**
 * Child process of the cost-growth suite (figure 5). Populates clusters through the in-process
 * client once (1,000, 10,000 and 100,000 ConfigMaps of ~1 KB, 10% labelled `tier=ten`; and two
 * small clusters, one with 1,000 watchers on other namespaces), then measures in interleaved rounds:
 * - get at 100,000 vs at 1,000 objects (random names), and for reference the same on a plain Map,
 * - a list page (limit 500, `tier=ten`) at 100,000 vs at 10,000,
 * - a create with 1,000 watchers on other namespaces vs with none.
 * Prints one JSON line: per-round microseconds per call of each side. Progress goes to stderr.
 * Usage: node --import tsx bench/suites/growth-child.ts ROUNDS
 */
import { createCluster, kinds, type KubeObject, type ResourceClient } from '../../src/index.js';
import { benchConfigMap } from '../configmap.js';
import { timePerOp } from '../figure.js';

const rounds = Number(process.argv[2] ?? 5);
const template = benchConfigMap('template');
const log = (line: string) => process.stderr.write(`  growth: ${line}\n`);

type ConfigMaps = ResourceClient<KubeObject>;

async function populated(count: number): Promise<{ cms: ConfigMaps; close(): Promise<void> }> {
  const cluster = await createCluster();
  const cms = cluster.client.resource(kinds.ConfigMapKind) as unknown as ConfigMaps;
  const t0 = performance.now();
  for (let i = 0; i < count; i++) {
    const metadata = i % 10 === 0 ? { name: `cm-${i}`, labels: { tier: 'ten' } } : { name: `cm-${i}` };
    await cms.create({ ...template, metadata } as unknown as KubeObject);
  }
  if (count > 0) log(`${count} objects created in ${((performance.now() - t0) / 1000).toFixed(1)} s`);
  return { cms, close: () => cluster.close() };
}

/** A small deterministic PRNG (xorshift32), so both sides draw the same kind of name sequence. */
function randomIndex(seed: number, below: number): () => number {
  let x = seed;
  return () => {
    x ^= x << 13;
    x ^= x >>> 17;
    x ^= x << 5;
    return (x >>> 0) % below;
  };
}

async function pair(ms: number, ours: () => unknown, baseline: () => unknown): Promise<{ ours: number[]; baseline: number[] }> {
  // Untimed warm-up of both, then the interleaved rounds.
  await timePerOp(ms, ours);
  await timePerOp(ms, baseline);
  const a: number[] = [];
  const b: number[] = [];
  for (let r = 0; r < rounds; r++) {
    a.push(await timePerOp(ms, ours));
    b.push(await timePerOp(ms, baseline));
  }
  return { ours: a, baseline: b };
}

const small = await populated(1_000);
const medium = await populated(10_000);
const large = await populated(100_000);

log('get');
const nextLarge = randomIndex(0x9e3779b9, 100_000);
const nextSmall = randomIndex(0x9e3779b9, 1_000);
const get = await pair(
  200,
  () => large.cms.get(`cm-${nextLarge()}`, { namespace: 'default' }),
  () => small.cms.get(`cm-${nextSmall()}`, { namespace: 'default' }),
);

// Reference, not a target: the same random gets on a plain Map with structuredClone, which shows
// what the memory hierarchy alone costs between a 1,000- and a 100,000-entry working set.
log('get on a plain Map');
const sample = await large.cms.get('cm-1', { namespace: 'default' });
const plainMap = (count: number) => {
  const map = new Map<string, unknown>();
  for (let i = 0; i < count; i++) map.set(`default/cm-${i}`, structuredClone({ ...sample, metadata: { ...sample.metadata, name: `cm-${i}`, uid: `${i}` } }));
  return map;
};
const bigMap = plainMap(100_000);
const smallMap = plainMap(1_000);
const nextBigMap = randomIndex(0x9e3779b9, 100_000);
const nextSmallMap = randomIndex(0x9e3779b9, 1_000);
const mapGet = await pair(
  200,
  () => structuredClone(bigMap.get(`default/cm-${nextBigMap()}`)),
  () => structuredClone(smallMap.get(`default/cm-${nextSmallMap()}`)),
);
bigMap.clear();

log('list');
const page = { namespace: 'default', labelSelector: 'tier=ten', limit: 500 };
for (const side of [medium, large]) {
  const first = await side.cms.list(page);
  if (first.items.length !== 500) throw new Error(`a list page held ${first.items.length} items, not 500`);
}
const list = await pair(
  300,
  () => large.cms.list(page),
  () => medium.cms.list(page),
);
await small.close();
await medium.close();
await large.close();

log('watchers');
const quiet = await populated(0);
const watched = await createCluster();
const watchedCms = watched.client.resource(kinds.ConfigMapKind) as unknown as ConfigMaps;
const streams = [];
for (let k = 0; k < 1_000; k++) streams.push(await watchedCms.watch({ namespace: `watch-${k}` }));
if (watched.activeWatchers !== 1_000) throw new Error(`${watched.activeWatchers} watchers registered, not 1000`);
let w = 0;
let q = 0;
const write = await pair(
  250,
  () => watchedCms.create({ ...template, metadata: { name: `w-${w++}` } } as unknown as KubeObject, { namespace: 'default' }),
  () => quiet.cms.create({ ...template, metadata: { name: `w-${q++}` } } as unknown as KubeObject, { namespace: 'default' }),
);
for (const s of streams) s.close();
await watched.close();
await quiet.close();

process.stdout.write(`${JSON.stringify({ get, mapGet, list, write })}\n`);
