import { describe, expect, it } from 'vitest';
import { parseJson } from '../../src/codec/json.js';

describe('parseJson: strings with escapes while looking for duplicate keys', () => {
  it('finds the end of keys and values holding escaped quotes and runs of backslashes', () => {
    const text = String.raw`{"a\"b":1,"c\\":"x\\\"y\\","a\"b":2,"v":"\\\\","c\\":{"k\\\"":"\"","k\\\"":3}}`;
    const parsed = parseJson(text);
    expect(parsed.value).toEqual(JSON.parse(text));
    expect(parsed.duplicateFields).toEqual(['a"b', 'c\\', 'c\\.k\\"']);
  });

  it('reads long values without losing track of keys after them', () => {
    const long = 'x'.repeat(5000) + '\\"' + 'y'.repeat(100);
    const text = `{"data":{"k":"${long}","k":"2"},"data":{}}`;
    expect(parseJson(text).duplicateFields).toEqual(['data.k', 'data']);
  });
});
