/**
 * The values the authentication CEL expressions see (plugin/pkg/authenticator/token/oidc
 * `convertObjectToUnstructured`, `convertUserInfoToUnstructured`): claims as the unstructured
 * converter reads them (a number written as an integer that fits int64 is a CEL int, any other a
 * double), maps that also answer escaped names (`claims.foo__dot__bar` reads the
 * claim `foo.bar`), and the user as a `kubernetes.UserInfo` object. Results turn back into Go
 * strings and string lists by upstream's rules (`convertCELValueToStringList`).
 */
import { unescapePropertyName, type Value } from '../../../cel/index.js';
import { ArrayList, ListValue, MapValue, ObjectValue } from '../../../cel/values/values.js';
import type { UserInfo } from '../../../machinery/request.js';
import { USER_INFO_TYPE } from '../../../config/authentication/index.js';

/** A JSON value as CEL sees it after Go decoded it into `any`. */
export function jsonToCel(value: unknown): Value {
  if (value === null || value === undefined) return null;
  if (typeof value === 'bigint' || typeof value === 'number' || typeof value === 'string' || typeof value === 'boolean') return value;
  if (Array.isArray(value)) return new JsonList(value);
  return new JsonMap(value as Record<string, unknown>);
}

const INT64_MIN = -(1n << 63n);
const INT64_MAX = (1n << 63n) - 1n;
const NUMBER = /-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?/y;

/**
 * Parses JSON text that `JSON.parse` accepted, as the claims reach CEL upstream: the unstructured
 * converter decodes each claim with `UseNumber` and keeps a number as int64 when
 * `json.Number.Int64` reads it (`1`, not `1.0` or `1e3`), else as float64. Integers become bigints,
 * other numbers JavaScript numbers. Iterative, so a deeply nested claim cannot overflow the stack.
 */
export function parseJsonPreservingInts(text: string): unknown {
  type Frame = { container: unknown[] | Record<string, unknown>; key?: string };
  const stack: Frame[] = [];
  let i = 0;
  let result: unknown;
  const skipSpace = () => {
    while (i < text.length && ' \t\r\n'.includes(text[i]!)) i++;
  };
  const readString = (): string => {
    const start = i++;
    while (text[i] !== '"') i += text[i] === '\\' ? 2 : 1;
    i++;
    return JSON.parse(text.slice(start, i)) as string;
  };
  const put = (value: unknown) => {
    const top = stack[stack.length - 1];
    if (!top) result = value;
    else if (Array.isArray(top.container)) top.container.push(value);
    else Object.defineProperty(top.container, top.key!, { value, enumerable: true, writable: true, configurable: true });
  };
  for (;;) {
    skipSpace();
    const top = stack[stack.length - 1];
    const c = text[i];
    if (c === ',' || c === ':') {
      i++;
      continue;
    }
    if (c === ']' || c === '}') {
      i++;
      stack.pop();
      if (stack.length === 0) return result;
      continue;
    }
    if (top && !Array.isArray(top.container) && top.key === undefined) {
      top.key = readString();
      continue;
    }
    let value: unknown;
    let opened: Frame | undefined;
    if (c === '{' || c === '[') {
      i++;
      opened = { container: c === '[' ? [] : {} };
      value = opened.container;
    } else if (c === '"') value = readString();
    else if (text.startsWith('true', i)) [value, i] = [true, i + 4];
    else if (text.startsWith('false', i)) [value, i] = [false, i + 5];
    else if (text.startsWith('null', i)) [value, i] = [null, i + 4];
    else {
      NUMBER.lastIndex = i;
      const literal = NUMBER.exec(text)![0];
      i += literal.length;
      const int = /^-?\d+$/.test(literal) ? BigInt(literal) : undefined;
      value = int !== undefined && int >= INT64_MIN && int <= INT64_MAX ? int : Number(literal);
    }
    put(value);
    if (top && !Array.isArray(top.container)) top.key = undefined;
    if (opened) stack.push(opened);
    else if (stack.length === 0) return result;
  }
}

class JsonList extends ListValue {
  constructor(private readonly data: readonly unknown[]) {
    super();
  }
  get size(): number {
    return this.data.length;
  }
  get(i: number): Value {
    return jsonToCel(this.data[i]);
  }
}

/** A JSON object read as a map; a key that is an escaped name finds the claim it names. */
export class JsonMap extends MapValue {
  constructor(private readonly data: Readonly<Record<string, unknown>>) {
    super();
  }
  get size(): number {
    return Object.keys(this.data).length;
  }
  get(key: Value): Value | undefined {
    if (typeof key !== 'string') return undefined;
    const unescaped = unescapePropertyName(key);
    const name = unescaped !== undefined && unescaped !== key ? unescaped : key;
    if (!Object.prototype.hasOwnProperty.call(this.data, name)) return undefined;
    return jsonToCel(this.data[name]);
  }
  keys(): Iterable<string> {
    return Object.keys(this.data);
  }
}

class StringListMap extends MapValue {
  constructor(private readonly data: Readonly<Record<string, readonly string[]>>) {
    super();
  }
  get size(): number {
    return Object.keys(this.data).length;
  }
  get(key: Value): Value | undefined {
    if (typeof key !== 'string' || !Object.prototype.hasOwnProperty.call(this.data, key)) return undefined;
    return new ArrayList(this.data[key]!);
  }
  keys(): Iterable<string> {
    return Object.keys(this.data);
  }
}

/** The `user` variable: every field present, as upstream's lazy map declares all four. */
export class UserInfoValue extends ObjectValue {
  readonly typeName = USER_INFO_TYPE;
  constructor(private readonly user: UserInfo) {
    super();
  }
  field(name: string): Value | undefined {
    switch (name) {
      case 'username':
        return this.user.username;
      case 'uid':
        return this.user.uid ?? '';
      case 'groups':
        return new ArrayList(this.user.groups);
      case 'extra':
        return new StringListMap(this.user.extra ?? {});
      default:
        return undefined;
    }
  }
  fieldNames(): Iterable<string> {
    return ['username', 'uid', 'groups', 'extra'];
  }
}

/** The error `convertCELValueToStringList` gives. */
export const STRING_OR_LIST_ERROR = 'expression must return a string or a list of strings';

/** `convertCELValueToStringList`: a string, a list of strings (empty ones dropped) or null; undefined when empty. */
export function celStringList(value: Value): string[] | undefined | { readonly error: string } {
  if (typeof value === 'string') return value === '' ? undefined : [value];
  if (value === null) return undefined;
  if (value instanceof ListValue) {
    const out: string[] = [];
    for (const v of value) {
      if (typeof v !== 'string') return { error: STRING_OR_LIST_ERROR };
      if (v !== '') out.push(v);
    }
    return out.length ? out : undefined;
  }
  return { error: STRING_OR_LIST_ERROR };
}
