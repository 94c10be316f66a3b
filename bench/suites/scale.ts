/**
 * The scale suite: 100,000 pods on 1,000 nodes with 1,000 informers attached, the load a fake
 * cluster serves, in one child process (scale-child.ts, with a fresh heap and --expose-gc). Pods are
 * created at a steady rate; the figures are the rate sustained (against kwok's published 20 pods/s
 * for its fake clusters of 1,000 nodes and 100,000 pods), the delivery latency to the informers, a
 * full paged list of every pod, and the heap per pod. The child checks every informer's cache and
 * fails the suite when one does not hold exactly its node's pods. Not part of `--quick`.
 */
import { figure, type Suite } from '../figure.js';
import { runJsonChild } from '../processes.js';
import type { ScaleResult } from './scale-child.js';

/** What the suite does without `--scale-pods` / `--scale-rate`. */
export const SCALE_DEFAULTS = { pods: 100_000, nodes: 1_000, rate: 1_000 } as const;
/** kwok's published creation rate for a fake cluster of 1,000 nodes and 100,000 pods, pods/s. */
export const KWOK_PODS_PER_SECOND = 20;
/** Rounds of the full list (each beside its baseline). */
const LIST_ROUNDS = 3;

const ms = (x: number) => `${x < 10 ? x.toFixed(2) : x.toFixed(0)} ms`;

/** The scale suite. */
export const scaleSuite: Suite = {
  name: 'scale',
  figures: [
    { id: 'scale-create', title: 'pods/s sustained, 1k nodes, 1k informers' },
    { id: 'scale-delivery-p99', title: 'create to informer, p99' },
    { id: 'scale-list', title: 'full paged list of every pod' },
    { id: 'scale-heap', title: 'heap per pod' },
  ],
  async run(_rounds, log, pace) {
    const pods = pace.scalePods ?? SCALE_DEFAULTS.pods;
    const rate = pace.scaleRate ?? SCALE_DEFAULTS.rate;
    const nodes = Math.min(SCALE_DEFAULTS.nodes, pods);
    log(`${pods.toLocaleString('en-US')} pods on ${nodes} nodes with ${nodes} informers, at ${rate} pods/s (about ${Math.ceil(pods / rate)} s)`);
    const r = await runJsonChild<ScaleResult>(
      'bench/suites/scale-child.ts',
      [String(pods), String(nodes), String(rate), String(LIST_ROUNDS)],
      ['--expose-gc', '--max-old-space-size=6144'],
    );
    const scale = `${r.pods.toLocaleString('en-US')} pods, ${r.nodes.toLocaleString('en-US')} nodes, ${r.informers.toLocaleString('en-US')} informers`;
    const kept = r.sustainedRate >= 0.95 * r.targetRate;
    return [
      figure(
        {
          id: 'scale-create',
          title: `pods created per second, ${scale}`,
          unit: 'pods/s',
          baselineName: `kwok's published ${KWOK_PODS_PER_SECOND} pods/s (a constant)`,
          note:
            `paced at ${r.targetRate} pods/s, one create at a time (in-process client, default options); samples are the fifths of the run; ` +
            `${kept ? 'the pace was held' : 'the pace was NOT held: the figure is what the engine managed'} (whole run ${r.sustainedRate.toFixed(0)} pods/s, ` +
            `${((r.pods / r.createCpuMs) * 1000).toFixed(0)} pods per CPU-second of the process, ` +
            `at most ${r.maxBacklog} pods behind); the baseline is kwok's figure for its fake clusters of 1,000 nodes and 100,000 pods, not measured here`,
        },
        r.segmentRates,
        r.segmentRates.map(() => KWOK_PODS_PER_SECOND),
      ),
      figure(
        {
          id: 'scale-delivery-p99',
          title: `create to informer cache, p99, ${scale}`,
          unit: 'ms',
          baselineName: 'none',
          note:
            `from the start of each create to its informer holding the pod; samples are the fifths of the run; whole run p50 ${ms(r.delivery.p50)}, ` +
            `p90 ${ms(r.delivery.p90)}, p99 ${ms(r.delivery.p99)}, max ${ms(r.delivery.max)}; every informer's cache checked against its node's pods; ` +
            `first create to last delivery ${(r.wallMs / 1000).toFixed(1)} s`,
        },
        r.segmentP99Ms,
        null,
      ),
      figure(
        {
          id: 'scale-list',
          title: `full list of ${r.pods.toLocaleString('en-US')} pods, pages of 500`,
          unit: 'ms',
          baselineName: 'structuredClone of the same pages from a Map',
          note: `in-process client, all namespaces, limit=500 and continue (${r.list.pages} pages) as client-go's reflector lists; 1,000 watches open`,
        },
        r.list.ours,
        r.list.baseline,
      ),
      figure(
        {
          id: 'scale-heap',
          title: `heap growth per pod, ${scale}`,
          unit: 'B/pod',
          baselineName: 'JSON size of the stored pod',
          note:
            `heapUsed + external delta after gc, the informers' caches cleared (the cluster: store, history, watch state); ` +
            `with the caches ${Math.round(r.heapPerPodWithCaches)} B/pod; heap at the end ${(r.heapTotalBytes / 2 ** 20).toFixed(0)} MiB; ` +
            `setup: ${r.nodes} nodes ${ms(r.setupMs.nodes)}, ${r.informers} informers ${ms(r.setupMs.informers)}`,
        },
        [r.heapPerPod],
        [r.storedPodJsonBytes],
      ),
    ];
  },
};
