/**
 * Child process of the scale suite; needs `--expose-gc`. One in-process cluster with the default
 * options (admission, authorization, metrics) and NODES Nodes, one informer per node attached as a
 * kubelet attaches it (a paged list of the pods with `fieldSelector=spec.nodeName=<node>`, then a
 * watch from the list's resourceVersion; each keeps its own cache by namespace/name), then PODS pods
 * created at a steady RATE, spread round robin over the nodes. Measures the rate sustained, the
 * delivery latency from the start of each create to its informer holding the pod, the heap, and a
 * full paged list (limit 500, as client-go's reflector lists) of every pod; checks that every
 * informer's cache holds exactly its node's pods and exits 1 when one does not.
 * Prints one JSON line (ScaleResult). Progress goes to stderr.
 * Usage: node --expose-gc --import tsx bench/suites/scale-child.ts PODS NODES RATE LIST_ROUNDS
 */
import { setTimeout as sleep } from 'node:timers/promises';
import { createCluster, type Client, type kinds } from '../../src/index.js';
import { percentiles } from '../stats.js';

/** What the child prints. Times in ms, rates in pods/s, heap in bytes. */
export interface ScaleResult {
  pods: number;
  nodes: number;
  informers: number;
  /** The pace asked for. */
  targetRate: number;
  /** Per segment of the run (a fifth of the pods each): pods / time from its first create to its last. */
  segmentRates: number[];
  /** Over the whole run. */
  sustainedRate: number;
  /**
   * The process's CPU time (user + system) from the first create to the last, ms: with it the rate
   * per CPU-second, which the machine's other load moves much less than the wall-clock rate.
   */
  createCpuMs: number;
  /** Most pods the creates were behind the pace at a tick. */
  maxBacklog: number;
  /** Delivery latency p99 per segment, and over the whole run. */
  segmentP99Ms: number[];
  delivery: { p50: number; p90: number; p99: number; max: number; mean: number };
  /** From the first create to the last informer holding its last pod. */
  wallMs: number;
  setupMs: { nodes: number; informers: number };
  /** Heap growth (heapUsed + external after gc) per pod: the cluster alone, and with the informers' caches. */
  heapPerPod: number;
  heapPerPodWithCaches: number;
  heapTotalBytes: number;
  /** JSON size of one pod as stored (what `get` answers). */
  storedPodJsonBytes: number;
  /** Per round: a full list of every pod in pages of 500 (ms), and the baseline (structuredClone of the same pages from a Map). */
  list: { ours: number[]; baseline: number[]; pages: number };
}

const [PODS, NODES, RATE, LIST_ROUNDS] = process.argv.slice(2, 6).map(Number) as [number, number, number, number];
if (![PODS, NODES, RATE, LIST_ROUNDS].every((n) => Number.isInteger(n) && n > 0)) throw new Error('usage: scale-child.ts PODS NODES RATE LIST_ROUNDS');
const SEGMENTS = 5;
const TICK_MS = 10;
const PAGE = 500;
const NAMESPACE = 'default';
const gc = (globalThis as { gc?: () => void }).gc;
if (!gc) throw new Error('run with node --expose-gc');
type Pod = kinds.Pod;
type Pods = ReturnType<Client['pods']>;
const log = (line: string) => process.stderr.write(`  scale: ${line}\n`);

function heap(): number {
  for (let k = 0; k < 4; k++) gc!();
  const m = process.memoryUsage();
  return m.heapUsed + m.external;
}

const nodeName = (n: number) => `node-${n}`;
const podName = (i: number) => `pod-${i}`;

/** A small pod as a fake-cluster user creates it: bound to its node, one container with requests. */
function pod(i: number): Pod {
  return {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: { name: podName(i), namespace: NAMESPACE, labels: { app: `app-${i % 100}`, tier: 'scale' } },
    spec: {
      nodeName: nodeName(i % NODES),
      restartPolicy: 'Always',
      terminationGracePeriodSeconds: 30,
      containers: [
        {
          name: 'app',
          image: 'registry.k8s.io/pause:3.10',
          ports: [{ name: 'http', containerPort: 8080, protocol: 'TCP' }],
          resources: { requests: { cpu: '10m', memory: '16Mi' }, limits: { memory: '64Mi' } },
        },
      ],
    },
  };
}

/** When each pod's create started, and when its informer first held it (performance.now()). */
const startedAt = new Float64Array(PODS);
const deliveredAt = new Float64Array(PODS);
let delivered = 0;
const problems: string[] = [];

/** One node's informer: list, then watch from the list's resourceVersion; its own cache of the node's pods. */
class Informer {
  readonly cache = new Map<string, Pod>();
  private stream: { close(): void } | undefined;

  constructor(
    readonly node: string,
    private readonly pods: Pods,
  ) {}

  async start(): Promise<void> {
    const fieldSelector = `spec.nodeName=${this.node}`;
    let cont: string | undefined;
    let resourceVersion = '';
    do {
      const page = await this.pods.list({ fieldSelector, limit: PAGE, ...(cont ? { continue: cont } : {}) });
      for (const p of page.items) this.cache.set(`${p.metadata?.namespace}/${p.metadata?.name}`, p);
      resourceVersion = page.metadata.resourceVersion;
      cont = page.metadata.continue || undefined;
    } while (cont);
    const stream = await this.pods.watch({ fieldSelector, resourceVersion, allowWatchBookmarks: true });
    this.stream = stream;
    void (async () => {
      for await (const event of stream) {
        if (event.type === 'BOOKMARK') continue;
        if (event.type === 'ERROR') {
          problems.push(`${this.node}: ERROR event ${JSON.stringify(event.object).slice(0, 200)}`);
          continue;
        }
        const p = event.object;
        const key = `${p.metadata?.namespace}/${p.metadata?.name}`;
        if (event.type === 'DELETED') {
          this.cache.delete(key);
          continue;
        }
        if (event.type === 'ADDED' && !this.cache.has(key)) {
          const i = Number(p.metadata?.name?.slice(4));
          if (Number.isInteger(i) && i >= 0 && i < PODS && deliveredAt[i] === 0) {
            deliveredAt[i] = performance.now();
            delivered++;
          }
        }
        this.cache.set(key, p);
      }
      if (!closing) problems.push(`${this.node}: the watch ended`);
    })();
  }

  close(): void {
    this.stream?.close();
  }
}

let closing = false;
const cluster = await createCluster();
await cluster.settle();
const nodesClient = cluster.client.nodes();
const podsClient = cluster.client.pods();
const podsInNamespace = cluster.client.pods(NAMESPACE);

let t = performance.now();
for (let n = 0; n < NODES; n++) {
  await nodesClient.create({
    apiVersion: 'v1',
    kind: 'Node',
    metadata: { name: nodeName(n), labels: { 'kubernetes.io/hostname': nodeName(n), 'kubernetes.io/os': 'linux', type: 'fake' } },
    spec: {},
  });
}
const nodesMs = performance.now() - t;
t = performance.now();
const informers: Informer[] = [];
for (let n = 0; n < NODES; n++) {
  const informer = new Informer(nodeName(n), podsClient);
  await informer.start();
  informers.push(informer);
}
const informersMs = performance.now() - t;
log(
  `${NODES} nodes in ${(nodesMs / 1000).toFixed(1)} s, ${informers.length} informers in ${(informersMs / 1000).toFixed(1)} s; ${cluster.activeWatchers} watches open`,
);

// The first pod create of a cluster sets things up (the kind's pipeline); keep it out of the figures.
await podsInNamespace.create({ ...pod(0), metadata: { name: 'warm', namespace: NAMESPACE } });
await podsInNamespace.delete('warm', { gracePeriodSeconds: 0 });
await cluster.settle();
const heapBefore = heap();

// Steady pace: at each tick, create the pods the rate asks for by then, one at a time.
const perSegment = Math.ceil(PODS / SEGMENTS);
const segmentStart: number[] = [];
const segmentEnd: number[] = [];
let created = 0;
let maxBacklog = 0;
const cpu0 = process.cpuUsage();
const t0 = performance.now();
let lastLog = t0;
while (created < PODS) {
  const due = Math.min(PODS, Math.floor(((performance.now() - t0) / 1000) * RATE) + 1);
  maxBacklog = Math.max(maxBacklog, due - created);
  while (created < due) {
    const i = created++;
    if (i % perSegment === 0) segmentStart.push(performance.now());
    startedAt[i] = performance.now();
    await podsInNamespace.create(pod(i));
    if ((i + 1) % perSegment === 0 || i + 1 === PODS) segmentEnd.push(performance.now());
    if (created % 1000 === 0 && performance.now() - lastLog > 10_000) {
      lastLog = performance.now();
      log(`${created} pods created in ${((lastLog - t0) / 1000).toFixed(0)} s, ${delivered} delivered`);
    }
  }
  const now = performance.now();
  // Sleep to the next tick when on pace; when behind, only let the event loop turn.
  const next = t0 + ((created + 1) / RATE) * 1000;
  if (next > now) await sleep(Math.min(TICK_MS, next - now));
  else await new Promise((resolve) => setImmediate(resolve));
}
const createdMs = performance.now() - t0;
const createCpu = process.cpuUsage(cpu0);
const waitUntil = performance.now() + 60_000;
while (delivered < PODS && performance.now() < waitUntil) await sleep(5);
const wallMs = Math.max(...deliveredAt) - t0;
log(`${created} pods created in ${(createdMs / 1000).toFixed(1)} s (${((PODS / createdMs) * 1000).toFixed(0)} pods/s), ${delivered} delivered`);

// Correctness: every informer holds exactly its node's pods, each as its node's.
for (let n = 0; n < NODES; n++) {
  const informer = informers[n]!;
  const expected = Math.floor(PODS / NODES) + (n < PODS % NODES ? 1 : 0);
  if (informer.cache.size !== expected) problems.push(`${informer.node}: ${informer.cache.size} pods cached, ${expected} expected`);
  for (const [key, p] of informer.cache) {
    const i = Number(p.metadata?.name?.slice(4));
    if (p.spec?.nodeName !== informer.node || i % NODES !== n || key !== `${NAMESPACE}/${podName(i)}`) {
      problems.push(`${informer.node}: holds ${key} of ${p.spec?.nodeName}`);
      break;
    }
  }
  if (problems.length > 10) break;
}
if (delivered !== PODS) problems.push(`${delivered} of ${PODS} pods reached their informer within 60 s of the last create`);
if (problems.length) {
  process.stderr.write(`scale: the informers' caches are wrong:\n${problems.slice(0, 10).join('\n')}\n`);
  process.exit(1);
}

const heapWithCaches = heap();
for (const informer of informers) informer.cache.clear();
const heapAfter = heap();
const storedPodJsonBytes = JSON.stringify(await podsInNamespace.get(podName(0))).length;

// Latencies, whole run and per segment.
const latency = Array.from({ length: PODS }, (_, i) => deliveredAt[i]! - startedAt[i]!);
const segmentP99Ms: number[] = [];
const segmentRates: number[] = [];
for (let s = 0; s * perSegment < PODS; s++) {
  const from = s * perSegment;
  const to = Math.min(PODS, from + perSegment);
  segmentP99Ms.push(percentiles(latency.slice(from, to)).p99);
  segmentRates.push(((to - from) / (segmentEnd[s]! - segmentStart[s]!)) * 1000);
}

// A full list of every pod, paged as client-go's reflector pages it; the baseline clones the same pages out of a Map.
async function listAll(): Promise<{ ms: number; items: Pod[]; pages: number }> {
  const t1 = performance.now();
  const items: Pod[] = [];
  let cont: string | undefined;
  let pages = 0;
  do {
    const page = await podsClient.list({ limit: PAGE, ...(cont ? { continue: cont } : {}) });
    for (const p of page.items) items.push(p);
    pages++;
    cont = page.metadata.continue || undefined;
  } while (cont);
  return { ms: performance.now() - t1, items, pages };
}
const first = await listAll();
if (first.items.length !== PODS) {
  process.stderr.write(`scale: the full list answered ${first.items.length} pods, ${PODS} expected\n`);
  process.exit(1);
}
const map = new Map(first.items.map((p) => [p.metadata!.name!, p]));
first.items.length = 0;
const listOurs: number[] = [];
const listBaseline: number[] = [];
for (let r = 0; r < LIST_ROUNDS; r++) {
  const ours = await listAll();
  listOurs.push(ours.ms);
  ours.items.length = 0;
  const t1 = performance.now();
  const values = Array.from(map.values());
  for (let k = 0; k < values.length; k += PAGE) structuredClone(values.slice(k, k + PAGE));
  listBaseline.push(performance.now() - t1);
}
log(`full list of ${PODS} pods in ${first.pages} pages: ${listOurs.map((ms) => ms.toFixed(0)).join(', ')} ms`);

const result: ScaleResult = {
  pods: PODS,
  nodes: NODES,
  informers: informers.length,
  targetRate: RATE,
  segmentRates,
  sustainedRate: (PODS / createdMs) * 1000,
  createCpuMs: (createCpu.user + createCpu.system) / 1000,
  maxBacklog,
  segmentP99Ms,
  delivery: percentiles(latency),
  wallMs,
  setupMs: { nodes: nodesMs, informers: informersMs },
  heapPerPod: (heapAfter - heapBefore) / PODS,
  heapPerPodWithCaches: (heapWithCaches - heapBefore) / PODS,
  heapTotalBytes: heapWithCaches,
  storedPodJsonBytes,
  list: { ours: listOurs, baseline: listBaseline, pages: first.pages },
};
closing = true;
for (const informer of informers) informer.close();
await cluster.close();
process.stdout.write(`${JSON.stringify(result)}\n`);
