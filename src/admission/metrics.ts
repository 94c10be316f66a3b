/**
 * kube-apiserver's admission latency metrics (k8s.io/apiserver pkg/admission/metrics/metrics.go):
 * one observation per admission step (`type` admit for the mutating half, validate for the
 * validating half) and one per built-in plugin of that step, labelled with the operation
 * (CREATE, UPDATE, DELETE, CONNECT) and whether it refused the request. Upstream wraps the whole
 * chain (`WithStepMetrics`) and each named plugin (`WithControllerMetrics`); a plugin or a step
 * only counts for the operations it handles.
 *
 * The webhook and match-condition metrics of the same file are not declared here: memkube does
 * not call admission webhooks nor evaluate admission policies, so nothing could update them.
 */
import type { MetricsRegistry } from '../metrics/registry.js';
import type { AdmissionOperation } from './attributes.js';

/**
 * Values made once per tuple of label values and kept in nested maps, one level per value: a
 * lookup costs a map access per label and builds no key string.
 */
class SeriesCache<K extends readonly (string | boolean)[], V> {
  private readonly root = new Map<string | boolean, unknown>();
  constructor(private readonly make: (key: K) => V) {}

  get(key: K): V {
    let level = this.root;
    for (let i = 0; i < key.length - 1; i++) {
      let next = level.get(key[i]!) as Map<string | boolean, unknown> | undefined;
      if (!next) level.set(key[i]!, (next = new Map()));
      level = next;
    }
    const last = key[key.length - 1]!;
    let value = level.get(last) as V | undefined;
    if (value === undefined) level.set(last, (value = this.make(key)));
    return value;
  }
}

/** The admission step a plugin runs in, as the `type` label says it. */
export type AdmissionStepType = 'admit' | 'validate';

/** Upstream's buckets for the step and plugin latencies: 5 ms to 2.5 s. */
export const ADMISSION_LATENCY_BUCKETS: readonly number[] = [0.005, 0.025, 0.1, 0.5, 1.0, 2.5];

/** What the chain reports its steps and plugins to. */
export interface AdmissionObserver {
  /** One whole step (every plugin of one half) took `seconds`. */
  step(type: AdmissionStepType, operation: AdmissionOperation, rejected: boolean, seconds: number): void;
  /** One plugin of a step took `seconds`. */
  plugin(name: string, type: AdmissionStepType, operation: AdmissionOperation, rejected: boolean, seconds: number): void;
}

/** Declares the admission metrics in `metrics` and answers the observer that updates them. */
export function admissionMetrics(metrics: MetricsRegistry): AdmissionObserver {
  const labelNames = ['type', 'operation', 'rejected'] as const;
  const stepHistogram = metrics.histogram({
    name: 'apiserver_admission_step_admission_duration_seconds',
    help: 'Admission sub-step latency histogram in seconds, broken out for each operation and API resource and step type (validate or admit).',
    stability: 'STABLE',
    labelNames,
    buckets: ADMISSION_LATENCY_BUCKETS,
  });
  // No quantiles: client_golang's summaries have no objectives unless given some, and upstream
  // gives none, so the summary exposes only its _sum and _count. Those are never windowed (the
  // 5-hour max age only ages quantiles), so the window is left out here: it would cost a digest
  // update per age bucket on every observation for nothing anyone can read.
  const stepSummary = metrics.summary({
    name: 'apiserver_admission_step_admission_duration_seconds_summary',
    help: 'Admission sub-step latency summary in seconds, broken out for each operation and API resource and step type (validate or admit).',
    stability: 'ALPHA',
    labelNames,
    quantiles: [],
  });
  const pluginHistogram = metrics.histogram({
    name: 'apiserver_admission_controller_admission_duration_seconds',
    help: 'Admission controller latency histogram in seconds, identified by name and broken out for each operation and API resource and type (validate or admit).',
    stability: 'STABLE',
    labelNames: ['name', 'type', 'operation', 'rejected'],
    buckets: ADMISSION_LATENCY_BUCKETS,
  });
  // Every write observes a step and each of its plugins: their series are found once, by the
  // plugin name, step and operation (constant strings), not by building a key per observation.
  const steps = new SeriesCache(([type, operation, rejected]: readonly [AdmissionStepType, AdmissionOperation, boolean]) => {
    const labels = { type, operation, rejected: String(rejected) };
    const histogram = stepHistogram.with(labels);
    return (seconds: number) => {
      histogram.observe(seconds);
      stepSummary.observe(labels, seconds);
    };
  });
  const plugins = new SeriesCache(([name, type, operation, rejected]: readonly [string, AdmissionStepType, AdmissionOperation, boolean]) => {
    const histogram = pluginHistogram.with({ name, type, operation, rejected: String(rejected) });
    return (seconds: number) => histogram.observe(seconds);
  });
  return {
    step(type, operation, rejected, seconds) {
      steps.get([type, operation, rejected])(seconds);
    },
    plugin(name, type, operation, rejected, seconds) {
      plugins.get([name, type, operation, rejected])(seconds);
    },
  };
}
