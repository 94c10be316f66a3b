import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { decodeSegments, pathSegments } from '../../src/util/path-segments.js';

describe('pathSegments', () => {
  it('drops empty segments wherever they are', () => {
    expect(pathSegments('/api/v1/pods')).toEqual(['api', 'v1', 'pods']);
    expect(pathSegments('/api//v1/pods/')).toEqual(['api', 'v1', 'pods']);
    expect(pathSegments('')).toEqual([]);
    expect(pathSegments('/')).toEqual([]);
    expect(pathSegments('//')).toEqual([]);
    expect(pathSegments('a')).toEqual(['a']);
  });

  it('agrees with splitting and filtering on any path', () => {
    fc.assert(
      fc.property(fc.array(fc.constantFrom('/', 'a', 'b', '%2F', ''), { maxLength: 12 }), (parts) => {
        const path = parts.join('');
        expect(pathSegments(path)).toEqual(path.split('/').filter((p) => p !== ''));
      }),
    );
  });
});

describe('decodeSegments', () => {
  it('decodes escapes, leaves plain segments alone and throws on a bad escape', () => {
    expect(decodeSegments(['a%2Fb', 'plain', '%E2%9C%93'])).toEqual(['a/b', 'plain', '✓']);
    expect(() => decodeSegments(['%E0%A4%A'])).toThrow(URIError);
  });
});
