import { describe, expect, it } from 'vitest';
import {
  capUpdateManagers,
  decodeManagedFields,
  encodeManagedFields,
  FieldSet,
  isResetManagedFields,
  ManagedFieldsDecodeError,
  managedFromRequest,
  managerIdentifier,
  pathElement as pe,
  validateManagedFields,
  type ManagedFields,
} from '../../../src/patch/apply/index.js';

const f = pe.field;

describe('manager identifiers', () => {
  it('are the JSON of the entry without time and fields, and without apiVersion for appliers', () => {
    expect(managerIdentifier({ manager: 'kubectl', operation: 'Update', apiVersion: 'v1' })).toBe(
      '{"manager":"kubectl","operation":"Update","apiVersion":"v1"}',
    );
    expect(managerIdentifier({ manager: 'kubectl', operation: 'Apply', apiVersion: 'v1' })).toBe('{"manager":"kubectl","operation":"Apply"}');
    expect(managerIdentifier({ manager: 'k', operation: 'Update', apiVersion: 'apps/v1', subresource: 'status' })).toBe(
      '{"manager":"k","operation":"Update","apiVersion":"apps/v1","subresource":"status"}',
    );
    expect(managerIdentifier({ manager: '<x>', operation: 'Apply' })).toBe('{"manager":"\\u003cx\\u003e","operation":"Apply"}');
  });
});

describe('decode and encode', () => {
  const entries = [
    {
      manager: 'z-updater',
      operation: 'Update',
      apiVersion: 'v1',
      time: '2026-01-01T00:00:05Z',
      fieldsType: 'FieldsV1',
      fieldsV1: { 'f:data': { 'f:b': {} } },
    },
    {
      manager: 'kubelet',
      operation: 'Update',
      apiVersion: 'v1',
      time: '2026-01-01T00:00:01Z',
      fieldsType: 'FieldsV1',
      fieldsV1: { 'f:status': { 'f:phase': {} } },
      subresource: 'status',
    },
    { manager: 'kubectl', operation: 'Apply', apiVersion: 'v1', time: '2026-01-01T00:00:09Z', fieldsType: 'FieldsV1', fieldsV1: { 'f:data': { 'f:a': {} } } },
    {
      manager: 'a-updater',
      operation: 'Update',
      apiVersion: 'v1',
      time: '2026-01-01T00:00:05Z',
      fieldsType: 'FieldsV1',
      fieldsV1: { 'f:data': { 'f:c': {} } },
    },
  ];

  it('round-trip, sorted by operation, time, manager, apiVersion, subresource', () => {
    const managed = decodeManagedFields(entries);
    expect(managed.size).toBe(4);
    expect(encodeManagedFields(managed).map((e) => e.manager)).toEqual(['kubectl', 'kubelet', 'a-updater', 'z-updater']);
    expect(encodeManagedFields(managed)[1]).toEqual(entries[1]);
    expect(Object.keys(encodeManagedFields(managed)[1]!)).toEqual(['manager', 'operation', 'apiVersion', 'time', 'fieldsType', 'fieldsV1', 'subresource']);
  });

  it('normalize times to RFC 3339 seconds in UTC and keep a missing time missing', () => {
    const managed = decodeManagedFields([
      { manager: 'm', operation: 'Update', apiVersion: 'v1', time: '2026-01-01T02:00:00.750+02:00', fieldsType: 'FieldsV1', fieldsV1: { 'f:x': {} } },
      { manager: 'n', operation: 'Apply', apiVersion: 'v1', fieldsType: 'FieldsV1', fieldsV1: { 'f:y': {} } },
    ]);
    const out = encodeManagedFields(managed);
    expect(out[0]).not.toHaveProperty('time');
    expect(out[1]!.time).toBe('2026-01-01T00:00:00Z');
  });

  it('let a later entry with the same identifier win; appliers are identified without apiVersion', () => {
    const managed = decodeManagedFields([
      { manager: 'm', operation: 'Apply', apiVersion: 'v1', fieldsType: 'FieldsV1', fieldsV1: { 'f:a': {} } },
      { manager: 'm', operation: 'Apply', apiVersion: 'v2', fieldsType: 'FieldsV1', fieldsV1: { 'f:b': {} } },
    ]);
    expect(managed.size).toBe(1);
    expect(encodeManagedFields(managed)[0]).toMatchObject({ apiVersion: 'v2', fieldsV1: { 'f:b': {} } });
  });

  it('reject entries with the decoder messages', () => {
    const err = (e: Record<string, unknown>[]) => {
      try {
        decodeManagedFields(e);
        return 'no error';
      } catch (x) {
        expect(x).toBeInstanceOf(ManagedFieldsDecodeError);
        return (x as Error).message;
      }
    };
    const ok = { manager: 'm', operation: 'Update', apiVersion: 'v1', fieldsType: 'FieldsV1', fieldsV1: {} };
    expect(err([{ ...ok, operation: 'Patch' }])).toBe('operation must be `Apply` or `Update`');
    expect(err([{ ...ok, apiVersion: '' }])).toBe('apiVersion must not be empty');
    expect(err([ok, { ...ok, fieldsType: undefined }])).toBe('missing fieldsType in managed fields entry 1');
    expect(err([{ ...ok, fieldsType: 'FieldsV2' }])).toBe('invalid fieldsType "FieldsV2" in managed fields entry 0');
    expect(err([{ ...ok, time: '2026-01-01T00:00:00Z', fieldsV1: { 'f:a': [] } }])).toBe(
      'error decoding versioned set from {m Update v1 2026-01-01 00:00:00 +0000 UTC FieldsV1 {"f:a":[]} }: error decoding set: ReadMapCB: expect { or n, but found [, error found in #8 byte of ...|{"f:a":[]}|..., bigger context ...|{"f:a":[]}|...',
    );
    expect(err([{ ...ok, manager: 'x', fieldsV1: { bad: {} } }])).toMatch(
      /^error decoding versioned set from \{x Update v1 <nil> FieldsV1 \{"bad":\{\}\} \}: error decoding set: parsing key as path element: missing colon: bad/,
    );
  });
});

describe('resetting managedFields', () => {
  it('[] and [{}] reset; anything else does not', () => {
    expect(isResetManagedFields([])).toBe(true);
    expect(isResetManagedFields([{}])).toBe(true);
    expect(isResetManagedFields([{ manager: '' }])).toBe(true);
    expect(isResetManagedFields(undefined)).toBe(false);
    expect(isResetManagedFields([{}, {}])).toBe(false);
    expect(isResetManagedFields([{ manager: 'm' }])).toBe(false);
  });

  it('managedFromRequest: reset, valid entries, or the stored ones', () => {
    const live = [{ manager: 'old', operation: 'Update', apiVersion: 'v1', fieldsType: 'FieldsV1', fieldsV1: { 'f:a': {} } }];
    const sent = [{ manager: 'new', operation: 'Update', apiVersion: 'v1', fieldsType: 'FieldsV1', fieldsV1: { 'f:b': {} } }];
    const names = (m: ManagedFields) => [...m.values()].map((s) => s.manager);
    expect(names(managedFromRequest({ live, sent: [] }))).toEqual([]);
    expect(names(managedFromRequest({ live, sent }))).toEqual(['new']);
    expect(names(managedFromRequest({ live, sent: undefined }))).toEqual(['old']);
    expect(names(managedFromRequest({ live, sent: [{ manager: 'x', operation: 'Nope' }] }))).toEqual(['old']);
    expect(names(managedFromRequest({ live, sent, subresource: 'status' }))).toEqual(['old']);
    expect(names(managedFromRequest({ live: [{ operation: 'bad' }], sent: undefined }))).toEqual([]);
  });
});

describe('validateManagedFields (ObjectMeta validation)', () => {
  it('reports operation, fieldsType, manager and subresource problems as field errors', () => {
    const errs = validateManagedFields([
      { operation: '', fieldsType: 'FieldsV1', manager: 'ok' },
      { operation: 'Patch', fieldsType: 'x', manager: 'a\u0007b', subresource: 's'.repeat(257) },
      { operation: 'Apply', manager: 'm'.repeat(129) },
    ]);
    expect(errs.map((e) => [e.type, e.field])).toEqual([
      ['FieldValueRequired', 'metadata.managedFields[0].operation'],
      ['FieldValueNotSupported', 'metadata.managedFields[1].operation'],
      ['FieldValueInvalid', 'metadata.managedFields[1].fieldsType'],
      ['FieldValueInvalid', 'metadata.managedFields[1].manager'],
      ['FieldValueTooLong', 'metadata.managedFields[1].subresource'],
      ['FieldValueTooLong', 'metadata.managedFields[2].manager'],
    ]);
    expect(errs[2]!.detail).toBe('must be `FieldsV1`');
    expect(errs[3]!.detail).toBe('invalid character U+0007 (at position 1)');
  });
});

describe('capping Update managers', () => {
  function updaters(n: number, version = 'v1'): ManagedFields {
    const m: ManagedFields = new Map();
    for (let i = 0; i < n; i++) {
      const s = {
        manager: `m${String(i).padStart(2, '0')}`,
        operation: 'Update' as const,
        apiVersion: version,
        subresource: '',
        time: `2026-01-01T00:00:${String(i).padStart(2, '0')}Z`,
        fields: FieldSet.of([f('data'), f(`k${i}`)]),
      };
      m.set(managerIdentifier(s), s);
    }
    return m;
  }

  it('leaves 10 alone', () => {
    expect(capUpdateManagers(updaters(10)).size).toBe(10);
  });

  it('merges the oldest into ancient-changes until 10 remain, with the newest merged time', () => {
    const capped = capUpdateManagers(updaters(12));
    const out = encodeManagedFields(capped);
    expect(out).toHaveLength(10);
    const bucket = out.find((e) => e.manager === 'ancient-changes')!;
    expect(bucket).toMatchObject({ operation: 'Update', apiVersion: 'v1', time: '2026-01-01T00:00:02Z' });
    expect(bucket.fieldsV1).toEqual({ 'f:data': { 'f:k0': {}, 'f:k1': {}, 'f:k2': {} } });
    expect(out.map((e) => e.manager)).not.toContain('m00');
    expect(out.map((e) => e.manager)).toContain('m03');
  });

  it('does not count appliers and buckets per apiVersion', () => {
    const m = updaters(11);
    const a = { manager: 'ap', operation: 'Apply' as const, apiVersion: 'v1', subresource: '', fields: FieldSet.of([f('x')]) };
    m.set(managerIdentifier(a), a);
    const capped = capUpdateManagers(m);
    expect(capped.size).toBe(11);
    expect([...capped.values()].filter((s) => s.operation === 'Update')).toHaveLength(10);
  });
});
