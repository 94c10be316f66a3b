/**
 * What every verb and the store receive: the cluster's registry, storage, clock, admission chain
 * and settings.
 */
import type { AuthServices } from '../machinery/auth.js';
import { randomUuid } from '../util/uuid.js';
import type { NodeConnections } from '../machinery/node-connections.js';
import type { AdmissionChain } from '../admission/chain.js';
import type { Clock } from '../clock.js';
import type { KindContext, KubeObject } from '../schema/define-kind.js';
import { apiVersionOf, type KindRegistry, type ResolvedKind } from '../schema/registry.js';
import { DryRunStorage } from '../storage/dry-run.js';
import type { Storage, StoredObject } from '../storage/storage.js';
import type { ApiRequest } from '../machinery/request.js';
import type { WatchHub } from './watch/hub.js';
import type { MetricsRegistry } from '../metrics/registry.js';

/** Settings and services shared by all verbs of one cluster. */
export interface EngineContext {
  readonly registry: KindRegistry;
  readonly storage: Storage;
  readonly clock: Clock;
  readonly apiDomain: string;
  readonly reservedDomain: string;
  featureEnabled(gate: string): boolean;
  /** A new object uid, as one flat string (a stored object keeps it for its whole life). */
  newUid(): string;
  /** The random suffix appended to a `generateName`. */
  randomSuffix(): string;
  /** Per-cluster state of kinds (see `KindContext.state`). */
  readonly kindState: Map<string, unknown>;
  /** The enabled admission plugins, run by every create, update and delete. */
  readonly admission: AdmissionChain;
  /** Fans committed changes out to watches. */
  readonly watchHub: WatchHub;
  /** How long a list's continue token stays valid, on the cluster clock. */
  readonly continueTokenTtlMs: number;
  /** How often a watch with `allowWatchBookmarks` gets a BOOKMARK, on the cluster clock. */
  readonly bookmarkIntervalMs: number;
  /** How many unread events a watcher may fall behind before it is closed. */
  readonly watchBufferSize: number;
  /** Authentication and authorization: the engine asks `auth.authorizer` before every request. */
  readonly auth: AuthServices;
  /** How the connect subresources (`pods/log`, `nodes/proxy`) reach node agents. */
  readonly nodes: NodeConnections;
  /** The API server's metrics (`/metrics`): what the engine and its controllers count. */
  readonly metrics: MetricsRegistry;
}

/** A new random UUID, as object uids are. */
export function newUid(): string {
  return randomUuid();
}

const dryRunViews = new WeakMap<Storage, Storage>();

/** The storage a request writes to: the real one, or its dry-run view. */
export function storageFor(ctx: EngineContext, dryRun: boolean): Storage {
  if (!dryRun) return ctx.storage;
  let view = dryRunViews.get(ctx.storage);
  if (!view) {
    view = new DryRunStorage(ctx.storage);
    dryRunViews.set(ctx.storage, view);
  }
  return view;
}

/** The context a kind's hooks see for one request. */
export function kindContext(ctx: EngineContext, req: ApiRequest, operation: KindContext['operation']): KindContext {
  const shared = sharedKindContext(ctx);
  return {
    operation,
    subresource: req.subresource,
    apiVersion: apiVersionOf(req.resource.group, req.resource.version),
    user: req.user,
    state: shared.state,
    dryRun: (req.writeOptions?.dryRun?.length ?? req.deleteOptions?.dryRun?.length ?? 0) > 0,
    now: shared.now,
    apiDomain: ctx.apiDomain,
    reservedDomain: ctx.reservedDomain,
    featureEnabled: shared.featureEnabled,
    auth: ctx.auth,
    read: shared.read,
    list: shared.list,
  };
}

/** The functions of a {@link KindContext} that depend on the cluster only. */
type SharedKindContext = Pick<KindContext, 'state' | 'now' | 'featureEnabled' | 'read' | 'list'>;

/** Made once per engine context: every write asks for a kind context, and these are the same for all. */
const sharedKindContexts = new WeakMap<EngineContext, SharedKindContext>();

function sharedKindContext(ctx: EngineContext): SharedKindContext {
  let shared = sharedKindContexts.get(ctx);
  if (shared) return shared;
  shared = {
    state: <S>(key: string, init: () => S): S => {
      if (!ctx.kindState.has(key)) ctx.kindState.set(key, init());
      return ctx.kindState.get(key) as S;
    },
    now: () => ctx.clock.now(),
    featureEnabled: (gate) => ctx.featureEnabled(gate),
    read: (resource, namespace, name) => {
      const kind = ctx.registry.lookupResource(resource.group, resource.resource);
      if (!kind) return Promise.resolve(undefined);
      const stored = ctx.storage.get({ bucket: kind.bucket, namespace: kind.namespaced ? namespace : '', name });
      return stored.then(valueOf);
    },
    list: async (resource, namespace) => {
      const kind = ctx.registry.lookupResource(resource.group, resource.resource);
      if (!kind) return [];
      const { items } = await ctx.storage.list(kind.bucket, kind.namespaced && namespace !== undefined ? { namespace } : {});
      return items.map((item) => item.value as KubeObject);
    },
  };
  sharedKindContexts.set(ctx, shared);
  return shared;
}

const valueOf = (stored: StoredObject | undefined) => stored?.value as KubeObject | undefined;

/** The storage key of an object of `kind`. */
export function objectKey(kind: ResolvedKind, namespace: string | undefined, name: string): { bucket: string; namespace: string; name: string } {
  return { bucket: kind.bucket, namespace: kind.namespaced ? (namespace ?? '') : '', name };
}
