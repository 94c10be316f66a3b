/**
 * watch: a stream of ADDED, MODIFIED, DELETED, BOOKMARK and ERROR events for one kind, in one
 * namespace, all namespaces or one object, starting where Kubernetes starts:
 *
 * - resourceVersion unset or `0` (or `sendInitialEvents=true`): a synthetic ADDED for every
 *   current object, then the changes after that snapshot; with `sendInitialEvents=true` and
 *   `allowWatchBookmarks`, a BOOKMARK annotated `<api domain>/initial-events-end: "true"` marks
 *   the end of the initial events;
 * - a specific resourceVersion: every change after it, replayed from the storage history however
 *   many there are; one that left the history is an ERROR event (410 Expired
 *   `too old resource version: X (Y)`), then the end.
 *
 * Selectors filter with transitions: an object that stops matching is sent as DELETED (in its new
 * state), one that starts matching as ADDED.
 */
import type { ManualClock } from '../../clock.js';
import type { KubeObject } from '../../schema/define-kind.js';
import { apiVersionOf, type ResolvedKind } from '../../schema/registry.js';
import { StorageCompactedError, StorageFutureRevisionError, type StorageEvent } from '../../storage/storage.js';
import type { EngineContext } from '../context.js';
import { ApiError, badRequest, compactStatus, internalError } from '../../machinery/errors.js';
import { parseResourceVersion, tooLargeResourceVersion, tooOldResourceVersion, validateListOptions, waitForRevision } from '../list-options.js';
import type { ApiRequest, ApiResponse, WatchEvent, WatchStream } from '../../machinery/request.js';
import { compileSelection } from '../selection.js';
import { WatchChannel } from '../watch/channel.js';
import type { WatchedField } from '../watch/hub.js';
import { OrderedEvents, type ObjectEventType } from '../watch/ordered-events.js';
import { SHARDED_LIST_AND_WATCH } from '../list-pages.js';

/** How often a watch that allows bookmarks gets one (Kubernetes: about every minute). */
export const DEFAULT_BOOKMARK_INTERVAL_MS = 60 * 1000;

/** How long before a watch's deadline it gets its last bookmark (cacher.go: 2 s). */
const PRE_TIMEOUT_BOOKMARK_MS = 2000;

/** How many unread live events a watcher may fall behind before it is closed (its initial events or replay do not count). */
export const DEFAULT_WATCH_BUFFER_SIZE = 1000;

/** The watch verb: answers the stream at once; events follow as they happen. */
export async function watch(ctx: EngineContext, kind: ResolvedKind, req: ApiRequest, version: string): Promise<ApiResponse<WatchStream>> {
  const options = req.listOptions ?? {};
  validateListOptions(options, true);
  if (options.continue) throw badRequest('a continue token is not allowed for watch: continue is only supported on list');
  const selection = compileSelection(kind, options, ctx.featureEnabled(SHARDED_LIST_AND_WATCH));
  const rv = parseResourceVersion(options.resourceVersion);
  const namespace = kind.namespaced ? req.namespace || selection.exactNamespace : undefined;
  const name = req.name || selection.exactName;
  const apiVersion = apiVersionOf(kind.group, version);
  const kindName = kind.definition.kind;
  const initial = options.sendInitialEvents ?? (rv === undefined || rv === 0);

  const channel = new WatchChannel(ctx.watchBufferSize);
  const fail = (status: ApiError) => {
    channel.push({ type: 'ERROR', object: compactStatus(status.status) }, false);
    channel.end();
  };
  // Objects are presented at the watched version in the order of their changes, however long a
  // conversion (webhook) takes; one that fails ends the watch with its ERROR event.
  const events = new OrderedEvents(
    channel,
    ctx.watchBufferSize,
    {
      one: (value) => kind.present(version, value as KubeObject),
      many: (values) => kind.presentAll(version, values as KubeObject[]),
    },
    (e) => fail(watchFailure(e)),
  );
  const inScope = (e: StorageEvent) => (namespace === undefined || e.namespace === namespace) && (name === undefined || e.name === name);

  let start = -1; // revision the stream is at; -1 while the start point is being read
  let lastRevision = 0;
  // Live changes that commit while the start point is read wait here, counted against the buffer
  // like any live event; those the start point already covers are skipped by their revision.
  const early: StorageEvent[] = [];
  const holdEarly = (e: StorageEvent) => {
    if (!inScope(e)) return;
    if (early.length >= ctx.watchBufferSize) channel.overflow();
    else early.push(e);
  };
  /** Sends one change through the selection; `live: false` for the replay a watch starts with. */
  const deliver = (e: StorageEvent, live = true) => {
    if (e.revision <= start || !inScope(e)) return;
    lastRevision = e.revision;
    const now = selection.matches(e.object as KubeObject);
    const before = e.previous !== undefined && selection.matches(e.previous as KubeObject);
    let type: ObjectEventType | undefined;
    if (e.type === 'ADDED') type = now ? 'ADDED' : undefined;
    else if (e.type === 'DELETED') type = before ? 'DELETED' : undefined;
    else if (now && before) type = 'MODIFIED';
    else if (now) type = 'ADDED';
    else if (before) type = 'DELETED';
    if (type) events.send(type, e.object, live);
  };

  // Deadlines on the cluster clock: the timeout, and the next bookmark.
  const startedAt = ctx.clock.now();
  // As in watch.go, `timeoutSeconds=0` means no timeout (a negative one ends the watch at once).
  const deadline = options.timeoutSeconds !== undefined && options.timeoutSeconds !== 0 ? startedAt + Math.max(0, options.timeoutSeconds) * 1000 : undefined;
  // cacher.go `nextBookmarkTime`: a bookmark every interval, and one 2 s before the deadline, so a
  // client that resumes after the timeout starts from a revision as fresh as possible.
  const nextBookmarkTime = (now: number): number | undefined => {
    let at = now + ctx.bookmarkIntervalMs;
    if (deadline !== undefined && deadline - PRE_TIMEOUT_BOOKMARK_MS < at) at = deadline - PRE_TIMEOUT_BOOKMARK_MS;
    return at < now ? undefined : at;
  };
  let nextBookmark = options.allowWatchBookmarks ? nextBookmarkTime(startedAt) : undefined;
  const bookmark = (annotations?: Record<string, string>): WatchEvent => ({
    type: 'BOOKMARK',
    object: {
      kind: kindName,
      apiVersion,
      metadata: { resourceVersion: String(Math.max(start, lastRevision, ctx.watchHub.lastRevision)), ...(annotations ? { annotations } : {}) },
    },
  });
  let timer: ReturnType<typeof setTimeout> | undefined;
  const onClock = (now: number) => {
    if (channel.closed || start < 0) return;
    if (deadline !== undefined && now >= deadline) {
      events.end();
      return;
    }
    if (nextBookmark !== undefined && now >= nextBookmark) {
      events.sendEvent(bookmark());
      nextBookmark = nextBookmarkTime(now);
      // A pre-timeout bookmark is sent once: the next one would be at or before now.
      if (nextBookmark !== undefined && nextBookmark <= now) nextBookmark = undefined;
    }
    schedule();
  };
  const schedule = () => {
    if ((ctx.clock as Partial<ManualClock>).realTime !== true || channel.closed) return;
    const due = Math.min(deadline ?? Infinity, nextBookmark ?? Infinity);
    if (due === Infinity) return;
    if (timer) clearTimeout(timer);
    timer = setTimeout(() => onClock(ctx.clock.now()), Math.max(0, due - ctx.clock.now()));
    timer.unref?.();
  };

  const unregister = ctx.watchHub.register(
    {
      bucket: kind.bucket,
      namespace,
      name,
      // Stored values are the kind's objects: the selector's reader reads them as they are.
      ...(selection.exactField ? { field: selection.exactField as WatchedField } : {}),
      onEvent: (e) => (start < 0 ? holdEarly(e) : deliver(e)),
      onClock,
      // The cluster is closing: the stream ends after what it already holds.
      onClose: () => channel.end(),
    },
    deadline !== undefined || nextBookmark !== undefined,
  );
  channel.onRelease(() => {
    unregister();
    if (timer) clearTimeout(timer);
    early.length = 0;
  });

  try {
    if (rv !== undefined && rv > 0) await waitForRevision(ctx.storage, rv);
    if (initial) {
      const snapshot = await ctx.storage.list(kind.bucket, {
        namespace,
        filter: (value) => (name === undefined || (value.metadata as { name?: string } | undefined)?.name === name) && selection.matches(value as KubeObject),
        labels: selection.requiredLabels,
      });
      // The initial objects convert in one call (one review for a webhook), like a list.
      events.sendAll(
        'ADDED',
        snapshot.items.map((item) => item.value),
        false,
      );
      start = snapshot.revision;
      if (options.sendInitialEvents === true && options.allowWatchBookmarks) {
        events.sendEvent(bookmark({ [`${ctx.apiDomain}/initial-events-end`]: 'true' }), false);
      }
    } else if (rv === undefined || rv === 0) {
      start = await ctx.storage.currentRevision();
    } else {
      // The replay is the watch's start, not live traffic: however long it is, it is sent in full
      // (cache_watcher.go `processInterval` sends it straight to the client, outside the bounded
      // input channel), so it never closes the watch as a slow consumer.
      const changes = await ctx.storage.changesSince(kind.bucket, rv, { namespace });
      start = 0;
      for (const e of changes) deliver(e, false);
      start = Math.max(rv, lastRevision);
    }
  } catch (e) {
    if (e instanceof StorageCompactedError) fail(tooOldResourceVersion(rv ?? 0, e.compacted));
    else if (e instanceof StorageFutureRevisionError) fail(tooLargeResourceVersion(e.requested, e.current));
    else fail(watchFailure(e));
    return { code: 200, body: channel, warnings: [] };
  }
  for (const e of early.splice(0)) deliver(e);
  onClock(ctx.clock.now());
  return { code: 200, body: channel, warnings: [] };
}

/**
 * The Status of the ERROR event a failure ends a watch with. As the API server's watch
 * (etcd3/watcher.go `transformErrorToEvent`) reports an error that is not a Status (a conversion
 * webhook's failure, which a request answers as a bare 500) as an InternalError.
 */
function watchFailure(e: unknown): ApiError {
  if (e instanceof ApiError) return e.code === 500 && !e.reason ? internalError(e.message) : e;
  return internalError(e);
}
