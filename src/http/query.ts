/**
 * Query parameters of the resource API, read the way Kubernetes' parameter codec reads them:
 * booleans are true unless absent, `false` or `0` (any case); integers are Go's
 * `strconv.ParseInt`, and a malformed one is a 400 with Go's message.
 */
import { badRequest } from '../machinery/errors.js';
import { parseGoInt64 } from '../machinery/parameter-codec.js';
import type { ApiRequest, DeleteOptions, GetOptions, ListOptions, Verb, WriteOptions } from '../machinery/request.js';

/** `Convert_Slice_string_To_bool`: only `false` and `0` (and absence) are false; even `?watch=` is true. */
export function queryBool(params: URLSearchParams, name: string): boolean | undefined {
  const v = params.get(name);
  if (v === null) return undefined;
  return !(v === '0' || v.toLowerCase() === 'false');
}

/** Go's `strconv.ParseBool` (used for `pretty`): `undefined` for anything it refuses. */
export function parseGoBool(v: string): boolean | undefined {
  if (['1', 't', 'T', 'TRUE', 'true', 'True'].includes(v)) return true;
  if (['0', 'f', 'F', 'FALSE', 'false', 'False'].includes(v)) return false;
  return undefined;
}

/** Go's `strconv.ParseInt(s, 10, 64)`, with its error text as a 400. */
export { parseGoInt64 };

function queryInt(params: URLSearchParams, name: string): number | undefined {
  const v = params.get(name);
  return v === null ? undefined : parseGoInt64(v);
}

function queryString(params: URLSearchParams, name: string): string | undefined {
  return params.get(name) ?? undefined;
}

/** `dryRun` may repeat (`?dryRun=All&dryRun=All`); every value is checked by the engine. */
function queryDryRun(params: URLSearchParams): string[] | undefined {
  const all = params.getAll('dryRun');
  return all.length ? all : undefined;
}

/** Whether a GET of a collection is a watch (`?watch=true`, `?watch=1`, ...). */
export function isWatch(params: URLSearchParams): boolean {
  return queryBool(params, 'watch') === true;
}

/** ListOptions from the query (list, watch, deletecollection). */
export function listOptionsOf(params: URLSearchParams): ListOptions {
  const o: ListOptions = {
    labelSelector: queryString(params, 'labelSelector'),
    fieldSelector: queryString(params, 'fieldSelector'),
    limit: queryInt(params, 'limit'),
    continue: queryString(params, 'continue'),
    resourceVersion: queryString(params, 'resourceVersion'),
    resourceVersionMatch: queryString(params, 'resourceVersionMatch'),
    allowWatchBookmarks: queryBool(params, 'allowWatchBookmarks'),
    sendInitialEvents: queryBool(params, 'sendInitialEvents'),
    timeoutSeconds: queryInt(params, 'timeoutSeconds'),
    shardSelector: queryString(params, 'shardSelector'),
  };
  return compact(o);
}

/** WriteOptions from the query (create, update, patch). `force` is only read when present. */
export function writeOptionsOf(params: URLSearchParams): WriteOptions {
  return compact({
    dryRun: queryDryRun(params),
    fieldManager: queryString(params, 'fieldManager'),
    fieldValidation: queryString(params, 'fieldValidation'),
    force: queryBool(params, 'force'),
  });
}

/** DeleteOptions from the query (used when the DELETE has no body). */
export function deleteOptionsOf(params: URLSearchParams): DeleteOptions {
  const o: DeleteOptions = {
    dryRun: queryDryRun(params),
    gracePeriodSeconds: queryInt(params, 'gracePeriodSeconds'),
    propagationPolicy: queryString(params, 'propagationPolicy'),
    orphanDependents: queryBool(params, 'orphanDependents'),
  };
  const uid = queryString(params, 'preconditions.uid');
  const rv = queryString(params, 'preconditions.resourceVersion');
  if (uid !== undefined || rv !== undefined) o.preconditions = compact({ uid, resourceVersion: rv });
  return compact(o);
}

/** GetOptions from the query. */
export function getOptionsOf(params: URLSearchParams): GetOptions {
  return compact({ resourceVersion: queryString(params, 'resourceVersion') });
}

/** `includeObject` of a Table request: `None`, `Metadata` (default) or `Object`. */
export type IncludeObject = 'None' | 'Metadata' | 'Object';

/** Reads `includeObject`; anything else is a 400 as in Kubernetes' Table conversion. */
export function includeObjectOf(params: URLSearchParams): IncludeObject {
  const v = params.get('includeObject');
  if (v === null || v === '') return 'Metadata';
  if (v === 'None' || v === 'Metadata' || v === 'Object') return v;
  throw badRequest(`includeObject ${JSON.stringify(v)} is not supported; supported values: "None", "Metadata", "Object"`);
}

/** The options of a verb from the query. */
export function optionsFor(verb: Verb, params: URLSearchParams): Pick<ApiRequest, 'listOptions' | 'writeOptions' | 'deleteOptions' | 'getOptions'> {
  switch (verb) {
    case 'get':
      return { getOptions: getOptionsOf(params) };
    case 'list':
    case 'watch':
      return { listOptions: listOptionsOf(params) };
    case 'create':
    case 'update':
    case 'patch':
      return { writeOptions: writeOptionsOf(params) };
    case 'delete':
      return { deleteOptions: deleteOptionsOf(params) };
    case 'deletecollection':
      return { deleteOptions: deleteOptionsOf(params), listOptions: listOptionsOf(params) };
  }
}

/**
 * `o` without its undefined members, as a new object: deleting them instead would turn `o` into a
 * dictionary-mode object in V8 (a delete of any member but the last), whose every later read in
 * the request's way is a slower hash lookup.
 */
function compact<T extends object>(o: T): T {
  const out: Record<string, unknown> = {};
  for (const k in o) if (o[k] !== undefined) out[k] = o[k];
  return out as T;
}
