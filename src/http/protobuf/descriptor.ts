/**
 * The shape of the generated message descriptors (`descriptors.generated.ts`).
 */

/** Field flags (bits). */
export const F_REPEATED = 1;
/** `map<string, V>`: repeated entries `{key = 1, value = 2}`. */
export const F_MAP = 2;
/** The Go field is an embedded struct inlined into its parent's JSON (`json:",inline"`). */
export const F_INLINE = 4;
/** A non-pointer Go field tagged `omitempty`: a zero scalar (or empty list) is left out of the JSON. */
export const F_OMITEMPTY = 8;
/** Tagged `omitzero`: a zero value (e.g. a zero Time) is left out. */
export const F_OMITZERO = 16;
/** A pointer Go field: present when on the wire, whatever its value. */
export const F_POINTER = 32;

/**
 * One field: `[number, JSON name, type, flags]`. The type is a protobuf scalar type (`string`,
 * `int32`, `bytes`, ...) or a message's short name (`core.v1.PodSpec`); for a map, the value's type.
 */
export type FieldDescriptor = readonly [number, string, string, number];

export interface MessageDescriptor {
  /** A list wrapper (`+protobuf.nullable=true`, one `items` field): its JSON is the array. */
  readonly list: boolean;
  readonly fields: readonly FieldDescriptor[];
}
