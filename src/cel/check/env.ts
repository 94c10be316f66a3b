/**
 * What the checker knows: variables, functions and object types (cel-go checker.Env with an
 * empty container, as Kubernetes uses it).
 */
import type { FunctionTable } from '../functions/declarations.js';
import {
  BOOL,
  BYTES,
  CelType,
  DOUBLE,
  DURATION,
  DYN,
  INT,
  NULL,
  STRING,
  TIMESTAMP,
  TYPE,
  UINT,
  listType,
  mapType,
  optionalType,
  typeOfType,
} from '../types/types.js';

/** A declared variable (or type name) and its type. */
export interface IdentDecl {
  readonly name: string;
  readonly type: CelType;
}

/** The object types the checker may select fields from. */
export interface TypeProvider {
  /** True when `name` is a declared object type. */
  hasStructType(name: string): boolean;
  /** The type of `field` of object type `name`, or undefined when the type has no such field. */
  fieldType(name: string, field: string): CelType | undefined;
}

/** Type names usable as values (`type(x) == int`), as cel-go declares them. */
const TYPE_IDENTS: IdentDecl[] = [
  { name: 'bool', type: typeOfType(BOOL) },
  { name: 'bytes', type: typeOfType(BYTES) },
  { name: 'double', type: typeOfType(DOUBLE) },
  { name: 'google.protobuf.Duration', type: typeOfType(DURATION) },
  { name: 'google.protobuf.Timestamp', type: typeOfType(TIMESTAMP) },
  { name: 'int', type: typeOfType(INT) },
  { name: 'list', type: typeOfType(listType(DYN)) },
  { name: 'map', type: typeOfType(mapType(DYN, DYN)) },
  { name: 'null_type', type: typeOfType(NULL) },
  { name: 'string', type: typeOfType(STRING) },
  { name: 'type', type: typeOfType(TYPE) },
  { name: 'uint', type: typeOfType(UINT) },
  { name: 'optional_type', type: typeOfType(optionalType(DYN)) },
];

/** The checker's environment. */
export class CheckerEnv {
  private readonly idents = new Map<string, IdentDecl>();

  constructor(
    readonly functions: FunctionTable,
    readonly types: TypeProvider,
    variables: readonly IdentDecl[],
  ) {
    for (const d of TYPE_IDENTS) this.idents.set(d.name, d);
    for (const v of variables) this.idents.set(v.name, v);
  }

  /** A variable or type name; a leading `.` names the root scope. */
  lookupIdent(name: string): IdentDecl | undefined {
    return this.idents.get(name.startsWith('.') ? name.slice(1) : name);
  }
}
