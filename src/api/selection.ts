/**
 * Turning list options into a predicate over stored objects: label and field selectors, with the
 * kind's selectable fields. Bad selectors are 400 BadRequest as Kubernetes answers them.
 */
import type { KubeObject } from '../schema/define-kind.js';
import type { ResolvedKind } from '../schema/registry.js';
import {
  fieldLabelNotSupportedMessage,
  parseFieldSelector,
  unknownFieldSelectorMessage,
  SelectorParseError as FieldParseError,
  type FieldSelector,
} from '../selectors/field-selector.js';
import { parseLabelSelector, SelectorParseError as LabelParseError } from '../selectors/label-selector.js';
import { parseShardSelector, ShardSelectorParseError, type ShardSelector } from '../selectors/shard-selector.js';
import { badRequest } from '../machinery/errors.js';
import type { LabelPair } from '../storage/storage.js';
import type { ListOptions } from '../machinery/request.js';

/** A compiled selection: `matches` answers for one object; `all` is true when nothing is filtered. */
export interface Selection {
  readonly all: boolean;
  /** True when the selection filters on labels or fields (Kubernetes then omits remainingItemCount). */
  readonly filtered: boolean;
  /** The name a field selector pins (`metadata.name=x`), for single-object watches. */
  readonly exactName?: string;
  /** The namespace a field selector pins (`metadata.namespace=x`). */
  readonly exactNamespace?: string;
  /**
   * A field other than the name and namespace that the field selector pins (`spec.nodeName=n1`),
   * with how to read it: only an object with that value can match (for the watch hub's index).
   */
  readonly exactField?: { readonly field: string; readonly value: string; read(obj: Readonly<KubeObject>): string };
  /** The `key=value` labels every matching object carries (for a storage's label index). */
  readonly requiredLabels: readonly LabelPair[];
  matches(obj: Readonly<KubeObject>): boolean;
}

type Getter = (obj: Readonly<KubeObject>) => string | undefined;

/** The value of a field selector's field on an object, or undefined when the kind does not select on it. */
function fieldGetter(kind: ResolvedKind, field: string): Getter | undefined {
  const def = kind.definition;
  if (field === 'metadata.name' || field === 'metadata.namespace') {
    const allowed = def.selectableFields ? (def.metadataFieldSelectors ?? ['metadata.name', 'metadata.namespace']) : ['metadata.name', 'metadata.namespace'];
    if (!allowed.includes(field)) return undefined;
    return field === 'metadata.name' ? (o) => o.metadata?.name : (o) => (kind.namespaced ? o.metadata?.namespace : '');
  }
  return def.selectableFields?.[field] as Getter | undefined;
}

/** The first `field=value` requirement of a field other than the name and namespace, with its reader. */
function exactFieldOf(fields: FieldSelector, getters: ReadonlyMap<string, Getter>): Selection['exactField'] {
  for (const [field, getter] of getters) {
    if (field === 'metadata.name' || field === 'metadata.namespace') continue;
    const value = fields.exactValue(field);
    if (value !== undefined) return { field, value, read: readerOf(getter) };
  }
  return undefined;
}

/** A getter as `matches` reads a field (an unset one is ''), one function per getter. */
const readers = new WeakMap<Getter, (obj: Readonly<KubeObject>) => string>();

function readerOf(getter: Getter): (obj: Readonly<KubeObject>) => string {
  let read = readers.get(getter);
  if (!read) readers.set(getter, (read = (obj) => getter(obj) ?? ''));
  return read;
}

/**
 * Compiles the selectors of `options` for `kind`; throws 400 on a bad or unsupported selector.
 * The shard selector counts only when the ShardedListAndWatch gate is on (`shardSelectors`).
 */
export function compileSelection(kind: ResolvedKind, options: ListOptions | undefined, shardSelectors = true): Selection {
  let labels;
  let fields;
  try {
    labels = parseLabelSelector(options?.labelSelector ?? '');
  } catch (e) {
    if (e instanceof LabelParseError) throw badRequest(e.message);
    throw e;
  }
  try {
    fields = parseFieldSelector(options?.fieldSelector ?? '');
  } catch (e) {
    if (e instanceof FieldParseError) throw badRequest(e.message);
    throw e;
  }
  let shards: ShardSelector | undefined;
  if (shardSelectors && options?.shardSelector) {
    try {
      shards = parseShardSelector(options.shardSelector);
    } catch (e) {
      if (e instanceof ShardSelectorParseError) throw badRequest(e.message);
      throw e;
    }
    if (shards.empty()) shards = undefined;
  }
  const getters = new Map<string, Getter>();
  for (const r of fields.requirements) {
    const g = fieldGetter(kind, r.field);
    if (!g) {
      const def = kind.definition;
      if (!def.selectableFields) throw badRequest(unknownFieldSelectorMessage(r.field));
      throw badRequest(def.unsupportedFieldLabelMessage ? def.unsupportedFieldLabelMessage(r.field) : fieldLabelNotSupportedMessage(r.field));
    }
    getters.set(r.field, g);
  }
  const labelsAll = labels.empty();
  const fieldsAll = fields.empty();
  const fieldSel = fields;
  const labelSel = labels;
  const all = labelsAll && fieldsAll && !shards;
  return {
    all,
    filtered: !all,
    exactName: getters.has('metadata.name') ? fieldSel.exactValue('metadata.name') : undefined,
    exactNamespace: getters.has('metadata.namespace') && kind.namespaced ? fieldSel.exactValue('metadata.namespace') : undefined,
    exactField: exactFieldOf(fieldSel, getters),
    requiredLabels: labels.requirements.flatMap((r) =>
      r.operator === '=' || r.operator === '==' || (r.operator === 'in' && r.values.length === 1) ? [{ key: r.key, value: r.values[0]! }] : [],
    ),
    matches(obj) {
      if (!labelsAll && !labelSel.matches(obj.metadata?.labels)) return false;
      if (!fieldsAll && !fieldSel.matches((f) => getters.get(f)?.(obj) ?? '')) return false;
      if (shards && !shards.matches(obj)) return false;
      return true;
    },
  };
}
