/**
 * `defineKind`: everything the server knows about a kind, in one declaration. The engine reads
 * only this; adding a kind is adding one `defineKind({...})`.
 */
import type { AuthServices } from '../machinery/auth.js';
import type { z } from 'zod';
import type { FieldError } from '../machinery/field-errors.js';
import type { ApiRequest, ApiResponse, ConnectRequest, StreamedBody, UserInfo, Verb } from '../machinery/request.js';
import type { NodeConnections } from '../machinery/node-connections.js';
import type { ImmutableField } from './validation/immutable-fields.js';
import type { NameValidator } from './validation/names.js';
import type { StructuralNode } from './structural.js';

export type { ImmutableField } from './validation/immutable-fields.js';

/**
 * A function type checked bivariantly (like a method), so a kind of a specific object type can be
 * used where a kind of any object is expected.
 * @typeParam F - The function type.
 * @category Defining kinds
 */
export type Bivariant<F extends (...args: never[]) => unknown> = {
  /** The function, declared as a method so that its parameters are checked bivariantly. */
  bivarianceHack(...args: Parameters<F>): ReturnType<F>;
}['bivarianceHack'];

/**
 * Any Kubernetes object as plain JSON.
 * @category Defining kinds
 */
export interface KubeObject {
  apiVersion?: string;
  kind?: string;
  metadata?: ObjectMetaLike;
  [field: string]: unknown;
}

/**
 * The parts of ObjectMeta the engine reads and writes.
 * @category Defining kinds
 */
export interface ObjectMetaLike {
  name?: string;
  generateName?: string;
  namespace?: string;
  uid?: string;
  resourceVersion?: string;
  generation?: number;
  creationTimestamp?: string;
  deletionTimestamp?: string;
  deletionGracePeriodSeconds?: number;
  labels?: Record<string, string>;
  annotations?: Record<string, string>;
  finalizers?: string[];
  ownerReferences?: unknown[];
  managedFields?: unknown[];
  selfLink?: string;
  [field: string]: unknown;
}

/**
 * What a kind's hooks may know about the request and the cluster.
 * @category Defining kinds
 */
export interface KindContext {
  readonly operation: 'create' | 'update' | 'delete';
  /** `status`, `scale`, ... when the write came through a subresource. */
  readonly subresource?: string;
  /**
   * The group/version the request came through (`v1`, `events.k8s.io/v1`): some rules depend on
   * it, as Kubernetes validates an Event more strictly through `events.k8s.io`.
   */
  readonly apiVersion: string;
  readonly user: UserInfo;
  /** Cluster time, milliseconds since the epoch. */
  now(): number;
  /** The API group domain, `k8s.io` by default. */
  readonly apiDomain: string;
  /** The reserved domain of qualified names, `kubernetes.io` by default. */
  readonly reservedDomain: string;
  /** Whether a feature gate is on. */
  featureEnabled(gate: string): boolean;
  /**
   * State a kind keeps per cluster (e.g. an address allocator's table): the value stored under
   * `key`, created with `init` the first time. It lives as long as the cluster.
   */
  state<S>(key: string, init: () => S): S;
  /** Whether the request is a dry run: nothing will be stored. */
  readonly dryRun: boolean;
  /** Reads another object (e.g. a Pod's ServiceAccount) from the current state. */
  read(resource: { group: string; resource: string }, namespace: string, name: string): Promise<KubeObject | undefined>;
  /**
   * Lists the stored objects of a resource (of one namespace when `namespace` is given), e.g. the
   * PriorityClasses the Priority admission plugin looks for a global default in; `[]` for a
   * resource the cluster does not serve.
   */
  list(resource: { group: string; resource: string }, namespace?: string): Promise<KubeObject[]>;
  /**
   * The cluster's authorizer, token authenticators and service account token issuer: a review asks
   * them, a role's write checks the writer for escalation, a TokenRequest signs a token.
   */
  readonly auth: AuthServices;
}

/**
 * How a served version's objects become stored objects and back, when their shapes differ (an
 * `events.k8s.io/v1` Event is stored as a core Event). Each function receives a copy it may change
 * and answers the converted object; `apiVersion` and `kind` are stamped by the engine afterwards.
 *
 * A conversion may answer a promise (a custom resource's conversion webhook): the engine then
 * waits for it, and a rejection fails the request (an `ApiError` as it is, anything else as
 * a 500). Answering a plain object keeps the request on the synchronous path, so a conversion that
 * is asynchronous only sometimes (nothing to convert) costs nothing then.
 * @category Defining kinds
 */
export interface VersionConversion {
  /** A decoded object of this version, in the storage version's shape. */
  toStorage(obj: KubeObject): KubeObject | Promise<KubeObject>;
  /** A stored object, in this version's shape. */
  fromStorage(obj: KubeObject): KubeObject | Promise<KubeObject>;
  /**
   * Several stored objects at once, answered in the same order: what a list, a collection delete
   * and a watch's initial events call, so that a conversion that calls out converts them in one
   * round trip (one ConversionReview, as apiextensions-apiserver's webhook converter sends for a
   * list). Without it the engine calls {@link fromStorage} for each.
   */
  fromStorageMany?(objs: KubeObject[]): KubeObject[] | Promise<KubeObject[]>;
  /**
   * This is the storage version itself: its objects are stored as they are (no `toStorage`), and
   * only stored objects whose `apiVersion` is another version (written before a custom resource
   * definition changed its storage version) go through `fromStorage`.
   */
  readonly storageShape?: boolean;
}

/**
 * One served version of a kind.
 * @category Defining kinds
 */
export interface KindVersion<T extends KubeObject = KubeObject> {
  readonly name: string;
  /**
   * The zod schema of the whole object in this version: its shape, and for a kind given to
   * `createCluster({ kinds })` its rules, applied as a custom resource's OpenAPI schema is:
   * `.default()` filled in on every write and read, value checks (`.min()`, `.max()`, `z.enum()`,
   * string lengths, `.regex()`, formats, array sizes, `set` and `map` lists) answered as one
   * `422 Invalid` with the strategy's errors. They are what the OpenAPI documents publish for the
   * kind; what a JSON schema cannot say (`.refine()`, `.transform()`) is neither published nor run.
   *
   * It may be a getter (`get schema() { return buildSchema(); }`): the schema is then built when
   * the kind first needs it (its first write, its OpenAPI document), not when it is declared;
   * `defineKind` leaves it unread, and `createCluster` checks it when it adds the kind. The
   * built-in kinds are declared this way.
   */
  readonly schema: z.ZodType<T>;
  readonly served?: boolean;
  /** Exactly one version of a kind is the storage version. */
  readonly storage?: boolean;
  /**
   * Conversion to and from the storage shape. Without it the version has the storage version's
   * shape and only `apiVersion` changes (MutatingAdmissionPolicy's v1beta1 and v1alpha1).
   */
  readonly conversion?: VersionConversion;
  /**
   * The version's schema when it comes as an OpenAPI schema rather than zod (a custom resource's,
   * from its CustomResourceDefinition): the engine walks `structural` and publishes `openApi`;
   * `schema` is then only the object type.
   */
  readonly published?: PublishedSchema;
}

/**
 * A kind version's schema given as OpenAPI (see {@link KindVersion.published}).
 * @category Defining kinds
 */
export interface PublishedSchema {
  /** The tree the decoder, required-field check, strategic merge and apply walk. */
  readonly structural: StructuralNode;
  /**
   * The OpenAPI schema to publish for the version's objects (named as Kubernetes names a custom
   * resource's definition, `com.example.stable.v1.CronTab`); its refs to the `meta/v1` definitions
   * are written `#/definitions/<name>`. Called when a document is built.
   */
  openApi(): Record<string, unknown>;
  /**
   * Decodes a request's object of this version in place of the engine's typed decoding (a custom
   * resource is decoded as plain JSON, then pruned): answers the object with unknown fields dropped
   * and their paths (`spec.foo`) for `fieldValidation`; throws an `ApiError` for a body it cannot take.
   */
  decode?(obj: Readonly<Record<string, unknown>>): { value: KubeObject; unknownFields: readonly string[] };
  /**
   * What an object becomes when served at this version, after conversion (a custom resource's
   * defaults applied on read, so that a changed schema's defaults reach stored objects). Answers the
   * object itself when nothing changes.
   */
  onRead?(obj: KubeObject): KubeObject;
}

/**
 * What an action may do: what any hook may, and send requests to the engine as the request's user.
 * @category Defining kinds
 */
export interface ActionContext extends KindContext {
  /**
   * Runs a request through the engine, as the action's caller (a Pod's eviction deletes the pod and
   * writes the status of its PodDisruptionBudget this way): every rule, admission and watch applies.
   */
  request(req: Omit<ApiRequest, 'user' | 'userAgent'>): Promise<ApiResponse>;
  /** The target object as stored (a copy to change) and its revision; 404 when it does not exist. */
  readTarget(): Promise<{ object: KubeObject; revision: number }>;
  /**
   * Stores `obj` as the target's next version if the target is still at `revision`, with none of the
   * kind's update rules (Kubernetes' registries write this way with `GuaranteedUpdate`, e.g. a
   * Pod's binding sets `spec.nodeName`, which a Pod update may not change). Watchers see the change.
   * Answers the stored object, or undefined when the target changed meanwhile (read it again).
   */
  writeTarget(obj: KubeObject, revision: number): Promise<KubeObject | undefined>;
}

/**
 * What a review may do: what any hook may, and send requests to the engine as the caller.
 * @category Defining kinds
 */
export type ReviewContext = KindContext & Pick<ActionContext, 'request'>;

/**
 * A subresource that acts when a body is POSTed to it (a Pod's `binding` and `eviction`): the body
 * is an object of another kind, decoded with `schema`; `run` does the work through the engine and
 * answers. Discovery lists it with the verb `create` and `kind` as its kind.
 * @category Defining kinds
 */
export interface ActionSubresource {
  /** The kind of the body and of discovery's entry (`{ group: 'policy', version: 'v1', kind: 'Eviction' }`). */
  readonly kind: { readonly group: string; readonly version: string; readonly kind: string };
  /** Other group/versions whose body is accepted as well (`policy/v1beta1` for an Eviction). */
  readonly alsoAccepts?: readonly string[];
  readonly schema: z.ZodType;
  /** Acts on the named object; answers the response (usually a `Status`). */
  run(body: KubeObject, target: { readonly namespace?: string; readonly name: string }, ctx: ActionContext): Promise<ApiResponse>;
}

/**
 * What a connect subresource may do: what any hook may, read its target, and reach node agents.
 * @category Defining kinds
 */
export interface ConnectContext extends KindContext {
  /** The target object as stored (a copy); 404 when it does not exist. */
  readTarget(): Promise<KubeObject>;
  /** The API server's client of node agents (kube-apiserver's kubelet client). */
  readonly nodes: NodeConnections;
}

/**
 * The HTTP methods a connect subresource may serve.
 * @category Defining kinds
 */
export type ConnectMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE' | 'HEAD' | 'OPTIONS';

/**
 * The verb of a connect subresource's method, as kube-apiserver's RequestInfoFactory names it
 * (HEAD is a `get`); undefined for OPTIONS, which no verb names.
 */
export function connectVerbOf(method: string): Verb | undefined {
  return ({ GET: 'get', HEAD: 'get', POST: 'create', PUT: 'update', PATCH: 'patch', DELETE: 'delete' } as const)[method as 'GET'];
}

/**
 * A subresource whose answer is not an object but a stream from elsewhere (kube-apiserver's
 * `GetterWithOptions` streamers and `Connecter`s): a Pod's `log`, a Node's `proxy`. The request
 * carries its method, query and (with `takesPath`) the rest of the URL path; `connect` answers a
 * {@link StreamedBody} and its status. Discovery lists the verbs of its methods.
 * @category Defining kinds
 */
export interface ConnectSubresource {
  /** The methods served (GET is the verb `get`, POST `create`, PUT `update`, PATCH `patch`, DELETE `delete`). */
  readonly methods: readonly ConnectMethod[];
  /** The kind discovery names (`NodeProxyOptions`); the resource's own kind by default. */
  readonly discoveryKind?: string;
  /** Whether the path after the subresource is the request's (`nodes/n1/proxy/healthz`); 404 for more segments otherwise. */
  readonly takesPath?: boolean;
  /** Serves one request to the named object. */
  connect(target: { readonly namespace?: string; readonly name: string }, request: ConnectRequest, ctx: ConnectContext): Promise<ApiResponse<StreamedBody>>;
}

/**
 * Deletion behaviour of a kind.
 * @category Defining kinds
 */
export interface DeleteStrategy<T extends KubeObject = KubeObject> {
  /**
   * The grace period a delete gets when the request names none; `0` or undefined deletes at once.
   * Return the period to use for `obj`, given the requested one.
   */
  gracePeriod?(obj: T, requested: number | undefined): number;
  /** Whether a delete answers with the deleted object instead of a Status. */
  returnDeletedObject?: boolean;
  /**
   * Whether something besides `metadata.finalizers` still holds an object marked for deletion
   * (a Namespace's `spec.finalizers`). Such an object is only marked, then removed once this is false.
   */
  finalizersPending?(obj: Readonly<T>): boolean;
  /** Refuses a delete before anything changes (e.g. 403 for an immortal namespace). */
  checkDelete?(obj: Readonly<T>, ctx: KindContext): void;
  /** Adjusts an object as it is marked for deletion (e.g. a Namespace's phase becomes Terminating). */
  markDeleting?(obj: T): void;
  /**
   * Whether marking for deletion leaves `metadata.generation` alone. Kubernetes' generic store bumps
   * it; a kind whose REST storage marks objects itself (CustomResourceDefinition) does not.
   */
  markKeepsGeneration?: boolean;
}

/**
 * The `scale` subresource, declared as a CustomResourceDefinition declares it: JSON paths
 * (`.spec.replicas`) of the desired and observed replica counts and of the label selector.
 * @category Defining kinds
 */
export interface ScaleSubresource {
  /** Path of the desired replicas (`Scale.spec.replicas`), e.g. `.spec.replicas`. */
  readonly specReplicasPath: string;
  /** Path of the observed replicas (`Scale.status.replicas`), e.g. `.status.replicas`. */
  readonly statusReplicasPath: string;
  /**
   * Path of the selector (`Scale.status.selector`): a `metav1.LabelSelector` object (printed as a
   * selector string, as built-in kinds do) or a string (taken as is, as for custom resources).
   */
  readonly labelSelectorPath?: string;
  /**
   * Whether the selector at `labelSelectorPath` is a plain label map (`map[string]string`, as a
   * ReplicationController's `spec.selector`) rather than a `metav1.LabelSelector`.
   */
  readonly labelSelectorIsMap?: boolean;
}

/**
 * How the server keeps a kind's `metadata.generation` (see {@link KindDeclaration.generation}):
 * - `'object'`: as for custom resources, 1 on create and one more on every update that changes
 *   anything outside `metadata` (a `/status` write never does);
 * - `false`: the server never sets it (ConfigMap, Service, ...): a create keeps what the client
 *   sent, an update keeps the stored value, whatever the body says;
 * - `{ changed }`: 1 on create, one more on every update for which `changed(obj, old)` is true
 *   (most built-in kinds with a generation: the spec changed, semantically).
 * @category Defining kinds
 */
export type GenerationPolicy<T extends KubeObject = KubeObject> =
  | 'object'
  | false
  | {
      /** Whether the update from `old` to `obj` changes the generation. */
      readonly changed: Bivariant<(obj: Readonly<T>, old: Readonly<T>) => boolean>;
    };

/**
 * Hooks where a kind needs code. Each receives a mutable working copy unless noted.
 * @category Defining kinds
 */
export interface KindStrategy<T extends KubeObject = KubeObject> {
  /** Resets what a create may not set (e.g. status). Runs before defaulting. */
  prepareForCreate?(obj: T, ctx: KindContext): void | Promise<void>;
  /**
   * Restores what an update may not change, from `old` (read-only). Runs for subresource writes
   * too (`ctx.subresource` says which), after the engine kept what the subresource may not change.
   */
  prepareForUpdate?(obj: T, old: Readonly<T>, ctx: KindContext): void | Promise<void>;
  /**
   * Fills defaults. Runs on every write, after the defaults of the kind's schema (which it sees),
   * before the field manager and admission, and again after prepare.
   */
  defaults?(obj: T, ctx: KindContext): void;
  /**
   * The kind's validation rules for a new object (on update too), besides its schema's: their
   * errors are answered together, after the schema's, in one `422 Invalid`.
   */
  validate?(obj: T, ctx: KindContext): FieldError[] | Promise<FieldError[]>;
  /** The kind's rules for an update (immutability, transitions). Runs in addition to `validate`. */
  validateUpdate?(obj: T, old: Readonly<T>, ctx: KindContext): FieldError[] | Promise<FieldError[]>;
  /** Warnings to return with a successful write. */
  warnings?(obj: T, old: Readonly<T> | undefined, ctx: KindContext): string[];
}

/**
 * A column of `kubectl get` (a `meta.k8s.io/v1` Table column after `Name`). A `date` column's value
 * is a timestamp, printed as an age (`5m`, `3d2h`) as Kubernetes prints `creationTimestamp` (the
 * `Created At` column of Kubernetes' default table is `defaultTable`). The value is computed from the stored object (the
 * storage version's shape), whatever version the Table was asked at, as Kubernetes prints the
 * internal object.
 * @category Defining kinds
 */
export interface PrinterColumn<T extends KubeObject = KubeObject> {
  readonly name: string;
  readonly type: 'string' | 'integer' | 'number' | 'boolean' | 'date';
  readonly format?: string;
  readonly description?: string;
  /** 0 shows by default; higher shows with `-o wide`. */
  readonly priority?: number;
  /**
   * The cell of `obj`. `now` is the cluster time in milliseconds since the epoch, for cells that
   * print a duration up to now (a running Job's `Duration`, a CronJob's `Last Schedule`).
   */
  readonly value: Bivariant<(obj: Readonly<T>, now: number) => string | number | boolean | null | undefined>;
  /**
   * Whether `value` gives the Table cell exactly, `null` included, with no `<none>` for a missing
   * string and no age for a date (a CustomResourceDefinition's columns compute their cells
   * themselves, as apiextensions-apiserver's table convertor does).
   */
  readonly exactCell?: boolean;
}

/**
 * The declaration of a kind.
 * @category Defining kinds
 */
export interface KindDeclaration<T extends KubeObject = KubeObject> {
  /** API group; `''` is the core group. `{api_domain}` is replaced by the cluster's API domain. */
  readonly group: string;
  readonly kind: string;
  /** Lowercase plural, the resource name in paths. */
  readonly plural: string;
  readonly singular?: string;
  readonly shortNames?: readonly string[];
  readonly categories?: readonly string[];
  readonly scope: 'Namespaced' | 'Cluster';
  readonly versions: readonly KindVersion<T>[];
  /** Name rules; DNS subdomain by default. */
  readonly nameValidator?: NameValidator;
  /** The `status` subresource (and its semantics: updates of the main resource keep status). */
  readonly statusSubresource?: boolean;
  /**
   * Whether a create drops the status it was sent; true by default for kinds with a status
   * subresource. Kubernetes keeps it for a Node (its agent registers with its status).
   */
  readonly resetStatusOnCreate?: boolean;
  /** The `scale` subresource (GET, PUT and PATCH of an `autoscaling/v1` Scale). */
  readonly scale?: ScaleSubresource;
  /**
   * Subresources besides `status` that replace one part of the stored object on update (a
   * Namespace's `finalize`): given the request body and the stored object, return the new object.
   */
  readonly updateSubresources?: Readonly<Record<string, Bivariant<(body: T, old: Readonly<T>) => T>>>;
  /**
   * Makes the kind a review, whose objects are never stored (Kubernetes' TokenReview,
   * SubjectAccessReview, SelfSubjectReview): a create decodes the body, runs the strategy's
   * `validate` (no metadata rules, no admission), and answers 201 with the object this function
   * returns, its status filled in (or a `Status`, answered as is: the legacy `bindings` resource).
   * `ctx.request` reaches the engine as the caller. The kind serves no other verb (405) and lists
   * only `create`.
   */
  readonly review?: Bivariant<(obj: T, ctx: ReviewContext) => T | KubeObject | Promise<T | KubeObject>>;
  /** Subresources that act when POSTed to (see {@link ActionSubresource}), by name. */
  readonly actions?: Readonly<Record<string, ActionSubresource>>;
  /** Subresources that stream from elsewhere, a node agent (see {@link ConnectSubresource}), by name. */
  readonly connectSubresources?: Readonly<Record<string, ConnectSubresource>>;
  /**
   * Subresources served like `/status` (get, update and patch) through which one part of the object
   * changes (a Pod's `ephemeralcontainers` and `resize`): given the object the request made and the
   * stored one, return the new object. The strategy's hooks see `ctx.subresource`.
   */
  readonly partSubresources?: Readonly<Record<string, Bivariant<(body: T, old: Readonly<T>) => T>>>;
  /** Verbs the kind does not serve (answered 405), e.g. `deletecollection` for namespaces. */
  readonly unsupportedVerbs?: readonly Verb[];
  /** Whether PUT of a missing object creates it (Kubernetes: Event, Lease, ...). Default false. */
  readonly allowCreateOnUpdate?: boolean;
  /**
   * Whether the fields the schema marks required are checked generically (`Required value`). True by
   * default, as for custom resources; built-in kinds whose own rules check those fields with other
   * messages (Kubernetes validates them in code, not from the schema) turn it off.
   */
  readonly schemaRequired?: boolean;
  /**
   * Fields that may not change once the object exists (Kubernetes' `ValidateImmutableField`, the
   * declarative `+k8s:immutable`): an update of the main resource that changes one is refused with
   * `<path>: Invalid value: <new value>: field is immutable`, after the metadata and required-field
   * errors and before `validateUpdate`'s. A path (`'spec.leaseName'`) compares JSON values and shows
   * the new one; an {@link ImmutableField} says how an absent value counts, how values compare (Go's
   * semantic equality) and what the error shows. Rules that are more than "may not change" (a
   * field that may change only in some states) stay in `validateUpdate`.
   */
  readonly immutableFields?: readonly (string | ImmutableField)[];
  /**
   * Whether strategic merge patch is served; true by default. Kinds without patch metadata
   * (custom resources) answer it with 415, as Kubernetes does.
   */
  readonly strategicMergePatch?: boolean;
  /**
   * Whether a finalizer without a `/` must be one of Kubernetes' standard names (`kubernetes`,
   * `orphan`, `foregroundDeletion`); true by default, as for the kinds of kube-apiserver. The
   * kinds apiextensions-apiserver serves (CustomResourceDefinition, custom resources) only require a
   * qualified name.
   */
  readonly standardFinalizerNames?: boolean;
  /** Whether PUT without `metadata.resourceVersion` is accepted. Default true. */
  readonly allowUnconditionalUpdate?: boolean;
  /**
   * Whether and when the server sets `metadata.generation`, as the kind's Kubernetes strategy
   * does (its PrepareForCreate and PrepareForUpdate). Default `'object'`, the custom-resource
   * behaviour: 1 on create, bumped by any change outside `metadata`. Whatever the policy, an
   * update never takes a generation from its body, and a delete that only marks the object
   * (grace period, finalizers) bumps a generation above 0, as every Kubernetes kind does.
   */
  readonly generation?: GenerationPolicy<T>;
  /** Feature gate that must be on for the kind to exist. */
  readonly featureGate?: string;
  /**
   * Another kind whose stored objects this kind serves (another door onto the same storage, as
   * `events.k8s.io` Events are core Events): objects live in that kind's storage and in its storage
   * version's shape, and each version's `conversion` maps them. The hooks of this kind (strategy,
   * selectable fields) then see objects in the other kind's shape.
   */
  readonly sharesStorageWith?: KindDefinition;
  readonly strategy?: KindStrategy<T>;
  readonly deletion?: DeleteStrategy<T>;
  /**
   * Field selectors besides `metadata.name` and `metadata.namespace`: field path → the field's value
   * as a string (`undefined` counts as `''`). A kind that declares them answers an unsupported field
   * with `field label not supported: <field>`; a kind without them accepts only the two metadata
   * fields and answers `"<field>" is not a known field selector: only "metadata.name", "metadata.namespace"`,
   * as Kubernetes' default field-label conversion does.
   */
  readonly selectableFields?: Readonly<Record<string, Bivariant<(obj: Readonly<T>) => string | undefined>>>;
  /**
   * Which metadata fields a kind with `selectableFields` accepts in field selectors; both by
   * default. Kubernetes' Node and Namespace accept only `metadata.name`.
   */
  readonly metadataFieldSelectors?: readonly ('metadata.name' | 'metadata.namespace')[];
  /**
   * The 400 message for a field a kind with `selectableFields` does not support, when its Kubernetes
   * field label conversion words it otherwise than `field label not supported: <field>` (batch/v1
   * Job: `field label "x" not supported for batchv1.Job`).
   */
  readonly unsupportedFieldLabelMessage?: (field: string) => string;
  /**
   * The Table columns after `Name` (`kubectl get`). Without them a kind prints `Name` and `Age`;
   * with them, `Age` is appended unless a column of that name is declared.
   */
  readonly printerColumns?: readonly PrinterColumn<T>[];
  /**
   * Whether the Table gets an `Age` column after the declared ones when none is declared; true by
   * default. Kinds whose Kubernetes table has no age (IPAddress, CSIStorageCapacity,
   * ComponentStatus) turn it off. A declared column named `Name` gives the Name column's cells (a
   * StorageClass's `(default)` marker).
   */
  readonly ageColumn?: boolean;
  /**
   * The warning every request for this kind answers with, as Kubernetes' API deprecation adds it
   * (`v1 ComponentStatus is deprecated in v1.19+`).
   */
  readonly deprecationWarning?: string;
  /**
   * Objects the server computes instead of storing (ComponentStatus, from the server's own health
   * checks): get and list answer them, with the label and field selectors of the request applied;
   * the kind should declare every other verb unsupported.
   */
  readonly computedObjects?: () => readonly T[];
  /**
   * Whether the kind's Table is the one Kubernetes' default table convertor builds for a built-in
   * kind `pkg/printers` has no printer for (Role, ClusterRole): `Name` and `Created At` (type
   * `date`, the creation time in RFC 3339, UTC), no `Age`; `printerColumns` is then ignored.
   * Default false.
   */
  readonly defaultTable?: boolean;
  /**
   * The order of a list's Table rows, for kinds whose Kubernetes printer sorts the list it prints
   * (FlowSchemas by matching precedence, then name, as `printFlowSchemaList` does); lists
   * themselves keep storage order. Compares stored objects. Default: the list's order.
   */
  readonly tableRowOrder?: Bivariant<(a: Readonly<T>, b: Readonly<T>) => number>;
}

/**
 * A declared kind: the declaration plus what the server derives from it.
 * @category Defining kinds
 */
export interface KindDefinition<T extends KubeObject = KubeObject> extends KindDeclaration<T> {
  readonly singular: string;
  readonly shortNames: readonly string[];
  readonly categories: readonly string[];
  /** The storage version. */
  readonly storageVersion: KindVersion<T>;
  /** Phantom member carrying the object type for typed clients. */
  readonly __type?: T;
}

/**
 * Declares a kind. Checks the declaration's own consistency at once.
 * @category Defining kinds
 */
export function defineKind<T extends KubeObject>(declaration: KindDeclaration<T>): KindDefinition<T> {
  // A schema declared as a getter is built when the kind first needs it: reading it here would
  // build it at declaration. A cluster checks it when it adds the kind (checkSchemaGetters).
  for (const v of declaration.versions) if (!isSchemaGetter(v)) checkSchema(declaration.kind, v);
  const storage = declaration.versions.filter((v) => v.storage);
  if (storage.length !== 1) {
    throw new Error(`defineKind(${declaration.kind}): exactly one version must be the storage version, found ${storage.length}`);
  }
  if (declaration.plural !== declaration.plural.toLowerCase()) {
    throw new Error(`defineKind(${declaration.kind}): plural must be lowercase`);
  }
  return {
    ...declaration,
    singular: declaration.singular ?? declaration.kind.toLowerCase(),
    shortNames: declaration.shortNames ?? [],
    categories: declaration.categories ?? [],
    storageVersion: storage[0]!,
  };
}

const isSchemaGetter = (v: KindVersion): boolean => Object.getOwnPropertyDescriptor(v, 'schema')?.get !== undefined;

function checkSchema(kind: string, v: KindVersion): void {
  const foreign = foreignSchema(v.schema);
  if (foreign !== undefined) throw new Error(`defineKind(${kind}): the schema of version ${v.name} ${foreign}`);
}

/**
 * The check `defineKind` makes of each version's schema, for the schemas it left unread because
 * they are getters: run when a kind whose zod schemas the engine compiles is added to a cluster.
 */
export function checkSchemaGetters(definition: KindDeclaration): void {
  for (const v of definition.versions) if (!v.published && isSchemaGetter(v)) checkSchema(definition.kind, v);
}

/**
 * Why `schema` is not a zod 4 schema (classic or mini, from 'zod' or 'zod/v4'), or undefined when
 * it is one. The engine reads zod 4's internals (`_zod.def`); a zod 3 schema (`_def`, no `_zod`)
 * would otherwise fail at the first request with an internal error far from its cause.
 */
function foreignSchema(schema: unknown): string | undefined {
  const internals = typeof schema === 'object' && schema !== null ? (schema as { _zod?: { def?: unknown; version?: { major?: unknown } } })._zod : undefined;
  if (typeof internals === 'object' && internals !== null && typeof internals.def === 'object' && internals.version?.major === 4) return undefined;
  if (typeof schema === 'object' && schema !== null && '_def' in schema) {
    return "is not a zod 4 schema (zod 3 schemas are not supported: import { z } from 'zod' version 4, or from 'zod/v4')";
  }
  return 'is not a zod 4 schema';
}

/**
 * An object every cluster starts with, as a Kubernetes API server creates its bootstrap objects at
 * start (the `system:` ClusterRoles, the system PriorityClasses): `createCluster` creates it
 * through the engine, as the system user, unless it exists.
 * @category Defining kinds
 */
export interface BuiltinObject {
  readonly kind: KindDefinition;
  /** For a namespaced kind. */
  readonly namespace?: string;
  readonly object: KubeObject;
}

/**
 * The object type of a kind definition.
 * @category Defining kinds
 */
export type ObjectOf<K> = K extends KindDefinition<infer T> ? T : never;
