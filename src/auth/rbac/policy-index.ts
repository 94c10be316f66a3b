/**
 * The RBAC objects of a cluster, indexed for authorization: roles and cluster roles by key, and
 * bindings by the subjects they name, kept current from the storage's change events (as
 * kube-apiserver's RBAC authorizer reads shared informer caches). An authorization then looks at
 * the bindings that name the user, one of its groups or its service account, never at all of them.
 */
import type { PolicyRule, RoleRef, Subject } from '../../kinds/types/rbac-v1.js';
import type { Storage, StorageEvent, StoredValue } from '../../storage/storage.js';

/** A RoleBinding or ClusterRoleBinding as the authorizer reads it. */
export interface IndexedBinding {
  readonly name: string;
  /** `''` for a ClusterRoleBinding. */
  readonly namespace: string;
  readonly roleRef: Readonly<RoleRef>;
  readonly subjects: readonly Readonly<Subject>[];
}

/** What the RBAC rule resolver reads: bindings naming a user, and roles by name. */
export interface RbacPolicySource {
  /**
   * Resolves when the source reflects the storage; `undefined` when it already does (the
   * authorizer then answers without a promise).
   */
  ready(): Promise<void> | undefined;
  /** The ClusterRoleBindings that may apply to the user (each still checked subject by subject), in name order. */
  clusterRoleBindingsFor(username: string, groups: readonly string[]): readonly IndexedBinding[];
  /** The RoleBindings of `namespace` that may apply to the user, in name order. */
  roleBindingsFor(namespace: string, username: string, groups: readonly string[]): readonly IndexedBinding[];
  /** A ClusterRole's rules; `undefined` when there is no such ClusterRole. */
  clusterRoleRules(name: string): readonly Readonly<PolicyRule>[] | undefined;
  /** A Role's rules; `undefined` when there is no such Role. */
  roleRules(namespace: string, name: string): readonly Readonly<PolicyRule>[] | undefined;
}

/** The prefix of a service account's user name (`system:serviceaccount:<namespace>:<name>`). */
export const SERVICE_ACCOUNT_USER_PREFIX = 'system:serviceaccount:';

/**
 * The index key of a subject: users (and service accounts, by their user name) under `u:`, groups
 * under `g:`. A ServiceAccount subject without a namespace means the binding's namespace; in a
 * ClusterRoleBinding it matches nobody (`appliesToUser` of `pkg/registry/rbac/validation/rule.go`).
 */
function subjectKey(subject: Readonly<Subject>, bindingNamespace: string): string | undefined {
  switch (subject.kind) {
    case 'User':
      return `u:${subject.name ?? ''}`;
    case 'Group':
      return `g:${subject.name ?? ''}`;
    case 'ServiceAccount': {
      const namespace = subject.namespace || bindingNamespace;
      return namespace ? `u:${SERVICE_ACCOUNT_USER_PREFIX}${namespace}:${subject.name ?? ''}` : undefined;
    }
    default:
      return undefined;
  }
}

/** Bindings of one scope (the cluster, or one namespace): by name, and names by subject key. */
class BindingSet {
  readonly byName = new Map<string, IndexedBinding>();
  private readonly bySubject = new Map<string, Set<string>>();

  get size(): number {
    return this.byName.size;
  }

  put(binding: IndexedBinding): void {
    this.remove(binding.name);
    this.byName.set(binding.name, binding);
    for (const key of this.keysOf(binding)) {
      let names = this.bySubject.get(key);
      if (!names) this.bySubject.set(key, (names = new Set()));
      names.add(binding.name);
    }
  }

  remove(name: string): void {
    const old = this.byName.get(name);
    if (!old) return;
    this.byName.delete(name);
    for (const key of this.keysOf(old)) {
      const names = this.bySubject.get(key);
      names?.delete(name);
      if (names?.size === 0) this.bySubject.delete(key);
    }
  }

  /** The bindings naming the user, one of the groups, or the user's service account, in name order. */
  candidates(username: string, groups: readonly string[]): IndexedBinding[] {
    const names = new Set<string>(this.bySubject.get(`u:${username}`));
    for (const group of groups) for (const name of this.bySubject.get(`g:${group}`) ?? []) names.add(name);
    if (names.size === 0) return [];
    const sorted = [...names].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
    return sorted.map((name) => this.byName.get(name)!);
  }

  private *keysOf(binding: IndexedBinding): Iterable<string> {
    for (const subject of binding.subjects) {
      const key = subjectKey(subject, binding.namespace);
      if (key !== undefined) yield key;
    }
  }
}

/** The storage buckets of the RBAC kinds for an RBAC API group (`rbac.authorization.k8s.io`). */
export function rbacBuckets(group: string): { roles: string; clusterRoles: string; roleBindings: string; clusterRoleBindings: string } {
  return {
    roles: `${group}/roles`,
    clusterRoles: `${group}/clusterroles`,
    roleBindings: `${group}/rolebindings`,
    clusterRoleBindings: `${group}/clusterrolebindings`,
  };
}

const EMPTY_RULES: readonly PolicyRule[] = [];

function rulesOf(value: StoredValue): readonly Readonly<PolicyRule>[] {
  const rules = value['rules'];
  return Array.isArray(rules) ? (rules as PolicyRule[]) : EMPTY_RULES;
}

function bindingOf(namespace: string, name: string, value: StoredValue): IndexedBinding {
  const roleRef = (value['roleRef'] ?? { kind: '', name: '' }) as RoleRef;
  const subjects = Array.isArray(value['subjects']) ? (value['subjects'] as Subject[]) : [];
  return { name, namespace, roleRef, subjects };
}

/**
 * An {@link RbacPolicySource} over a {@link Storage}: subscribes at once, reads the four buckets
 * on first use, then follows every committed change synchronously (a binding written is in force
 * for the next request).
 */
export class StoragePolicyIndex implements RbacPolicySource {
  private readonly buckets: ReturnType<typeof rbacBuckets>;
  private readonly clusterRoles = new Map<string, readonly Readonly<PolicyRule>[]>();
  private readonly roles = new Map<string, readonly Readonly<PolicyRule>[]>();
  private readonly clusterBindings = new BindingSet();
  private readonly namespaceBindings = new Map<string, BindingSet>();
  /** Events that arrived while the initial lists were read; undefined once loaded. */
  private pending: StorageEvent[] | undefined = [];
  private loading: Promise<void> | undefined;
  private readonly unsubscribe: () => void;

  constructor(
    private readonly storage: Storage,
    /** The RBAC API group, `rbac.authorization.<api domain>`. */
    group: string,
  ) {
    this.buckets = rbacBuckets(group);
    this.unsubscribe = storage.subscribe((event) => this.observe(event));
  }

  ready(): Promise<void> | undefined {
    if (this.pending === undefined) return undefined;
    return (this.loading ??= this.load().catch((e: unknown) => {
      // A failed read (a closed storage) is tried again on the next request.
      this.loading = undefined;
      throw e;
    }));
  }

  /** Stops following the storage. */
  close(): void {
    this.unsubscribe();
  }

  clusterRoleBindingsFor(username: string, groups: readonly string[]): readonly IndexedBinding[] {
    return this.clusterBindings.candidates(username, groups);
  }

  roleBindingsFor(namespace: string, username: string, groups: readonly string[]): readonly IndexedBinding[] {
    return this.namespaceBindings.get(namespace)?.candidates(username, groups) ?? [];
  }

  clusterRoleRules(name: string): readonly Readonly<PolicyRule>[] | undefined {
    return this.clusterRoles.get(name);
  }

  roleRules(namespace: string, name: string): readonly Readonly<PolicyRule>[] | undefined {
    return this.roles.get(`${namespace}/${name}`);
  }

  private async load(): Promise<void> {
    const read: Record<string, number> = {};
    for (const bucket of Object.values(this.buckets)) {
      const list = await this.storage.list(bucket);
      for (const item of list.items) this.apply(bucket, item.namespace, item.name, item.value);
      read[bucket] = list.revision;
    }
    const pending = this.pending ?? [];
    this.pending = undefined;
    for (const event of pending) if (event.revision > (read[event.bucket] ?? 0)) this.observe(event);
  }

  private observe(event: StorageEvent): void {
    if (this.pending !== undefined) {
      if (this.isRbacBucket(event.bucket)) this.pending.push(event);
      return;
    }
    this.apply(event.bucket, event.namespace, event.name, event.type === 'DELETED' ? undefined : event.object);
  }

  private isRbacBucket(bucket: string): boolean {
    const b = this.buckets;
    return bucket === b.roles || bucket === b.clusterRoles || bucket === b.roleBindings || bucket === b.clusterRoleBindings;
  }

  /** Puts (or with no value, removes) one object. */
  private apply(bucket: string, namespace: string, name: string, value: StoredValue | undefined): void {
    const b = this.buckets;
    switch (bucket) {
      case b.clusterRoles:
        if (value) this.clusterRoles.set(name, rulesOf(value));
        else this.clusterRoles.delete(name);
        break;
      case b.roles:
        if (value) this.roles.set(`${namespace}/${name}`, rulesOf(value));
        else this.roles.delete(`${namespace}/${name}`);
        break;
      case b.clusterRoleBindings:
        if (value) this.clusterBindings.put(bindingOf('', name, value));
        else this.clusterBindings.remove(name);
        break;
      case b.roleBindings: {
        let set = this.namespaceBindings.get(namespace);
        if (value) {
          if (!set) this.namespaceBindings.set(namespace, (set = new BindingSet()));
          set.put(bindingOf(namespace, name, value));
        } else if (set) {
          set.remove(name);
          if (set.size === 0) this.namespaceBindings.delete(namespace);
        }
        break;
      }
    }
  }
}
