/**
 * What a benchmark figure is: samples of ours and of a baseline taken in interleaved rounds, their
 * paired ratio (ours / baseline, one per round), and the target that ratio must meet.
 */
import { pairedRatios, summarize, type Summary } from './stats.js';

/** A ratio bound: `ours / baseline` at most (`<=`) or at least (`>=`) `ratio`. */
export interface Target {
  op: '<=' | '>=';
  ratio: number;
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
  /** ours / baseline, per round. */
  ratio: Summary;
  /** The figure's bound, if any. */
  target?: Target;
  /** Whether the median ratio meets the target; undefined without one. */
  met?: boolean;
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

/** Builds a figure from paired per-round samples. */
export function figure(
  spec: { id: string; title: string; unit: string; baselineName: string; target?: Target; note?: string },
  ours: readonly number[],
  baseline: readonly number[],
): FigureResult {
  const ratio = summarize(pairedRatios(ours, baseline));
  const result: FigureResult = {
    id: spec.id,
    title: spec.title,
    unit: spec.unit,
    baselineName: spec.baselineName,
    ours: summarize(ours),
    baseline: summarize(baseline),
    ratio,
    samples: { ours: [...ours], baseline: [...baseline] },
  };
  if (spec.target) {
    result.target = spec.target;
    result.met = meets(ratio.median, spec.target);
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
 * How a suite measures: the full run, or `quick` (`npm run bench -- --quick`: shorter rounds, a
 * check of the ratios in well under a minute, before a change is committed).
 */
export interface RunPace {
  readonly quick: boolean;
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
