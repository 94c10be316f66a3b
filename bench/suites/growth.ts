/**
 * Figure 5, cost growth. The baseline is the smaller case, measured in the same child process,
 * interleaved (see growth-child.ts):
 * - a list page (limit 500, label selector matching 10%) at 100,000 objects: at most 1.5× at 10,000;
 * - a get at 100,000 objects: at most 1.2× at 1,000;
 * - a write (create) with 1,000 watchers on other namespaces: at most 1.5× with none.
 */
import { figure, type Suite } from '../figure.js';
import { runJsonChild } from '../processes.js';

interface Samples {
  ours: number[];
  baseline: number[];
}

/** The cost-growth suite. */
export const growthSuite: Suite = {
  name: 'growth',
  figures: [
    { id: 'growth-list', title: 'list page at 100k vs 10k' },
    { id: 'growth-get', title: 'get at 100k vs 1k' },
    { id: 'growth-get-map', title: 'reference: Map get at 100k vs 1k' },
    { id: 'growth-watchers', title: 'write with 1,000 watchers vs none' },
  ],
  async run(rounds) {
    const r = await runJsonChild<{ get: Samples; mapGet: Samples; list: Samples; write: Samples }>('bench/suites/growth-child.ts', [String(rounds)]);
    return [
      figure(
        {
          id: 'growth-list',
          title: 'list page (limit 500, 10% selector) at 100k objects',
          unit: 'µs/op',
          baselineName: 'same at 10k objects',
          target: { op: '<=', ratio: 1.5 },
          note: 'in-process client, ConfigMaps of ~1 KB in one namespace, labelSelector tier=ten',
        },
        r.list.ours,
        r.list.baseline,
      ),
      figure(
        {
          id: 'growth-get',
          title: 'get at 100k objects',
          unit: 'µs/op',
          baselineName: 'same at 1k objects',
          target: { op: '<=', ratio: 1.2 },
          note: 'in-process client, random names',
        },
        r.get.ours,
        r.get.baseline,
      ),
      figure(
        {
          id: 'growth-get-map',
          title: 'reference: plain Map get + structuredClone at 100k',
          unit: 'µs/op',
          baselineName: 'same at 1k entries',
          note: 'no target: what random access to a 100x larger working set costs without the engine, on this machine',
        },
        r.mapGet.ours,
        r.mapGet.baseline,
      ),
      figure(
        {
          id: 'growth-watchers',
          title: 'create with 1,000 watchers on other namespaces',
          unit: 'µs/op',
          baselineName: 'same with no watcher',
          target: { op: '<=', ratio: 1.5 },
          note: 'in-process client and in-process watches',
        },
        r.write.ours,
        r.write.baseline,
      ),
    ];
  },
};
