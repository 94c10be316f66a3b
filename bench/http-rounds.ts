/**
 * Rounds of the HTTP figures: one round is one run of the load generator against one server,
 * checked for failures, and gives two samples, the requests/s and the server's CPU time per request
 * (from its process, so what the generator beside it cost does not count).
 */
import { figure, type AbsoluteTarget, type FigureResult, type Target } from './figure.js';
import { runLoad, type LoadOptions, type LoadResult } from './load.js';
import type { ServerProcess } from './processes.js';

/** One round's samples. */
export interface HttpRound {
  requestsPerSecond: number;
  /** Undefined where the server's CPU time cannot be read (no /proc). */
  serverCpuMicros: number | undefined;
  p50Ms: number;
  p99Ms: number;
  generatorCpuShare: number;
}

/** Runs one round and throws when anything but `okStatus` came back (a broken figure). */
export async function httpRound(options: LoadOptions, okStatus: number): Promise<HttpRound> {
  const r: LoadResult = await runLoad(options);
  const bad = Object.entries(r.statusCodes).filter(([code]) => Number(code) !== okStatus);
  if (r.errors > 0 || bad.length > 0) {
    throw new Error(`${r.method} ${r.url}: ${r.errors} errors ${JSON.stringify(r.errorMessages)}, statuses ${JSON.stringify(r.statusCodes)}`);
  }
  return {
    requestsPerSecond: r.requestsPerSecond,
    serverCpuMicros: r.serverCpuMicrosPerRequest,
    p50Ms: r.latencyMs.p50,
    p99Ms: r.latencyMs.p99,
    generatorCpuShare: r.generatorCpuShare,
  };
}

/**
 * The load of one round against `server`: its URL, its PID (for its CPU time), `concurrency`
 * requests in flight for `durationMs`, and the request `options` describe.
 */
export function roundLoad(server: ServerProcess, concurrency: number, durationMs: number, options: Omit<LoadOptions, 'url'>): LoadOptions {
  return { url: server.url, serverPid: server.pid, concurrency, durationMs, ...options };
}

/** What a pair of throughput and CPU figures is about. */
export interface HttpFigureSpec {
  /** The throughput figure's id; the CPU figure's is `<id>-cpu`. */
  id: string;
  title: string;
  baselineName: string;
  /** Bound of the throughput ratio. */
  target?: Target;
  /** Bound of the CPU-per-request ratio. */
  cpuTarget?: Target;
  /** Bound of our server's CPU time per request itself, in µs. */
  cpuAbsoluteTarget?: AbsoluteTarget;
  note: string;
}

function median(values: readonly number[]): number {
  const sorted = [...values].sort((x, y) => x - y);
  const mid = sorted.length >> 1;
  return sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
}

/** Latency and generator load of a side's rounds, for a note. */
function sideNote(rounds: readonly HttpRound[]): string {
  return `p50 ${median(rounds.map((r) => r.p50Ms)).toFixed(2)} ms, p99 ${median(rounds.map((r) => r.p99Ms)).toFixed(2)} ms, generator at ${(median(rounds.map((r) => r.generatorCpuShare)) * 100).toFixed(0)}% of a core`;
}

/**
 * The throughput figure (`req/s`) and, where the server's CPU time could be read on every round, the
 * CPU figure (`µs/request` of the server process) of the same rounds.
 */
export function httpFigures(spec: HttpFigureSpec, ours: readonly HttpRound[], baseline: readonly HttpRound[]): FigureResult[] {
  const latency = `ours ${sideNote(ours)}; baseline ${sideNote(baseline)}`;
  const figures = [
    figure(
      {
        id: spec.id,
        title: spec.title,
        unit: 'req/s',
        baselineName: spec.baselineName,
        ...(spec.target ? { target: spec.target } : {}),
        note: `${spec.note}; ${latency}`,
      },
      ours.map((r) => r.requestsPerSecond),
      baseline.map((r) => r.requestsPerSecond),
    ),
  ];
  const cpuOurs = ours.map((r) => r.serverCpuMicros);
  const cpuBaseline = baseline.map((r) => r.serverCpuMicros);
  const known = (xs: (number | undefined)[]): xs is number[] => xs.every((x) => x !== undefined);
  if (known(cpuOurs) && known(cpuBaseline)) {
    figures.push(
      figure(
        {
          id: `${spec.id}-cpu`,
          title: `${spec.title}: server CPU per request`,
          unit: 'µs',
          baselineName: spec.baselineName,
          ...(spec.cpuTarget ? { target: spec.cpuTarget } : {}),
          ...(spec.cpuAbsoluteTarget ? { absoluteTarget: spec.cpuAbsoluteTarget } : {}),
          note: 'user + system CPU time of the server process over the round (/proc/PID/stat), divided by the requests answered',
        },
        cpuOurs,
        cpuBaseline,
      ),
    );
  }
  return figures;
}
