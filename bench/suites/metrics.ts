/**
 * What the API server's metrics and audit cost a request, over HTTP with the load generator
 * (keep-alive, 16 in flight), against the same in-process cluster with `createCluster({ metrics:
 * false })` as the baseline (bench/suites/metrics-server.ts, one process per mode for the whole
 * suite, rounds alternating between them):
 * - metrics: GET of one ConfigMap and create of unique ~1 KB ConfigMaps with metrics on; target: at
 *   least 0.9× the baseline's requests/s (metrics may cost at most 10%), and at most 1.1× its server
 *   CPU time per request (the `-cpu` figures, read from the server process); and the same two
 *   requests through `cluster.fetch` in one process (bench/suites/metrics-fetch-child.ts), CPU
 *   time per request, at most 1.1× (the `metrics-fetch-` figures: no sockets, no generator).
 * - audit: the same with metrics on and every request audited at Metadata level to a JSON-lines
 *   file; reported. On a build whose createCluster has no audit option yet (no event reaches the
 *   log), the suite says `audit: not available` and measures nothing.
 * Each throughput figure's note gives the cost per request in µs (bench/request-cost.ts).
 */
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { benchConfigMap } from '../configmap.js';
import { figure, interleave, type FigureResult, type Suite, type Target } from '../figure.js';
import { httpFigures, httpRound, roundLoad, type HttpRound } from '../http-rounds.js';
import { configMapBodies, runLoad, type LoadOptions } from '../load.js';
import { ROOT, runJsonChild, startServer, type ServerProcess } from '../processes.js';
import { costSummary } from '../request-cost.js';
import { formatSummary } from '../stats.js';

const CONCURRENCY = 16;
/** Length of one measured round per side. */
const ROUND_MS = 2000;
/** Warm-up per server and figure, not recorded (JIT, connection pool). */
const WARMUP_MS = 1000;
const CM_PATH = '/api/v1/namespaces/default/configmaps';
const GET_NAME = 'bench-get';
const SERVER = join(ROOT, 'bench', 'suites', 'metrics-server.ts');
/** The server script runs through tsx: slow to start on a busy machine. */
const START_TIMEOUT_MS = 120_000;

/** Starts the bench server in `mode` (see metrics-server.ts) with the ConfigMap the GET figures read. */
async function startMode(mode: 'off' | 'on' | 'audit', auditLog?: string): Promise<ServerProcess> {
  const server = await startServer(['--import', 'tsx', SERVER, '--mode', mode, ...(auditLog ? ['--audit-log', auditLog] : [])], START_TIMEOUT_MS);
  const created = await fetch(`${server.url}${CM_PATH}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(benchConfigMap(GET_NAME)),
  });
  if (created.status !== 201) {
    await server.stop();
    throw new Error(`creating the GET target (${mode}) answered ${created.status}: ${await created.text()}`);
  }
  return server;
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

/** The GET and create figures (throughput and server CPU) of `ours` beside `baseline`, interleaved. */
async function getAndCreate(side: Side, ours: ServerProcess, baseline: ServerProcess, rounds: number, log: (line: string) => void): Promise<FigureResult[]> {
  const getPath = `${CM_PATH}/${GET_NAME}`;
  const baselineName = 'the same cluster with createCluster({ metrics: false })';
  const load = (server: ServerProcess, options: Omit<LoadOptions, 'url'>): LoadOptions => roundLoad(server, CONCURRENCY, ROUND_MS, options);
  const costNote = (a: readonly HttpRound[], b: readonly HttpRound[]) =>
    `cost per request ${formatSummary(
      costSummary(
        a.map((r) => r.requestsPerSecond),
        b.map((r) => r.requestsPerSecond),
      ),
    )} µs (1e6/ours − 1e6/baseline per round, ${CONCURRENCY} in flight)`;

  log(`${side.name}-get: warm-up`);
  await runLoad({ ...load(ours, { path: getPath }), durationMs: WARMUP_MS });
  await runLoad({ ...load(baseline, { path: getPath }), durationMs: WARMUP_MS });
  const get = await interleave(
    rounds,
    () => httpRound(load(ours, { path: getPath }), 200),
    () => httpRound(load(baseline, { path: getPath }), 200),
  );

  log(`${side.name}-create: warm-up`);
  let run = 0;
  // Unique names per round and server, so no create is ever a 409.
  const creates = (server: ServerProcess, who: string): LoadOptions =>
    load(server, { method: 'POST', path: CM_PATH, makeBody: configMapBodies(`bench-${who}-${run++}`) });
  await runLoad({ ...creates(ours, 'warm'), durationMs: WARMUP_MS });
  await runLoad({ ...creates(baseline, 'warm'), durationMs: WARMUP_MS });
  const create = await interleave(
    rounds,
    () => httpRound(creates(ours, 'ours'), 201),
    () => httpRound(creates(baseline, 'base'), 201),
  );

  const spec = (kind: 'get' | 'create', title: string, request: string, a: readonly HttpRound[], b: readonly HttpRound[]) => ({
    id: `${side.name}-${kind}`,
    title: `${title}, ${side.what} (${CONCURRENCY} in flight)`,
    baselineName,
    ...(side.target ? { target: side.target } : {}),
    ...(side.cpuTarget ? { cpuTarget: side.cpuTarget } : {}),
    note: `${request}, ${ROUND_MS} ms per round; ${costNote(a, b)}`,
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
    const on = await startMode('on');
    const off = await startMode('off').catch(async (e: unknown) => {
      await on.stop();
      throw e;
    });
    let http: FigureResult[];
    try {
      http = await getAndCreate(
        { name: 'metrics', what: 'metrics on', target: { op: '>=', ratio: 0.9 }, cpuTarget: { op: '<=', ratio: 1.1 } },
        on,
        off,
        rounds,
        log,
      );
    } finally {
      await on.stop();
      await off.stop();
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
    let audited: ServerProcess | undefined;
    let off: ServerProcess | undefined;
    try {
      try {
        audited = await startMode('audit', auditLog);
      } catch (e) {
        log(`audit: not available (the audited server did not start: ${(e instanceof Error ? e.message : String(e)).split('\n')[0]})`);
        return [];
      }
      // The create of the GET target above is an audited request: no line means no audit yet.
      if (!(await logged(auditLog))) {
        log('audit: not available (createCluster wrote no audit event: it has no audit option yet)');
        return [];
      }
      off = await startMode('off');
      const figures = await getAndCreate({ name: 'audit', what: 'metrics and audit (Metadata, JSON-lines file) on' }, audited, off, rounds, log);
      log(`audit: the log grew to ${(statSync(auditLog).size / 1e6).toFixed(1)} MB`);
      return figures;
    } finally {
      await audited?.stop();
      await off?.stop();
      rmSync(dir, { recursive: true, force: true });
    }
  },
};
