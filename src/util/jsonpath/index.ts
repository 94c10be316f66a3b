/**
 * Kubernetes' JSONPath templates (k8s.io/client-go/util/jsonpath), on decoded JSON values: what
 * `kubectl -o jsonpath`, a CustomResourceDefinition's `additionalPrinterColumns` and its
 * `selectableFields` evaluate. Parsing, evaluation and printing follow client-go's, errors word
 * for word. Knows nothing of Kubernetes objects.
 *
 * ```ts
 * const path = parseJsonPath('{.status.conditions[?(@.type=="Ready")].status}');
 * path.findResults(obj, { allowMissingKeys: true }); // [['True']]
 * path.execute(obj); // 'True'
 * ```
 */
import type { ListNode } from './ast.js';
import { JsonPathError } from './errors.js';
import { findResults } from './evaluate.js';
import { parseTemplate } from './parser.js';
import { printFound } from './print.js';
import { GoNumber, sprintValue } from './values.js';

export type * from './ast.js';
export { JsonPathError } from './errors.js';
export { GoNumber } from './values.js';
export { goMarshal } from './print.js';

/**
 * A value a JSONPath found: a value of the data (by reference, not a copy: an object, an array,
 * a string, a number, a boolean, `null` for a null member or item), a literal of the template
 * (a string, a boolean, a {@link GoNumber} for a number), a {@link GoNumber} `uint8` for a byte of
 * a string (`.*` and `..` look inside strings), or `undefined` where client-go holds the zero
 * `reflect.Value` (the data itself when it is nil, and what a range over a nil item sees).
 */
export type JsonPathValue = unknown;

/** Default of {@link JsonPathOptions.maxSteps}. */
export const DEFAULT_MAX_STEPS = 10_000_000;
/** Default of {@link JsonPathOptions.maxOutputLength}. */
export const DEFAULT_MAX_OUTPUT_LENGTH = 64 * 1024 * 1024;

/** How one evaluation runs. */
export interface JsonPathOptions {
  /**
   * client-go's `AllowMissingKeys`: when true, a field no input value has yields no value; when
   * false (the default, as in client-go) it fails with `<name> is not found`. Kubernetes' CRD
   * printer columns and selectable fields, and kubectl, allow missing keys.
   */
  allowMissingKeys?: boolean;
  /**
   * The most steps (nodes walked plus values produced) one evaluation may take before it fails
   * with a {@link JsonPathError} (`jsonpath: evaluation exceeds N steps`): a hostile template can
   * make client-go's evaluation exponential. Defaults to {@link DEFAULT_MAX_STEPS}.
   */
  maxSteps?: number;
  /**
   * The longest text {@link JsonPath.execute} writes before it fails with a {@link JsonPathError}
   * (`jsonpath: output exceeds N characters`). Defaults to {@link DEFAULT_MAX_OUTPUT_LENGTH}.
   */
  maxOutputLength?: number;
}

/** A parsed JSONPath template; immutable, so one instance can serve every evaluation. */
export class JsonPath {
  /** @internal Use {@link parseJsonPath}. */
  constructor(
    /** The name client-go's `jsonpath.New` takes (it names the template in no message we produce). */
    readonly name: string,
    /** The template as written. */
    readonly template: string,
    /** The parse tree: text and action lists, as client-go's `Parser.Root`. */
    readonly root: ListNode,
  ) {}

  /**
   * client-go's `FindResults`: one list of values per piece of the template (each text between
   * actions, each action, and each of those again per value of a `range`), in order. A path
   * that matches nothing under `allowMissingKeys` gives an empty list, not a missing one.
   * Throws {@link JsonPathError} with client-go's message (`spec is not found`, `array index out
   * of bounds: index 3, length 2`, ...), or a `GoPanic` (util/go-value.ts) where client-go
   * panics (indexing or ranging over no value).
   */
  findResults(data: unknown, options: JsonPathOptions = {}): JsonPathValue[][] {
    return findResults(this.root, data, {
      allowMissingKeys: options.allowMissingKeys ?? false,
      maxSteps: options.maxSteps ?? DEFAULT_MAX_STEPS,
    });
  }

  /**
   * client-go's `Execute`: {@link findResults}, then each list as {@link printJsonPathResults}
   * writes it, concatenated (text between actions comes out as written).
   */
  execute(data: unknown, options: JsonPathOptions = {}): string {
    const max = options.maxOutputLength ?? DEFAULT_MAX_OUTPUT_LENGTH;
    let out = '';
    for (const list of this.findResults(data, options)) {
      for (let i = 0; i < list.length; i++) {
        if (i > 0) out += ' ';
        out += printFound(list[i]);
        if (out.length > max) throw new JsonPathError(`jsonpath: output exceeds ${max} characters`);
      }
    }
    return out;
  }
}

/**
 * Parses a JSONPath template as client-go's `JSONPath.Parse` does: text with `{...}` actions
 * (Kubernetes wraps a CRD's `jsonPath` as `{` + path + `}`). Throws {@link JsonPathError} with
 * client-go's message (`unclosed action`, `unrecognized character in action: U+0021 '!'`,
 * `invalid array index x`, `unterminated filter`, ...). Any input fails or parses in time linear
 * in its length and constant stack.
 */
export function parseJsonPath(template: string, name = ''): JsonPath {
  return new JsonPath(name, template, parseTemplate(template));
}

/**
 * client-go's `PrintResults` of one result list: the values separated by one space, maps and
 * slices as `json.Marshal` writes them (keys sorted), strings raw, numbers as `fmt` prints an
 * int64 or float64 (`1`, `1.5`, `1e+21`), `true`/`false`, a null member as `null`, no value
 * (`undefined`) as `<no value>`.
 */
export function printJsonPathResults(values: readonly JsonPathValue[]): string {
  let out = '';
  for (let i = 0; i < values.length; i++) {
    if (i > 0) out += ' ';
    out += printFound(values[i]);
  }
  return out;
}

/**
 * A found value printed as Kubernetes' CRD table convertor prints a `string` column:
 * `PrintResults` of `reflect.ValueOf(value)`, where a nil is no value at all, so `null` (and
 * `undefined`) print `<no value>`; otherwise as {@link printJsonPathResults}.
 */
export function printJsonPathValue(value: JsonPathValue): string {
  return printFound(value === null ? undefined : value);
}

/**
 * `fmt.Sprint` of a found value, as Kubernetes' custom resource strategy turns a selectable
 * field's value into a field-selector value: `%v` (`map[a:1]`, `[x y]`, `<nil>`, `1e+21`).
 */
export function sprintJsonPathValue(value: JsonPathValue): string {
  return value instanceof GoNumber ? value.toString() : sprintValue(value);
}
