/**
 * What the API server's metrics and audit cost a request, over HTTP with the load generator
 * (keep-alive, 16 in flight), against the same in-process cluster with `createCluster({ metrics:
 * false })` as the baseline:
 * - metrics: GET of one ConfigMap and create of unique ~1 KB ConfigMaps with metrics on; target: at
 *   least 0.9× the baseline's requests/s (metrics may cost at most 10%), and at most 1.1× its server
 *   CPU time per request (the `-cpu` figures, read from the server process); and the same two
 *   requests through `cluster.fetch` in one process (bench/suites/metrics-fetch-child.ts), CPU
 *   time per request, at most 1.1× (the `metrics-fetch-` figures: no sockets, no generator).
 * - audit: the same with metrics on and every request audited at Metadata level to a JSON-lines
 *   file; reported. On a build whose createCluster has no audit option yet (no event reaches the
 *   log), the suite says `audit: not available` and measures nothing.
 *
 * Both sides live in one server process (bench/suites/metrics-server.ts), as four clusters on four
 * ports: ours, baseline, baseline, ours. Two processes of the same build differ by up to a tenth
 * on this kind of machine (where the kernel runs them, what the JIT made of them), as much as the
 * cost measured. A cycle loads the four in turn, ROUND_MS each, in that order and then reversed, so
 * that neither position nor drift favours a side; the cycle's sample of a side is the mean of its
 * two rounds. Short rounds keep both sides of a cycle within the same few seconds of a noisy machine.
 * Each throughput figure's note gives the cost per request in µs (bench/request-cost.ts).
 */
import { mkdtempSync, readdirSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { benchConfigMap } from '../configmap.js';
import { figure, type FigureResult, type Suite, type Target } from '../figure.js';
import { httpFigures, httpRound, type HttpRound } from '../http-rounds.js';
import { configMapBodies, runLoad, type LoadOptions } from '../load.js';
import { ROOT, runJsonChild, startServer, type ServerProcess } from '../processes.js';
import { costSummary } from '../request-cost.js';
import { formatSummary } from '../stats.js';

const CONCURRENCY = 16;
/** Length of one measured round of one cluster. */
const ROUND_MS = 250;
/** Cycles (of four rounds) per interleaved round the bench is asked for. */
const CYCLES_PER_ROUND = 4;
/** Warm-up per cluster and figure, not recorded (JIT, connection pool). */
const WARMUP_MS = 500;
const CM_PATH = '/api/v1/namespaces/default/configmaps';
const GET_NAME = 'bench-get';
const SERVER = join(ROOT, 'bench', 'suites', 'metrics-server.ts');
/** The server script runs through tsx: slow to start on a busy machine. */
const START_TIMEOUT_MS = 120_000;

/** One server process with ours and the baseline twice each, in the order ours, baseline, baseline, ours. */
interface Clusters {
  readonly server: ServerProcess;
  /** The four clusters' URLs, in that order. */
  readonly urls: readonly string[];
}
/** Which side each of the four clusters is. */
const SIDES = ['ours', 'baseline', 'baseline', 'ours'] as const;

/** Starts the bench server with `ours` twice beside the baseline twice, each with the ConfigMap the GET figures read. */
async function startClusters(ours: 'on' | 'audit', auditLog?: string): Promise<Clusters> {
  const modes = SIDES.map((side) => (side === 'ours' ? ours : 'off'));
  const server = await startServer(['--import', 'tsx', SERVER, '--modes', modes.join(','), ...(auditLog ? ['--audit-log', auditLog] : [])], START_TIMEOUT_MS);
  const urls = /clusters (.*)\n/.exec(server.printed)?.[1]?.split(' ') ?? [];
  try {
    if (urls.length !== SIDES.length) throw new Error(`the bench server printed ${urls.length} cluster URLs: ${server.printed}`);
    for (const [i, url] of urls.entries()) {
      const created = await fetch(`${url}${CM_PATH}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(benchConfigMap(GET_NAME)),
      });
      if (created.status !== 201) throw new Error(`creating the GET target (${modes[i]}) answered ${created.status}: ${await created.text()}`);
    }
  } catch (e) {
    await server.stop();
    throw e;
  }
  return { server, urls };
}

/** One sample of two rounds of the same side: their means (the worse p99). */
function meanOf(a: HttpRound, b: HttpRound): HttpRound {
  return {
    requestsPerSecond: (a.requestsPerSecond + b.requestsPerSecond) / 2,
    serverCpuMicros: a.serverCpuMicros !== undefined && b.serverCpuMicros !== undefined ? (a.serverCpuMicros + b.serverCpuMicros) / 2 : undefined,
    p50Ms: (a.p50Ms + b.p50Ms) / 2,
    p99Ms: Math.max(a.p99Ms, b.p99Ms),
    generatorCpuShare: (a.generatorCpuShare + b.generatorCpuShare) / 2,
  };
}

/**
 * `cycles` cycles over the four clusters (in order, then reversed), each round made by `round(url)`:
 * one sample per cycle and side.
 */
async function cyclesOf(clusters: Clusters, cycles: number, round: (url: string) => Promise<HttpRound>): Promise<{ ours: HttpRound[]; baseline: HttpRound[] }> {
  const ours: HttpRound[] = [];
  const baseline: HttpRound[] = [];
  for (let c = 0; c < cycles; c++) {
    const order = c % 2 === 0 ? [0, 1, 2, 3] : [3, 2, 1, 0];
    const got: HttpRound[] = [];
    for (const i of order) got[i] = await round(clusters.urls[i]!);
    ours.push(meanOf(got[0]!, got[3]!));
    baseline.push(meanOf(got[1]!, got[2]!));
  }
  return { ours, baseline };
}

/** What one side of a figure is called, for ids, titles and notes. */
interface Side {
  /** `metrics` or `audit`: the figure ids are `<name>-get`, `<name>-create` and their `-cpu`. */
  name: string;
  /** What is on, for the titles (`metrics on`). */
  what: string;
  target?: Target;
  cpuTarget?: Target;
}

/** The GET and create figures (throughput and server CPU) of ours beside the baseline, in cycles. */
async function getAndCreate(side: Side, clusters: Clusters, rounds: number, log: (line: string) => void): Promise<FigureResult[]> {
  const getPath = `${CM_PATH}/${GET_NAME}`;
  const cycles = rounds * CYCLES_PER_ROUND;
  const baselineName = 'the same cluster with createCluster({ metrics: false }), in the same process';
  const load = (url: string, durationMs: number, options: Omit<LoadOptions, 'url'>): LoadOptions => ({
    url,
    serverPid: clusters.server.pid,
    concurrency: CONCURRENCY,
    durationMs,
    ...options,
  });
  const costNote = (a: readonly HttpRound[], b: readonly HttpRound[]) =>
    `cost per request ${formatSummary(
      costSummary(
        a.map((r) => r.requestsPerSecond),
        b.map((r) => r.requestsPerSecond),
      ),
    )} µs (1e6/ours − 1e6/baseline per cycle, ${CONCURRENCY} in flight)`;

  log(`${side.name}-get: warm-up`);
  for (const url of clusters.urls) await runLoad(load(url, WARMUP_MS, { path: getPath }));
  const get = await cyclesOf(clusters, cycles, (url) => httpRound(load(url, ROUND_MS, { path: getPath }), 200));

  log(`${side.name}-create: warm-up`);
  let run = 0;
  // Unique names per round and cluster, so no create is ever a 409.
  const creates = (url: string, durationMs: number): LoadOptions =>
    load(url, durationMs, { method: 'POST', path: CM_PATH, makeBody: configMapBodies(`bench-${run++}`) });
  for (const url of clusters.urls) await runLoad(creates(url, WARMUP_MS));
  const create = await cyclesOf(clusters, cycles, (url) => httpRound(creates(url, ROUND_MS), 201));

  const how = `${cycles} cycles of four ${ROUND_MS} ms rounds over four clusters of one process (ours, baseline, baseline, ours; then reversed)`;
  const spec = (kind: 'get' | 'create', title: string, request: string, a: readonly HttpRound[], b: readonly HttpRound[]) => ({
    id: `${side.name}-${kind}`,
    title: `${title}, ${side.what} (${CONCURRENCY} in flight)`,
    baselineName,
    ...(side.target ? { target: side.target } : {}),
    ...(side.cpuTarget ? { cpuTarget: side.cpuTarget } : {}),
    note: `${request}; ${how}; ${costNote(a, b)}`,
  });
  return [
    ...httpFigures(spec('get', 'HTTP GET one object', `GET ${getPath}`, get.ours, get.baseline), get.ours, get.baseline),
    ...httpFigures(spec('create', 'HTTP create 1 KB ConfigMap', `POST ${CM_PATH}, unique names`, create.ours, create.baseline), create.ours, create.baseline),
  ];
}

/** Whether `file` holds something within a second (a backend may write after the answer). */
async function logged(file: string): Promise<boolean> {
  const deadline = Date.now() + 1000;
  for (;;) {
    if (statSync(file, { throwIfNoEntry: false })?.size) return true;
    if (Date.now() > deadline) return false;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/** The metrics suite: metrics on beside off. */
export const metricsSuite: Suite = {
  name: 'metrics',
  figures: [
    { id: 'metrics-get', title: 'HTTP GET one object, metrics on' },
    { id: 'metrics-get-cpu', title: 'HTTP GET one object, metrics on: server CPU per request' },
    { id: 'metrics-create', title: 'HTTP create 1 KB ConfigMap, metrics on' },
    { id: 'metrics-create-cpu', title: 'HTTP create 1 KB ConfigMap, metrics on: server CPU per request' },
    { id: 'metrics-fetch-get', title: 'cluster.fetch GET one object, metrics on: CPU per request' },
    { id: 'metrics-fetch-create', title: 'cluster.fetch create 1 KB ConfigMap, metrics on: CPU per request' },
  ],
  needsBuild: true,
  async run(rounds, log) {
    const clusters = await startClusters('on');
    let http: FigureResult[];
    try {
      http = await getAndCreate(
        { name: 'metrics', what: 'metrics on', target: { op: '>=', ratio: 0.9 }, cpuTarget: { op: '<=', ratio: 1.1 } },
        clusters,
        rounds,
        log,
      );
    } finally {
      await clusters.server.stop();
    }
    log('metrics-fetch: in-process rounds');
    // Twice the rounds: each is short, and CPU time per request needs no idle machine.
    const inProcess = await runJsonChild<Record<'get' | 'create', { on: number[]; off: number[] }>>('bench/suites/metrics-fetch-child.ts', [
      String(rounds * 2),
    ]);
    const fetchFigure = (kind: 'get' | 'create', title: string) =>
      figure(
        {
          id: `metrics-fetch-${kind}`,
          title,
          unit: 'µs',
          baselineName: 'a cluster with createCluster({ metrics: false }) in the same process',
          target: { op: '<=', ratio: 1.1 },
          note: `CPU time of the process per request through cluster.fetch, one at a time (bench/suites/metrics-fetch-child.ts), ${rounds * 2} alternating rounds`,
        },
        inProcess[kind].on,
        inProcess[kind].off,
      );
    return [
      ...http,
      fetchFigure('get', 'cluster.fetch GET one object, metrics on: CPU per request'),
      fetchFigure('create', 'cluster.fetch create 1 KB ConfigMap, metrics on: CPU per request'),
    ];
  },
};

/** The audit suite: metrics on and audit at Metadata level beside metrics off, when audit exists. */
export const auditSuite: Suite = {
  name: 'audit',
  figures: [
    { id: 'audit-get', title: 'HTTP GET one object, metrics and audit (Metadata) on' },
    { id: 'audit-get-cpu', title: 'HTTP GET one object, metrics and audit (Metadata) on: server CPU per request' },
    { id: 'audit-create', title: 'HTTP create 1 KB ConfigMap, metrics and audit (Metadata) on' },
    { id: 'audit-create-cpu', title: 'HTTP create 1 KB ConfigMap, metrics and audit (Metadata) on: server CPU per request' },
  ],
  needsBuild: true,
  async run(rounds, log) {
    const dir = mkdtempSync(join(tmpdir(), 'memkube-bench-audit-'));
    const auditLog = join(dir, 'audit.log');
    let clusters: Clusters | undefined;
    try {
      try {
        clusters = await startClusters('audit', auditLog);
      } catch (e) {
        log(`audit: not available (the audited server did not start: ${(e instanceof Error ? e.message : String(e)).split('\n')[0]})`);
        return [];
      }
      // The create of the GET target above is an audited request: no line means no audit yet.
      if (!(await logged(`${auditLog}.0`))) {
        log('audit: not available (createCluster wrote no audit event: it has no audit option yet)');
        return [];
      }
      const figures = await getAndCreate({ name: 'audit', what: 'metrics and audit (Metadata, JSON-lines file) on' }, clusters, rounds, log);
      const bytes = readdirSync(dir).reduce((sum, file) => sum + statSync(join(dir, file)).size, 0);
      log(`audit: the logs grew to ${(bytes / 1e6).toFixed(1)} MB`);
      return figures;
    } finally {
      await clusters?.server.stop();
      rmSync(dir, { recursive: true, force: true });
    }
  },
};
