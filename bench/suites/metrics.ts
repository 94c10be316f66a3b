/**
 * What the API server's metrics and audit cost a request, over HTTP with the load generator
 * (keep-alive, 16 in flight), against the same in-process cluster with `createCluster({ metrics:
 * false })` as the baseline (bench/suites/metrics-server.ts, one process per mode for the whole
 * suite, rounds alternating between them):
 * - metrics: GET of one ConfigMap and create of unique ~1 KB ConfigMaps with metrics on; target: at
 *   least 0.9× the baseline's requests/s (metrics may cost at most 10%).
 * - audit: the same with metrics on and every request audited at Metadata level to a JSON-lines
 *   file; reported. On a build whose createCluster has no audit option yet (no event reaches the
 *   log), the suite says `audit: not available` and measures nothing.
 * Each figure's note gives the cost per request in µs (bench/request-cost.ts).
 */
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { benchConfigMap } from '../configmap.js';
import { figure, interleave, type FigureResult, type Suite, type Target } from '../figure.js';
import { configMapBodies, runLoad, type LoadOptions } from '../load.js';
import { ROOT, startServer, type ServerProcess } from '../processes.js';
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
/** The server imports src/ through tsx: slow to start on a busy machine. */
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

/** Requests/s of one round; throws when anything but `okStatus` came back (a broken figure). */
async function rate(options: LoadOptions, okStatus: number): Promise<number> {
  const r = await runLoad({ concurrency: CONCURRENCY, durationMs: ROUND_MS, ...options });
  const bad = Object.entries(r.statusCodes).filter(([code]) => Number(code) !== okStatus);
  if (r.errors > 0 || bad.length > 0) {
    throw new Error(`${r.method} ${r.url}: ${r.errors} errors ${JSON.stringify(r.errorMessages)}, statuses ${JSON.stringify(r.statusCodes)}`);
  }
  return r.requestsPerSecond;
}

/** What one side of a figure is called, for ids, titles and notes. */
interface Side {
  /** `metrics` or `audit`: the figure ids are `<name>-get` and `<name>-create`. */
  name: string;
  /** What is on, for the titles (`metrics on`). */
  what: string;
  target?: Target;
}

/** The GET and create figures of `ours` beside `baseline`, interleaved. */
async function getAndCreate(side: Side, ours: ServerProcess, baseline: ServerProcess, rounds: number, log: (line: string) => void): Promise<FigureResult[]> {
  const getPath = `${CM_PATH}/${GET_NAME}`;
  const baselineName = 'the same cluster with createCluster({ metrics: false })';
  const costNote = (a: readonly number[], b: readonly number[]) =>
    `cost per request ${formatSummary(costSummary(a, b))} µs (1e6/ours − 1e6/baseline per round, ${CONCURRENCY} in flight: CPU time per request here, not latency)`;

  log(`${side.name}-get: warm-up`);
  await runLoad({ url: ours.url, path: getPath, concurrency: CONCURRENCY, durationMs: WARMUP_MS });
  await runLoad({ url: baseline.url, path: getPath, concurrency: CONCURRENCY, durationMs: WARMUP_MS });
  const get = await interleave(
    rounds,
    () => rate({ url: ours.url, path: getPath }, 200),
    () => rate({ url: baseline.url, path: getPath }, 200),
  );

  log(`${side.name}-create: warm-up`);
  let run = 0;
  // Unique names per round and server, so no create is ever a 409.
  const creates = (url: string, who: string): LoadOptions => ({ url, method: 'POST', path: CM_PATH, makeBody: configMapBodies(`bench-${who}-${run++}`) });
  await runLoad({ ...creates(ours.url, 'warm'), concurrency: CONCURRENCY, durationMs: WARMUP_MS });
  await runLoad({ ...creates(baseline.url, 'warm'), concurrency: CONCURRENCY, durationMs: WARMUP_MS });
  const create = await interleave(
    rounds,
    () => rate(creates(ours.url, 'ours'), 201),
    () => rate(creates(baseline.url, 'base'), 201),
  );

  const spec = (kind: 'get' | 'create', title: string, request: string, a: readonly number[], b: readonly number[]) => ({
    id: `${side.name}-${kind}`,
    title: `${title}, ${side.what} (${CONCURRENCY} in flight)`,
    unit: 'req/s',
    baselineName,
    ...(side.target ? { target: side.target } : {}),
    note: `${request}, ${ROUND_MS} ms per round; ${costNote(a, b)}`,
  });
  return [
    figure(spec('get', 'HTTP GET one object', `GET ${getPath}`, get.ours, get.baseline), get.ours, get.baseline),
    figure(spec('create', 'HTTP create 1 KB ConfigMap', `POST ${CM_PATH}, unique names`, create.ours, create.baseline), create.ours, create.baseline),
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
    { id: 'metrics-create', title: 'HTTP create 1 KB ConfigMap, metrics on' },
  ],
  async run(rounds, log) {
    const on = await startMode('on');
    const off = await startMode('off').catch(async (e: unknown) => {
      await on.stop();
      throw e;
    });
    try {
      return await getAndCreate({ name: 'metrics', what: 'metrics on', target: { op: '>=', ratio: 0.9 } }, on, off, rounds, log);
    } finally {
      await on.stop();
      await off.stop();
    }
  },
};

/** The audit suite: metrics on and audit at Metadata level beside metrics off, when audit exists. */
export const auditSuite: Suite = {
  name: 'audit',
  figures: [
    { id: 'audit-get', title: 'HTTP GET one object, metrics and audit (Metadata) on' },
    { id: 'audit-create', title: 'HTTP create 1 KB ConfigMap, metrics and audit (Metadata) on' },
  ],
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
