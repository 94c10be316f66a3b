/**
 * The evaluator: a checked expression is planned once into closures (cel-go's planner), then each
 * evaluation walks them with a cost tracker. Errors travel as values so `&&`, `||`, `?:` and the
 * quantifier macros absorb them as CEL specifies; passing the cost limit stops evaluation at once.
 */
import type { CheckedExpr } from '../check/checker.js';
import type { FunctionTable, Overload } from '../functions/declarations.js';
import { indexList, indexMap, keyText } from '../functions/stdlib.js';
import type { ComprehensionExpr, Expr } from '../syntax/ast.js';
import { runtimeCallCost } from '../cost/runtime-call-cost.js';
import { LIST_CREATE_BASE_COST, MAP_CREATE_BASE_COST, SELECT_AND_IDENT_COST } from '../cost/constants.js';
import { Frame, MapActivation, type Activation } from './activation.js';

const EMPTY = new MapActivation({});
import { CostTracker } from './cost-tracker.js';
import { valueMatches } from '../values/runtime-types.js';
import {
  ArrayList,
  CelError,
  CelUint,
  LiteralMap,
  ListValue,
  MapValue,
  ObjectValue,
  OptionalValue,
  TypeValue,
  type Result,
  type Value,
} from '../values/values.js';

/** A planned step: evaluates its node in an activation, charging the tracker. */
export type Step = (act: Activation, cost: CostTracker) => Result;

const noSuchOverload = (): CelError => new CelError('no such overload');

function isMapKey(k: Value): boolean {
  return typeof k === 'string' || typeof k === 'bigint' || typeof k === 'boolean' || k instanceof CelUint;
}

/** Selects `field` of a map or object: the value, undefined when absent, or an error for other values. */
function selectField(target: Value, field: string): Value | undefined | CelError {
  if (target instanceof MapValue) return target.get(field);
  if (target instanceof ObjectValue) return target.field(field);
  return new CelError(`no such key: ${field}`);
}

/** `target.field`, following optional values as cel-go's attributes do. */
export function select(target: Value, field: string): Result {
  if (target instanceof OptionalValue) {
    if (target.value === undefined) return target;
    const v = selectField(target.value, field);
    if (v instanceof CelError) return v;
    return v === undefined ? OptionalValue.NONE : OptionalValue.of(v);
  }
  if (!(target instanceof MapValue) && !(target instanceof ObjectValue)) return noSuchOverload();
  const v = selectField(target, field);
  if (v === undefined) return new CelError(`no such key: ${field}`);
  return v;
}

/** `has(target.field)`. */
function presence(target: Value, field: string): Result {
  if (target instanceof OptionalValue) {
    if (target.value === undefined) return false;
    return presence(target.value, field);
  }
  if (target instanceof MapValue) return target.get(field) !== undefined;
  if (target instanceof ObjectValue) return target.field(field) !== undefined;
  return noSuchOverload();
}

/** `target.?field`. */
function optionalSelect(target: Value, field: string): Result {
  if (target instanceof OptionalValue) {
    if (target.value === undefined) return target;
    return optionalSelect(target.value, field);
  }
  const v = selectField(target, field);
  if (v instanceof CelError) return noSuchOverload();
  return v === undefined ? OptionalValue.NONE : OptionalValue.of(v);
}

/** `target[index]`, and `target[?index]` when `optional`. */
function index(target: Value, key: Value, optional: boolean): Result {
  // Indexing an optional yields an optional: none when it is empty or the entry is missing.
  if (target instanceof OptionalValue) return target.value === undefined ? target : index(target.value, key, true);
  let r: Result;
  if (target instanceof ListValue) r = indexList(target, key);
  else if (target instanceof MapValue) r = indexMap(target, key);
  else if (target instanceof ObjectValue && typeof key === 'string') {
    const v = target.field(key);
    r = v === undefined ? new CelError(`no such key: ${keyText(key)}`) : v;
  } else return noSuchOverload();
  if (!optional) return r;
  if (r instanceof CelError) return /^(no such key|index out of bounds)/.test(r.message) ? OptionalValue.NONE : r;
  return OptionalValue.of(r);
}

/** The type conversions cel-go folds when their argument is a constant (decOptimize). */
const CONVERSIONS = new Set(['int', 'uint', 'double', 'bool', 'string', 'bytes', 'timestamp', 'duration', 'type', 'dyn']);

/** True for an expression cel-go plans as an attribute (a variable and its selections). */
function isAttribute(e: Expr): boolean {
  if (e.kind === 'ident') return true;
  if (e.kind === 'select') return !e.testOnly && isAttribute(e.operand);
  return false;
}

class Planner {
  /** Nodes folded into constants at plan time, as cel-go's OptOptimize does; they cost nothing to evaluate. */
  private readonly constants = new Map<Expr, Value>();

  private constant(e: Expr, v: Value): Step {
    this.constants.set(e, v);
    return () => v;
  }

  constructor(
    private readonly checked: CheckedExpr,
    private readonly functions: FunctionTable,
  ) {}

  plan(e: Expr): Step {
    switch (e.kind) {
      case 'literal':
        return this.constant(e, e.value);
      case 'ident': {
        const type = this.checked.types.get(e.id);
        // A type name (`int`, `list`) is a constant: the type itself.
        if (type?.kind === 'type' && type.params.length === 1) return this.constant(e, new TypeValue(type.params[0]!));
        return this.planIdent(e.id, e.name);
      }
      case 'select':
        return this.planSelect(e);
      case 'call':
        return this.planCall(e);
      case 'list':
        return this.planList(e);
      case 'map':
        return this.planMap(e);
      case 'struct':
        return () => new CelError(`unknown type: ${e.typeName}`);
      case 'comprehension':
        return this.planComprehension(e);
    }
  }

  private planIdent(id: number, name: string): Step {
    const ref = this.checked.refs.get(id);
    const resolved = ref?.kind === 'ident' ? ref.name : name;
    return (act, cost) => {
      cost.add(SELECT_AND_IDENT_COST);
      const v = act.resolve(resolved);
      return v === undefined ? new CelError(`no such attribute(s): ${resolved}`) : v;
    };
  }

  private planSelect(e: Extract<Expr, { kind: 'select' }>): Step {
    if (this.checked.refs.get(e.id)?.kind === 'ident') {
      const type = this.checked.types.get(e.id);
      if (type?.kind === 'type' && type.params.length === 1) return this.constant(e, new TypeValue(type.params[0]!));
      return this.planIdent(e.id, e.field);
    }
    const operand = this.plan(e.operand);
    const field = e.field;
    if (e.testOnly) {
      // Kubernetes configures presence tests to cost nothing (PresenceTestHasCost(false)).
      return (act, cost) => {
        const t = operand(act, cost);
        return t instanceof CelError ? t : presence(t, field);
      };
    }
    return (act, cost) => {
      const t = operand(act, cost);
      if (t instanceof CelError) return t;
      cost.add(SELECT_AND_IDENT_COST);
      return select(t, field);
    };
  }

  private planList(e: Extract<Expr, { kind: 'list' }>): Step {
    const elems = e.elements.map((x) => this.plan(x));
    if (e.optionalIndices.length === 0 && e.elements.every((x) => this.constants.has(x))) {
      return this.constant(e, new ArrayList(e.elements.map((x) => this.constants.get(x)!)));
    }
    const optional = new Set(e.optionalIndices);
    return (act, cost) => {
      const out: Value[] = [];
      for (let i = 0; i < elems.length; i++) {
        const v = elems[i]!(act, cost);
        if (v instanceof CelError) return v;
        if (optional.has(i)) {
          if (!(v instanceof OptionalValue)) return noSuchOverload();
          if (v.value !== undefined) out.push(v.value);
        } else out.push(v);
      }
      cost.add(LIST_CREATE_BASE_COST);
      return new ArrayList(out);
    };
  }

  private planMap(e: Extract<Expr, { kind: 'map' }>): Step {
    const entries = e.entries.map((x) => ({ key: this.plan(x.key), value: this.plan(x.value), optional: x.optional }));
    const step: Step = (act, cost) => {
      const m = new LiteralMap();
      for (const entry of entries) {
        const k = entry.key(act, cost);
        if (k instanceof CelError) return k;
        let v = entry.value(act, cost);
        if (v instanceof CelError) return v;
        if (entry.optional) {
          if (!(v instanceof OptionalValue)) return noSuchOverload();
          if (v.value === undefined) continue;
          v = v.value;
        }
        if (!isMapKey(k)) return new CelError('unsupported key type');
        if (!m.set(k, v)) return new CelError('Failed with repeated key');
      }
      cost.add(MAP_CREATE_BASE_COST);
      return m;
    };
    if (e.entries.every((x) => !x.optional && this.constants.has(x.key) && this.constants.has(x.value))) {
      const v = step(EMPTY, new CostTracker(Infinity));
      if (!(v instanceof CelError)) return this.constant(e, v);
    }
    return step;
  }

  private planCall(e: Extract<Expr, { kind: 'call' }>): Step {
    const args = [...(e.target ? [e.target] : []), ...e.args].map((a) => this.plan(a));
    switch (e.fn) {
      case '_&&_':
        return this.planLogical(args[0]!, args[1]!, false);
      case '_||_':
        return this.planLogical(args[0]!, args[1]!, true);
      case '_?_:_': {
        const [c, t, f] = args as [Step, Step, Step];
        // cel-go resolves a branch that is a plain attribute without observing it: it costs nothing.
        const free = (step: Step, branch: Expr): Step =>
          isAttribute(branch)
            ? (act, cost) => {
                const before = cost.cost;
                const v = step(act, cost);
                cost.cost = before;
                return v;
              }
            : step;
        const ft = free(t, e.args[1]!);
        const ff = free(f, e.args[2]!);
        return (act, cost) => {
          const cond = c(act, cost);
          if (cond instanceof CelError) return cond;
          if (cond === true) return ft(act, cost);
          if (cond === false) return ff(act, cost);
          return noSuchOverload();
        };
      }
      case '@not_strictly_false': {
        const a = args[0]!;
        return (act, cost) => {
          const v = a(act, cost);
          cost.add(1);
          return v !== false;
        };
      }
      case '_?._': {
        const target = args[0]!;
        const field = (e.args[1] as Extract<Expr, { kind: 'literal' }>).value as string;
        return (act, cost) => {
          const t = target(act, cost);
          if (t instanceof CelError) return t;
          cost.add(1);
          return optionalSelect(t, field);
        };
      }
      default:
        break;
    }
    const ref = this.checked.refs.get(e.id);
    const overloads = (ref?.kind === 'function' ? ref.overloads : []).map((id) => this.functions.overload(id)).filter((o): o is Overload => o !== undefined);
    const fnName = e.fn;
    if (fnName === '_[_]' || fnName === '_[?_]') {
      const optional = fnName === '_[?_]';
      const [t, k] = args as [Step, Step];
      // cel-go plans an index as an attribute qualifier: a constant one costs 1, another costs what it evaluates.
      const constantKey = this.constants.has(e.args[1]!);
      return (act, cost) => {
        const target = t(act, cost);
        if (target instanceof CelError) return target;
        const key = k(act, cost);
        if (key instanceof CelError) return key;
        if (constantKey) cost.add(1);
        return index(target, key, optional);
      };
    }
    const single = overloads.length === 1 ? overloads[0] : undefined;
    // `x in [constants]` becomes a set membership test in cel-go: no call cost.
    const setMembership = fnName === '@in' && e.args[1] !== undefined && this.constants.has(e.args[1]) && e.args[1].kind === 'list';
    const step: Step = (act, cost) => {
      const values: Value[] = [];
      for (const a of args) {
        const v = a(act, cost);
        if (v instanceof CelError) return v;
        values.push(v);
      }
      const fits = (c: Overload): boolean => c.impl !== undefined && c.args.every((t, i) => valueMatches(t, values[i]!));
      const o = single && fits(single) ? single : overloads.find(fits);
      if (!o || !o.impl) return noSuchOverload();
      const r = o.impl(values);
      if (!setMembership) cost.add(runtimeCallCost(fnName, o.id, values, r));
      return r;
    };
    if (CONVERSIONS.has(fnName) && !e.target && e.args.length === 1 && this.constants.has(e.args[0]!)) {
      const v = step(EMPTY, new CostTracker(Infinity));
      if (!(v instanceof CelError)) return this.constant(e, v);
    }
    return step;
  }

  /** `a && b` (or `a || b` when `or`): short-circuits, and an error loses to a deciding value. */
  private planLogical(l: Step, r: Step, or: boolean): Step {
    return (act, cost) => {
      const a = l(act, cost);
      if (a === or) return or;
      const b = r(act, cost);
      if (b === or) return or;
      if (a instanceof CelError) return a;
      if (b instanceof CelError) return b;
      if (typeof a !== 'boolean' || typeof b !== 'boolean') return noSuchOverload();
      return !or;
    };
  }

  private planComprehension(e: ComprehensionExpr): Step {
    const range = this.plan(e.iterRange);
    const init = this.plan(e.accuInit);
    const cond = this.plan(e.loopCondition);
    const step = this.plan(e.loopStep);
    const result = this.plan(e.result);
    const two = e.iterVar2 !== undefined;
    return (act, cost) => {
      const r = range(act, cost);
      if (r instanceof CelError) return r;
      if (!(r instanceof ListValue) && !(r instanceof MapValue)) return noSuchOverload();
      const frame = new Frame(act, e.accuVar, e.iterVar, e.iterVar2);
      const accu = init(frame, cost);
      if (accu instanceof CelError) return accu;
      frame.accu = accu;
      const run = (v1: Value, v2: Value): boolean => {
        frame.iter = v1;
        frame.iter2 = v2;
        const c = cond(frame, cost);
        if (c === false) return false;
        const next = step(frame, cost);
        // An error accumulator stays an error until the macro's own logic absorbs it.
        frame.accu = next as Value;
        return true;
      };
      if (r instanceof ListValue) {
        for (let i = 0; i < r.size; i++) {
          if (two ? !run(BigInt(i), r.get(i)) : !run(r.get(i), null)) break;
        }
      } else {
        for (const k of r.keys()) {
          if (two ? !run(k, r.get(k)!) : !run(k, null)) break;
        }
      }
      return result(frame, cost);
    };
  }
}

/** Plans a checked expression into a step. */
export function planExpr(checked: CheckedExpr, functions: FunctionTable): Step {
  return new Planner(checked, functions).plan(checked.parsed.expr);
}
