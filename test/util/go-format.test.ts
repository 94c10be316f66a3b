import { describe, expect, it } from 'vitest';
import { compareGoStrings, goJson, goQuote, utf8ByteLength } from '../../src/util/go-format.js';

describe('Go formatting', () => {
  it('quotes like %q', () => {
    expect(goQuote('plain')).toBe('"plain"');
    expect(goQuote('a"b\\c')).toBe('"a\\"b\\\\c"');
    expect(goQuote('\u0007\n\t\u0001\u007f')).toBe('"\\a\\n\\t\\x01\\x7f"');
    expect(goQuote('é😀')).toBe('"é😀"');
    expect(goQuote('\u00a0\u200b')).toBe('"\\u00a0\\u200b"');
  });

  it('marshals JSON HTML-safely like encoding/json', () => {
    expect(goJson(['<a>', '&'])).toBe('["\\u003ca\\u003e","\\u0026"]');
    expect(goJson({ k: 1 })).toBe('{"k":1}');
  });

  it('measures strings in UTF-8 bytes and orders them bytewise', () => {
    expect(utf8ByteLength('aé😀')).toBe(1 + 2 + 4);
    expect(compareGoStrings('a', 'b')).toBe(-1);
    expect(compareGoStrings('\uffff', '😀')).toBe(-1);
    expect(compareGoStrings('ab', 'ab')).toBe(0);
  });
});
