/**
 * client-go's JSONPath evaluation (`JSONPath.FindResults` and its `eval*` steps) on decoded JSON,
 * step for step, quirks included, since what a Table cell or a field selector shows depends on
 * them:
 *
 * - every step returns its values and maybe an error, and on an error some steps return their
 *   input: an existence filter `[?(@.x)]` ignores errors and keeps an item whenever its path
 *   returned values, so `[?(@.name[0])]` keeps items whose `name` is a string;
 * - a slice that selects nothing (`[0:0]`) ends the step at once, dropping the other inputs;
 * - `range` and `end` are counters shared by the whole evaluation: a range runs the rest of the
 *   template for each value, and resumes after the last `end` it met;
 * - where client-go panics (indexing or ranging over the zero `reflect.Value`, the data of an
 *   empty range) a {@link GoPanic} is thrown.
 *
 * client-go keeps the range counters, and a range's rewrite of the parsed template, on the
 * JSONPath object across calls (a second call after a range starts mid-template); here each call
 * starts afresh, so one parsed path can serve every object and request.
 *
 * Hostile templates can make client-go do exponential work (nested unions, ranges and recursive
 * descents over a deep document); every step here is counted against a budget, and the
 * evaluation fails with a {@link JsonPathError} past it.
 */
import { GoPanic } from '../go-value.js';
import { getOwn, hasOwn } from '../own.js';
import type { ArrayNode, FilterNode, JsonPathNode, ListNode } from './ast.js';
import { JsonPathError } from './errors.js';
import { compare, formatReflectValue, GoNumber, kindOf, memberValue, sortedKeys, stringBytes, typeName } from './values.js';

/** A step's values, and client-go's error text when it failed. */
type Step = [values: unknown[], error?: string];

const NO_VALUE_TYPE = 'reflect: call of reflect.Value.Type on zero Value';
const NO_VALUE_INTERFACE = 'reflect: call of reflect.Value.Interface on zero Value';

/** What one evaluation shares: the options, the range counters, the work left. */
interface Evaluation {
  readonly allowMissingKeys: boolean;
  readonly maxSteps: number;
  stepsLeft: number;
  beginRange: number;
  inRange: number;
  endRange: number;
  /** The index (in the template's top level) of the last `end` a range met, -1 before any. */
  lastEnd: number;
}

/** Settings of one evaluation. */
export interface EvaluationSettings {
  allowMissingKeys: boolean;
  maxSteps: number;
}

function charge(ev: Evaluation, n: number): void {
  ev.stepsLeft -= n;
  if (ev.stepsLeft < 0) throw new JsonPathError(`jsonpath: evaluation exceeds ${ev.maxSteps} steps`);
}

/** The data a (sub-)evaluation starts from: a nil is the zero reflect.Value, as `reflect.ValueOf(nil)`. */
function rootOf(data: unknown): unknown {
  return data === null ? undefined : data;
}

interface Frame {
  /** Where this frame's nodes start in the template's top level (client-go re-roots the template at a range). */
  readonly offset: number;
  i: number;
  readonly data: unknown;
  readonly out: unknown[][];
  range?: { values: unknown[]; next: number; collect: boolean };
}

/**
 * client-go's `FindResults`: one result list per action (and per text), ranges expanded.
 * Throws {@link JsonPathError} with client-go's message, or {@link GoPanic}.
 */
export function findResults(template: ListNode, data: unknown, settings: EvaluationSettings): unknown[][] {
  const ev: Evaluation = {
    allowMissingKeys: settings.allowMissingKeys,
    maxSteps: settings.maxSteps,
    stepsLeft: settings.maxSteps,
    beginRange: 0,
    inRange: 0,
    endRange: 0,
    lastEnd: -1,
  };
  const nodes = template.nodes;
  // client-go's FindResults calls itself for each value of a range; frames keep the stack flat.
  const stack: Frame[] = [{ offset: 0, i: 0, data: rootOf(data), out: [] }];
  let returned: unknown[][] | undefined;
  for (;;) {
    const f = stack[stack.length - 1]!;
    const count = nodes.length - f.offset;
    charge(ev, 1);
    if (f.range) {
      if (returned !== undefined) {
        if (f.range.collect) for (const list of returned) f.out.push(list);
        returned = undefined;
      }
      if (f.range.next < f.range.values.length) {
        const value = f.range.values[f.range.next++];
        if (f.range.collect && value === undefined) throw new GoPanic(NO_VALUE_INTERFACE);
        stack.push({ offset: f.offset + f.i + 1, i: 0, data: f.range.collect ? rootOf(value) : undefined, out: [] });
        continue;
      }
      f.range = undefined;
      ev.inRange--;
      // Resume after the `end` the range met, if it is one of this frame's nodes.
      for (let k = f.i + 1; k < count; k++) {
        if (f.offset + k === ev.lastEnd) {
          f.i = k;
          break;
        }
      }
      f.i++;
      continue;
    }
    let done = f.i >= count;
    if (!done) {
      const [results, error] = walk(ev, [f.data], nodes[f.offset + f.i]!);
      if (error !== undefined) throw new JsonPathError(error);
      if (ev.endRange > 0 && ev.endRange <= ev.inRange) {
        ev.endRange--;
        ev.lastEnd = f.offset + f.i;
        done = true;
      } else if (ev.beginRange > 0) {
        ev.beginRange--;
        ev.inRange++;
        // An empty range still runs the rest of the template once (on no value), to find its end.
        f.range = results.length > 0 ? { values: results, next: 0, collect: true } : { values: [undefined], next: 0, collect: false };
        continue;
      } else {
        f.out.push(results);
        f.i++;
        continue;
      }
    }
    stack.pop();
    if (stack.length === 0) return f.out;
    returned = f.out;
  }
}

function walk(ev: Evaluation, input: unknown[], node: JsonPathNode): Step {
  charge(ev, 1);
  switch (node.type) {
    case 'list':
      return evalList(ev, input, node);
    case 'text':
      return [[node.text]];
    case 'field':
      return evalField(ev, input, node.name);
    case 'array':
      return evalArray(ev, input, node);
    case 'filter':
      return evalFilter(ev, input, node);
    case 'int':
      return literal(ev, input, new GoNumber('int', node.value));
    case 'float':
      return literal(ev, input, new GoNumber('float64', node.value));
    case 'bool':
      return literal(ev, input, node.value);
    case 'wildcard':
      return evalWildcard(ev, input);
    case 'recursive':
      return evalRecursive(ev, input);
    case 'union':
      return evalUnion(ev, input, node.nodes);
    case 'identifier':
      return evalIdentifier(ev, input, node.name);
  }
}

/** A literal stands in for each input value. */
function literal(ev: Evaluation, input: unknown[], value: unknown): Step {
  charge(ev, input.length);
  return [input.map(() => value)];
}

function evalList(ev: Evaluation, input: unknown[], list: ListNode): Step {
  let cur = input;
  for (const node of list.nodes) {
    const [values, error] = walk(ev, cur, node);
    if (error !== undefined) return [values, error];
    cur = values;
  }
  return [cur];
}

function evalIdentifier(ev: Evaluation, input: unknown[], name: string): Step {
  switch (name) {
    case 'range':
      ev.beginRange++;
      return [input];
    case 'end':
      if (ev.inRange > 0) {
        ev.endRange++;
        return [[]];
      }
      return [[], 'not in range, nothing to end'];
    default:
      return [input, `unrecognized identifier ${name}`];
  }
}

function evalField(ev: Evaluation, input: unknown[], name: string): Step {
  if (input.length === 0) return [[]];
  const results: unknown[] = [];
  for (const value of input) {
    if (kindOf(value) === 'map' && hasOwn(value as object, name)) results.push(memberValue(getOwn(value as object, name)));
  }
  charge(ev, results.length);
  if (results.length === 0) return ev.allowMissingKeys ? [results] : [results, `${name} is not found`];
  return [results];
}

function evalArray(ev: Evaluation, input: unknown[], node: ArrayNode): Step {
  const result: unknown[] = [];
  const [start, end, step] = node.params;
  for (const value of input) {
    const kind = kindOf(value);
    if (kind === 'nil') continue;
    if (kind === 'invalid') throw new GoPanic(NO_VALUE_TYPE);
    if (kind !== 'slice') return [input, `${typeName(value)} is not array or slice`];
    const items = value as unknown[];
    const length = BigInt(items.length);
    // Go's int arithmetic: 64 bits, wrapping.
    let from = start.known ? start.value : 0n;
    if (from < 0n) from = BigInt.asIntN(64, from + length);
    let to = end.known ? end.value : length;
    if (to < 0n || (to === 0n && end.derived)) to = BigInt.asIntN(64, to + length);
    if (to === from) return [result]; // nothing selected: client-go stops here, whatever inputs remain
    if (from >= length || from < 0n) return [input, `array index out of bounds: index ${from}, length ${length}`];
    if (to > length || to < 0n) return [input, `array index out of bounds: index ${BigInt.asIntN(64, to - 1n)}, length ${length}`];
    if (from > to) return [input, `starting index ${from} is greater than ending index ${to}`];
    let stride = 1;
    if (step.known) {
      if (step.value <= 0n) return [input, 'step must be > 0'];
      stride = step.value > length ? items.length + 1 : Number(step.value);
    }
    const first = Number(from);
    const last = Number(to);
    charge(ev, Math.ceil((last - first) / stride));
    for (let i = first; i < last; i += stride) result.push(memberValue(items[i]));
  }
  return [result];
}

function evalUnion(ev: Evaluation, input: unknown[], members: ListNode[]): Step {
  const result: unknown[] = [];
  for (const member of members) {
    const [values, error] = evalList(ev, input, member);
    if (error !== undefined) return [input, error];
    for (const v of values) result.push(v);
  }
  return [result];
}

/** The member values of a map (in sorted key order), the items of a slice, the bytes of a string. */
function contents(value: unknown): unknown[] {
  switch (kindOf(value)) {
    case 'map': {
      const o = value as Record<string, unknown>;
      return sortedKeys(o).map((k) => memberValue(o[k]));
    }
    case 'slice':
      return (value as unknown[]).map(memberValue);
    case 'string':
      return stringBytes(value as string);
    default:
      return [];
  }
}

function evalWildcard(ev: Evaluation, input: unknown[]): Step {
  const results: unknown[] = [];
  for (const value of input) {
    const items = contents(value);
    charge(ev, items.length);
    for (const item of items) results.push(item);
  }
  return [results];
}

/** Whether `..` lists a value: a non-empty map, slice or string (a string holds its bytes). */
function hasContents(value: unknown): boolean {
  switch (kindOf(value)) {
    case 'map':
      return Object.keys(value as object).length > 0;
    case 'slice':
      return (value as unknown[]).length > 0;
    case 'string':
      return (value as string).length > 0;
    default:
      return false;
  }
}

/** `..`: each value with contents, then (depth first) the values inside it, as client-go's evalRecursive orders them. */
function evalRecursive(ev: Evaluation, input: unknown[]): Step {
  const result: unknown[] = [];
  const stack: unknown[] = [];
  for (let i = input.length - 1; i >= 0; i--) stack.push(input[i]);
  while (stack.length) {
    const value = stack.pop();
    charge(ev, 1);
    if (!hasContents(value)) continue;
    result.push(value);
    // A string's bytes hold nothing further.
    if (kindOf(value) === 'string') continue;
    const inner = contents(value);
    for (let i = inner.length - 1; i >= 0; i--) stack.push(inner[i]);
  }
  return [result];
}

function evalFilter(ev: Evaluation, input: unknown[], node: FilterNode): Step {
  const results: unknown[] = [];
  for (const value of input) {
    if (kindOf(value) !== 'slice') return [input, `${formatReflectValue(value)} is not array or slice and cannot be filtered`];
    for (const raw of value as unknown[]) {
      const item = memberValue(raw);
      const temp = [item];
      const [lefts, leftError] = evalList(ev, temp, node.left);
      if (node.operator === 'exists') {
        // Errors do not count here: a path that failed but returned values still "exists".
        if (lefts.length > 0) results.push(item);
        continue;
      }
      if (leftError !== undefined) return [input, leftError];
      if (lefts.length === 0) continue;
      if (lefts.length > 1) return [input, 'can only compare one element at a time'];
      const [rights, rightError] = evalList(ev, temp, node.right);
      if (rightError !== undefined) return [input, rightError];
      if (rights.length === 0) continue;
      if (rights.length > 1) return [input, 'can only compare one element at a time'];
      const outcome = compare(node.operator, lefts[0], rights[0]);
      if (outcome === undefined) return [results, `unrecognized filter operator ${node.operator}`];
      if (!outcome.ok) return [results, outcome.error];
      if (outcome.value) results.push(item);
    }
  }
  return [results];
}
