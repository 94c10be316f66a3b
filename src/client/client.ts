/**
 * The in-process client: builds `ApiRequest`s directly (no JSON round trip) and hands them to the
 * engine. Results are the caller's own mutable copies; nothing a caller holds reaches the store.
 */
import { ApiError, type Status } from '../machinery/errors.js';
import type {
  ApiRequest,
  ApiResponse,
  DeleteOptions,
  GroupVersionResource,
  ListOptions,
  PatchType,
  TypedResourceTarget,
  UserInfo,
  WatchEvent,
  WatchStream,
} from '../machinery/request.js';
import type { ObjectList } from '../api/verbs/list.js';
import type { DeletedStatus } from '../api/verbs/delete.js';
import { WatchChannel } from '../api/watch/channel.js';
import type { KindDefinition, KubeObject } from '../schema/define-kind.js';
import { cloneJson } from '../util/json-clone.js';
import type { Scale } from '../kinds/types/autoscaling-v1.js';
import { extended } from '../util/extended.js';
import type { Clock } from '../clock.js';
import type { ApplyConfiguration, PatchBody } from './patch-types.js';
import { builtinResources, type BuiltinResource } from './builtin-resources.js';

/**
 * Sends one request to the engine.
 * @category Client
 */
export type RequestHandler = (req: ApiRequest) => Promise<ApiResponse>;

/**
 * Receives the warnings of an answer (what HTTP sends as `Warning: 299` headers): a write's, or a deprecated resource's on any answer, failed or not.
 * @category Client
 */
export type WarningHandler = (warnings: readonly string[]) => void;

/**
 * `dryRun` as the client takes it: `true` or `'All'` mean a dry run.
 * @category Client
 */
export type DryRunOption = boolean | 'All' | string[];

/**
 * Options every client call takes.
 * @category Client
 */
export interface CallOptions {
  /** Namespace of the object; defaults to the object's own, else `default`. */
  namespace?: string;
  onWarning?: WarningHandler;
}

/**
 * Options of create and update.
 * @category Client
 */
export interface ClientWriteOptions extends CallOptions {
  dryRun?: DryRunOption;
  fieldManager?: string;
  fieldValidation?: 'Ignore' | 'Warn' | 'Strict' | (string & {});
}

/**
 * Options of patch: the patch type, and `force` for apply.
 * @category Client
 */
export interface ClientPatchOptions extends ClientWriteOptions {
  /** `json` (RFC 6902), `merge` (RFC 7386), `strategic`, or `apply` (server-side apply). */
  type: PatchType;
  /** Apply only: take over fields other managers own. */
  force?: boolean;
  /** `status` (or another subresource) to patch instead of the main resource. */
  subresource?: string;
}

/**
 * Options of server-side apply.
 * @category Client
 */
export interface ClientApplyOptions extends ClientWriteOptions {
  /** Required by Kubernetes for apply. */
  fieldManager: string;
  force?: boolean;
  subresource?: string;
}

/**
 * Options of get.
 * @category Client
 */
export interface ClientGetOptions extends CallOptions {
  resourceVersion?: string;
}

/**
 * Options of list; without `namespace`, a namespaced kind is listed across all namespaces.
 * @category Client
 */
export interface ClientListOptions extends Pick<
  ListOptions,
  'labelSelector' | 'fieldSelector' | 'limit' | 'continue' | 'resourceVersion' | 'resourceVersionMatch' | 'shardSelector'
> {
  namespace?: string;
}

/**
 * Options of watch; without `namespace`, a namespaced kind is watched across all namespaces.
 * @category Client
 */
export interface ClientWatchOptions extends Pick<
  ListOptions,
  | 'labelSelector'
  | 'fieldSelector'
  | 'shardSelector'
  | 'resourceVersion'
  | 'resourceVersionMatch'
  | 'allowWatchBookmarks'
  | 'sendInitialEvents'
  | 'timeoutSeconds'
> {
  namespace?: string;
}

/**
 * Options of delete.
 * @category Client
 */
export interface ClientDeleteOptions extends CallOptions, Omit<DeleteOptions, 'dryRun'> {
  dryRun?: DryRunOption;
}

/**
 * Options of deletecollection: list options plus delete options.
 * @category Client
 */
export type ClientDeleteCollectionOptions = ClientListOptions & Omit<ClientDeleteOptions, 'namespace' | 'preconditions'>;

/**
 * A list of objects of one kind.
 * @category Client
 */
export interface List<T> {
  apiVersion: string;
  kind: string;
  metadata: { resourceVersion: string; continue?: string; remainingItemCount?: number };
  items: T[];
}

/** The user agent of the in-process client's requests. */
const USER_AGENT = 'memkube-client';

/** `res`, once its warnings went to `handler`. */
function warned(res: ApiResponse, handler: WarningHandler | undefined): ApiResponse {
  if (handler && res.warnings.length) handler(res.warnings);
  return res;
}

const asIs = (res: ApiResponse): ApiResponse => res;

/** The caller's own copy of a response's object. */
function bodyCopy<B>(res: ApiResponse): B {
  return cloneJson(res.body as B);
}

/** `e`, once the warnings of a failed request went to `handler`. */
function failureWarned(e: unknown, handler: WarningHandler | undefined): unknown {
  if (handler && e instanceof ApiError && e.warnings.length) handler(e.warnings);
  return e;
}

function dryRunOf(value: DryRunOption | undefined): string[] | undefined {
  if (value === undefined || value === false) return undefined;
  if (value === true) return ['All'];
  return typeof value === 'string' ? [value] : [...value];
}

/**
 * Targets a resource by group/version/resource; `group` defaults to the core group.
 * @category Client
 */
export interface ResourceTarget {
  group?: string;
  version: string;
  resource: string;
}

/**
 * What a resource client knows beyond its target: the namespace it is bound to, and the cluster's clock.
 * @category Client
 */
export interface ResourceClientContext {
  /** The namespace calls default to (a list or watch covers only it); unset: the object's, else `default`, and lists cover all namespaces. */
  readonly namespace?: string;
  /** The cluster clock, on which {@link waitFor} measures its timeout. */
  readonly clock?: Clock;
}

/**
 * Operations on one resource. `T` is the object type (typed for built-in kinds).
 * @category Client
 */
export class ResourceClient<T extends KubeObject = KubeObject> {
  constructor(
    private readonly send: RequestHandler,
    private readonly gvr: GroupVersionResource,
    private readonly namespaced: boolean | undefined,
    private readonly user: UserInfo,
    private readonly defaultWarning?: WarningHandler,
    private readonly context: ResourceClientContext = {},
  ) {}

  /** The namespace this client is bound to, if any (see {@link ResourceClient.inNamespace}). */
  get namespace(): string | undefined {
    return this.context.namespace;
  }

  /** The clock of the cluster this client talks to, when it knows it. */
  get clock(): Clock | undefined {
    return this.context.clock;
  }

  /**
   * The same client bound to `namespace`: calls default to it and a list or watch covers only it, as
   * a client-go client of one namespace. A cluster-scoped resource ignores it.
   */
  inNamespace(namespace: string): ResourceClient<T> {
    return new ResourceClient<T>(this.send, this.gvr, this.namespaced, this.user, this.defaultWarning, { ...this.context, namespace });
  }

  /** POST: creates `obj` and answers the object as stored. */
  create(obj: T, options: ClientWriteOptions = {}): Promise<T> {
    return this.write('create', obj, options);
  }

  /** PUT: replaces the object named by `obj.metadata.name` (a conflict when `metadata.resourceVersion` is set and stale); answers it as stored. */
  update(obj: T, options: ClientWriteOptions = {}): Promise<T> {
    return this.write('update', obj, options);
  }

  /** PUT on `/status`: changes only the status. */
  async updateStatus(obj: T, options: ClientWriteOptions = {}): Promise<T> {
    return this.write('update', obj, options, 'status');
  }

  /** PUT on a subresource other than status (e.g. a Namespace's `finalize`). */
  async updateSubresource(subresource: string, obj: T, options: ClientWriteOptions = {}): Promise<T> {
    return this.write('update', obj, options, subresource);
  }

  /**
   * PATCH, typed by `options.type`: `json` takes an array of RFC 6902 operations, `merge` a partial
   * object (`null` removes a field), `strategic` a partial object whose lists merge by key and which
   * may hold `$patch`, `$retainKeys` and `$setElementOrder/...` directives, `apply` an apply
   * configuration (see {@link ResourceClient.apply}).
   */
  async patch<P extends PatchType>(name: string, patch: PatchBody<T, P>, options: ClientPatchOptions & { type: P }): Promise<T> {
    return this.copyOf<T>(
      this.request({
        verb: 'patch',
        name,
        subresource: options.subresource,
        namespace: this.namespaceFor(options.namespace, undefined),
        body: patch,
        patchType: options.type,
        writeOptions: {
          dryRun: dryRunOf(options.dryRun),
          fieldManager: options.fieldManager,
          fieldValidation: options.fieldValidation,
          force: options.force,
        },
      }),
      options.onWarning,
    );
  }

  /**
   * Server-side apply of `config` (created when missing), as `kubectl apply --server-side` does:
   * `config` names only the fields `options.fieldManager` has an opinion about (with apiVersion,
   * kind and metadata.name); fields it no longer names and nobody else owns are removed. A field
   * another manager owns with another value is a 409 Conflict unless `force` takes it over.
   */
  async apply(config: ApplyConfiguration<T>, options: ClientApplyOptions): Promise<T> {
    const meta = (config as KubeObject).metadata;
    return this.patch(meta?.name ?? '', config, { ...options, type: 'apply', namespace: options.namespace ?? (meta?.namespace || undefined) });
  }

  /** GET: the object named `name` (a 404 NotFound `ApiError` when there is none). */
  get(name: string, options: ClientGetOptions = {}): Promise<T> {
    const getOptions = options.resourceVersion !== undefined ? { resourceVersion: options.resourceVersion } : undefined;
    return this.copyOf<T>({
      verb: 'get',
      resource: this.gvr,
      user: this.user,
      userAgent: USER_AGENT,
      name,
      namespace: this.namespaceFor(options.namespace, undefined),
      getOptions,
    });
  }

  /** GET on `/scale`: the object's `autoscaling/v1` Scale. */
  async getScale(name: string, options: CallOptions = {}): Promise<Scale> {
    return this.copyOf<Scale>(this.request({ verb: 'get', name, subresource: 'scale', namespace: this.namespaceFor(options.namespace, undefined) }));
  }

  /** PUT on `/scale`: sets the replicas of the object named by `scale.metadata.name`. */
  async updateScale(scale: Scale, options: ClientWriteOptions = {}): Promise<Scale> {
    const meta = scale.metadata;
    return this.copyOf<Scale>(
      this.request({
        verb: 'update',
        subresource: 'scale',
        name: meta?.name,
        namespace: this.namespaceFor(options.namespace, meta?.namespace),
        body: scale,
        writeOptions: { dryRun: dryRunOf(options.dryRun), fieldManager: options.fieldManager, fieldValidation: options.fieldValidation },
      }),
      options.onWarning,
    );
  }

  /** PATCH on `/scale`: `patch` applies to the Scale (e.g. `{ spec: { replicas: 3 } }` as a merge patch). */
  async patchScale<P extends PatchType>(
    name: string,
    patch: PatchBody<Scale, P>,
    options: Omit<ClientPatchOptions, 'subresource'> & { type: P },
  ): Promise<Scale> {
    return (await this.patch(name, patch as PatchBody<T, P>, { ...options, subresource: 'scale' })) as unknown as Scale;
  }

  /** GET on `/status`. */
  async getStatus(name: string, options: ClientGetOptions = {}): Promise<T> {
    return this.copyOf<T>(this.request({ verb: 'get', name, subresource: 'status', namespace: this.namespaceFor(options.namespace, undefined) }));
  }

  /** LIST: the objects of `options.namespace` (else of the bound namespace, else of every namespace) that match the options' selectors. */
  async list(options: ClientListOptions = {}): Promise<List<T>> {
    const { namespace, ...listOptions } = options;
    return (await this.copyOf<ObjectList>(this.request({ verb: 'list', namespace: this.collectionNamespace(namespace), listOptions }))) as unknown as List<T>;
  }

  /**
   * Starts a watch. Iterate the stream with `for await`; breaking out of the loop (or `close()`)
   * ends the watch and releases it in the server. Event objects are the caller's own copies; an
   * ERROR event carries a `Status`, a BOOKMARK only kind, apiVersion and metadata.resourceVersion.
   */
  async watch(options: ClientWatchOptions = {}): Promise<WatchStream<T>> {
    const { namespace, ...listOptions } = options;
    const res = await this.call(this.request({ verb: 'watch', namespace: this.collectionNamespace(namespace), listOptions }));
    const inner = res.body as WatchStream;
    return {
      done: inner.done,
      close: () => inner.close(),
      [Symbol.asyncIterator]() {
        // Each watcher copies the object it is handed when it reads it (the server shares one per
        // event): what one watcher does to its event never reaches another watcher or the store.
        const own = (e: WatchEvent): WatchEvent<T> => ({ type: e.type, object: cloneJson(e.object) as T });
        if (inner instanceof WatchChannel) {
          // The engine's stream copies as it hands each event out: no promise of ours per event.
          const reader = inner.reader(own);
          return {
            next: () => reader.next(),
            return: async () => {
              inner.close();
              return { value: undefined, done: true };
            },
          } as AsyncIterator<WatchEvent<T>>;
        }
        const it = inner[Symbol.asyncIterator]();
        const ownResult = (r: IteratorResult<WatchEvent>): IteratorResult<WatchEvent<T>> => (r.done ? r : { value: own(r.value), done: false });
        return {
          next: () => it.next().then(ownResult),
          return: async () => {
            inner.close();
            return { value: undefined, done: true };
          },
        } as AsyncIterator<WatchEvent<T>>;
      },
    };
  }

  /** Deletes one object; answers the object (marked or deleted, per kind) or a Success Status. */
  async delete(name: string, options: ClientDeleteOptions = {}): Promise<T | DeletedStatus> {
    const { namespace, onWarning, dryRun, ...rest } = options;
    return this.copyOf<T | DeletedStatus>(
      this.request({ verb: 'delete', name, namespace: this.namespaceFor(namespace, undefined), deleteOptions: { ...rest, dryRun: dryRunOf(dryRun) } }),
      onWarning,
    );
  }

  /** Deletes every object a list with the same options returns; answers the list of them. */
  async deleteCollection(options: ClientDeleteCollectionOptions = {}): Promise<List<T>> {
    const { namespace, labelSelector, fieldSelector, limit, continue: cont, resourceVersion, resourceVersionMatch, dryRun, onWarning, ...rest } = options;
    return (await this.copyOf<ObjectList>(
      this.request({
        verb: 'deletecollection',
        namespace: this.collectionNamespace(namespace),
        listOptions: { labelSelector, fieldSelector, limit, continue: cont, resourceVersion, resourceVersionMatch },
        deleteOptions: { ...rest, dryRun: dryRunOf(dryRun) },
      }),
      onWarning,
    )) as unknown as List<T>;
  }

  private write(verb: 'create' | 'update', obj: T, options: ClientWriteOptions, subresource?: string): Promise<T> {
    const meta = (obj as KubeObject | undefined)?.metadata;
    return this.copyOf<T>(
      {
        verb,
        resource: this.gvr,
        user: this.user,
        userAgent: USER_AGENT,
        subresource,
        name: verb === 'update' ? meta?.name : undefined,
        namespace: this.namespaceFor(options.namespace, meta?.namespace),
        body: obj,
        writeOptions: { dryRun: dryRunOf(options.dryRun), fieldManager: options.fieldManager, fieldValidation: options.fieldValidation },
      },
      options.onWarning,
    );
  }

  private namespaceFor(explicit: string | undefined, fromObject: string | undefined): string | undefined {
    if (this.namespaced === false) return undefined;
    return explicit ?? this.context.namespace ?? (fromObject || 'default');
  }

  /** A list, watch or deletecollection covers the namespace asked for, else the bound one, else all. */
  private collectionNamespace(explicit: string | undefined): string | undefined {
    if (this.namespaced === false) return undefined;
    return explicit ?? this.context.namespace;
  }

  /** The request of a partial one: the resource, user and user agent are the client's. */
  private request(partial: Omit<ApiRequest, 'resource' | 'user'>): ApiRequest {
    return extended(partial, { resource: this.gvr, user: this.user, userAgent: USER_AGENT });
  }

  /** Sends `req`; the warnings of its answer, or of its failure, go to the warning handler. */
  private call(req: ApiRequest, onWarning?: WarningHandler): Promise<ApiResponse> {
    return this.sent(req, onWarning, asIs);
  }

  /** {@link call}, answering the caller's own copy of the response's object. */
  private copyOf<B>(req: ApiRequest, onWarning?: WarningHandler): Promise<B> {
    return this.sent(req, onWarning, bodyCopy<B>);
  }

  /**
   * Sends `req` and answers `answer(response)`, in one async step: an in-process get takes a few
   * microseconds, and each async function on its way is a promise and a turn of the microtask queue.
   */
  private async sent<R>(req: ApiRequest, onWarning: WarningHandler | undefined, answer: (res: ApiResponse) => R): Promise<R> {
    const handler = onWarning ?? this.defaultWarning;
    let res: ApiResponse;
    try {
      res = await this.send(req);
    } catch (e) {
      throw failureWarned(e, handler);
    }
    return answer(warned(res, handler));
  }
}

/**
 * Resolves a target to its group/version/resource and scope.
 * @category Client
 */
export type ResourceResolver = (target: ResourceTarget | KindDefinition) => { gvr: GroupVersionResource; namespaced: boolean | undefined };

/**
 * The default in-process user: a cluster administrator.
 * @category Client
 */
export const ADMIN_USER: UserInfo = { username: 'system:admin', groups: ['system:masters', 'system:authenticated'] };

/**
 * What a client knows of its cluster beyond how to send a request.
 * @category Client
 */
export interface ClientContext {
  /** The cluster clock, handed to every resource client (for {@link waitFor}'s timeout). */
  readonly clock?: Clock;
  /** The cluster's API group domain (`k8s.io` by default), for the typed helpers of `{api_domain}` groups. */
  readonly apiDomain?: string;
}

/**
 * The typed helpers of the client, one per common built-in resource: a namespaced resource's takes
 * the namespace to bind to (none: the object's own, and lists across all namespaces), a
 * cluster-scoped one takes nothing.
 * @category Client
 */
export type BuiltinResourceHelpers = {
  [K in keyof typeof builtinResources]: (typeof builtinResources)[K] extends BuiltinResource<infer T, 'Namespaced'>
    ? (namespace?: string) => ResourceClient<T>
    : (typeof builtinResources)[K] extends BuiltinResource<infer T, 'Cluster'>
      ? () => ResourceClient<T>
      : never;
};

/**
 * The in-process client of a cluster.
 * @category Client
 */
// eslint-disable-next-line @typescript-eslint/no-unsafe-declaration-merging -- the typed helpers, see below
export class Client {
  constructor(
    private readonly send: RequestHandler,
    private readonly resolve: ResourceResolver,
    private readonly user: UserInfo = ADMIN_USER,
    private readonly onWarning?: WarningHandler,
    private readonly context: ClientContext = {},
  ) {}

  /** A client for one resource; typed when given a kind definition (e.g. `kinds.ConfigMap`). */
  resource<T extends KubeObject>(kind: KindDefinition<T>): ResourceClient<T>;
  resource<T extends KubeObject>(target: TypedResourceTarget<T>): ResourceClient<T>;
  resource(target: ResourceTarget): ResourceClient<KubeObject>;
  resource(target: ResourceTarget | KindDefinition): ResourceClient<KubeObject> {
    const { gvr, namespaced } = this.resolve(target);
    return new ResourceClient(this.send, gvr, namespaced, this.user, this.onWarning, { clock: this.context.clock });
  }

  /** The same client acting as another user. */
  as(user: UserInfo): Client {
    return new Client(this.send, this.resolve, user, this.onWarning, this.context);
  }

  /** The same client reporting warnings to `handler`. */
  withWarnings(handler: WarningHandler): Client {
    return new Client(this.send, this.resolve, this.user, handler, this.context);
  }
}

// The typed helpers are declared by merging an interface into the class (its methods come from the
// table, installed below), so that adding a row to the table is all a new helper takes.
// eslint-disable-next-line @typescript-eslint/no-unsafe-declaration-merging, @typescript-eslint/no-empty-object-type
export interface Client extends BuiltinResourceHelpers {}

for (const [name, entry] of Object.entries(builtinResources)) {
  Object.defineProperty(Client.prototype, name, {
    configurable: true,
    writable: true,
    value: function (this: Client, namespace?: string): ResourceClient {
      const apiDomain = (this as unknown as { context: ClientContext }).context.apiDomain ?? 'k8s.io';
      const target = { group: entry.group.replace('{api_domain}', apiDomain), version: entry.version, resource: entry.resource };
      const client = this.resource(target);
      return entry.scope === 'Namespaced' && namespace !== undefined ? client.inNamespace(namespace) : client;
    },
  });
}

export type { Status };
