/**
 * The CRI calls of the node agent, counted and timed as kubelet's instrumented runtime and image
 * services do (`pkg/kubelet/kuberuntime/instrumented_services.go`): every call adds one to
 * `kubelet_runtime_operations_total` and its duration to
 * `kubelet_runtime_operations_duration_seconds`, a failed one also to
 * `kubelet_runtime_operations_errors_total`, each by `operation_type` (kubelet's names).
 */
import type { ImageService, RuntimeService } from '../../cri/api.js';
import type { MetricsRegistry } from '../../metrics/registry.js';
import { exponentialBuckets } from './buckets.js';

/** kubelet's `operation_type` of each CRI call memkube makes. */
export const RUNTIME_OPERATION_TYPES: Readonly<Record<keyof RuntimeService | keyof ImageService, string>> = Object.freeze({
  version: 'version',
  status: 'status',
  runPodSandbox: 'run_podsandbox',
  stopPodSandbox: 'stop_podsandbox',
  removePodSandbox: 'remove_podsandbox',
  podSandboxStatus: 'podsandbox_status',
  listPodSandbox: 'list_podsandbox',
  createContainer: 'create_container',
  startContainer: 'start_container',
  stopContainer: 'stop_container',
  removeContainer: 'remove_container',
  listContainers: 'list_containers',
  containerStatus: 'container_status',
  reopenContainerLog: 'reopen_container_log',
  checkpointContainer: 'checkpoint_container',
  listImages: 'list_images',
  imageStatus: 'image_status',
  pullImage: 'pull_image',
  removeImage: 'remove_image',
});

/** The three runtime operation metrics of a registry (declared once, shared by every wrapper). */
function runtimeOperationMetrics(registry: MetricsRegistry) {
  return {
    total: registry.counter({
      name: 'kubelet_runtime_operations_total',
      help: 'Cumulative number of runtime operations by operation type.',
      labelNames: ['operation_type'],
    }),
    errors: registry.counter({
      name: 'kubelet_runtime_operations_errors_total',
      help: 'Cumulative number of runtime operation errors by operation type.',
      labelNames: ['operation_type'],
    }),
    duration: registry.histogram({
      name: 'kubelet_runtime_operations_duration_seconds',
      help: 'Duration in seconds of runtime operations. Broken down by operation type.',
      labelNames: ['operation_type'],
      buckets: exponentialBuckets(0.005, 2.5, 14),
    }),
  };
}

/** Runtimes already wrapped, with the registry they count into: wrapping twice would count twice. */
const wrapped = new WeakMap<object, MetricsRegistry>();

/**
 * The runtime with every CRI call counted into `registry`; other properties (a gRPC client's
 * `close`) pass through. A runtime this function returned is returned as it is.
 */
export function instrumentRuntime<T extends Partial<RuntimeService & ImageService>>(runtime: T, registry: MetricsRegistry): T {
  if (wrapped.get(runtime) === registry) return runtime;
  const m = runtimeOperationMetrics(registry);
  const proxy = new Proxy(runtime, {
    get(target, prop, receiver) {
      const value = Reflect.get(target, prop, receiver) as unknown;
      if (typeof value !== 'function') return value;
      // Bound to the runtime itself, so that a class with private fields still finds them.
      if (typeof prop !== 'string' || !Object.hasOwn(RUNTIME_OPERATION_TYPES, prop)) return (value as (...args: unknown[]) => unknown).bind(target);
      const operation = RUNTIME_OPERATION_TYPES[prop as keyof typeof RUNTIME_OPERATION_TYPES];
      return async (request: unknown) => {
        const started = performance.now();
        try {
          return await (value as (r: unknown) => Promise<unknown>).call(target, request);
        } catch (e) {
          m.errors.inc({ operation_type: operation });
          throw e;
        } finally {
          m.total.inc({ operation_type: operation });
          m.duration.observe({ operation_type: operation }, (performance.now() - started) / 1000);
        }
      };
    },
  });
  wrapped.set(proxy, registry);
  return proxy;
}
