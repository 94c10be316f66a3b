/**
 * list: the objects of one kind (in one namespace or all), filtered by selectors, paged with
 * `limit` and `continue`, in Kubernetes' key order.
 */
import type { KubeObject } from '../../schema/define-kind.js';
import { apiVersionOf, type ResolvedKind } from '../../schema/registry.js';
import type { StoredObject } from '../../storage/storage.js';
import type { EngineContext } from '../context.js';
import { ApiError, badRequest } from '../errors.js';
import type { ApiRequest, ApiResponse } from '../request.js';
import { compileSelection } from '../selection.js';

/** A `<Kind>List` object. */
export interface ObjectList {
  apiVersion: string;
  kind: string;
  metadata: { resourceVersion: string; continue?: string; remainingItemCount?: number };
  items: KubeObject[];
}

interface ContinueToken {
  /** Revision of the first page. */
  rv: number;
  /** The key to continue after (`namespace/name` or `name`). */
  start: string;
}

function encodeContinue(token: ContinueToken): string {
  return Buffer.from(JSON.stringify({ v: 'memkube/1', ...token })).toString('base64url');
}

function decodeContinue(text: string): ContinueToken {
  const bad = (): never => {
    throw new ApiError({ code: 400, reason: 'BadRequest', message: `continue key is not valid: ${text}` });
  };
  let parsed: unknown;
  try {
    parsed = JSON.parse(Buffer.from(text, 'base64url').toString('utf8'));
  } catch {
    return bad();
  }
  const t = parsed as Partial<ContinueToken> & { v?: string };
  if (!t || t.v !== 'memkube/1' || typeof t.rv !== 'number' || typeof t.start !== 'string') return bad();
  return { rv: t.rv, start: t.start };
}

function keyOf(o: StoredObject): string {
  return o.namespace ? `${o.namespace}/${o.name}` : o.name;
}

/**
 * Built-in kinds serialize list items without apiVersion and kind, as the real API server does
 * for its typed lists.
 */
function listItem(value: KubeObject): KubeObject {
  const { apiVersion: _a, kind: _k, ...rest } = value;
  return rest as KubeObject;
}

/** Lists stored objects matching `req`; used by list and deletecollection. */
export async function selectStored(ctx: EngineContext, kind: ResolvedKind, req: ApiRequest): Promise<{ items: StoredObject[]; revision: number; continue?: string; remaining?: number }> {
  const options = req.listOptions ?? {};
  const selection = compileSelection(kind, options);
  if (options.limit !== undefined && (!Number.isInteger(options.limit) || options.limit < 0)) {
    throw badRequest(`limit must be a non-negative integer, got ${options.limit}`);
  }
  const token = options.continue ? decodeContinue(options.continue) : undefined;
  const { items, revision } = await ctx.storage.list(kind.bucket, { namespace: kind.namespaced ? req.namespace || undefined : undefined });
  const limit = options.limit && options.limit > 0 ? options.limit : Infinity;
  const out: StoredObject[] = [];
  let i = 0;
  if (token) {
    // Items are in key order: skip to the first key after the token's.
    let lo = 0;
    let hi = items.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (keyOf(items[mid]!) <= token.start) lo = mid + 1;
      else hi = mid;
    }
    i = lo;
  }
  for (; i < items.length && out.length < limit; i++) {
    if (selection.matches(items[i]!.value as KubeObject)) out.push(items[i]!);
  }
  // Anything left that matches means another page.
  let more = false;
  let remaining = 0;
  for (let j = i; j < items.length; j++) {
    if (selection.matches(items[j]!.value as KubeObject)) {
      more = true;
      remaining++;
      if (selection.filtered) break;
    }
  }
  const last = out[out.length - 1];
  return {
    items: out,
    revision: token?.rv ?? revision,
    continue: more && last ? encodeContinue({ rv: token?.rv ?? revision, start: keyOf(last) }) : undefined,
    remaining: more && !selection.filtered ? remaining : undefined,
  };
}

/** The list verb. */
export async function list(ctx: EngineContext, kind: ResolvedKind, req: ApiRequest, version: string): Promise<ApiResponse<ObjectList>> {
  const selected = await selectStored(ctx, kind, req);
  const metadata: ObjectList['metadata'] = { resourceVersion: String(selected.revision) };
  if (selected.continue) metadata.continue = selected.continue;
  if (selected.remaining !== undefined) metadata.remainingItemCount = selected.remaining;
  return {
    code: 200,
    body: {
      apiVersion: apiVersionOf(kind.group, version),
      kind: `${kind.definition.kind}List`,
      metadata,
      items: selected.items.map((s) => listItem(s.value as KubeObject)),
    },
    warnings: [],
  };
}
