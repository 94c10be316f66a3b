/**
 * Child process of the memory suite (figure 6); needs `--expose-gc`. Creates 100,000 ConfigMaps of
 * ~1 KB (as sent) through the in-process client in 5 batches of 20,000, collecting garbage before
 * and after each batch, and prints one JSON line: heap growth per object of each batch
 * (delta of process.memoryUsage().heapUsed + external, / 20,000), and the mean JSON size of the objects as sent and
 * as stored (what `get` answers: with uid, resourceVersion, creationTimestamp, managedFields).
 * Usage: node --expose-gc --import tsx bench/suites/memory-child.ts
 */
import { createCluster, kinds, type KubeObject, type ResourceClient } from '../../src/index.js';
import { benchConfigMap } from '../configmap.js';

const BATCHES = 5;
const PER_BATCH = 20_000;
const gc = (globalThis as { gc?: () => void }).gc;
if (!gc) throw new Error('run with node --expose-gc');

function collect(): number {
  // Several passes: the first can leave objects that only become garbage after finalization.
  for (let k = 0; k < 4; k++) gc!();
  // heapUsed plus memory outside the V8 heap (Buffers, ArrayBuffers), so a store that kept its
  // objects in Buffers could not hide them from the figure.
  const m = process.memoryUsage();
  return m.heapUsed + m.external;
}

const template = benchConfigMap('template');
const cluster = await createCluster();
const cms = cluster.client.resource(kinds.ConfigMapKind) as unknown as ResourceClient<KubeObject>;
await cms.create({ ...template, metadata: { name: 'warm' } } as unknown as KubeObject); // first-call setup out of the figure
await cms.delete('warm');

const perObject: number[] = [];
let sentBytes = 0;
let n = 0;
let heap = collect();
const startHeap = heap;
for (let b = 0; b < BATCHES; b++) {
  for (let i = 0; i < PER_BATCH; i++) {
    const obj = { ...template, metadata: { name: `cm-${n++}` } };
    sentBytes += JSON.stringify(obj).length;
    await cms.create(obj as unknown as KubeObject);
  }
  const now = collect();
  perObject.push((now - heap) / PER_BATCH);
  heap = now;
  process.stderr.write(`  memory: ${n} objects, heap +${((now - startHeap) / 2 ** 20).toFixed(0)} MiB\n`);
}
let storedBytes = 0;
let sampled = 0;
for (let i = 0; i < n; i += 1000) {
  storedBytes += JSON.stringify(await cms.get(`cm-${i}`)).length;
  sampled++;
}
process.stdout.write(
  `${JSON.stringify({ objects: n, perObject, totalPerObject: (heap - startHeap) / n, sentJsonBytes: sentBytes / n, storedJsonBytes: storedBytes / sampled })}\n`,
);
await cluster.close();
