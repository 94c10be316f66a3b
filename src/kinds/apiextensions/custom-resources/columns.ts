/**
 * A custom resource's `kubectl get` columns and field selectors, from its definition's
 * `additionalPrinterColumns` and `selectableFields` (JSONPath), as apiextensions-apiserver computes
 * them: pkg/registry/customresource/tableconvertor (`New`, `cellForJSONValue`) and the strategy's
 * `selectableFields`.
 */
import type { KubeObject, PrinterColumn } from '../../../schema/define-kind.js';
import { goKind } from '../../../util/go-value.js';
import { humanDuration } from '../../../util/human-duration.js';
import { parseJsonPath, printJsonPathValue, sprintJsonPathValue, type JsonPath } from '../../../util/jsonpath/index.js';
import type { CustomResourceColumnDefinition, SelectableField } from '../../types/apiextensions-v1.js';

const CREATION_TIMESTAMP_DOC =
  'CreationTimestamp is a timestamp representing the server time when this object was created. It is not guaranteed to be set in happens-before order across separate operations. Clients may not set this value. It is represented in RFC3339 form and is in UTC.\n\nPopulated by the system. Read-only. Null for lists. More info: https://git.k8s.io/community/contributors/devel/sig-architecture/api-conventions.md#metadata';

/** The column a definition without columns prints (customresource_handler.go `serveDefaultColumnsIfEmpty`). */
const DEFAULT_COLUMNS: readonly CustomResourceColumnDefinition[] = [
  { name: 'Age', type: 'date', description: CREATION_TIMESTAMP_DOC, jsonPath: '.metadata.creationTimestamp' },
];

/** Bounds a hostile path's work per cell (a column runs on every row of every Table). */
const CELL_STEPS = 100_000;

const RFC3339 = /^\d{4}-\d{2}-\d{2}[Tt]\d{2}:\d{2}:\d{2}(\.\d+)?([Zz]|[+-]\d{2}:\d{2})$/;

/** `cellForJSONValue`: the cell of a found value for a column of `type`; null when it does not fit. */
function cellOf(type: string, value: unknown, now: number): unknown {
  if (value === null || value === undefined) return null;
  switch (type) {
    case 'integer':
      if (typeof value !== 'number') return null;
      return goKind(value) === 'int64' ? value : Math.trunc(value);
    case 'number':
      return typeof value === 'number' ? value : null;
    case 'boolean':
      return typeof value === 'boolean' ? value : null;
    case 'string':
      return typeof value === 'string' ? value : null;
    case 'date': {
      if (typeof value !== 'string') return null;
      // metav1.Time's UnmarshalQueryParameter: empty is the zero time, anything but RFC 3339 fails.
      if (value === '') return '<unknown>';
      const t = RFC3339.test(value) ? Date.parse(value) : Number.NaN;
      return Number.isNaN(t) ? '<invalid>' : humanDuration(now - t);
    }
    default:
      return null;
  }
}

function columnOf(col: CustomResourceColumnDefinition, path: JsonPath): PrinterColumn {
  return {
    name: col.name,
    type: col.type as PrinterColumn['type'],
    ...(col.format ? { format: col.format } : {}),
    description: col.description || `Custom resource definition column (in JSONPath format): ${col.jsonPath}`,
    priority: col.priority ?? 0,
    exactCell: true,
    value: (obj: Readonly<KubeObject>, now: number) => {
      let results;
      try {
        results = path.findResults(obj, { allowMissingKeys: true, maxSteps: CELL_STEPS });
      } catch {
        return null;
      }
      if (results.length === 0 || results[0]!.length === 0) return null;
      const value = results[0]![0];
      if (col.type === 'string') {
        try {
          return printJsonPathValue(value);
        } catch {
          return null;
        }
      }
      return cellOf(col.type, value, now) as string | number | boolean | null;
    },
  };
}

/**
 * The Table columns after Name, or undefined when a path does not parse: Kubernetes then falls
 * back to its default table (Name, Created At) for the kind.
 */
export function printerColumnsOf(columns: readonly CustomResourceColumnDefinition[] | undefined): PrinterColumn[] | undefined {
  const declared = columns?.length ? columns : DEFAULT_COLUMNS;
  const out: PrinterColumn[] = [];
  for (const col of declared) {
    let path: JsonPath;
    try {
      path = parseJsonPath(`{${col.jsonPath}}`, col.name);
    } catch {
      return undefined;
    }
    out.push(columnOf(col, path));
  }
  return out;
}

/**
 * The field selectors of the declared selectable fields (named by the path without its leading
 * `.`): the value `fmt.Sprint` prints, `''` when absent. A path that does not parse, or finds more
 * than one value, makes every list with a field selector fail, as upstream's strategy does.
 */
export function selectableFieldsOf(fields: readonly SelectableField[] | undefined): Record<string, (obj: Readonly<KubeObject>) => string> {
  const out: Record<string, (obj: Readonly<KubeObject>) => string> = {};
  for (const sf of fields ?? []) {
    const name = sf.jsonPath.replace(/^\./, '');
    let path: JsonPath | undefined;
    let parseError: unknown;
    try {
      path = parseJsonPath(`{${sf.jsonPath}}`, 'selectableField');
    } catch (e) {
      parseError = e;
    }
    out[name] = (obj) => {
      if (!path) throw new Error(`unexpected error parsing jsonPath: ${String((parseError as Error).message)}`);
      const results = path.findResults(obj, { allowMissingKeys: true, maxSteps: CELL_STEPS });
      if (results.length === 0 || results[0]!.length === 0) return '';
      if (results.length > 1 || results[0]!.length > 1) throw new Error('unexpectedly received more than one JSON path result');
      const value = results[0]![0];
      return value === null || value === undefined ? '' : sprintJsonPathValue(value);
    };
  }
  return out;
}
