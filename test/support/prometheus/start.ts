/**
 * A real Prometheus (Debian's 2.42) for memkube's end-to-end tests: it scrapes what a test points it
 * at, and the test reads the series back through Prometheus' HTTP query API, as a dashboard would.
 *
 *   const prometheus = await startPrometheus({
 *     scrapeConfigs: [{ jobName: 'apiserver', targets: ['127.0.0.1:6443'], scheme: 'https', bearerToken, tls: { caFile } }],
 *     nativeHistograms: true, // --enable-feature=native-histograms: scrapes protobuf first
 *   });
 *   await prometheus.waitForSeries('apiserver_request_total{verb="GET"}', (r) => r.length > 0, 20_000);
 *   await prometheus.stop();
 *
 * It listens on a free port of 127.0.0.1 and keeps its config and TSDB in a temporary directory,
 * which stop() (also run when the test process exits) removes after killing it by its PID. It
 * scrapes every second, so a series is queryable a second or two after its target serves it.
 * Without native histograms Prometheus asks for OpenMetrics text first, then the text format.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort } from '../memkube-process.js';
import { prometheusBinaries, type PrometheusBinaries } from './binaries.js';
import { prometheusConfig, type ScrapeConfig } from './config.js';

export type { ScrapeConfig, ScrapeTls } from './config.js';

/** How {@link startPrometheus} sets Prometheus up. */
export interface PrometheusOptions {
  readonly scrapeConfigs: readonly ScrapeConfig[];
  /** `--enable-feature=native-histograms`: negotiate the protobuf format and keep native histograms. */
  readonly nativeHistograms?: boolean;
  /** Seconds between scrapes; 1 by default. */
  readonly scrapeIntervalSeconds?: number;
  /** Where the package is cached (`<repo>/.cache/prometheus` by default). */
  readonly cacheDir?: string;
}

/** A native histogram sample as the query API answers it. */
export interface NativeHistogramValue {
  readonly count: string;
  readonly sum: string;
  /** `[boundary rule, lower, upper, count]` per populated bucket. */
  readonly buckets?: readonly (readonly [number, string, string, string])[];
}

/** One series of an instant vector: a float sample (`value`) or a native histogram one (`histogram`). */
export interface PromSample {
  readonly metric: Readonly<Record<string, string>>;
  readonly value?: readonly [number, string];
  readonly histogram?: readonly [number, NativeHistogramValue];
}

/** A scrape target's state (`/api/v1/targets`). */
export interface PromTarget {
  readonly labels: Readonly<Record<string, string>>;
  readonly scrapeUrl: string;
  readonly health: 'up' | 'down' | 'unknown';
  readonly lastError: string;
}

/** One running Prometheus of the harness. */
export interface RunningPrometheus {
  /** `http://127.0.0.1:<port>`. */
  readonly url: string;
  readonly pid: number;
  /** The temporary directory (config, TSDB); removed by stop(). */
  readonly dir: string;
  readonly binaries: PrometheusBinaries;
  /** An instant query (`/api/v1/query`) that must answer a vector; rejects with Prometheus' error otherwise. */
  query(promql: string): Promise<PromSample[]>;
  /**
   * Polls {@link query} until `predicate` holds for its answer (by default: some series), and
   * answers that vector; after `timeoutMs` (20 s by default) rejects with the last answer and the
   * targets' health and last scrape errors.
   */
  waitForSeries(promql: string, predicate?: (result: PromSample[]) => boolean, timeoutMs?: number): Promise<PromSample[]>;
  /** The scrape targets and their health. */
  targets(): Promise<PromTarget[]>;
  /** What Prometheus logged so far (the last 64 KB). */
  log(): string;
  /** SIGTERM to its PID (SIGKILL after 5 s), then the directory removed. Idempotent. */
  stop(): Promise<void>;
}

const READY_TIMEOUT_MS = 30_000;
const POLL_MS = 100;
const SERIES_POLL_MS = 200;
const LOG_LIMIT = 64 * 1024;
/** Ports picked free can be taken before Prometheus binds them: a few tries. */
const START_TRIES = 3;

/** Fetches (once, cached) and starts a Prometheus scraping `options.scrapeConfigs`. */
export async function startPrometheus(options: PrometheusOptions): Promise<RunningPrometheus> {
  const binaries = await prometheusBinaries(options.cacheDir);
  let lastError: unknown;
  for (let attempt = 0; attempt < START_TRIES; attempt++) {
    try {
      return await startOnce(binaries, options);
    } catch (err) {
      lastError = err;
      if (!(err instanceof PortTakenError)) throw err;
    }
  }
  throw lastError;
}

class PortTakenError extends Error {}

async function startOnce(binaries: PrometheusBinaries, options: PrometheusOptions): Promise<RunningPrometheus> {
  const dir = mkdtempSync(join(tmpdir(), 'memkube-prometheus-'));
  const configFile = join(dir, 'prometheus.yml');
  const storage = join(dir, 'data');
  mkdirSync(storage);
  writeFileSync(configFile, prometheusConfig(options.scrapeConfigs, { scrapeIntervalSeconds: options.scrapeIntervalSeconds }));
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  const args = [
    `--config.file=${configFile}`,
    `--web.listen-address=127.0.0.1:${port}`,
    `--storage.tsdb.path=${storage}`,
    // Nothing of the test machine's own /etc/prometheus or /usr/share is read: consoles are off.
    `--web.console.templates=${join(dir, 'consoles')}`,
    `--web.console.libraries=${join(dir, 'console_libraries')}`,
    '--log.level=info',
    ...(options.nativeHistograms ? ['--enable-feature=native-histograms'] : []),
  ];
  const child = spawn(binaries.prometheus, args, { cwd: dir, stdio: ['ignore', 'pipe', 'pipe'] });
  let logged = '';
  const keep = (d: Buffer) => {
    logged += d.toString();
    if (logged.length > LOG_LIMIT) logged = logged.slice(-LOG_LIMIT);
  };
  child.stdout!.on('data', keep);
  child.stderr!.on('data', keep);
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));

  let stopped: Promise<void> | undefined;
  const onExit = () => {
    if (child.pid !== undefined && running(child)) process.kill(child.pid, 'SIGKILL');
    rmSync(dir, { recursive: true, force: true });
  };
  process.once('exit', onExit);
  const stop = () => {
    stopped ??= (async () => {
      process.removeListener('exit', onExit);
      if (child.pid !== undefined && running(child)) {
        process.kill(child.pid, 'SIGTERM');
        const timer = setTimeout(() => {
          if (child.pid !== undefined && running(child)) process.kill(child.pid, 'SIGKILL');
        }, 5_000);
        await exited;
        clearTimeout(timer);
      }
      rmSync(dir, { recursive: true, force: true });
    })();
    return stopped;
  };

  try {
    await waitForReady(child, url, () => logged);
  } catch (err) {
    await stop();
    throw err;
  }

  const api = async <T>(path: string): Promise<T> => {
    const res = await fetch(`${url}${path}`);
    const body = (await res.json()) as { status: string; data?: T; errorType?: string; error?: string };
    if (body.status !== 'success') throw new Error(`Prometheus ${path} answered ${res.status}: ${body.errorType ?? ''} ${body.error ?? JSON.stringify(body)}`);
    return body.data as T;
  };
  const query = async (promql: string) => {
    const data = await api<{ resultType: string; result: PromSample[] }>(`/api/v1/query?query=${encodeURIComponent(promql)}`);
    if (data.resultType !== 'vector') throw new Error(`${promql} answered a ${data.resultType}, not a vector`);
    return data.result;
  };
  const targets = async () => (await api<{ activeTargets: PromTarget[] }>('/api/v1/targets?state=active')).activeTargets;
  const waitForSeries = async (promql: string, predicate: (r: PromSample[]) => boolean = (r) => r.length > 0, timeoutMs = 20_000) => {
    const deadline = Date.now() + timeoutMs;
    let last: PromSample[] | undefined;
    for (;;) {
      last = await query(promql);
      if (predicate(last)) return last;
      if (Date.now() > deadline) {
        const health = (await targets().catch(() => [])).map(
          (t) => `${t.labels.job ?? '?'} ${t.scrapeUrl}: ${t.health}${t.lastError ? ` (${t.lastError})` : ''}`,
        );
        throw new Error(
          `${promql} did not answer as expected within ${timeoutMs} ms; last answer ${JSON.stringify(last)}; targets: ${health.join('; ') || 'none'}`,
        );
      }
      await new Promise((resolve) => setTimeout(resolve, SERIES_POLL_MS));
    }
  };

  return { url, pid: child.pid!, dir, binaries, query, waitForSeries, targets, log: () => logged, stop };
}

function running(child: ChildProcess): boolean {
  return child.exitCode === null && child.signalCode === null;
}

/** Waits until `/-/ready` answers 200 (the TSDB is open and the scrape manager runs). */
async function waitForReady(child: ChildProcess, url: string, log: () => string): Promise<void> {
  const deadline = Date.now() + READY_TIMEOUT_MS;
  for (;;) {
    if (!running(child)) {
      const text = log();
      if (/address already in use/.test(text)) throw new PortTakenError(`the port of ${url} was taken before Prometheus bound it`);
      throw new Error(`prometheus exited (${child.exitCode ?? child.signalCode}) while starting:\n${tail(text)}`);
    }
    try {
      const res = await fetch(`${url}/-/ready`);
      await res.arrayBuffer();
      if (res.status === 200) return;
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) throw new Error(`prometheus was not ready on ${url} within ${READY_TIMEOUT_MS / 1000} s:\n${tail(log())}`);
    await new Promise((resolve) => setTimeout(resolve, POLL_MS));
  }
}

function tail(text: string, lines = 30): string {
  return text.trimEnd().split('\n').slice(-lines).join('\n') || '(no log)';
}
