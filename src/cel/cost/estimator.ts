/**
 * The static cost estimator, ported from cel-go's checker/cost.go with the call estimates of
 * Kubernetes' library CostEstimator (apiserver/pkg/cel/library/cost.go EstimateCallCost) and of
 * the cel-go extension libraries Kubernetes enables (sets, lists). Kubernetes configures presence
 * tests to cost nothing.
 */
import type { CheckedExpr } from '../check/checker.js';
import type { ComprehensionExpr, Expr } from '../syntax/ast.js';
import { ACCUMULATOR, LEGACY_ACCUMULATOR } from '../syntax/ast.js';
import { CelUint } from '../values/values.js';
import type { CelType } from '../types/types.js';
import { isOptional } from '../types/types.js';
import { codePoints } from '../values/runtime-types.js';
import {
  CONST_COST,
  LIST_CREATE_BASE_COST,
  MAP_CREATE_BASE_COST,
  MAX_NAME_FORMAT_REGEX_SIZE,
  MAX_UINT64,
  REGEX_STRING_LENGTH_COST_FACTOR,
  SELECT_AND_IDENT_COST,
  STRING_TRAVERSAL_COST_FACTOR,
  STRUCT_CREATE_BASE_COST,
} from './constants.js';
import { add, addSat, byFactor, fixed, multiply, union, UNKNOWN, ZERO, type Range } from './estimate.js';

const T = STRING_TRAVERSAL_COST_FACTOR;
const R = REGEX_STRING_LENGTH_COST_FACTOR;

/** A node as the estimator's hooks see it (cel-go checker.AstNode). */
export interface AstNode {
  /** The data path the node reads (`self`, `spec`, `@items`, ...), when known. */
  readonly path: readonly string[] | undefined;
  readonly type: CelType;
  readonly expr: Expr | undefined;
  readonly computedSize: Range | undefined;
}

/** Estimates the size of the data a node reads (Kubernetes: from the schema's maxLength, maxItems, maxProperties). */
export interface SizeEstimator {
  estimateSize(node: AstNode): Range | undefined;
}

/** The estimate of a call: its cost, and the size of its result when known. */
interface CallEstimate {
  readonly cost: Range;
  readonly resultSize?: Range;
}

interface EntrySize {
  readonly container: 'list' | 'map';
  readonly key: Range;
  readonly val: Range;
}

interface LocalVar {
  readonly path: readonly string[];
  readonly size: Range | undefined;
  readonly entrySize: EntrySize | undefined;
}

const isAccumulator = (name: string): boolean => name === ACCUMULATOR || name === LEGACY_ACCUMULATOR;

function isScalar(t: CelType): boolean {
  switch (t.kind) {
    case 'bool':
    case 'double':
    case 'duration':
    case 'int':
    case 'timestamp':
    case 'uint':
      return true;
    default:
      return isOptional(t) && isScalar(t.params[0]!);
  }
}

function literalSize(v: unknown): Range | undefined {
  if (typeof v === 'string') return fixed(codePoints(v));
  if (v instanceof Uint8Array) return fixed(v.length);
  if (v === null || typeof v === 'boolean' || typeof v === 'number' || typeof v === 'bigint' || v instanceof CelUint) return fixed(1);
  return undefined;
}

class Coster {
  private readonly paths = new Map<number, readonly string[]>();
  private readonly locals = new Map<string, LocalVar[]>();
  private readonly sizes = new Map<number, Range>();
  private readonly entrySizes = new Map<number, EntrySize>();

  constructor(
    private readonly checked: CheckedExpr,
    private readonly sizer: SizeEstimator,
  ) {}

  private typeOf(e: Expr): CelType {
    return this.checked.types.get(e.id)!;
  }
  private peek(name: string): LocalVar | undefined {
    const s = this.locals.get(name);
    return s && s.length > 0 ? s[s.length - 1] : undefined;
  }
  private push(name: string, v: LocalVar): void {
    const s = this.locals.get(name) ?? [];
    s.push(v);
    this.locals.set(name, s);
  }
  private pop(name: string): void {
    this.locals.get(name)?.pop();
  }
  private pathOf(e: Expr): readonly string[] {
    if (e.kind === 'ident') {
      const v = this.peek(e.name);
      if (v) return v.path;
    }
    return this.paths.get(e.id) ?? [];
  }

  cost(e: Expr): Range {
    switch (e.kind) {
      case 'literal':
        return fixed(CONST_COST);
      case 'ident': {
        const v = this.peek(e.name);
        const ref = this.checked.refs.get(e.id);
        this.paths.set(e.id, v ? v.path : [ref?.kind === 'ident' ? ref.name : e.name]);
        return fixed(SELECT_AND_IDENT_COST);
      }
      case 'select':
        return this.costSelect(e);
      case 'call':
        return this.costCall(e);
      case 'list':
        return this.costList(e);
      case 'map':
        return this.costMap(e);
      case 'struct':
        return e.fields.reduce((sum, f) => add(sum, this.cost(f.value)), fixed(STRUCT_CREATE_BASE_COST));
      case 'comprehension':
        return this.isBind(e) ? this.costBind(e) : this.costComprehension(e);
    }
  }

  private costSelect(e: Extract<Expr, { kind: 'select' }>): Range {
    const ref = this.checked.refs.get(e.id);
    if (ref?.kind === 'ident') {
      this.paths.set(e.id, [ref.name]);
      return fixed(SELECT_AND_IDENT_COST);
    }
    // Kubernetes: PresenceTestHasCost(false).
    if (e.testOnly) return this.cost(e.operand);
    let sum = this.cost(e.operand);
    const k = this.typeOf(e.operand).kind;
    if (k === 'map' || k === 'struct' || k === 'typeparam') sum = add(sum, fixed(SELECT_AND_IDENT_COST));
    this.paths.set(e.id, [...this.pathOf(e.operand), e.field]);
    return sum;
  }

  private costCall(e: Extract<Expr, { kind: 'call' }>): Range {
    if (e.fn === 'dyn' && !e.target && e.args.length === 1) {
      const argCost = this.cost(e.args[0]!);
      this.copySizes(e, e.args[0]!);
      return add(fixed(1), argCost);
    }
    const argCosts = e.args.map((a) => this.cost(a));
    const argNodes = e.args.map((a) => this.node(a));
    const ref = this.checked.refs.get(e.id);
    const overloads = ref?.kind === 'function' ? ref.overloads : [];
    if (overloads.length === 0) return ZERO;
    let sum = ZERO;
    let target: AstNode | undefined;
    if (e.target) {
      sum = add(sum, this.cost(e.target));
      target = this.node(e.target);
    }
    let fnCost: Range = { min: MAX_UINT64, max: 0n };
    let resultSize: Range | undefined;
    for (const id of overloads) {
      const est = this.functionCost(e, e.fn, id, target, argNodes, argCosts);
      fnCost = union(fnCost, est.cost);
      if (est.resultSize) resultSize = resultSize ? union(resultSize, est.resultSize) : est.resultSize;
      if (id === 'index_list' && e.args.length > 0) {
        resultSize = this.entrySize(e.args[0]!)?.val;
        this.paths.set(e.id, [...this.pathOf(e.args[0]!), '@items']);
      } else if (id === 'index_map' && e.args.length > 0) {
        resultSize = this.entrySize(e.args[0]!)?.val;
        this.paths.set(e.id, [...this.pathOf(e.args[0]!), '@values']);
      }
      if (!resultSize) resultSize = this.size(e);
    }
    if (resultSize) this.sizes.set(e.id, resultSize);
    return add(sum, fnCost);
  }

  private costList(e: Extract<Expr, { kind: 'list' }>): Range {
    let sum = ZERO;
    let item: Range = { min: e.elements.length === 0 ? 0n : MAX_UINT64, max: 0n };
    for (const el of e.elements) {
      sum = add(sum, this.cost(el));
      item = union(item, this.sizeOrUnknown(el));
    }
    this.entrySizes.set(e.id, { container: 'list', key: fixed(1), val: item });
    return add(sum, fixed(LIST_CREATE_BASE_COST));
  }

  private costMap(e: Extract<Expr, { kind: 'map' }>): Range {
    let sum = ZERO;
    const empty = e.entries.length === 0;
    let key: Range = { min: empty ? 0n : MAX_UINT64, max: 0n };
    let val: Range = { min: empty ? 0n : MAX_UINT64, max: 0n };
    for (const entry of e.entries) {
      sum = add(sum, this.cost(entry.key));
      sum = add(sum, this.cost(entry.value));
      key = union(key, this.sizeOrUnknown(entry.key));
      val = union(val, this.sizeOrUnknown(entry.value));
    }
    this.entrySizes.set(e.id, { container: 'map', key, val });
    return add(sum, fixed(MAP_CREATE_BASE_COST));
  }

  private rangeContainer(range: Expr): 'list' | 'map' | undefined {
    const es = this.entrySize(range);
    if (es) return es.container;
    const k = this.typeOf(range).kind;
    return k === 'list' ? 'list' : k === 'map' ? 'map' : undefined;
  }

  private costComprehension(e: ComprehensionExpr): Range {
    let sum = add(this.cost(e.iterRange), this.cost(e.accuInit));
    this.push(e.accuVar, { path: this.pathOf(e.accuInit), size: this.size(e.accuInit), entrySize: this.entrySize(e.accuInit) });
    const es = this.entrySize(e.iterRange);
    const path = this.pathOf(e.iterRange);
    const container = this.rangeContainer(e.iterRange);
    if (e.iterVar2 !== undefined) {
      this.push(e.iterVar, { path: [...path, container === 'list' ? '@indices' : '@keys'], size: es?.key, entrySize: undefined });
      this.push(e.iterVar2, { path: [...path, container === 'list' ? '@items' : '@values'], size: es?.val, entrySize: undefined });
    } else {
      const isList = container === 'list';
      this.push(e.iterVar, { path: [...path, isList ? '@items' : '@keys'], size: isList ? es?.val : es?.key, entrySize: undefined });
    }
    const loopCost = this.cost(e.loopCondition);
    const stepCost = this.cost(e.loopStep);
    this.pop(e.iterVar);
    if (e.iterVar2 !== undefined) this.pop(e.iterVar2);
    sum = add(sum, this.cost(e.result));
    this.pop(e.accuVar);
    const rangeCount = this.sizeOrUnknown(e.iterRange);
    sum = add(sum, multiply(rangeCount, add(stepCost, loopCost)));
    if (e.accuInit.kind === 'literal') {
      const s = this.size(e.accuInit);
      if (s) this.sizes.set(e.id, s);
    } else if (e.accuInit.kind === 'list' || e.accuInit.kind === 'map') {
      this.sizes.set(e.id, rangeCount);
      const stepEntry = this.entrySize(e.loopStep);
      if (stepEntry) this.entrySizes.set(e.id, stepEntry);
    }
    return sum;
  }

  private isBind(e: ComprehensionExpr): boolean {
    return (
      e.iterRange.kind === 'list' &&
      e.iterRange.elements.length === 0 &&
      e.loopCondition.kind === 'literal' &&
      e.loopCondition.value === false &&
      e.accuVar !== LEGACY_ACCUMULATOR
    );
  }

  private costBind(e: ComprehensionExpr): Range {
    let sum = add(this.cost(e.iterRange), this.cost(e.accuInit));
    this.push(e.accuVar, { path: this.pathOf(e.accuInit), size: this.size(e.accuInit), entrySize: this.entrySize(e.accuInit) });
    sum = add(sum, this.cost(e.result));
    this.pop(e.accuVar);
    this.copySizes(e, e.result);
    return sum;
  }

  private node(e: Expr): AstNode {
    let path: readonly string[] | undefined = this.pathOf(e);
    if (path.length > 0 && isAccumulator(path[0]!)) path = undefined;
    return { path, type: this.typeOf(e), expr: e, computedSize: this.size(e) };
  }

  private copySizes(dst: Expr, src: Expr): void {
    const s = this.size(src);
    if (s) this.sizes.set(dst.id, s);
    const es = this.entrySize(src);
    if (es) this.entrySizes.set(dst.id, es);
  }

  private size(e: Expr): Range | undefined {
    const known = this.sizes.get(e.id);
    if (known) return known;
    if (e.kind === 'literal') {
      const s = literalSize(e.value);
      if (s) return s;
    }
    if (e.kind === 'list') return fixed(e.elements.length);
    if (e.kind === 'map') return fixed(e.entries.length);
    const est = this.sizer.estimateSize({ path: this.pathOf(e), type: this.typeOf(e), expr: e, computedSize: undefined });
    if (est) {
      this.sizes.set(e.id, est);
      return est;
    }
    if (isScalar(this.typeOf(e))) return fixed(1);
    if (e.kind === 'ident') {
      const v = this.peek(e.name);
      if (v?.size) return v.size;
    }
    return undefined;
  }

  private sizeOrUnknown(e: Expr | AstNode): Range {
    if ('kind' in e) return this.size(e) ?? UNKNOWN;
    return e.computedSize ?? UNKNOWN;
  }

  private entrySize(e: Expr): EntrySize | undefined {
    const known = this.entrySizes.get(e.id);
    if (known) return known;
    if (e.kind === 'ident') return this.peek(e.name)?.entrySize;
    return undefined;
  }

  /** The size of a node as Kubernetes' estimator sizes it: computed, else from the schema, else unknown. */
  private k8sSize(n: AstNode): Range {
    return n.computedSize ?? this.sizer.estimateSize(n) ?? UNKNOWN;
  }

  /** Kubernetes' listElementNode: a node for the elements of a list, with their path. */
  private listElement(list: AstNode): AstNode | undefined {
    const elem = list.type.params[0];
    if (!elem) return undefined;
    return { path: list.path ? [...list.path, '@items'] : undefined, type: elem, expr: undefined, computedSize: undefined };
  }

  private functionCost(
    e: Extract<Expr, { kind: 'call' }>,
    fn: string,
    id: string,
    target: AstNode | undefined,
    args: AstNode[],
    argCosts: Range[],
  ): CallEstimate {
    const argSum = (): Range => argCosts.reduce(add, ZERO);
    const withArgs = (est: CallEstimate | undefined): CallEstimate | undefined =>
      est ? { cost: add(est.cost, argSum()), resultSize: est.resultSize } : undefined;
    const lib = withArgs(this.libraryEstimate(id, target, args));
    if (lib) return lib;
    const k8s = withArgs(this.kubernetesEstimate(fn, id, target, args));
    if (k8s) return k8s;
    switch (id) {
      case 'string_format':
        if (target) return { cost: add(byFactor(this.sizeOrUnknown(target), T), argSum()) };
        break;
      case 'string_to_bytes':
        if (args.length === 1) {
          const sz = this.sizeOrUnknown(args[0]!);
          return { cost: add(byFactor(sz, T), argSum()), resultSize: { min: sz.min, max: sz.max * 4n > MAX_UINT64 ? MAX_UINT64 : sz.max * 4n } };
        }
        break;
      case 'bytes_to_string':
        if (args.length === 1) {
          const sz = this.sizeOrUnknown(args[0]!);
          return { cost: add(byFactor(sz, T), argSum()), resultSize: { min: sz.min / 4n, max: sz.max } };
        }
        break;
      case 'strings_quote':
        if (args.length === 1) {
          const sz = this.sizeOrUnknown(args[0]!);
          return {
            cost: add(byFactor(sz, T), argSum()),
            resultSize: { min: sz.min + 2n, max: addSat(sz.max * 2n > MAX_UINT64 ? MAX_UINT64 : sz.max * 2n, 2n) },
          };
        }
        break;
      case 'starts_with_string':
      case 'ends_with_string':
        if (args.length === 1) return { cost: add(byFactor(this.sizeOrUnknown(args[0]!), T), argSum()) };
        break;
      case 'in_list':
        if (args.length === 2) return { cost: add(byFactor(this.sizeOrUnknown(args[1]!), 1), argSum()) };
        break;
      case 'matches_string':
        if (target && args.length === 1) {
          const strCost = byFactor(add(this.sizeOrUnknown(target), fixed(1)), T);
          const regexCost = byFactor(this.sizeOrUnknown(args[0]!), R);
          return { cost: add(multiply(strCost, regexCost), argSum()) };
        }
        break;
      case 'contains_string':
        if (target && args.length === 1) {
          return { cost: add(multiply(byFactor(this.sizeOrUnknown(target), T), byFactor(this.sizeOrUnknown(args[0]!), T)), argSum()) };
        }
        break;
      case 'logical_or':
      case 'logical_and': {
        const [lhs, rhs] = argCosts as [Range, Range];
        return { cost: { min: lhs.min, max: add(lhs, rhs).max } };
      }
      case 'conditional': {
        const size = union(this.sizeOrUnknown(args[1]!), this.sizeOrUnknown(args[2]!));
        const a = this.entrySize(e.args[1]!);
        const b = this.entrySize(e.args[2]!);
        if (a && b) this.entrySizes.set(e.id, { container: a.container, key: union(a.key, b.key), val: union(a.val, b.val) });
        return { cost: add(argCosts[0]!, union(argCosts[1]!, argCosts[2]!)), resultSize: size };
      }
      case 'add_string':
      case 'add_bytes':
      case 'add_list':
        if (args.length === 2) {
          const resultSize = add(this.sizeOrUnknown(args[0]!), this.sizeOrUnknown(args[1]!));
          const a = this.entrySize(e.args[0]!);
          const b = this.entrySize(e.args[1]!);
          if (a && b) this.entrySizes.set(e.id, { container: a.container, key: union(a.key, b.key), val: union(a.val, b.val) });
          if (id === 'add_list') return { cost: add(fixed(1), argSum()), resultSize };
          return { cost: add(byFactor(resultSize, T), argSum()), resultSize };
        }
        break;
      case 'less_string':
      case 'greater_string':
      case 'less_equals_string':
      case 'greater_equals_string':
      case 'less_bytes':
      case 'greater_bytes':
      case 'less_equals_bytes':
      case 'greater_equals_bytes':
      case 'equals':
      case 'not_equals': {
        const l = this.sizeOrUnknown(args[0]!);
        const r = this.sizeOrUnknown(args[1]!);
        const smallestMax = l.max < r.max ? l.max : r.max;
        return { cost: add(byFactor({ min: smallestMax > 0n ? 1n : 0n, max: smallestMax }, T), argSum()) };
      }
      default:
        break;
    }
    return { cost: add(fixed(1), argSum()) };
  }

  /** The cel-go extension libraries' own estimators (ext/sets.go, ext/lists.go). */
  private libraryEstimate(id: string, target: AstNode | undefined, args: AstNode[]): CallEstimate | undefined {
    const allocating = (factor: number, size: Range): CallEstimate => ({
      cost: add(add(byFactor(size, factor), fixed(1)), fixed(LIST_CREATE_BASE_COST)),
      resultSize: size,
    });
    const literalUint = (n: AstNode, dflt: bigint): bigint => {
      if (n.expr?.kind !== 'literal' || typeof n.expr.value !== 'bigint') return dflt;
      return n.expr.value < 0n ? 0n : n.expr.value;
    };
    switch (id) {
      case 'list_sets_contains_list':
      case 'list_sets_intersects_list':
      case 'list_sets_equivalent_list': {
        if (args.length !== 2) return undefined;
        const c = byFactor(multiply(this.k8sSize(args[0]!), this.k8sSize(args[1]!)), id === 'list_sets_equivalent_list' ? 2 : 1);
        return { cost: add(c, fixed(1)) };
      }
      case 'list_slice': {
        if (!target || args.length !== 2) return undefined;
        const sz = this.k8sSize(target);
        const end = literalUint(args[1]!, sz.max);
        const start = literalUint(args[0]!, 0n);
        return allocating(1, fixed(end - start < 0n ? 0n : end - start));
      }
      case 'lists_range':
        if (target || args.length !== 1) return undefined;
        return allocating(1, fixed(literalUint(args[0]!, MAX_UINT64)));
      case 'list_reverse':
        return target ? allocating(1, this.k8sSize(target)) : undefined;
      case 'list_flatten':
      case 'list_flatten_int': {
        if (!target) return undefined;
        const depth = args.length === 1 ? literalUint(args[0]!, MAX_UINT64) : 1n;
        return allocating(Number(depth), this.k8sSize(target));
      }
      case 'list_distinct': {
        if (!target) return undefined;
        const sz = this.k8sSize(target);
        return allocating(2, multiply(sz, sz));
      }
      default: {
        const sort = /^list_(\w+)_sort$/.exec(id);
        const sortBy = /^list_(\w+)_sortByAssociatedKeys$/.exec(id);
        const m = sort ?? sortBy;
        if (!m) return undefined;
        const n = sort ? target : args[0];
        if (!n) return undefined;
        const sz = this.k8sSize(n);
        const factor = m[1] === 'string' || m[1] === 'bytes' ? 2 + T : 2;
        return allocating(factor, multiply(sz, sz));
      }
    }
  }

  /** Kubernetes' CostEstimator.EstimateCallCost, by function name. */
  private kubernetesEstimate(fn: string, id: string, target: AstNode | undefined, args: AstNode[]): CallEstimate | undefined {
    const one: CallEstimate = { cost: fixed(1) };
    switch (fn) {
      case 'isSorted':
      case 'sum':
      case 'max':
      case 'min':
      case 'indexOf':
      case 'lastIndexOf': {
        if (!target) return undefined;
        const el = this.listElement(target);
        if (el) {
          let elCost = fixed(1);
          if (el.type.kind === 'string' || el.type.kind === 'bytes') elCost = add(elCost, byFactor(this.k8sSize(el), T));
          const sz = this.k8sSize(target);
          return { cost: multiply(sz, elCost) };
        }
        return { cost: byFactor(this.k8sSize(target), T) };
      }
      case 'url':
        if (args.length === 1) {
          const sz = this.k8sSize(args[0]!);
          return { cost: byFactor(sz, T), resultSize: sz };
        }
        return undefined;
      case 'lowerAscii':
      case 'upperAscii':
      case 'substring':
      case 'trim':
        if (target) {
          const sz = this.k8sSize(target);
          return { cost: byFactor(sz, T), resultSize: sz };
        }
        return undefined;
      case 'replace':
        if (target && args.length >= 2) return this.replaceEstimate(target, args);
        return undefined;
      case 'split':
        if (target) {
          const sz = this.k8sSize(target);
          let max = sz.max;
          const n = args[1]?.expr;
          if (n?.kind === 'literal' && typeof n.value === 'bigint') max = n.value < 0n ? MAX_UINT64 + n.value + 1n : n.value;
          return { cost: byFactor(sz, 2 * T), resultSize: { min: 0n, max } };
        }
        return undefined;
      case 'join':
        if (target) {
          let sz = ZERO;
          const listSize = this.k8sSize(target);
          const el = this.listElement(target);
          if (el) sz = multiply(listSize, this.k8sSize(el));
          if (args.length > 0) {
            const sep = this.k8sSize(args[0]!);
            sz = add(sz, multiply(sep, { min: listSize.min > 0n ? listSize.min - 1n : 0n, max: listSize.max > 0n ? listSize.max - 1n : 0n }));
          }
          return { cost: byFactor(sz, T), resultSize: sz };
        }
        return undefined;
      case 'find':
      case 'findAll':
        if (target && args.length >= 1) {
          const sz = this.k8sSize(target);
          const strCost = byFactor(add(sz, fixed(1)), T);
          const regexCost = byFactor(this.k8sSize(args[0]!), R);
          return { cost: multiply(strCost, regexCost), resultSize: { min: 0n, max: sz.max } };
        }
        return undefined;
      case 'cidr':
      case 'isIP':
      case 'isCIDR':
        // As upstream: these are global functions, so the `target != nil` guard never holds.
        if (target && args.length > 0) return { cost: byFactor(this.k8sSize(args[0]!), T) };
        return undefined;
      case 'ip':
        if (target && args.length >= 1) {
          if (id === 'cidr_ip') return one;
          return { cost: byFactor(this.k8sSize(args[0]!), T) };
        }
        if (target) return one;
        return undefined;
      case 'ip.isCanonical':
        if (target && args.length >= 1) return { cost: byFactor(this.k8sSize(args[0]!), 2 * T) };
        return undefined;
      case 'masked':
      case 'prefixLength':
      case 'family':
      case 'isUnspecified':
      case 'isLoopback':
      case 'isLinkLocalMulticast':
      case 'isLinkLocalUnicast':
      case 'isGlobalUnicast':
      case 'format.named':
      case 'sign':
      case 'asInteger':
      case 'isInteger':
      case 'asApproximateFloat':
      case 'isGreaterThan':
      case 'isLessThan':
      case 'compareTo':
      case 'add':
      case 'sub':
      case 'major':
      case 'minor':
      case 'patch':
      case 'getScheme':
      case 'getHostname':
      case 'getHost':
      case 'getPort':
      case 'getEscapedPath':
      case 'getQuery':
        return one;
      case 'containsIP':
      case 'containsCIDR':
        if (target && args.length >= 1) {
          const sz = { min: 4n, max: 16n };
          let c = byFactor(add(sz, sz), T);
          if (fn === 'containsCIDR') c = add(add(c, byFactor(sz, T)), fixed(1));
          if (id === 'cidr_contains_ip_string' || id === 'cidr_contains_cidr_string') c = add(c, byFactor(this.k8sSize(args[0]!), T));
          return { cost: c };
        }
        return undefined;
      case 'quantity':
      case 'isQuantity':
      case 'semver':
      case 'isSemver':
        if (target && args.length > 0) return { cost: byFactor(this.k8sSize(args[0]!), T) };
        return undefined;
      case 'validate':
        if (target && args.length > 0) return { cost: byFactor(byFactor(this.k8sSize(args[0]!), T), MAX_NAME_FORMAT_REGEX_SIZE * R) };
        return undefined;
      case '_==_':
        if (args.length === 2) {
          const [l, r] = args as [AstNode, AstNode];
          if (l.type.kind === r.type.kind && l.type.name === r.type.name) {
            if (l.type.kind === 'opaque' && (l.type.name === 'net.IP' || l.type.name === 'net.CIDR')) return one;
            if (l.type.kind === 'struct') {
              if (['kubernetes.Quantity', 'kubernetes.Semver'].includes(l.type.name)) return one;
              if (l.type.name === 'kubernetes.NamedFormat') return { cost: byFactor({ min: 1n, max: 1n }, T) };
              if (l.type.name === 'kubernetes.URL') {
                const size = r.computedSize ?? fixed(1);
                return { cost: byFactor({ min: 1n, max: size.max }, T) };
              }
            }
          }
        }
        return undefined;
      default:
        return undefined;
    }
  }

  private replaceEstimate(target: AstNode, args: AstNode[]): CallEstimate {
    const sz = this.k8sSize(target);
    const toReplace = this.k8sSize(args[0]!);
    const replaceWith = this.k8sSize(args[1]!);
    let countMax: bigint;
    let countMin: bigint;
    let retainedMax = 0n;
    let retainedMin = 0n;
    if (toReplace.min === 0n) {
      countMax = sz.max < MAX_UINT64 ? sz.max + 1n : sz.max;
      retainedMax = sz.max;
    } else if (replaceWith.max <= toReplace.min) {
      countMax = 0n;
      retainedMax = sz.max;
    } else {
      countMax = BigInt(Math.ceil(Number(sz.max) / Number(toReplace.min)));
    }
    if (toReplace.max === 0n) {
      countMin = sz.min < MAX_UINT64 ? sz.min + 1n : sz.min;
      retainedMin = sz.min;
    } else if (toReplace.max <= replaceWith.min) {
      countMin = 0n;
      retainedMin = sz.min;
    } else {
      countMin = BigInt(Math.ceil(Number(sz.min) / Number(toReplace.max)));
    }
    const size = add(multiply({ min: countMin, max: countMax }, replaceWith), { min: retainedMin, max: retainedMax });
    return { cost: byFactor(sz, 2 * T), resultSize: size };
  }
}

/** The estimated cost of a checked expression: cel-go's EstimateCost with Kubernetes' estimator. */
export function estimateCost(checked: CheckedExpr, sizer: SizeEstimator): Range {
  return new Coster(checked, sizer).cost(checked.parsed.expr);
}
