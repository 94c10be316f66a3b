/**
 * One page of the stored objects a list request selects (in one namespace or all), filtered by
 * selectors, paged with `limit` and `continue`, in Kubernetes' key order, at the resourceVersion
 * the request asks for; list and deletecollection read through it.
 *
 * Pages are a consistent snapshot: the continue token carries the revision of the first page and
 * the last key, so later pages read the same revision from the storage history. A token expires
 * after `continueTokenTtlMs` of the cluster clock (or once its revision left the history): 410
 * Expired with a fresh token that continues after the same key on the latest revision.
 */
import { posix } from 'node:path';
import type { KubeObject } from '../schema/define-kind.js';
import type { ResolvedKind } from '../schema/registry.js';
import { StorageCompactedError, StorageFutureRevisionError, type StoredObject } from '../storage/storage.js';
import type { EngineContext } from './context.js';
import { ApiError, badRequest } from '../machinery/errors.js';
import { EXACT, listTooOld, NOT_OLDER_THAN, parseResourceVersion, tooLargeResourceVersion, validateListOptions, waitForRevision } from './list-options.js';
import type { ApiRequest } from '../machinery/request.js';
import { compileSelection } from './selection.js';

/** A `<Kind>List` object. */
export interface ObjectList {
  apiVersion: string;
  kind: string;
  metadata: { resourceVersion: string; continue?: string; remainingItemCount?: number };
  items: KubeObject[];
}

/** The feature gate of shard selectors. */
export const SHARDED_LIST_AND_WATCH = 'ShardedListAndWatch';

/** The default lifetime of a continue token: 5 minutes of the cluster clock. */
export const DEFAULT_CONTINUE_TOKEN_TTL_MS = 5 * 60 * 1000;

/** Kubernetes' message for an expired continue token (`etcd3/store.go`, `inconsistentContinue`). */
export const CONTINUE_EXPIRED_MESSAGE =
  'The provided continue parameter is too old to display a consistent list result. You can start a new list without the continue ' +
  'parameter, or use the continue token in this response to retrieve the remainder of the results. Continuing with the provided ' +
  'token results in an inconsistent list - objects that were created, modified, or deleted between the time the first chunk was ' +
  'returned and now may show up in the list.';

/**
 * The token, in Kubernetes' shape (`storage.continueToken`): `start` is the key to start from,
 * relative to the list's prefix, `rv` the revision (-1: the latest). `t` (memkube's) is when the
 * list began, for expiry; Kubernetes' decoder ignores it.
 */
interface ContinueToken {
  rv: number;
  start: string;
  t?: number;
}

const TOKEN_VERSION = 'meta.k8s.io/v1';

function encodeContinue(token: ContinueToken): string {
  return Buffer.from(JSON.stringify({ v: TOKEN_VERSION, rv: token.rv, start: token.start, ...(token.t !== undefined ? { t: token.t } : {}) })).toString(
    'base64url',
  );
}

/** `storage.DecodeContinue`, with its messages; every failure is 400 `invalid continue token: ...`. */
function decodeContinue(text: string): ContinueToken {
  const bad = (why: string): never => {
    throw badRequest(`invalid continue token: continue key is not valid: ${why}`);
  };
  if (!/^[A-Za-z0-9_-]*$/.test(text) || text.length % 4 === 1) return bad('illegal base64 data at input byte 0');
  let parsed: unknown;
  try {
    parsed = JSON.parse(Buffer.from(text, 'base64url').toString('utf8'));
  } catch {
    return bad('invalid character in JSON');
  }
  if (!parsed || typeof parsed !== 'object' || Array.isArray(parsed)) return bad('json: cannot unmarshal into Go value of type storage.continueToken');
  const t = parsed as { v?: unknown; rv?: unknown; start?: unknown; t?: unknown };
  if (t.v !== TOKEN_VERSION) return bad('server does not recognize this encoded version');
  if (t.rv !== undefined && (typeof t.rv !== 'number' || !Number.isSafeInteger(t.rv)))
    return bad('json: cannot unmarshal into Go struct field continueToken.rv of type int64');
  if (t.start !== undefined && typeof t.start !== 'string') return bad('json: cannot unmarshal into Go struct field continueToken.start of type string');
  const rv = (t.rv as number | undefined) ?? 0;
  const start = (t.start as string | undefined) ?? '';
  if (rv === 0) return bad(`incorrect encoded start resourceVersion (version ${TOKEN_VERSION})`);
  if (start === '') return bad(`encoded start key empty (version ${TOKEN_VERSION})`);
  // Like Kubernetes, refuse keys that would climb out of the list's prefix.
  const key = start.startsWith('/') ? start : `/${start}`;
  if (posix.normalize(key) !== key || (key.length > 1 && key.endsWith('/'))) return bad(start);
  return { rv, start, t: typeof t.t === 'number' && Number.isFinite(t.t) ? t.t : undefined };
}

function keyOf(o: StoredObject): string {
  return o.namespace ? `${o.namespace}/${o.name}` : o.name;
}

/** The result of {@link selectStored}. */
export interface SelectedObjects {
  items: StoredObject[];
  revision: number;
  continue?: string;
  remaining?: number;
  /** How many objects the storage read to select them (the list's cost, for the cache list metrics). */
  fetched: number;
  /** The storage index that narrowed the read, "" for none. */
  index: string;
}

/** The stored objects matching `req`, one page of them; used by list and deletecollection. */
export async function selectStored(ctx: EngineContext, kind: ResolvedKind, req: ApiRequest): Promise<SelectedObjects> {
  const options = req.listOptions ?? {};
  validateListOptions(options, false);
  const selection = compileSelection(kind, options, ctx.featureEnabled(SHARDED_LIST_AND_WATCH));
  const rv = parseResourceVersion(options.resourceVersion);
  const limit = options.limit !== undefined && options.limit > 0 ? options.limit : undefined;
  const namespace = kind.namespaced ? req.namespace || undefined : undefined;
  const prefix = namespace ? `${namespace}/` : '';
  const now = ctx.clock.now();

  let readAt: number | undefined;
  let after: string | undefined;
  let token: ContinueToken | undefined;
  if (options.continue) {
    token = decodeContinue(options.continue);
    if (rv !== undefined && rv !== 0) throw badRequest('specifying resource version is not allowed when using continue');
    after = prefix + (token.start.endsWith('\u0000') ? token.start.slice(0, -1) : token.start);
    if (token.rv > 0) {
      readAt = token.rv;
      const expired = token.t !== undefined && now - token.t >= ctx.continueTokenTtlMs;
      if (expired || readAt < (await ctx.storage.compactedRevision())) throw continueExpired(token);
    }
  } else if (rv !== undefined && rv > 0) {
    const match = options.resourceVersionMatch ?? '';
    if (match === EXACT || (match === '' && limit !== undefined)) readAt = rv;
    else if (match === NOT_OLDER_THAN || match === '') await waitForRevision(ctx.storage, rv);
  }
  if (readAt !== undefined) await waitForRevision(ctx.storage, readAt);

  let result;
  let evaluated = 0;
  try {
    result = await ctx.storage.list(kind.bucket, {
      namespace,
      revision: readAt,
      after,
      limit,
      filter: selection.all
        ? undefined
        : (value) => {
            evaluated++;
            return selection.matches(value as KubeObject);
          },
      labels: selection.requiredLabels,
    });
  } catch (e) {
    if (e instanceof StorageCompactedError) throw token ? continueExpired(token) : listTooOld();
    if (e instanceof StorageFutureRevisionError) throw tooLargeResourceVersion(e.requested, e.current);
    throw e;
  }
  const last = result.items[result.items.length - 1];
  return {
    items: [...result.items],
    revision: result.revision,
    continue:
      result.more && last
        ? encodeContinue({ rv: result.revision, start: `${keyOf(last).slice(prefix.length)}\u0000`, t: token && token.rv > 0 ? token.t : now })
        : undefined,
    remaining: result.more && !selection.filtered ? result.remaining : undefined,
    fetched: selection.all ? result.items.length : evaluated,
    index: result.index ?? '',
  };
}

/** 410 Expired with a token that continues after the same key on the latest revision. */
function continueExpired(token: ContinueToken): ApiError {
  return new ApiError({
    code: 410,
    reason: 'Expired',
    message: CONTINUE_EXPIRED_MESSAGE,
    metadata: { continue: encodeContinue({ rv: -1, start: token.start }) },
  });
}
