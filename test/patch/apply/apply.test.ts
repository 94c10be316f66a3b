import { describe, expect, it } from 'vitest';
import { structuralOf } from '../../../src/schema/structural.js';
import { ConfigMap, Pod } from '../../../src/kinds/types/core-v1.js';
import { StatefulSet } from '../../../src/kinds/types/apps-v1.js';
import { ApiError } from '../../../src/machinery/errors.js';
import {
  ApplyConflictError,
  conflictCauses,
  formatConflictMessage,
  LAST_APPLIED_ANNOTATION,
  recordUpdate,
  serverSideApply,
  type ApplyConflict,
  type ManagedFieldsEntry,
  type ServerSideApplyOptions,
} from '../../../src/patch/apply/index.js';

const cm = structuralOf(ConfigMap());
const pod = structuralOf(Pod());
const sts = structuralOf(StatefulSet());
const T0 = Date.UTC(2026, 0, 1, 10, 0, 0);
const at = (minutes: number) => T0 + minutes * 60_000;

type Obj = Record<string, unknown>;

function cmConfig(data?: Record<string, unknown>, meta: Record<string, unknown> = {}): Obj {
  return { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'test-cm', namespace: 'default', ...meta }, ...(data ? { data } : {}) };
}

/** What storage would hold after the write: a uid, and the object as the apply returned it. */
function persist(obj: Obj): Obj {
  const meta = { ...(obj.metadata as Obj) };
  meta.uid ??= 'uid-1';
  return { ...obj, metadata: meta };
}

function apply(live: Obj | undefined, applied: Obj, manager: string, now: number, more: Partial<ServerSideApplyOptions> = {}) {
  const schema = applied.kind === 'Pod' ? pod : applied.kind === 'StatefulSet' ? sts : cm;
  const apiVersion = String(applied.apiVersion ?? 'v1');
  const r = serverSideApply({ live, applied, manager, apiVersion, kind: String(applied.kind), schema, now, ...more });
  return { ...r, object: persist(r.object) };
}

function managed(obj: Obj): ManagedFieldsEntry[] {
  return ((obj.metadata as Obj).managedFields as ManagedFieldsEntry[] | undefined) ?? [];
}

function fieldsOf(obj: Obj): Record<string, unknown> {
  return Object.fromEntries(managed(obj).map((e) => [`${e.manager}/${e.operation}`, e.fieldsV1]));
}

/** An update (PUT or non-apply patch) by `manager`, as the engine would record it. */
function update(live: Obj, next: Obj, manager: string, now: number, more: { subresource?: string; apiVersion?: string } = {}): Obj {
  const schema = next.kind === 'Pod' ? pod : next.kind === 'StatefulSet' ? sts : cm;
  const mf = recordUpdate({ live, updated: next, manager, apiVersion: more.apiVersion ?? String(next.apiVersion), schema, now, ...more });
  const meta = { ...(next.metadata as Obj) };
  if (mf.length) meta.managedFields = mf;
  else delete meta.managedFields;
  return { ...next, metadata: meta };
}

function conflictOf(fn: () => unknown): ApplyConflictError {
  try {
    fn();
  } catch (e) {
    if (e instanceof ApplyConflictError) return e;
    throw e;
  }
  throw new Error('expected a conflict');
}

describe('serverSideApply: ownership', () => {
  it('creates the object and gives the applier exactly what it sent (minus server-owned metadata)', () => {
    const r = apply(undefined, cmConfig({ key: 'value' }, { labels: { 'test-label': 'test' } }), 'apply_test', T0);
    expect(r.changed).toBe(true);
    expect(r.managedFields).toEqual([
      {
        manager: 'apply_test',
        operation: 'Apply',
        apiVersion: 'v1',
        time: '2026-01-01T10:00:00Z',
        fieldsType: 'FieldsV1',
        fieldsV1: { 'f:data': { 'f:key': {} }, 'f:metadata': { 'f:labels': { 'f:test-label': {} } } },
      },
    ]);
    expect(r.object).toMatchObject({ data: { key: 'value' }, metadata: { labels: { 'test-label': 'test' }, managedFields: r.managedFields } });
  });

  it('hands changed fields to later updaters, keeping the applier on the rest', () => {
    let obj = apply(undefined, cmConfig({ key: 'value' }, { labels: { 'test-label': 'test' } }), 'apply_test', T0).object;
    obj = update(obj, { ...obj, data: { key: 'value', 'new-key': 'value' } }, 'updater', at(1));
    obj = update(obj, { ...obj, data: { key: 'new value', 'new-key': 'value' } }, 'updater', at(2));
    expect(managed(obj)).toEqual([
      {
        manager: 'apply_test',
        operation: 'Apply',
        apiVersion: 'v1',
        time: '2026-01-01T10:00:00Z',
        fieldsType: 'FieldsV1',
        fieldsV1: { 'f:metadata': { 'f:labels': { 'f:test-label': {} } } },
      },
      {
        manager: 'updater',
        operation: 'Update',
        apiVersion: 'v1',
        time: '2026-01-01T10:02:00Z',
        fieldsType: 'FieldsV1',
        fieldsV1: { 'f:data': { 'f:key': {}, 'f:new-key': {} } },
      },
    ]);
  });

  it('records no manager for a configuration of name and namespace only', () => {
    const first = apply(undefined, cmConfig(), 'apply_test', T0);
    expect(first.managedFields).toEqual([]);
    expect((first.object.metadata as Obj).managedFields).toBeUndefined();
    const second = apply(first.object, cmConfig(), 'apply_test', at(1));
    expect(second.managedFields).toEqual([]);
    expect(second.changed).toBe(false);
  });

  it('is a no-op the second time: same object, same managedFields, time untouched', () => {
    const first = apply(undefined, cmConfig({ a: '1' }), 'm', T0);
    const second = apply(first.object, cmConfig({ a: '1' }), 'm', at(5));
    expect(second.changed).toBe(false);
    expect(second.managedFields).toEqual(first.managedFields);
    expect(second.object).toEqual(first.object);
  });

  it('deletes what the applier no longer sends, when nobody else owns it', () => {
    const first = apply(undefined, cmConfig({ a: '1', b: '2' }), 'm', T0);
    const second = apply(first.object, cmConfig({ a: '1' }), 'm', at(1));
    expect(second.object.data).toEqual({ a: '1' });
    expect(second.managedFields[0]!.fieldsV1).toEqual({ 'f:data': { 'f:a': {} } });
    expect(second.managedFields[0]!.time).toBe('2026-01-01T10:01:00Z');
  });

  it('removes a container port the applier stopped sending', () => {
    const container = (ports?: unknown[]) => ({ name: 'nginx', image: 'nginx:latest', ...(ports ? { ports } : {}) });
    const cfg = (ports?: unknown[]) => ({ apiVersion: 'v1', kind: 'Pod', metadata: { name: 'p' }, spec: { containers: [container(ports)] } });
    const first = apply(undefined, cfg([{ containerPort: 80, protocol: 'TCP' }]), 'apply_test', T0);
    const second = apply(first.object, cfg(), 'apply_test', at(1));
    expect((second.object.spec as { containers: Obj[] }).containers).toEqual([{ name: 'nginx', image: 'nginx:latest' }]);
  });

  it('lets two appliers share a field with the same value, and keeps it while one still sends it', () => {
    const a = apply(undefined, cmConfig({ shared: 'x', mine: '1' }), 'a', T0);
    const b = apply(a.object, cmConfig({ shared: 'x' }), 'b', at(1));
    expect(b.changed).toBe(false);
    expect(fieldsOf(b.object)).toEqual({ 'a/Apply': { 'f:data': { 'f:mine': {}, 'f:shared': {} } }, 'b/Apply': { 'f:data': { 'f:shared': {} } } });
    // Kubernetes only stamps a time when the object changed: b's first apply changed nothing.
    expect(managed(b.object).find((e) => e.manager === 'b')).not.toHaveProperty('time');
    const a2 = apply(b.object, cmConfig({ mine: '1' }), 'a', at(2));
    expect(a2.object.data).toEqual({ shared: 'x', mine: '1' });
    expect(fieldsOf(a2.object)).toEqual({ 'a/Apply': { 'f:data': { 'f:mine': {} } }, 'b/Apply': { 'f:data': { 'f:shared': {} } } });
  });
});

describe('serverSideApply: conflicts', () => {
  it('fails with 409 when another applier owns a field it would change', () => {
    const a = apply(undefined, cmConfig({ key: '1' }), 'a', T0);
    const e = conflictOf(() => apply(a.object, cmConfig({ key: '2' }), 'b', at(1)));
    expect(e.code).toBe(409);
    expect(e.status).toEqual({
      kind: 'Status',
      apiVersion: 'v1',
      metadata: {},
      status: 'Failure',
      code: 409,
      reason: 'Conflict',
      message: 'Apply failed with 1 conflict: conflict with "a": .data.key',
      details: { causes: [{ reason: 'FieldManagerConflict', message: 'conflict with "a"', field: '.data.key' }] },
    });
  });

  it('names an Update manager with the version it used', () => {
    const created = update({ metadata: {} }, cmConfig({ key: 'v' }), 'kubectl-client-side-apply', T0);
    const e = conflictOf(() => apply(persist(created), cmConfig({ key: 'w' }), 'ssa', at(1)));
    expect(e.message).toBe('Apply failed with 1 conflict: conflict with "kubectl-client-side-apply" using v1: .data.key');
    expect(conflictCauses(e.conflicts)).toEqual([
      { reason: 'FieldManagerConflict', message: 'conflict with "kubectl-client-side-apply" using v1', field: '.data.key' },
    ]);
  });

  it('groups several conflicts by manager, managers sorted', () => {
    let obj = apply(undefined, cmConfig({ x: '1' }), 'a-applier', T0).object;
    obj = update(obj, { ...obj, data: { x: '1', y: '1', z: '1' } }, 'b-updater', at(1));
    const e = conflictOf(() => apply(obj, cmConfig({ x: '2', y: '2', z: '2' }), 'c', at(2)));
    expect(e.message).toBe(
      ['Apply failed with 3 conflicts: conflicts with "a-applier":', '- .data.x', 'conflicts with "b-updater" using v1:', '- .data.y', '- .data.z'].join('\n'),
    );
    expect(e.status.details!.causes).toHaveLength(3);
  });

  it('formats conflicts the way Kubernetes does, subresources included', () => {
    const c = (manager: string, operation: 'Apply' | 'Update', field: string, subresource?: string): ApplyConflict => ({
      manager,
      operation,
      apiVersion: 'apps/v1',
      field,
      path: [],
      ...(subresource ? { subresource } : {}),
    });
    expect(formatConflictMessage([c('kubectl', 'Update', '.spec.replicas', 'scale')])).toBe(
      'Apply failed with 1 conflict: conflict with "kubectl" with subresource "scale" using apps/v1: .spec.replicas',
    );
    expect(formatConflictMessage([c('z', 'Apply', '.a'), c('m\n', 'Update', '.b'), c('z', 'Apply', '.c')])).toBe(
      'Apply failed with 3 conflicts: conflicts with "m\\n" using apps/v1:\n- .b\nconflicts with "z":\n- .a\n- .c',
    );
  });

  it('takes the fields over with force', () => {
    let obj = apply(undefined, cmConfig({ x: '1', keep: '1' }), 'a', T0).object;
    obj = update(obj, { ...obj, data: { x: '1', keep: '1', y: '1' } }, 'u', at(1));
    const r = apply(obj, cmConfig({ x: '2', y: '2' }), 'b', at(2), { force: true });
    expect(r.object.data).toEqual({ x: '2', keep: '1', y: '2' });
    expect(fieldsOf(r.object)).toEqual({ 'a/Apply': { 'f:data': { 'f:keep': {} } }, 'b/Apply': { 'f:data': { 'f:x': {}, 'f:y': {} } } });
  });

  it('conflicts with kubectl scale on replicas, until forced', () => {
    const cfg = (replicas: number) => ({
      apiVersion: 'apps/v1',
      kind: 'StatefulSet',
      metadata: { name: 'web', namespace: 'default' },
      spec: {
        replicas,
        selector: { matchLabels: { app: 'web' } },
        template: { metadata: { labels: { app: 'web' } }, spec: { containers: [{ name: 'w', image: 'nginx' }] } },
      },
    });
    let obj = apply(undefined, cfg(2), 'kubectl', T0).object;
    obj = update(obj, { ...obj, spec: { ...(obj.spec as Obj), replicas: 5 } }, 'kubectl', at(1), { subresource: 'scale' });
    const e = conflictOf(() => apply(obj, cfg(3), 'kubectl', at(2)));
    expect(e.message).toBe('Apply failed with 1 conflict: conflict with "kubectl" with subresource "scale" using apps/v1: .spec.replicas');
    // Sending the value it already has is no conflict.
    expect(apply(obj, cfg(5), 'kubectl', at(2)).changed).toBe(false);
    const forced = apply(obj, cfg(3), 'kubectl', at(3), { force: true });
    expect((forced.object.spec as Obj).replicas).toBe(3);
    expect(managed(forced.object).map((m) => m.manager)).toEqual(['kubectl']);
  });

  it('gives an untracked object to before-first-apply, which then conflicts', () => {
    const untracked = persist(cmConfig({ key: 'old' }));
    const e = conflictOf(() => apply(untracked, cmConfig({ key: 'new' }), 'ssa', T0));
    expect(e.message).toBe('Apply failed with 1 conflict: conflict with "before-first-apply" using v1: .data.key');
    const r = apply(untracked, cmConfig({ other: 'x' }), 'ssa', T0);
    expect(fieldsOf(r.object)).toEqual({ 'ssa/Apply': { 'f:data': { 'f:other': {} } }, 'before-first-apply/Update': { 'f:data': { '.': {}, 'f:key': {} } } });
  });

  it('lets kubectl take over what its last-applied configuration held', () => {
    const lastApplied = '{"apiVersion":"v1","data":{"key":"v"},"kind":"ConfigMap","metadata":{"annotations":{},"name":"test-cm","namespace":"default"}}\n';
    const csa = cmConfig({ key: 'v' }, { annotations: { [LAST_APPLIED_ANNOTATION]: lastApplied } });
    const live = persist(update({ metadata: {} }, csa, 'kubectl-client-side-apply', T0));
    const r = apply(live, cmConfig({ key: 'w' }), 'kubectl', at(1));
    expect(r.object.data).toEqual({ key: 'w' });
    expect(fieldsOf(r.object)).toEqual({
      'kubectl/Apply': { 'f:data': { 'f:key': {} } },
      'kubectl-client-side-apply/Update': { 'f:data': {}, 'f:metadata': { 'f:annotations': { '.': {}, [`f:${LAST_APPLIED_ANNOTATION}`]: {} } } },
    });
    // The annotation is kept current with what kubectl applied.
    expect(((r.object.metadata as Obj).annotations as Obj)[LAST_APPLIED_ANNOTATION]).toBe(
      '{"apiVersion":"v1","data":{"key":"w"},"kind":"ConfigMap","metadata":{"name":"test-cm","namespace":"default"}}\n',
    );
    // Another manager gets no such pass.
    expect(() => apply(live, cmConfig({ key: 'w' }), 'helm', at(1))).toThrow(ApplyConflictError);
  });
});

describe('serverSideApply: merge semantics', () => {
  const podCfg = (spec: Obj) => ({ apiVersion: 'v1', kind: 'Pod', metadata: { name: 'p', namespace: 'default' }, spec });

  it('merges map lists by key and prunes only the applier’s items', () => {
    const a = apply(undefined, podCfg({ containers: [{ name: 'one', image: 'i1' }] }), 'a', T0);
    const b = apply(a.object, podCfg({ containers: [{ name: 'two', image: 'i2' }] }), 'b', at(1));
    expect((b.object.spec as { containers: Obj[] }).containers.map((c) => c.name)).toEqual(['one', 'two']);
    const a2 = apply(b.object, podCfg({ containers: [{ name: 'three', image: 'i3' }] }), 'a', at(2));
    expect((a2.object.spec as { containers: Obj[] }).containers.map((c) => c.name)).toEqual(['two', 'three']);
  });

  it('matches ports by their defaulted protocol key', () => {
    const live = apply(undefined, podCfg({ containers: [{ name: 'c', image: 'i', ports: [{ containerPort: 80, protocol: 'TCP', name: 'http' }] }] }), 'a', T0);
    const r = apply(live.object, podCfg({ containers: [{ name: 'c', image: 'i', ports: [{ containerPort: 80, hostPort: 8080 }] }] }), 'b', at(1));
    expect((r.object.spec as { containers: { ports: Obj[] }[] }).containers[0]!.ports).toEqual([
      { containerPort: 80, protocol: 'TCP', name: 'http', hostPort: 8080 },
    ]);
  });

  it('unions sets (finalizers) and removes only what the applier dropped', () => {
    const meta = (finalizers: string[]) => ({ finalizers });
    const a = apply(undefined, cmConfig({}, meta(['example.com/a'])), 'a', T0);
    const b = apply(a.object, cmConfig(undefined, meta(['example.com/b'])), 'b', at(1));
    expect((b.object.metadata as Obj).finalizers).toEqual(['example.com/a', 'example.com/b']);
    expect(fieldsOf(b.object)['b/Apply']).toEqual({ 'f:metadata': { 'f:finalizers': { 'v:"example.com/b"': {} } } });
    const a2 = apply(b.object, cmConfig({}, meta([])), 'a', at(2));
    expect((a2.object.metadata as Obj).finalizers).toEqual(['example.com/b']);
  });

  it('replaces atomic lists whole: another applier’s args conflict, force replaces them', () => {
    const a = apply(undefined, podCfg({ containers: [{ name: 'c', image: 'i', args: ['x', 'y'] }] }), 'a', T0);
    const e = conflictOf(() => apply(a.object, podCfg({ containers: [{ name: 'c', args: ['z'] }] }), 'b', at(1)));
    expect(e.message).toBe('Apply failed with 1 conflict: conflict with "a": .spec.containers[name="c"].args');
    const r = apply(a.object, podCfg({ containers: [{ name: 'c', args: ['z'] }] }), 'b', at(1), { force: true });
    expect((r.object.spec as { containers: Obj[] }).containers[0]!.args).toEqual(['z']);
  });

  it('replaces atomic maps whole (nodeSelector) and atomic lists of structs (tolerations)', () => {
    const a = apply(
      undefined,
      podCfg({ containers: [{ name: 'c', image: 'i' }], nodeSelector: { disk: 'ssd' }, tolerations: [{ key: 'k1', operator: 'Exists' }] }),
      'a',
      T0,
    );
    const e = conflictOf(() => apply(a.object, podCfg({ nodeSelector: { zone: 'z1' }, tolerations: [{ key: 'k2', operator: 'Exists' }] }), 'b', at(1)));
    expect(e.conflicts.map((c) => c.field)).toEqual(['.spec.nodeSelector', '.spec.tolerations']);
    const r = apply(a.object, podCfg({ nodeSelector: { zone: 'z1' }, tolerations: [{ key: 'k2', operator: 'Exists' }] }), 'b', at(1), { force: true });
    expect(r.object.spec).toMatchObject({ nodeSelector: { zone: 'z1' }, tolerations: [{ key: 'k2', operator: 'Exists' }] });
  });

  it('owns a field set to null and leaves it unset', () => {
    const a = apply(undefined, podCfg({ containers: [{ name: 'c', image: 'i' }], activeDeadlineSeconds: 30 }), 'a', T0);
    const r = apply(a.object, podCfg({ activeDeadlineSeconds: null }), 'b', at(1), { force: true });
    expect(r.object.spec).not.toHaveProperty('activeDeadlineSeconds');
    expect(fieldsOf(r.object)['b/Apply']).toEqual({ 'f:spec': { 'f:activeDeadlineSeconds': {} } });
  });

  it('stores empty lists and maps as Kubernetes does (not at all), yet counts them as a change each time', () => {
    const first = apply(undefined, cmConfig({ a: '1' }, { finalizers: [], labels: {} }), 'm', T0);
    expect(first.object.metadata).not.toHaveProperty('finalizers');
    expect(first.object.metadata).not.toHaveProperty('labels');
    const second = apply(first.object, cmConfig({ a: '1' }, { finalizers: [], labels: {} }), 'm', at(1));
    expect(second.changed).toBe(true);
    expect(second.managedFields[0]!.time).toBe('2026-01-01T10:01:00Z');
    expect(second.managedFields[0]!.fieldsV1).toEqual({ 'f:data': { 'f:a': {} }, 'f:metadata': { 'f:labels': {} } });
  });

  it('keeps hostile keys as plain data', () => {
    const data = JSON.parse('{"__proto__":"x","constructor":"y"}') as Record<string, string>;
    const r = apply(undefined, cmConfig(data), 'm', T0);
    expect(Object.keys(r.object.data as Obj)).toEqual(['__proto__', 'constructor']);
    expect(Object.getPrototypeOf(r.object.data)).toBe(Object.prototype);
    expect(r.managedFields[0]!.fieldsV1).toEqual({ 'f:data': { 'f:__proto__': {}, 'f:constructor': {} } });
    expect(({} as Obj).x).toBeUndefined();
  });

  it('keeps a live `constructor` or `toString` key another manager owns when an apply leaves it out', () => {
    const first = apply(undefined, cmConfig(JSON.parse('{"constructor":"a","toString":"b","__proto__":"c"}') as Obj), 'a', T0);
    const second = apply(first.object, cmConfig({ x: '1' }), 'b', at(1));
    expect(JSON.stringify(second.object.data)).toBe('{"constructor":"a","toString":"b","__proto__":"c","x":"1"}');
    // The same keys the manager dropped are removed, not read from Object.prototype.
    const third = apply(second.object, cmConfig({}), 'a', at(2));
    expect(JSON.stringify(third.object.data)).toBe('{"x":"1"}');
    expect(fieldsOf(third.object)).toEqual({ 'a/Apply': { 'f:data': {} }, 'b/Apply': { 'f:data': { 'f:x': {} } } });
  });

  it('does not mutate its inputs', () => {
    const live = apply(undefined, cmConfig({ a: '1' }), 'a', T0).object;
    const cfg = cmConfig({ a: '2', b: '1' });
    const before = JSON.stringify([live, cfg]);
    apply(live, cfg, 'a', at(1));
    expect(JSON.stringify([live, cfg])).toBe(before);
  });
});

describe('serverSideApply: rejected configurations', () => {
  const status = (fn: () => unknown) => {
    try {
      fn();
    } catch (e) {
      if (e instanceof ApiError) return { code: e.code, reason: e.reason, message: e.message };
      throw e;
    }
    throw new Error('expected an error');
  };

  it('refuses managedFields in the configuration (400)', () => {
    expect(status(() => apply(undefined, cmConfig({}, { managedFields: [] }), 'm', T0))).toEqual({
      code: 400,
      reason: 'BadRequest',
      message: 'metadata.managedFields must be nil',
    });
  });

  it('refuses another kind or version (400)', () => {
    expect(
      status(() =>
        serverSideApply({
          live: undefined,
          applied: { apiVersion: 'v1', kind: 'Secret', metadata: { name: 'x' } },
          manager: 'm',
          apiVersion: 'v1',
          kind: 'ConfigMap',
          schema: cm,
          now: T0,
        }),
      ),
    ).toEqual({
      code: 400,
      reason: 'BadRequest',
      message: 'invalid object type: /v1, Kind=Secret',
    });
    expect(
      status(() =>
        serverSideApply({
          live: undefined,
          applied: { apiVersion: 'extensions/v1beta1', kind: 'X' },
          manager: 'm',
          apiVersion: 'apps/v1',
          schema: sts,
          now: T0,
        }),
      ),
    ).toEqual({
      code: 400,
      reason: 'BadRequest',
      message: 'Incorrect version specified in apply patch. Specified patch version: extensions/v1beta1, expected: apps/v1',
    });
  });

  it("answers a configuration it cannot type with Kubernetes' message, as a 400 (Kubernetes: 500)", () => {
    const dup = { apiVersion: 'v1', kind: 'Pod', metadata: { name: 'p', namespace: 'default' }, spec: { containers: [{ name: 'c' }, { name: 'c' }] } };
    expect(status(() => apply(undefined, dup, 'm', T0))).toEqual({
      code: 400,
      reason: 'BadRequest',
      message: 'failed to create typed patch object (default/p; /v1, Kind=Pod): .spec.containers: duplicate entries for key [name="c"]',
    });
    const several = { apiVersion: 'v1', kind: 'Pod', metadata: { name: 'p' }, spec: { containers: [{ image: 'x' }], bogus: 1 } };
    expect(status(() => apply(undefined, several, 'm', T0)).message).toBe(
      'failed to create typed patch object (/p; /v1, Kind=Pod): errors:\n  .spec.containers: element 0: associative list with keys has an element that omits all key fields ["name"] (and doesn\'t have default values for any key fields)\n  .spec.bogus: field not declared in schema',
    );
  });
});
