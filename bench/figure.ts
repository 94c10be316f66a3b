/**
 * What a benchmark figure is: samples of ours and of a baseline taken in interleaved rounds, their
 * paired ratio (ours / baseline, one per round), and the targets it must meet: a bound on that
 * ratio, a bound on ours itself in the figure's unit (an absolute target), or both.
 */
import { pairedRatios, summarize, type Summary } from './stats.js';

/** A ratio bound: `ours / baseline` at most (`<=`) or at least (`>=`) `ratio`. */
export interface Target {
  op: '<=' | '>=';
  ratio: number;
}

/** An absolute bound on the median of `ours`, in the figure's unit: at most (`<=`) or at least (`>=`) `value`. */
export interface AbsoluteTarget {
  op: '<=' | '>=';
  value: number;
}

/** One measured figure. */
export interface FigureResult {
  /** Short id, used by `--only` (e.g. `http-get`). */
  id: string;
  /** What is measured, for the table. */
  title: string;
  /** Unit of `ours` and `baseline` (e.g. `req/s`, `ms`, `µs/op`, `B/object`). */
  unit: string;
  /** What the baseline is. */
  baselineName: string;
  ours: Summary;
  baseline: Summary;
  /** ours / baseline, per round (no samples for a figure without a baseline). */
  ratio: Summary;
  /** The bound of the median ratio, if any. */
  target?: Target;
  /** The bound of the median of `ours` in `unit`, if any. */
  absoluteTarget?: AbsoluteTarget;
  /** Whether every target the figure has is met (the median ratio, the median of ours); undefined without a target. */
  met?: boolean;
  /** Each target's own verdict, for the figures that have both. */
  metBy?: { ratio?: boolean; absolute?: boolean };
  /** Anything needed to read the figure right. */
  note?: string;
  /** Raw per-round samples, for the JSON output. */
  samples: { ours: number[]; baseline: number[] };
}

/** A figure that could not be measured (e.g. the build failed). */
export interface FigureError {
  id: string;
  title: string;
  error: string;
}

/** Whether `ratio` meets `target`. */
export function meets(ratio: number, target: Target): boolean {
  return target.op === '<=' ? ratio <= target.ratio : ratio >= target.ratio;
}

/** Whether `value` (the median of ours) meets the absolute `target`; NaN (no samples) never does. */
export function meetsAbsolute(value: number, target: AbsoluteTarget): boolean {
  return target.op === '<=' ? value <= target.value : value >= target.value;
}

/** What a figure is about; `baselineName` says what the baseline samples are. */
export interface FigureSpec {
  id: string;
  title: string;
  unit: string;
  baselineName: string;
  target?: Target;
  absoluteTarget?: AbsoluteTarget;
  note?: string;
}

/**
 * Builds a figure from paired per-round samples. `baseline` null: a figure of ours alone (no ratio),
 * which only an absolute target can bound.
 */
export function figure(spec: FigureSpec, ours: readonly number[], baseline: readonly number[] | null): FigureResult {
  // Without a baseline (null) there is no ratio: its summary and the baseline's have no samples.
  const base = baseline ?? [];
  const ratio = summarize(baseline ? pairedRatios(ours, baseline) : []);
  const oursSummary = summarize(ours);
  const result: FigureResult = {
    id: spec.id,
    title: spec.title,
    unit: spec.unit,
    baselineName: spec.baselineName,
    ours: oursSummary,
    baseline: summarize(base),
    ratio,
    samples: { ours: [...ours], baseline: [...base] },
  };
  const metBy: { ratio?: boolean; absolute?: boolean } = {};
  if (spec.target) {
    result.target = spec.target;
    metBy.ratio = meets(ratio.median, spec.target);
  }
  if (spec.absoluteTarget) {
    result.absoluteTarget = spec.absoluteTarget;
    metBy.absolute = meetsAbsolute(oursSummary.median, spec.absoluteTarget);
  }
  const verdicts = Object.values(metBy);
  if (verdicts.length) {
    result.met = verdicts.every(Boolean);
    result.metBy = metBy;
  }
  if (spec.note) result.note = spec.note;
  return result;
}

/**
 * Runs `rounds` interleaved rounds (ours, baseline, ours, baseline, ...) and collects one sample of
 * each per round, so drift on a shared machine hits both sides alike.
 */
export async function interleave<T = number>(rounds: number, ours: () => Promise<T>, baseline: () => Promise<T>): Promise<{ ours: T[]; baseline: T[] }> {
  const a: T[] = [];
  const b: T[] = [];
  for (let r = 0; r < rounds; r++) {
    a.push(await ours());
    b.push(await baseline());
  }
  return { ours: a, baseline: b };
}

/**
 * Calls `op(i)` one at a time (awaiting each) for at least `ms` milliseconds and answers the mean
 * time per call in microseconds.
 */
export async function timePerOp(ms: number, op: (i: number) => unknown): Promise<number> {
  let i = 0;
  const t0 = performance.now();
  let now = t0;
  // Check the clock every few calls only; performance.now() is not free next to a Map lookup.
  while (now - t0 < ms) {
    for (let k = 0; k < 8; k++) await op(i++);
    now = performance.now();
  }
  return ((now - t0) * 1000) / i;
}

/**
 * Like {@link timePerOp}, but by the process's own CPU time (`process.cpuUsage()`, user + system)
 * instead of the wall clock: calls `op(i)` one at a time until they used `ms` milliseconds of CPU
 * time (or took 20 times as long on the wall clock: an op that mostly waits), and answers the CPU
 * microseconds per call. Time the process spends waiting for a core another job holds counts
 * neither in the figure nor in the length of the round, so a loaded machine runs as many calls (and
 * warms the JIT as much) as an idle one. The process's helper threads (V8's concurrent garbage
 * collection and compilation) count too, so it never flatters the figure.
 */
export async function cpuTimePerOp(ms: number, op: (i: number) => unknown): Promise<number> {
  let i = 0;
  const c0 = process.cpuUsage();
  const wallLimit = performance.now() + ms * 20;
  let used = 0;
  // Read the CPU time every 32 calls only: process.cpuUsage() is a system call, not free next to a
  // Map lookup.
  while (used < ms * 1000 && performance.now() < wallLimit) {
    for (let k = 0; k < 32; k++) await op(i++);
    const c = process.cpuUsage(c0);
    used = c.user + c.system;
  }
  return used / i;
}

/**
 * How a suite measures: the full run, or `quick` (`npm run bench -- --quick`: shorter rounds, a
 * check of the ratios in well under a minute, before a change is committed).
 */
export interface RunPace {
  readonly quick: boolean;
  /** Pods of the scale suite (`--scale-pods`; its default without). */
  readonly scalePods?: number;
  /** Pods per second the scale suite creates them at (`--scale-rate`; its default without). */
  readonly scaleRate?: number;
}

/** A suite: measures one or more figures. `rounds` is the number of interleaved rounds. */
export interface Suite {
  /** Suite name, also matched by `--only`. */
  name: string;
  /** Ids of the figures it produces (matched by `--only`). */
  figures: readonly { id: string; title: string }[];
  /** Whether it needs the build in dist/ (process figures). */
  needsBuild?: boolean;
  /** Whether `--quick` runs it when no `--only` says which suites (the fast ones with targets). */
  quick?: boolean;
  run(rounds: number, log: (line: string) => void, pace: RunPace): Promise<FigureResult[]>;
}
