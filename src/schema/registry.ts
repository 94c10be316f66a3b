/**
 * The registry of kinds a cluster serves, with the API domain resolved. It answers "which kind
 * does this group/version/resource name" for every door.
 */
import type { GroupVersionResource } from '../machinery/request.js';
import { cloneJson } from '../util/json-clone.js';
import { isPromise, type MaybePromise } from '../util/maybe-promise.js';
import { checkSchemaGetters, type KindDefinition, type KindVersion, type KubeObject, type PublishedSchema } from './define-kind.js';
import { structuralOf, type StructuralNode } from './structural.js';
import type { CompiledCustomSchema } from './custom/index.js';
import { compileZodRules } from './zod-rules.js';

/**
 * A kind as one cluster serves it: group resolved, schemas made structural.
 * @category Defining kinds
 */
export interface ResolvedKind<T extends KubeObject = KubeObject> {
  readonly definition: KindDefinition<T>;
  /** The group with `{api_domain}` replaced. */
  readonly group: string;
  /** Storage bucket name, `<group>/<plural>` (`core/<plural>` for the core group). */
  readonly bucket: string;
  readonly namespaced: boolean;
  /** Served versions in declaration order. */
  readonly versions: readonly KindVersion<T>[];
  /** The structural schema of a served version. */
  structural(version: string): StructuralNode;
  /** A served version's schema when it is published as OpenAPI (a custom resource's). */
  published(version: string): PublishedSchema | undefined;
  /**
   * The defaults and value validations a version's zod schema publishes, compiled (see
   * zod-rules.ts), for the objects of that version (the storage version's for the storage shape);
   * undefined when the schema states none, or when the kind does not apply them (built-in kinds,
   * kinds whose schema is published as OpenAPI, which apply their own).
   * @internal
   */
  schemaRules(version: string): CompiledCustomSchema | undefined;
  /** `apiVersion` and `kind` of stored objects (another kind's when storage is shared). */
  readonly stored: { readonly apiVersion: string; readonly kind: string };
  /** Whether objects of `version` differ in shape from stored ones (a conversion is declared). */
  converts(version: string): boolean;
  /**
   * A decoded object of a served version in the storage shape, `apiVersion` and `kind` stamped: a
   * promise only when the version's conversion answered one (a conversion webhook).
   */
  toStorage(version: string, obj: KubeObject): MaybePromise<KubeObject>;
  /**
   * A stored object as served at `version`. The same object when nothing differs; otherwise a new
   * one (the stored object is never changed). A promise only when the conversion answered one.
   */
  present(version: string, obj: KubeObject): MaybePromise<KubeObject>;
  /**
   * Stored objects as served at `version`, in order: {@link present} for each, or one call of the
   * conversion's `fromStorageMany` when it has one (a webhook converts a list in one review).
   */
  presentAll(version: string, objs: readonly KubeObject[]): MaybePromise<KubeObject[]>;
}

/** `apps/v1`, or `v1` for the core group. */
export function apiVersionOf(group: string, version: string): string {
  return group ? `${group}/${version}` : version;
}

/** Substitutes the cluster's domains into a declared group name. */
export function resolveGroup(group: string, domains: { apiDomain: string }): string {
  return group.replaceAll('{api_domain}', domains.apiDomain);
}

/** `obj` with `apiVersion` and `kind` set, those two keys first (as the server writes them). */
function stamp(obj: KubeObject, apiVersion: string, kind: string): KubeObject {
  if (obj.apiVersion === apiVersion && obj.kind === kind) return obj;
  const { apiVersion: _a, kind: _k, ...rest } = obj;
  return { kind, apiVersion, ...rest };
}

/** A converted object stamped with the served `apiVersion` and kind, remembered as made of `stored`. */
function presented(converted: KubeObject, stored: KubeObject, apiVersion: string, kind: string, onRead?: (obj: KubeObject) => KubeObject): KubeObject {
  const stamped = stamp(converted, apiVersion, kind);
  const out = onRead ? onRead(stamped) : stamped;
  storedForms.set(out, stored);
  return out;
}

/** `present` of each object; one promise for all when any conversion answered one. */
function presentEach(kind: ResolvedKind, version: string, objs: readonly KubeObject[]): MaybePromise<KubeObject[]> {
  const out = objs.map((o) => kind.present(version, o));
  return out.some(isPromise) ? Promise.all(out) : (out as KubeObject[]);
}

/** Stored objects by the converted objects `present` made of them. */
const storedForms = new WeakMap<object, KubeObject>();

/**
 * The stored object a converted (presented) object was made from, when `present` converted it:
 * what a kind's printer columns see, as Kubernetes prints a Table from the internal object whatever
 * version was asked for.
 */
export function storedFormOf(presented: object): KubeObject | undefined {
  return storedForms.get(presented);
}

/** Records that `copy` (e.g. a list item made of a presented object) shows the stored `stored`. */
export function rememberStoredForm(copy: object, stored: KubeObject): void {
  storedForms.set(copy, stored);
}

/**
 * Options of {@link KindRegistry.add}.
 * @category Defining kinds
 */
export interface AddKindOptions {
  /**
   * Whether the defaults and value validations of the kind's zod schemas are applied; true by
   * default. The cluster turns it off for the built-in kinds (see cluster.ts).
   */
  readonly schemaRules?: boolean;
}

/**
 * The kinds served by one cluster.
 * @category Defining kinds
 */
export class KindRegistry {
  /** The kinds by group, version and resource: a lookup on every request joins no key string. */
  private readonly resources = new Map<string, Map<string, Map<string, ResolvedKind>>>();
  /** The answer of the last {@link KindRegistry.lookup}, while no kind was added or removed since. */
  private readonly lastLookup: { changes: number; group: string; version: string; resource: string; kind: ResolvedKind | undefined } = {
    changes: -1,
    group: '',
    version: '',
    resource: '',
    kind: undefined,
  };
  private readonly byKind = new Map<string, ResolvedKind>();
  private readonly byGroupResource = new Map<string, ResolvedKind>();
  private readonly byBucket = new Map<string, ResolvedKind>();
  private all: ResolvedKind[] = [];
  private changes = 0;

  constructor(private readonly domains: { apiDomain: string }) {}

  /**
   * A number that changes whenever the set of served kinds changes (a custom resource definition
   * starts or stops being served): what documents derived from the kinds (OpenAPI) are cached by.
   */
  get revision(): number {
    return this.changes;
  }

  /**
   * Adds a kind; a second kind with the same group and plural replaces nothing and fails. With
   * `schemaRules` (the default), the defaults and value validations its zod schemas publish are
   * applied (compiled here, so that a schema they cannot be applied from fails at once).
   */
  add<T extends KubeObject>(definition: KindDefinition<T>, options: AddKindOptions = {}): ResolvedKind<T> {
    const group = resolveGroup(definition.group, this.domains);
    const versions = definition.versions.filter((v) => v.served !== false);
    const rules = new Map<string, CompiledCustomSchema | undefined>();
    if (options.schemaRules !== false) {
      checkSchemaGetters(definition);
      for (const v of definition.versions) if (!v.published) rules.set(v.name, compileZodRules(v.schema, definition.kind));
    }
    const structural = new Map<string, StructuralNode>();
    const home = definition.sharesStorageWith ?? definition;
    const homeGroup = resolveGroup(home.group, this.domains);
    const stored = { apiVersion: apiVersionOf(homeGroup, home.storageVersion.name), kind: home.kind };
    const byName = new Map(versions.map((v) => [v.name, v]));
    const conversionOf = (version: string) => byName.get(version)?.conversion;
    const onReadOf = (version: string) => {
      const published = byName.get(version)?.published;
      if (published) return published.onRead;
      // As a custom resource's stored objects are: defaulted on every read by the current schema.
      const compiled = rules.get(version);
      return compiled ? (obj: KubeObject) => compiled.default(obj) as KubeObject : undefined;
    };
    const resolved: ResolvedKind<T> = {
      definition,
      group,
      bucket: `${homeGroup || 'core'}/${home.plural}`,
      namespaced: definition.scope === 'Namespaced',
      versions,
      stored,
      converts: (version) => {
        const conversion = conversionOf(version);
        return conversion !== undefined && conversion.storageShape !== true;
      },
      toStorage(version, obj) {
        const conversion = conversionOf(version);
        if (!conversion || conversion.storageShape) return stamp(obj, stored.apiVersion, stored.kind);
        const out = conversion.toStorage(obj);
        return isPromise(out) ? out.then((o) => stamp(o, stored.apiVersion, stored.kind)) : stamp(out, stored.apiVersion, stored.kind);
      },
      present(version, obj) {
        const apiVersion = apiVersionOf(group, version);
        const conversion = conversionOf(version);
        const onRead = onReadOf(version);
        if (conversion && !(conversion.storageShape && obj.apiVersion === stored.apiVersion)) {
          const out = conversion.fromStorage(cloneJson(obj));
          return isPromise(out)
            ? out.then((o) => presented(o, obj, apiVersion, definition.kind, onRead))
            : presented(out, obj, apiVersion, definition.kind, onRead);
        }
        let out: KubeObject = obj.apiVersion === apiVersion && obj.kind === definition.kind ? obj : { ...obj, apiVersion, kind: definition.kind };
        if (onRead) out = onRead(out);
        if (out !== obj) storedForms.set(out, obj);
        return out;
      },
      published: (version) => byName.get(version)?.published,
      schemaRules: (version) => rules.get(version),
      presentAll(version, objs) {
        const conversion = conversionOf(version);
        const many = conversion?.fromStorageMany;
        // Objects of the storage version stored as they are need no call at all.
        const nothingToDo = !many || objs.length === 0 || (conversion.storageShape && objs.every((o) => o.apiVersion === stored.apiVersion));
        if (nothingToDo) return presentEach(resolved as unknown as ResolvedKind, version, objs);
        const apiVersion = apiVersionOf(group, version);
        const onRead = onReadOf(version);
        const out = many.call(
          conversion,
          objs.map((o) => cloneJson(o)),
        );
        const finish = (converted: KubeObject[]) => converted.map((o, i) => presented(o, objs[i]!, apiVersion, definition.kind, onRead));
        return isPromise(out) ? out.then(finish) : finish(out);
      },
      structural(version: string): StructuralNode {
        let node = structural.get(version);
        if (!node) {
          const v = versions.find((x) => x.name === version);
          if (!v) throw new Error(`${definition.kind} has no served version ${version}`);
          node = v.published?.structural ?? structuralOf(v.schema);
          structural.set(version, node);
        }
        return node;
      },
    };
    this.insert(resolved as unknown as ResolvedKind);
    return resolved;
  }

  /**
   * Serves a kind another registry of the same API domain resolved, as it is: what a fork shares
   * with the cluster it came from instead of resolving every built-in kind again. A kind resolved
   * for another API domain throws.
   */
  adopt(kind: ResolvedKind): void {
    if (resolveGroup(kind.definition.group, this.domains) !== kind.group) throw new Error(`${kind.definition.kind} was resolved for another API domain`);
    this.insert(kind);
  }

  /**
   * A registry serving the same kinds (the same resolved objects), which changes on its own from
   * then on: what each fork of a cluster starts from, in O(kinds) map copies.
   */
  clone(): KindRegistry {
    const copy = new KindRegistry(this.domains);
    for (const [group, byVersion] of this.resources) copy.resources.set(group, new Map([...byVersion].map(([v, ofVersion]) => [v, new Map(ofVersion)])));
    for (const [from, to] of [
      [this.byKind, copy.byKind],
      [this.byGroupResource, copy.byGroupResource],
      [this.byBucket, copy.byBucket],
    ] as const) {
      for (const [k, v] of from) to.set(k, v);
    }
    copy.all = [...this.all];
    copy.changes = this.changes;
    return copy;
  }

  private insert(resolved: ResolvedKind): void {
    const { definition, group, versions } = resolved;
    // Forgotten first: a kind declared twice throws half-way through, with a version inserted.
    this.lastLookup.changes = -1;
    for (const v of versions) {
      let byVersion = this.resources.get(group);
      if (!byVersion) this.resources.set(group, (byVersion = new Map()));
      let ofVersion = byVersion.get(v.name);
      if (!ofVersion) byVersion.set(v.name, (ofVersion = new Map()));
      if (ofVersion.has(definition.plural)) throw new Error(`resource ${group}/${v.name}/${definition.plural} is declared twice`);
      ofVersion.set(definition.plural, resolved as unknown as ResolvedKind);
      this.byKind.set(`${group}/${v.name}/${definition.kind}`, resolved as unknown as ResolvedKind);
    }
    this.byGroupResource.set(`${group}/${definition.plural}`, resolved as unknown as ResolvedKind);
    // A bucket belongs to the kind whose storage it is, not to a door onto it.
    if (!definition.sharesStorageWith) this.byBucket.set(resolved.bucket, resolved as unknown as ResolvedKind);
    this.all.push(resolved as unknown as ResolvedKind);
    this.changes++;
  }

  /**
   * Stops serving a kind added before (a custom resource definition deleted, or replaced by its
   * new spec): its paths, discovery entries and OpenAPI schemas go; stored objects stay.
   */
  remove(kind: ResolvedKind): void {
    if (!this.all.includes(kind)) return;
    this.lastLookup.changes = -1;
    const { definition, group } = kind;
    for (const v of kind.versions) {
      const ofVersion = this.resources.get(group)?.get(v.name);
      if (ofVersion?.get(definition.plural) === kind) ofVersion.delete(definition.plural);
      const kk = `${group}/${v.name}/${definition.kind}`;
      if (this.byKind.get(kk) === kind) this.byKind.delete(kk);
    }
    const gr = `${group}/${definition.plural}`;
    if (this.byGroupResource.get(gr) === kind) this.byGroupResource.delete(gr);
    if (this.byBucket.get(kind.bucket) === kind) this.byBucket.delete(kind.bucket);
    this.all = this.all.filter((k) => k !== kind);
    this.changes++;
  }

  /** The kind serving a group/version/resource, if any. */
  lookup(gvr: GroupVersionResource): ResolvedKind | undefined {
    // A request is looked up more than once on its way (metrics, then the engine), and a client
    // sends to one resource again and again: three string compares answer those repeats.
    const last = this.lastLookup;
    if (last.changes === this.changes && last.group === gvr.group && last.version === gvr.version && last.resource === gvr.resource) return last.kind;
    const kind = this.resources.get(gvr.group)?.get(gvr.version)?.get(gvr.resource);
    // Written in place: a miss allocates nothing.
    last.changes = this.changes;
    last.group = gvr.group;
    last.version = gvr.version;
    last.resource = gvr.resource;
    last.kind = kind;
    return kind;
  }

  /** The kind with a given apiVersion and kind, if served. */
  lookupKind(apiVersion: string, kind: string): { kind: ResolvedKind; version: string } | undefined {
    const slash = apiVersion.lastIndexOf('/');
    const group = slash < 0 ? '' : apiVersion.slice(0, slash);
    const version = slash < 0 ? apiVersion : apiVersion.slice(slash + 1);
    const k = this.byKind.get(`${group}/${version}/${kind}`);
    return k ? { kind: k, version } : undefined;
  }

  /** The kind serving a group's resource, whatever the version. */
  lookupResource(group: string, resource: string): ResolvedKind | undefined {
    return this.byGroupResource.get(`${group}/${resource}`);
  }

  /** The kind whose objects a storage bucket holds. */
  lookupBucket(bucket: string): ResolvedKind | undefined {
    return this.byBucket.get(bucket);
  }

  /** Every kind, in the order added. */
  kinds(): readonly ResolvedKind[] {
    return this.all;
  }
}
