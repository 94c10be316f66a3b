/** The registry of served kinds: finding a kind by group, version and resource, and removing it again. */
import { describe, expect, it } from 'vitest';
import { KindRegistry } from '../../src/schema/registry.js';
import { ConfigMapKind } from '../../src/kinds/index.js';
import { LeaseKind } from '../../src/kinds/coordination/index.js';

describe('KindRegistry', () => {
  it('finds a kind by group, version and resource, and nothing for a near miss', () => {
    const registry = new KindRegistry({ apiDomain: 'k8s.io' });
    const kind = registry.add(ConfigMapKind);
    expect(registry.lookup({ group: '', version: 'v1', resource: 'configmaps' })).toBe(kind);
    expect(registry.lookup({ group: '', version: 'v2', resource: 'configmaps' })).toBeUndefined();
    expect(registry.lookup({ group: 'apps', version: 'v1', resource: 'configmaps' })).toBeUndefined();
    expect(registry.lookup({ group: '', version: 'v1', resource: 'configmap' })).toBeUndefined();
  });

  it('refuses a second kind with the same group, version and resource', () => {
    const registry = new KindRegistry({ apiDomain: 'k8s.io' });
    registry.add(ConfigMapKind);
    expect(() => registry.add(ConfigMapKind)).toThrow('resource /v1/configmaps is declared twice');
  });

  it('finds a removed kind no more, and serves one added again', () => {
    const registry = new KindRegistry({ apiDomain: 'k8s.io' });
    const kind = registry.add(ConfigMapKind);
    registry.remove(kind);
    expect(registry.lookup({ group: '', version: 'v1', resource: 'configmaps' })).toBeUndefined();
    const again = registry.add(ConfigMapKind);
    expect(registry.lookup({ group: '', version: 'v1', resource: 'configmaps' })).toBe(again);
  });

  it('answers a repeated lookup anew once a kind is added or removed in between', () => {
    const registry = new KindRegistry({ apiDomain: 'k8s.io' });
    const gvr = { group: '', version: 'v1', resource: 'configmaps' };
    expect(registry.lookup(gvr)).toBeUndefined();
    const kind = registry.add(ConfigMapKind);
    expect(registry.lookup(gvr)).toBe(kind);
    expect(registry.lookup({ ...gvr })).toBe(kind);
    registry.remove(kind);
    expect(registry.lookup(gvr)).toBeUndefined();
    const again = registry.add(ConfigMapKind);
    expect(registry.lookup(gvr)).toBe(again);
    const copy = registry.clone();
    expect(copy.lookup(gvr)).toBe(again);
    copy.remove(again);
    expect(copy.lookup(gvr)).toBeUndefined();
    expect(registry.lookup(gvr)).toBe(again);
  });

  it('adopts a kind another registry of the same API domain resolved, as it is, and refuses one of another domain', () => {
    const first = new KindRegistry({ apiDomain: 'k8s.io' });
    const kind = first.add(ConfigMapKind);
    const lease = first.add(LeaseKind);
    const second = new KindRegistry({ apiDomain: 'k8s.io' });
    second.adopt(kind);
    expect(second.lookup({ group: '', version: 'v1', resource: 'configmaps' })).toBe(kind);
    expect(second.lookupBucket('core/configmaps')).toBe(kind);
    expect(second.kinds()).toEqual([kind]);
    // Each registry changes on its own.
    second.remove(kind);
    expect(first.lookup({ group: '', version: 'v1', resource: 'configmaps' })).toBe(kind);
    expect(() => new KindRegistry({ apiDomain: 'example.org' }).adopt(lease)).toThrow('Lease was resolved for another API domain');
  });

  it('clones into a registry serving the same kinds, each changing on its own', () => {
    const first = new KindRegistry({ apiDomain: 'k8s.io' });
    const kind = first.add(ConfigMapKind);
    const copy = first.clone();
    expect(copy.lookup({ group: '', version: 'v1', resource: 'configmaps' })).toBe(kind);
    expect(copy.lookupKind('v1', 'ConfigMap')?.kind).toBe(kind);
    const lease = copy.add(LeaseKind);
    copy.remove(kind);
    expect(copy.kinds()).toEqual([lease]);
    expect(first.kinds()).toEqual([kind]);
    expect(first.lookup({ group: '', version: 'v1', resource: 'configmaps' })).toBe(kind);
    expect(first.lookupResource('coordination.k8s.io', 'leases')).toBeUndefined();
    expect(first.lookupBucket('coordination.k8s.io/leases')).toBeUndefined();
  });
});
