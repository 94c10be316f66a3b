/**
 * The shapes of the four patch types, typed by the object they change, so that a patch of the wrong
 * shape for its type (an object as a JSON patch, a number where a string goes) fails to compile
 * instead of coming back as a 400 or 422 at run time.
 */
import type { PatchType } from '../machinery/request.js';

/**
 * One operation of an RFC 6902 JSON patch; `path` and `from` are JSON pointers (`/data/key`, `~1` for `/`).
 * @category Client
 */
export type JsonPatchOperation =
  | { op: 'add'; path: string; value: unknown }
  | { op: 'remove'; path: string }
  | { op: 'replace'; path: string; value: unknown }
  | { op: 'move'; from: string; path: string }
  | { op: 'copy'; from: string; path: string }
  | { op: 'test'; path: string; value: unknown };

/**
 * A JSON patch: operations applied in order, all or nothing.
 * @category Client
 */
export type JsonPatch = readonly JsonPatchOperation[];

type Primitive = string | number | boolean | bigint | symbol | null | undefined;
// Each type below first passes `unknown` (and `any`) through untouched: a field typed `unknown` (an
// untyped object's, a free-form `Record<string, unknown>`) takes any value, not only non-null ones.

/**
 * An RFC 7386 merge patch of `T`: every field optional, objects merged field by field, `null`
 * removes a field, and a list replaces the whole list (so its items are complete ones).
 * @category Client
 */
export type MergePatch<T> = unknown extends T ? T : T extends Primitive ? T : T extends readonly unknown[] ? T : { [K in keyof T]?: MergePatch<T[K]> | null };

/**
 * The directives a strategic merge patch may put in an object (`$patch: replace` replaces the object, `$retainKeys` drops the fields not named).
 * @category Client
 */
export interface StrategicMergeDirectives {
  $patch?: 'replace' | 'merge' | 'delete';
  $retainKeys?: string[];
  [setOrder: `$setElementOrder/${string}`]: unknown[] | undefined;
  [deleteFromList: `$deleteFromPrimitiveList/${string}`]: unknown[] | undefined;
}

/** A list in a strategic merge patch: items merged by their merge key, or a `{ $patch: replace | delete }` item. */
type StrategicMergeList<E> = E extends Primitive ? E[] : Array<StrategicMergePatch<E> | { $patch: 'replace' | 'delete' }>;

/**
 * A strategic merge patch of `T`: a merge patch whose lists of objects merge by key (a container by
 * its `name`) rather than being replaced, and which may carry the directives of
 * {@link StrategicMergeDirectives}.
 * @category Client
 */
export type StrategicMergePatch<T> = unknown extends T
  ? T
  : T extends Primitive
    ? T
    : T extends readonly (infer E)[]
      ? StrategicMergeList<E>
      : { [K in keyof T]?: StrategicMergePatch<T[K]> | null } & StrategicMergeDirectives;

/**
 * Every field optional, all the way down, lists of partial items: what an apply configuration may hold.
 * @category Client
 */
export type DeepPartial<T> = unknown extends T
  ? T
  : T extends Primitive
    ? T
    : T extends readonly (infer E)[]
      ? DeepPartial<E>[]
      : { [K in keyof T]?: DeepPartial<T[K]> };

/**
 * A server-side apply configuration of `T`: only the fields the manager has an opinion about, with
 * the `apiVersion` and `kind` Kubernetes requires (and `metadata.name`, which the server checks).
 * An untyped object (one with an index signature, as `KubeObject`) is taken as it is.
 * @category Client
 */
export type ApplyConfiguration<T> = string extends keyof T ? T : DeepPartial<T> & { apiVersion: string; kind: string };

/**
 * The body a patch of type `P` takes for objects of type `T`; a `P` that is no patch type (`never`) takes anything, for the server to refuse.
 * @category Client
 */
export type PatchBody<T, P extends PatchType> = [P] extends [never]
  ? unknown
  : P extends 'json'
    ? JsonPatch
    : P extends 'merge'
      ? MergePatch<T>
      : P extends 'strategic'
        ? StrategicMergePatch<T>
        : P extends 'apply'
          ? ApplyConfiguration<T>
          : never;
