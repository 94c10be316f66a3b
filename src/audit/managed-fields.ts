/**
 * An object recorded without `metadata.managedFields` (`copyWithoutManagedFields` of k8s.io/apiserver
 * `pkg/audit/request.go`): an object, each item of a list, each row object of a Table. Only the
 * parts on the way to the dropped field are copied; the rest is shared, never changed.
 */

type JsonObject = Record<string, unknown>;

function isObject(value: unknown): value is JsonObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** The object without its managedFields, or the object itself when it has none. */
function withoutOwnManagedFields(obj: JsonObject): JsonObject {
  const meta = obj['metadata'];
  if (!isObject(meta) || !('managedFields' in meta)) return obj;
  const { managedFields: _dropped, ...rest } = meta;
  return { ...obj, metadata: rest };
}

/** `value` as recorded when managed fields are omitted. */
export function withoutManagedFields(value: unknown): unknown {
  if (!isObject(value)) return value;
  let out = withoutOwnManagedFields(value);
  const items = out['items'];
  if (Array.isArray(items)) out = { ...out, items: items.map((item) => (isObject(item) ? withoutOwnManagedFields(item) : item)) };
  const rows = out['rows'];
  if (out['kind'] === 'Table' && Array.isArray(rows)) {
    out = {
      ...out,
      rows: rows.map((row) => (isObject(row) && isObject(row['object']) ? { ...row, object: withoutOwnManagedFields(row['object']) } : row)),
    };
  }
  return out;
}
