import { describe, expect, it } from 'vitest';
import { userOf } from '../../src/http/users.js';

describe('userOf', () => {
  it('keeps Impersonate-Extra keys named like Object.prototype members as ordinary keys', () => {
    const headers = new Headers([
      ['Impersonate-User', 'bob'],
      ['Impersonate-Extra-constructor', 'a'],
      ['Impersonate-Extra-__proto__', 'b, c'],
      ['Impersonate-Extra-toString', 'd'],
    ]);
    const user = userOf(headers);
    expect(user.username).toBe('bob');
    expect(JSON.stringify(user.extra)).toBe('{"__proto__":["b","c"],"constructor":["a"],"tostring":["d"]}');
    expect(Object.getPrototypeOf(user.extra)).toBe(Object.prototype);
  });
});
