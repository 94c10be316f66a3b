/**
 * Figure 6, memory: heap growth per object for 100,000 ConfigMaps of ~1 KB, against the JSON size
 * of the object as stored (what `get` answers), shown as a ratio. Target: at most 1,536 B (1.5 KB)
 * per object, absolute. Measured in a child process
 * with a fresh heap and --expose-gc (memory-child.ts); each of 5 batches of 20,000 objects is one
 * sample.
 */
import { figure, type Suite } from '../figure.js';
import { runJsonChild } from '../processes.js';

interface MemoryResult {
  objects: number;
  perObject: number[];
  totalPerObject: number;
  sentJsonBytes: number;
  storedJsonBytes: number;
}

/** The memory suite. */
export const memorySuite: Suite = {
  name: 'memory',
  figures: [{ id: 'memory', title: 'heap per object at 100k ConfigMaps' }],
  async run() {
    const r = await runJsonChild<MemoryResult>('bench/suites/memory-child.ts', [], ['--expose-gc']);
    const stored = r.perObject.map(() => r.storedJsonBytes);
    return [
      figure(
        {
          id: 'memory',
          title: `heap growth per object, ${r.objects.toLocaleString('en-US')} ConfigMaps`,
          unit: 'B/object',
          baselineName: 'JSON size of the stored object',
          absoluteTarget: { op: '<=', value: 1536 },
          note:
            `heapUsed + external delta after gc per batch of 20,000; stored JSON ${Math.round(r.storedJsonBytes)} B, sent JSON ${Math.round(r.sentJsonBytes)} B ` +
            `(ratio to sent: ${(r.totalPerObject / r.sentJsonBytes).toFixed(2)}); whole run ${Math.round(r.totalPerObject)} B/object`,
        },
        r.perObject,
        stored,
      ),
    ];
  },
};
