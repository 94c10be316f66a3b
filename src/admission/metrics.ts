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

/** The admission step a plugin runs in, as the `type` label says it. */
export type AdmissionStepType = 'admit' | 'validate';

/** Upstream's buckets for the step and plugin latencies: 5 ms to 2.5 s. */
export const ADMISSION_LATENCY_BUCKETS: readonly number[] = [0.005, 0.025, 0.1, 0.5, 1.0, 2.5];

/** Records the latency of one step or one plugin, for a given step type and operation. */
export interface AdmissionTimer {
  /** It let the request through after `seconds`. */
  passed(seconds: number): void;
  /** It refused the request (threw) after `seconds`. */
  refused(seconds: number): void;
}

/**
 * What the chain reports its steps and plugins to. The chain asks for a timer once per step type,
 * operation and plugin, and keeps it, so an observation costs no label lookup.
 */
export interface AdmissionObserver {
  /** The timer of a whole step (every plugin of one half). */
  step(type: AdmissionStepType, operation: AdmissionOperation): AdmissionTimer;
  /** The timer of one plugin of a step. */
  plugin(name: string, type: AdmissionStepType, operation: AdmissionOperation): AdmissionTimer;
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
  // The series of rejected="true" are found only when something is refused: `with` makes none
  // before, but finding them costs label objects nobody needs on the common path.
  const timer = (observer: (rejected: boolean) => (seconds: number) => void): AdmissionTimer => {
    const passed = observer(false);
    let refused: ((seconds: number) => void) | undefined;
    return { passed, refused: (seconds) => (refused ??= observer(true))(seconds) };
  };
  return {
    step: (type, operation) =>
      timer((rejected) => {
        const labels = { type, operation, rejected: String(rejected) };
        const histogram = stepHistogram.with(labels);
        const summary = stepSummary.with(labels);
        return (seconds) => {
          histogram.observe(seconds);
          summary.observe(seconds);
        };
      }),
    plugin: (name, type, operation) =>
      timer((rejected) => {
        const histogram = pluginHistogram.with({ name, type, operation, rejected: String(rejected) });
        return (seconds) => histogram.observe(seconds);
      }),
  };
}
