/**
 * Watch fan-out: a write with 1,000 in-process watches that all match it, until every watcher has
 * read the event, in µs per watcher per event (see fanout-child.ts). The table has no absolute
 * targets, so `growth-fanout` is measured against the target itself: its baseline is a constant
 * 2 µs, and the ratio ≤ 1 says the cost per watcher is at most 2 µs. `growth-fanout-queues` puts the
 * same samples beside what 1,000 plain async-iterator queues cost, measured in the same rounds;
 * `growth-fanout-fetch` reports the CPU time per watcher of 1,000 watches through `cluster.fetch`.
 */
import { figure, type Suite } from '../figure.js';
import { runJsonChild } from '../processes.js';
import { formatNumber, summarize } from '../stats.js';

/** The target: µs per watcher per event. */
const TARGET_US = 2;

interface FanoutSamples {
  watchers: number;
  perWatcher: number[];
  queuePerWatcher: number[];
  copyQueuePerWatcher: number[];
  watchedUs: number[];
  quietUs: number[];
  fetchPerWatcher: number[];
  fetchedCpu: number[];
  quietCpu: number[];
}

/** The watch fan-out suite. */
export const fanoutSuite: Suite = {
  name: 'fanout',
  figures: [
    { id: 'growth-fanout', title: 'write to 1,000 matching watchers, per watcher, vs the 2 µs target' },
    { id: 'growth-fanout-queues', title: 'the same beside 1,000 plain async-iterator queues' },
    { id: 'growth-fanout-fetch', title: 'create to 1,000 matching watchers through cluster.fetch, CPU per watcher' },
  ],
  async run(rounds, _log, pace) {
    const r = await runJsonChild<FanoutSamples>('bench/suites/fanout-child.ts', [String(rounds), '1000', pace.quick ? '150' : '400']);
    const queues = summarize(r.queuePerWatcher).median;
    const copyQueues = summarize(r.copyQueuePerWatcher).median;
    const watched = summarize(r.watchedUs).median;
    const quiet = summarize(r.quietUs).median;
    const how =
      `in-process client, ${r.watchers} watches on the written namespace, each read by a for await loop; ` +
      `(create until every watcher read it − the same create with no watcher) / ${r.watchers}, ` +
      `medians ${formatNumber(watched)} µs and ${formatNumber(quiet)} µs per create`;
    return [
      figure(
        {
          id: 'growth-fanout',
          title: 'create to 1,000 matching watchers, µs per watcher per event (ratio = ours / 2 µs)',
          unit: 'µs/watcher',
          baselineName: `the target, ${TARGET_US} µs per watcher per event (a constant, not measured)`,
          target: { op: '<=', ratio: 1 },
          note: `${how}; the ratio is ours / ${TARGET_US} µs, so ≤ 1 means ≤ ${TARGET_US} µs per watcher per event; for comparison, 1,000 plain async-iterator queues took ${formatNumber(queues)} µs per watcher (growth-fanout-queues), and ${formatNumber(copyQueues)} µs when each queue hands its reader its own deep copy (cloneJson, as the in-process client does for every watcher)`,
        },
        r.perWatcher,
        r.perWatcher.map(() => TARGET_US),
      ),
      figure(
        {
          id: 'growth-fanout-queues',
          title: 'create to 1,000 matching watchers vs one event through 1,000 plain queues',
          unit: 'µs/watcher',
          baselineName: 'one event pushed to 1,000 plain async-iterator queues, each read by a for await loop',
          note: 'no target: the floor of one async iterator per watcher, which every in-process watch pays (the engine adds the selection, the copy each watcher owns, the metrics)',
        },
        r.perWatcher,
        r.queuePerWatcher,
      ),
      figure(
        {
          id: 'growth-fanout-fetch',
          title: 'create to 1,000 matching watchers through cluster.fetch, CPU µs per watcher per event',
          unit: 'µs/watcher',
          baselineName: 'the in-process watchers of growth-fanout (wall time), in the same run',
          note:
            `no target: ${r.watchers} watches through cluster.fetch (the HTTP door without sockets), each reading its body; ` +
            `(CPU time of the process per create until every body got its line − the same create with no watcher) / ${r.watchers}, ` +
            `medians ${formatNumber(summarize(r.fetchedCpu).median)} µs and ${formatNumber(summarize(r.quietCpu).median)} µs of CPU per create`,
        },
        r.fetchPerWatcher,
        r.perWatcher,
      ),
    ];
  },
};
