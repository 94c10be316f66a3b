/**
 * Multi-manager scenarios in the style of structured-merge-diff's merge tests: a sequence of
 * applies and updates on small hand-written schemas, then the object and every manager's set.
 */
import { describe, expect, it } from 'vitest';
import type { StructuralNode } from '../../../src/schema/structural.js';
import { FieldSet, pathString, recordUpdate, serverSideApply, type ManagedFieldsEntry } from '../../../src/patch/apply/index.js';

const str: StructuralNode = { type: 'string' };
const num: StructuralNode = { type: 'integer' };
const struct = (props: Record<string, StructuralNode>): StructuralNode => ({ type: 'object', properties: new Map(Object.entries(props)), required: new Set() });
/** A top-level type: its fields plus apiVersion, which every managedFields entry needs. */
const root = (props: Record<string, StructuralNode>): StructuralNode => struct({ apiVersion: str, ...props });
const setOf = (items: StructuralNode): StructuralNode => ({ type: 'array', items, listType: 'set' });
const mapListOf = (keys: string[], items: StructuralNode): StructuralNode => ({ type: 'array', items, listType: 'map', listMapKeys: keys });

type Op = { apply: unknown; manager: string; force?: boolean } | { update: unknown; manager: string };

/** Runs the operations and returns the final object and, per manager, its fields as printed paths. */
function run(schema: StructuralNode, ops: Op[]): { object: Record<string, unknown>; managers: Record<string, string[]> } {
  let live: Record<string, unknown> | undefined;
  let now = Date.UTC(2026, 0, 1);
  for (const op of ops) {
    now += 1000;
    if ('apply' in op) {
      const applied = { apiVersion: 'v1', ...(op.apply as Record<string, unknown>) };
      live = serverSideApply({ live, applied, manager: op.manager, apiVersion: 'v1', schema, now, force: op.force ?? false }).object;
    } else {
      const updated = { apiVersion: 'v1', ...(op.update as Record<string, unknown>) };
      const mf = recordUpdate({ live, updated, manager: op.manager, apiVersion: 'v1', schema, now });
      live = mf.length ? { ...updated, metadata: { managedFields: mf } } : updated;
    }
  }
  const entries = ((live?.metadata as { managedFields?: ManagedFieldsEntry[] } | undefined)?.managedFields ?? []) as ManagedFieldsEntry[];
  const object = { ...live };
  delete object.metadata;
  delete object.apiVersion;
  return {
    object,
    managers: Object.fromEntries(entries.map((e) => [e.manager!, FieldSet.fromFieldsV1(e.fieldsV1).paths().map(pathString).sort()])),
  };
}

describe('multiple managers (structured-merge-diff scenarios)', () => {
  const nested = root({
    listOfLists: mapListOf(['name'], struct({ name: str, value: setOf(str) })),
    struct: struct({ name: str, scalarField: str, complexField: struct({ name: str }) }),
  });

  it('an applier that stops sending a field it shares with an updater leaves it to the updater', () => {
    const r = run(nested, [
      { update: { struct: { name: 'a', scalarField: 'a' } }, manager: 'updater' },
      { apply: { struct: { name: 'a', scalarField: 'a' } }, manager: 'applier' },
      { apply: { struct: { name: 'a' } }, manager: 'applier' },
    ]);
    expect(r.object).toEqual({ struct: { name: 'a', scalarField: 'a' } });
    expect(r.managers).toEqual({ updater: ['.struct', '.struct.name', '.struct.scalarField'], applier: ['.struct.name'] });
  });

  it('an updater that changes an applied value takes it', () => {
    const r = run(nested, [
      { apply: { struct: { name: 'a', scalarField: 'a' } }, manager: 'applier' },
      { update: { struct: { name: 'a', scalarField: 'b' } }, manager: 'updater' },
    ]);
    expect(r.managers).toEqual({ updater: ['.struct.scalarField'], applier: ['.struct.name'] });
  });

  it('a struct shared with another applier survives its first owner', () => {
    const r = run(nested, [
      { apply: { struct: { name: 'a', complexField: { name: 'b' } } }, manager: 'apply-one' },
      { apply: { struct: { complexField: { name: 'b' } } }, manager: 'apply-two' },
      { apply: { struct: { name: 'a' } }, manager: 'apply-one' },
    ]);
    expect(r.object).toEqual({ struct: { name: 'a', complexField: { name: 'b' } } });
    expect(r.managers).toEqual({ 'apply-one': ['.struct.name'], 'apply-two': ['.struct.complexField.name'] });
  });

  it('removing a list item keeps the sub-items another applier owns', () => {
    const r = run(nested, [
      { apply: { listOfLists: [{ name: 'a' }, { name: 'b', value: ['c'] }] }, manager: 'apply-one' },
      { apply: { listOfLists: [{ name: 'b', value: ['d'] }] }, manager: 'apply-two' },
      { update: { listOfLists: [{ name: 'a' }, { name: 'b', value: ['c', 'd', 'e'] }] }, manager: 'controller' },
      { apply: { listOfLists: [{ name: 'a' }] }, manager: 'apply-one' },
    ]);
    expect(r.object).toEqual({ listOfLists: [{ name: 'a' }, { name: 'b', value: ['d', 'e'] }] });
    expect(r.managers).toEqual({
      'apply-one': ['.listOfLists[name="a"]', '.listOfLists[name="a"].name'],
      'apply-two': ['.listOfLists[name="b"]', '.listOfLists[name="b"].name', '.listOfLists[name="b"].value[="d"]'],
      controller: ['.listOfLists[name="b"].value[="e"]'],
    });
  });

  it('removing a list item whose sub-item only an updater owns removes the item', () => {
    const r = run(nested, [
      { apply: { listOfLists: [{ name: 'a' }, { name: 'b', value: ['c'] }] }, manager: 'apply-one' },
      { apply: { listOfLists: [{ name: 'a', value: ['b'] }] }, manager: 'apply-two' },
      {
        update: {
          listOfLists: [
            { name: 'a', value: ['b'] },
            { name: 'b', value: ['c', 'd'] },
          ],
        },
        manager: 'controller',
      },
      { apply: { listOfLists: [{ name: 'a' }] }, manager: 'apply-one' },
    ]);
    expect(r.object).toEqual({ listOfLists: [{ name: 'a', value: ['b'] }] });
    expect(r.managers).toEqual({
      'apply-one': ['.listOfLists[name="a"]', '.listOfLists[name="a"].name'],
      'apply-two': ['.listOfLists[name="a"]', '.listOfLists[name="a"].name', '.listOfLists[name="a"].value[="b"]'],
    });
  });

  it('an applier that sends nothing any more leaves what others own of a deduced (schemaless) map', () => {
    const r = run({ type: 'any' }, [
      { apply: { a: { b: null }, c: { d: null } }, manager: 'apply-one' },
      { apply: { a: null, c: { d: null } }, manager: 'apply-two' },
      { update: { a: { b: { c: null } }, c: { d: { e: null } } }, manager: 'controller-one' },
      { update: { a: { b: { c: { d: null } } }, c: { d: { e: { f: null } } } }, manager: 'controller-two' },
      { update: { a: { b: { c: { d: { e: null } } } }, c: { d: { e: { f: { g: null } } } } }, manager: 'controller-one' },
      { apply: {}, manager: 'apply-one' },
    ]);
    expect(r.object).toEqual({ a: null, c: { d: { e: { f: { g: null } } } } });
    expect(r.managers).toEqual({
      'apply-two': ['.a', '.c', '.c.d'],
      'controller-one': ['.c.d.e', '.c.d.e.f.g'],
      'controller-two': ['.c.d.e.f'],
    });
  });

  it('keeps numeric and set semantics in conflicts: same value shared, different value conflicts', () => {
    const schema = root({ list: mapListOf(['name'], struct({ name: str, value: num })) });
    const same = run(schema, [
      { apply: { list: [{ name: 'a', value: 0 }] }, manager: 'apply-one' },
      { apply: { list: [{ name: 'a', value: 0 }] }, manager: 'apply-two' },
    ]);
    expect(same.managers).toEqual({
      'apply-one': ['.list[name="a"]', '.list[name="a"].name', '.list[name="a"].value'],
      'apply-two': ['.list[name="a"]', '.list[name="a"].name', '.list[name="a"].value'],
    });
    expect(() =>
      run(schema, [
        { apply: { list: [{ name: 'a', value: 0 }] }, manager: 'apply-one' },
        { apply: { list: [{ name: 'a', value: 1 }] }, manager: 'apply-two' },
      ]),
    ).toThrow('Apply failed with 1 conflict: conflict with "apply-one": .list[name="a"].value');
  });
});
