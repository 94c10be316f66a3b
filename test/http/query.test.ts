import { describe, expect, it } from 'vitest';
import { deleteOptionsOf, getOptionsOf, writeOptionsOf } from '../../src/http/query.js';

const query = (text: string) => new URLSearchParams(text);

describe('options from the query', () => {
  it('hold only the members the query gave, none left undefined', () => {
    const none = writeOptionsOf(query(''));
    expect(Object.keys(none)).toEqual([]);
    expect('dryRun' in none).toBe(false);
    expect(writeOptionsOf(query('fieldManager=me&force=true'))).toStrictEqual({ fieldManager: 'me', force: true });
    expect(getOptionsOf(query('resourceVersion=7'))).toStrictEqual({ resourceVersion: '7' });
    expect(Object.keys(getOptionsOf(query('limit=3')))).toEqual([]);
  });

  it('read delete options and their preconditions the same way', () => {
    expect(deleteOptionsOf(query('propagationPolicy=Foreground&preconditions.uid=u'))).toStrictEqual({
      propagationPolicy: 'Foreground',
      preconditions: { uid: 'u' },
    });
    expect(Object.keys(deleteOptionsOf(query('gracePeriodSeconds=0')))).toEqual(['gracePeriodSeconds']);
  });
});
