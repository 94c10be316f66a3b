/** The cached JSON bytes of stored values: made once, UTF-8, ending in a newline, owned outright. */
import { describe, expect, it } from 'vitest';
import { storedJsonLine } from '../../src/storage/json-text.js';
import { deepFreeze } from '../../src/storage/freeze.js';
import type { StoredValue } from '../../src/storage/storage.js';

const stored = (value: Record<string, unknown>) => deepFreeze(value) as StoredValue;

describe('storedJsonLine', () => {
  it('is the JSON text and a newline, in UTF-8', () => {
    const value = stored({ metadata: { name: 'ünïcode', annotations: { note: '日本語 ✓' } }, data: { a: 'b' } });
    const bytes = storedJsonLine(value);
    expect(bytes.toString('utf8')).toBe(`${JSON.stringify(value)}\n`);
    expect(bytes.length).toBe(Buffer.byteLength(JSON.stringify(value)) + 1);
  });

  it('makes the bytes of a value once', () => {
    const value = stored({ metadata: { name: 'a' } });
    expect(storedJsonLine(value)).toBe(storedJsonLine(value));
    expect(storedJsonLine(stored({ metadata: { name: 'a' } }))).not.toBe(storedJsonLine(value));
  });

  it('owns its memory rather than a slice of the shared buffer pool a cached slice would keep alive', () => {
    const bytes = storedJsonLine(stored({ metadata: { name: 'small' } }));
    expect(bytes.byteOffset).toBe(0);
    expect(bytes.buffer.byteLength).toBe(bytes.length);
  });
});
