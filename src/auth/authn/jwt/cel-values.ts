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
import { isFloatLiteral, rawTextOf } from '../../../util/json-raw.js';

/** A JSON value as CEL sees it; numbers inside objects and lists are read by {@link numberToCel}. */
export function jsonToCel(value: unknown): Value {
  if (value === null || value === undefined) return null;
  if (typeof value === 'bigint' || typeof value === 'number' || typeof value === 'string' || typeof value === 'boolean') return value;
  if (Array.isArray(value)) return new JsonList(value);
  return new JsonMap(value as Record<string, unknown>);
}

/**
 * A claim's number as CEL sees it upstream: the unstructured converter decodes claims with
 * `UseNumber` and keeps a number as int64 when `json.Number.Int64` reads its literal (`1`, not
 * `1.0`, `1e3` or beyond int64), else as float64. The literal is the raw text the JSON decoder
 * recorded beside the value, or the number's own spelling when it recorded none.
 */
function numberToCel(holder: object, slot: string | number, n: number): Value {
  const literal = rawTextOf(holder, slot, n) ?? JSON.stringify(n);
  return isFloatLiteral(literal) ? n : BigInt(literal);
}

/** A member of a JSON holder as CEL sees it. */
function memberToCel(holder: object, slot: string | number, value: unknown): Value {
  return typeof value === 'number' ? numberToCel(holder, slot, value) : jsonToCel(value);
}

class JsonList extends ListValue {
  constructor(private readonly data: readonly unknown[]) {
    super();
  }
  get size(): number {
    return this.data.length;
  }
  get(i: number): Value {
    return memberToCel(this.data, i, this.data[i]);
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
    return memberToCel(this.data, name, this.data[name]);
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
