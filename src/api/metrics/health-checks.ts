/**
 * The API server's health checks, named as kube-apiserver v1.36 names its defaults
 * (k8s.io/apiserver `pkg/server/config.go`, `healthz.go`, `pkg/server/hooks.go`): every name
 * listed means something in memkube or trivially holds in it, as each comment says.
 */
import { HealthChecks, type HealthCheck } from '../../metrics/health.js';
import type { Storage } from '../../storage/storage.js';

/** What the checks look at. */
export interface ApiServerHealthSources {
  /** The cluster's storage: the `etcd` checks probe it. */
  readonly storage: Storage;
  /** True from the moment the cluster starts shutting down (readyz `shutdown` fails from then). */
  closing(): boolean;
  /** Record the SLI metrics (`/metrics/slis`; the ComponentSLIs gate). */
  readonly slis: boolean;
}

/**
 * The post-start hooks memkube has a counterpart of. Each is done before `createCluster`
 * resolves (the admission chain, the bootstrap RBAC policy, priority classes and flow schemas,
 * the system namespaces, the CRD controller, the object counts), so each check holds once the
 * cluster serves.
 */
export const POST_START_HOOKS: readonly string[] = [
  'start-apiserver-admission-initializer',
  'generic-apiserver-start-informers',
  'priority-and-fairness-config-producer',
  'start-apiextensions-informers',
  'start-apiextensions-controllers',
  'crd-informer-synced',
  'start-system-namespaces-controller',
  'rbac/bootstrap-roles',
  'scheduling/bootstrap-system-priority-classes',
  'storage-object-count-tracker-hook',
];

/** The checks of `/healthz`, `/livez` and `/readyz`, as kube-apiserver lists them by default. */
export function apiServerHealthChecks(sources: ApiServerHealthSources): HealthChecks {
  // ping and log hold whenever the server answers: memkube's logger never blocks a request.
  const ping: HealthCheck = { name: 'ping', check: () => undefined };
  const log: HealthCheck = { name: 'log', check: () => undefined };
  const etcd: HealthCheck = { name: 'etcd', check: () => probeStorage(sources) };
  // etcd-readiness is the same probe with readyz's shorter timeout upstream.
  const etcdReadiness: HealthCheck = { name: 'etcd-readiness', check: () => probeStorage(sources) };
  // informer-sync: memkube's watch hub serves from the storage itself, in sync from the start.
  const informerSync: HealthCheck = { name: 'informer-sync', check: () => undefined };
  const hooks: HealthCheck[] = POST_START_HOOKS.map((hook) => ({ name: `poststarthook/${hook}`, check: () => undefined }));
  const shutdown: HealthCheck = {
    name: 'shutdown',
    check: () => {
      if (sources.closing()) throw new Error('process is shutting down');
    },
  };
  return new HealthChecks(
    {
      healthz: [ping, log, etcd, ...hooks],
      livez: [ping, log, etcd, ...hooks],
      readyz: [ping, log, etcd, etcdReadiness, informerSync, ...hooks, shutdown],
    },
    { slis: sources.slis },
  );
}

/** The storage answers: a closed cluster's storage does not; a storage with a probe of its own (an etcd client) is asked. */
async function probeStorage(sources: ApiServerHealthSources): Promise<void> {
  if (sources.closing()) throw new Error('the storage is closed');
  const storage = sources.storage;
  if (storage.check) await storage.check();
  else await storage.compactedRevision();
}
