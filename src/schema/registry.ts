/**
 * The registry of kinds a cluster serves, with the API domain resolved. It answers "which kind
 * does this group/version/resource name" for every door.
 */
import type { GroupVersionResource } from '../api/request.js';
import type { KindDefinition, KindVersion, KubeObject } from './define-kind.js';
import { structuralOf, type StructuralNode } from './structural.js';

/** A kind as one cluster serves it: group resolved, schemas made structural. */
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
}

/** `apps/v1`, or `v1` for the core group. */
export function apiVersionOf(group: string, version: string): string {
  return group ? `${group}/${version}` : version;
}

/** Substitutes the cluster's domains into a declared group name. */
export function resolveGroup(group: string, domains: { apiDomain: string }): string {
  return group.replaceAll('{api_domain}', domains.apiDomain);
}

/** The kinds served by one cluster. */
export class KindRegistry {
  private readonly byResource = new Map<string, ResolvedKind>();
  private readonly byKind = new Map<string, ResolvedKind>();
  private readonly all: ResolvedKind[] = [];

  constructor(private readonly domains: { apiDomain: string }) {}

  /** Adds a kind; a second kind with the same group and plural replaces nothing and fails. */
  add<T extends KubeObject>(definition: KindDefinition<T>): ResolvedKind<T> {
    const group = resolveGroup(definition.group, this.domains);
    const versions = definition.versions.filter((v) => v.served !== false);
    const structural = new Map<string, StructuralNode>();
    const resolved: ResolvedKind<T> = {
      definition,
      group,
      bucket: `${group || 'core'}/${definition.plural}`,
      namespaced: definition.scope === 'Namespaced',
      versions,
      structural(version: string): StructuralNode {
        let node = structural.get(version);
        if (!node) {
          const v = versions.find((x) => x.name === version);
          if (!v) throw new Error(`${definition.kind} has no served version ${version}`);
          node = structuralOf(v.schema);
          structural.set(version, node);
        }
        return node;
      },
    };
    for (const v of versions) {
      const rk = `${group}/${v.name}/${definition.plural}`;
      if (this.byResource.has(rk)) throw new Error(`resource ${rk} is declared twice`);
      this.byResource.set(rk, resolved as unknown as ResolvedKind);
      this.byKind.set(`${group}/${v.name}/${definition.kind}`, resolved as unknown as ResolvedKind);
    }
    this.all.push(resolved as unknown as ResolvedKind);
    return resolved;
  }

  /** The kind serving a group/version/resource, if any. */
  lookup(gvr: GroupVersionResource): ResolvedKind | undefined {
    return this.byResource.get(`${gvr.group}/${gvr.version}/${gvr.resource}`);
  }

  /** The kind with a given apiVersion and kind, if served. */
  lookupKind(apiVersion: string, kind: string): { kind: ResolvedKind; version: string } | undefined {
    const slash = apiVersion.lastIndexOf('/');
    const group = slash < 0 ? '' : apiVersion.slice(0, slash);
    const version = slash < 0 ? apiVersion : apiVersion.slice(slash + 1);
    const k = this.byKind.get(`${group}/${version}/${kind}`);
    return k ? { kind: k, version } : undefined;
  }

  /** Every kind, in the order added. */
  kinds(): readonly ResolvedKind[] {
    return this.all;
  }
}
