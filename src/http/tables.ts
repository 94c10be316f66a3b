/**
 * `meta.k8s.io/v1` Table answers (`kubectl get`): a Name column, the kind's printer columns, and
 * Age, with a `PartialObjectMetadata` (or the whole object) per row; and the
 * PartialObjectMetadata(List) form of get and list.
 */
import type { KindDefinition, KubeObject, PrinterColumn } from '../schema/define-kind.js';
import { storedFormOf, type ResolvedKind } from '../schema/registry.js';
import type { IncludeObject } from './query.js';
import { humanDuration } from '../util/human-duration.js';

export { humanDuration };

const NAME_DESCRIPTION =
  'Name must be unique within a namespace. Is required when creating resources, although some resources may allow a client to request the generation of an appropriate name automatically. Name is primarily intended for creation idempotence and configuration definition. Cannot be updated. More info: https://kubernetes.io/docs/concepts/overview/working-with-objects/names#names';
const AGE_DESCRIPTION =
  'CreationTimestamp is a timestamp representing the server time when this object was created. It is not guaranteed to be set in happens-before order across separate operations. Clients may not set this value. It is represented in RFC3339 form and is in UTC.\n\nPopulated by the system. Read-only. Null for lists. More info: https://git.k8s.io/community/contributors/devel/sig-architecture/api-conventions.md#metadata';

const AGE: PrinterColumn = { name: 'Age', type: 'date', description: AGE_DESCRIPTION, value: (o) => o.metadata?.creationTimestamp };

/**
 * The second column of Kubernetes' default table convertor (`rest.NewDefaultTableConvertor`): a
 * `date` column whose cell is the creation time in RFC 3339, UTC (the stored form), not an age.
 */
const CREATED_AT: PrinterColumn = { name: 'Created At', type: 'string', description: AGE_DESCRIPTION, value: (o) => o.metadata?.creationTimestamp };

const NAME_CELL = (o: KubeObject) => o.metadata?.name;
const NAME: PrinterColumn = { name: 'Name', type: 'string', format: 'name', description: NAME_DESCRIPTION, value: NAME_CELL };

/**
 * The columns of a kind's table: Name (its cell from a declared `Name` column, if any), the other
 * declared columns, Age unless declared or the kind prints none (`ageColumn: false`); or Kubernetes'
 * default table (`defaultTable`): Name and Created At.
 */
export function columnsOf(definition: KindDefinition): PrinterColumn[] {
  if (definition.defaultTable) return [NAME, CREATED_AT];
  const all = (definition.printerColumns ?? []) as readonly PrinterColumn[];
  const nameCell = all.find((c) => c.name === 'Name')?.value;
  const declared = all.filter((c) => c.name !== 'Name');
  const cols: PrinterColumn[] = [nameCell ? { ...NAME, value: nameCell } : NAME, ...declared];
  if (definition.ageColumn !== false && !declared.some((c) => c.name === 'Age')) cols.push(AGE);
  return cols;
}

function cell(col: PrinterColumn, obj: KubeObject, now: number): unknown {
  let v: unknown;
  try {
    v = col.value(obj, now);
  } catch {
    v = undefined;
  }
  if (col.exactCell) return v ?? null;
  if (col.type === 'date') {
    if (typeof v !== 'string' || !v) return '<unknown>';
    const t = Date.parse(v);
    return Number.isNaN(t) ? '<unknown>' : humanDuration(now - t);
  }
  if (v === undefined || v === null) return col.type === 'string' ? '<none>' : null;
  return v;
}

function partialMetadata(obj: KubeObject): KubeObject {
  return { kind: 'PartialObjectMetadata', apiVersion: 'meta.k8s.io/v1', metadata: obj.metadata ?? {} };
}

interface ListBody {
  kind?: string;
  apiVersion?: string;
  metadata?: Record<string, unknown>;
  items?: KubeObject[];
}

function isList(body: unknown): body is ListBody {
  return typeof body === 'object' && body !== null && Array.isArray((body as ListBody).items);
}

function withKind(kind: ResolvedKind, version: string, obj: KubeObject): KubeObject {
  return { apiVersion: kind.group ? `${kind.group}/${version}` : version, kind: kind.definition.kind, ...obj };
}

/** A list's objects in the order the kind's printer shows them. */
function inRowOrder(kind: ResolvedKind, objects: KubeObject[]): KubeObject[] {
  const order = kind.definition.tableRowOrder;
  if (!order || objects.length < 2) return objects;
  return [...objects].sort((a, b) => order(storedFormOf(a) ?? a, storedFormOf(b) ?? b));
}

/** The Table of a get (one object) or list answer. */
export function toTable(kind: ResolvedKind, version: string, body: unknown, includeObject: IncludeObject, now: number, tableVersion = 'v1'): unknown {
  const cols = columnsOf(kind.definition);
  const objects = isList(body) ? inRowOrder(kind, body.items ?? []) : [body as KubeObject];
  const metadata: Record<string, unknown> = {};
  if (isList(body)) {
    for (const k of ['resourceVersion', 'continue', 'remainingItemCount']) if (body.metadata?.[k] !== undefined) metadata[k] = body.metadata[k];
  } else if ((body as KubeObject).metadata?.resourceVersion) {
    metadata.resourceVersion = (body as KubeObject).metadata!.resourceVersion;
  }
  return {
    kind: 'Table',
    apiVersion: `meta.k8s.io/${tableVersion}`,
    metadata,
    columnDefinitions: cols.map((c) => ({
      name: c.name,
      // A built-in kind's age column prints as a string; a custom resource's date column says date.
      type: c === CREATED_AT ? 'date' : c.type === 'date' && !c.exactCell ? 'string' : c.type,
      format: c.format ?? '',
      description: c.description ?? '',
      priority: c.priority ?? 0,
    })),
    rows: objects.map((o) => {
      // Cells come from the stored object, as Kubernetes prints the internal object whatever version was asked for.
      const source = storedFormOf(o) ?? o;
      const row: Record<string, unknown> = { cells: cols.map((c) => cell(c, source, now)) };
      if (includeObject === 'Metadata') row.object = partialMetadata(o);
      else if (includeObject === 'Object') row.object = withKind(kind, version, o);
      return row;
    }),
  };
}

/** The PartialObjectMetadata (get) or PartialObjectMetadataList (list) form of an answer. */
export function toPartialMetadata(body: unknown, metaVersion = 'v1'): unknown {
  const apiVersion = `meta.k8s.io/${metaVersion}`;
  if (isList(body)) {
    return {
      kind: 'PartialObjectMetadataList',
      apiVersion,
      metadata: body.metadata ?? {},
      items: (body.items ?? []).map((o) => ({ ...partialMetadata(o), apiVersion })),
    };
  }
  return { ...partialMetadata(body as KubeObject), apiVersion };
}
