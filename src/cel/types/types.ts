/**
 * CEL types as the checker sees them (cel-go common/types.Type): a kind, a name and type
 * parameters. Named after cel-go's kinds so the checker's rules read like their source.
 */

/** The kinds of CEL type. */
export type Kind =
  | 'any'
  | 'bool'
  | 'bytes'
  | 'double'
  | 'duration'
  | 'dyn'
  | 'error'
  | 'int'
  | 'list'
  | 'map'
  | 'null'
  | 'opaque'
  | 'string'
  | 'struct'
  | 'timestamp'
  | 'type'
  | 'typeparam'
  | 'uint';

/** A CEL type. Compare with `isExactType`, not `===`. */
export class CelType {
  constructor(
    readonly kind: Kind,
    /** The type name: `int`, `list`, `google.protobuf.Duration`, a struct's or opaque type's name, a type parameter's name. */
    readonly name: string,
    readonly params: readonly CelType[] = [],
  ) {}

  /** cel-go's FormatCELType: how error messages print the type (`list(int)`, `map(string, dyn)`). */
  toString(): string {
    return formatType(this);
  }
}

/** The dynamic type. */
export const DYN = new CelType('dyn', 'dyn');
/** google.protobuf.Any. */
export const ANY = new CelType('any', 'google.protobuf.Any');
/** bool. */
export const BOOL = new CelType('bool', 'bool');
/** bytes. */
export const BYTES = new CelType('bytes', 'bytes');
/** double. */
export const DOUBLE = new CelType('double', 'double');
/** duration (google.protobuf.Duration). */
export const DURATION = new CelType('duration', 'google.protobuf.Duration');
/** The type of an expression that failed to check. */
export const ERROR = new CelType('error', '*error*');
/** int. */
export const INT = new CelType('int', 'int');
/** null_type. */
export const NULL = new CelType('null', 'null_type');
/** string. */
export const STRING = new CelType('string', 'string');
/** timestamp (google.protobuf.Timestamp). */
export const TIMESTAMP = new CelType('timestamp', 'google.protobuf.Timestamp');
/** uint. */
export const UINT = new CelType('uint', 'uint');
/** The type of types, without a parameter (`type`). */
export const TYPE = new CelType('type', 'type');

/** `list(elem)`. */
export function listType(elem: CelType): CelType {
  return new CelType('list', 'list', [elem]);
}

/** `map(key, value)`. */
export function mapType(key: CelType, value: CelType): CelType {
  return new CelType('map', 'map', [key, value]);
}

/** `optional_type(param)`. */
export function optionalType(param: CelType): CelType {
  return new CelType('opaque', 'optional_type', [param]);
}

/** `type(param)`: the type of the type value `param`. */
export function typeOfType(param: CelType): CelType {
  return new CelType('type', 'type', [param]);
}

/** A type parameter (`T`, `K`, `_var0`). */
export function typeParam(name: string): CelType {
  return new CelType('typeparam', name);
}

/** A named object type (a schema object, `kubernetes.Quantity`). */
export function structType(name: string): CelType {
  return new CelType('struct', name);
}

/** An opaque named type with parameters (`net.IP`, `optional_type`). */
export function opaqueType(name: string, ...params: CelType[]): CelType {
  return new CelType('opaque', name, params);
}

/** The opaque function type the checker uses to substitute an overload's signature at once. */
export function functionType(result: CelType, args: readonly CelType[]): CelType {
  return new CelType('opaque', 'function', [result, ...args]);
}

/** True when `t` is `optional_type(...)`. */
export function isOptional(t: CelType): boolean {
  return t.kind === 'opaque' && t.name === 'optional_type';
}

/** cel-go's Type.IsExactType. */
export function isExactType(a: CelType, b: CelType): boolean {
  if (a === b) return true;
  if (a.kind !== b.kind || a.name !== b.name || a.params.length !== b.params.length) return false;
  for (let i = 0; i < a.params.length; i++) if (!isExactType(a.params[i]!, b.params[i]!)) return false;
  return true;
}

/** cel-go's Type.IsAssignableType: can a value of `from` be used where `to` is declared. */
export function isAssignableType(to: CelType, from: CelType): boolean {
  if (to === from || to.kind === 'dyn') return true;
  if (to.kind !== from.kind || to.name !== from.name || to.params.length !== from.params.length) return false;
  for (let i = 0; i < to.params.length; i++) if (!isAssignableType(to.params[i]!, from.params[i]!)) return false;
  return true;
}

/** cel-go's FormatCELType. */
export function formatType(t: CelType): string {
  switch (t.kind) {
    case 'any':
      return 'any';
    case 'duration':
      return 'duration';
    case 'error':
      return '!error!';
    case 'null':
      return 'null';
    case 'timestamp':
      return 'timestamp';
    case 'typeparam':
      return t.name;
    case 'opaque':
      if (t.name === 'function') return formatFunction(t.params[0], t.params.slice(1), false);
      break;
    default:
      break;
  }
  if (t.params.length === 0) return t.name;
  return `${t.name}(${t.params.map(formatType).join(', ')})`;
}

/** A call signature as the checker prints it: `(int, string)`, `string.(int)`, with ` -> result` when given. */
export function formatFunction(result: CelType | undefined, args: readonly CelType[], isInstance: boolean): string {
  let out = '';
  let rest = args;
  if (isInstance && args.length > 0) {
    out += `${formatType(args[0]!)}.`;
    rest = args.slice(1);
  }
  out += `(${rest.map(formatType).join(', ')})`;
  if (result) {
    const rt = formatType(result);
    if (rt !== '') out += ` -> ${rt}`;
  }
  return out;
}
