/**
 * The macros of the Kubernetes CEL environment, expanded at parse time into comprehensions
 * exactly as cel-go expands them (parser/macro.go; ext/comprehensions.go for the two-variable
 * forms; the optional library's optMap/optFlatMap; ext/lists.go's sortBy).
 */
import type { Expr } from './ast.js';
import { ACCUMULATOR, LEGACY_ACCUMULATOR } from './ast.js';
import type { ExprFactory } from './factory.js';

/** A failed expansion: the message and the node it is about. */
export interface MacroError {
  readonly at: Expr;
  readonly message: string;
}

type Expander = (f: ExprFactory, at: number, target: Expr | undefined, args: Expr[]) => Expr | MacroError;

const isError = (r: Expr | MacroError): r is MacroError => 'message' in r;

function simpleName(e: Expr, message: string): string | MacroError {
  return e.kind === 'ident' ? e.name : { at: e, message };
}

function iterVar(e: Expr, message: string): string | MacroError {
  const v = simpleName(e, message);
  if (typeof v !== 'string') return v;
  if (v === ACCUMULATOR || v === LEGACY_ACCUMULATOR) return { at: e, message: 'iteration variable overwrites accumulator variable' };
  return v;
}

function twoVars(a0: Expr, a1: Expr): [string, string] | MacroError {
  const v1 = simpleName(a0, 'argument must be a simple name');
  if (typeof v1 !== 'string') return v1;
  const v2 = simpleName(a1, 'argument must be a simple name');
  if (typeof v2 !== 'string') return v2;
  if (v1 === v2) return { at: a1, message: `duplicate variable name: ${v1}` };
  if (v1 === ACCUMULATOR || v1 === LEGACY_ACCUMULATOR) return { at: a0, message: 'iteration variable overwrites accumulator variable' };
  if (v2 === ACCUMULATOR || v2 === LEGACY_ACCUMULATOR) return { at: a1, message: 'iteration variable overwrites accumulator variable' };
  return [v1, v2];
}

type Quantifier = 'all' | 'exists' | 'existsOne';

function quantifierParts(f: ExprFactory, at: number, kind: Quantifier, predicate: Expr) {
  switch (kind) {
    case 'all':
      return {
        accuInit: f.literal(at, true),
        loopCondition: f.call(at, '@not_strictly_false', f.accuIdent(at)),
        loopStep: f.call(at, '_&&_', f.accuIdent(at), predicate),
        result: f.accuIdent(at),
      };
    case 'exists':
      return {
        accuInit: f.literal(at, false),
        loopCondition: f.call(at, '@not_strictly_false', f.call(at, '!_', f.accuIdent(at))),
        loopStep: f.call(at, '_||_', f.accuIdent(at), predicate),
        result: f.accuIdent(at),
      };
    default:
      return {
        accuInit: f.literal(at, 0n),
        loopCondition: f.literal(at, true),
        loopStep: f.call(at, '_?_:_', predicate, f.call(at, '_+_', f.accuIdent(at), f.literal(at, 1n)), f.accuIdent(at)),
        result: f.call(at, '_==_', f.accuIdent(at), f.literal(at, 1n)),
      };
  }
}

function quantifier(kind: Quantifier): Expander {
  return (f, at, target, args) => {
    const v = iterVar(args[0]!, 'argument must be a simple name');
    if (typeof v !== 'string') return v;
    return f.comprehension(at, { iterRange: target!, iterVar: v, ...quantifierParts(f, at, kind, args[1]!) });
  };
}

function quantifier2(kind: Quantifier): Expander {
  return (f, at, target, args) => {
    const vs = twoVars(args[0]!, args[1]!);
    if (!Array.isArray(vs)) return vs;
    return f.comprehension(at, { iterRange: target!, iterVar: vs[0], iterVar2: vs[1], ...quantifierParts(f, at, kind, args[2]!) });
  };
}

const map: Expander = (f, at, target, args) => {
  const v = iterVar(args[0]!, 'argument is not an identifier');
  if (typeof v !== 'string') return v;
  const filter = args.length === 3 ? args[1] : undefined;
  const fn = args.length === 3 ? args[2]! : args[1]!;
  let step = f.call(at, '_+_', f.accuIdent(at), f.list(at, [fn]));
  if (filter) step = f.call(at, '_?_:_', filter, step, f.accuIdent(at));
  return f.comprehension(at, {
    iterRange: target!,
    iterVar: v,
    accuInit: f.list(at),
    loopCondition: f.literal(at, true),
    loopStep: step,
    result: f.accuIdent(at),
  });
};

const filter: Expander = (f, at, target, args) => {
  const v = iterVar(args[0]!, 'argument is not an identifier');
  if (typeof v !== 'string') return v;
  const step = f.call(at, '_?_:_', args[1]!, f.call(at, '_+_', f.accuIdent(at), f.list(at, [args[0]!])), f.accuIdent(at));
  return f.comprehension(at, {
    iterRange: target!,
    iterVar: v,
    accuInit: f.list(at),
    loopCondition: f.literal(at, true),
    loopStep: step,
    result: f.accuIdent(at),
  });
};

function transform(kind: 'list' | 'map' | 'mapEntry'): Expander {
  return (f, at, target, args) => {
    const vs = twoVars(args[0]!, args[1]!);
    if (!Array.isArray(vs)) return vs;
    const filterExpr = args.length === 4 ? args[2] : undefined;
    const fn = args.length === 4 ? args[3]! : args[2]!;
    let step =
      kind === 'list'
        ? f.call(at, '_+_', f.accuIdent(at), f.list(at, [fn]))
        : kind === 'map'
          ? f.call(at, 'cel.@mapInsert', f.accuIdent(at), f.ident(at, vs[0]), fn)
          : f.call(at, 'cel.@mapInsert', f.accuIdent(at), fn);
    if (filterExpr) step = f.call(at, '_?_:_', filterExpr, step, f.accuIdent(at));
    return f.comprehension(at, {
      iterRange: target!,
      iterVar: vs[0],
      iterVar2: vs[1],
      accuInit: kind === 'list' ? f.list(at) : f.map(at),
      loopCondition: f.literal(at, true),
      loopStep: step,
      result: f.accuIdent(at),
    });
  };
}

const has: Expander = (f, at, _target, args) => {
  const a = args[0]!;
  if (a.kind === 'select') return f.select(at, a.operand, a.field, true);
  return { at: a, message: 'invalid argument to has() macro' };
};

function optMap(flat: boolean): Expander {
  return (f, at, target, args) => {
    const v = simpleName(args[0]!, `${flat ? 'optFlatMap' : 'optMap'}() variable name must be a simple identifier`);
    if (typeof v !== 'string') return v;
    const bound = f.comprehension(at, {
      iterRange: f.list(at),
      iterVar: '#unused',
      accuVar: v,
      accuInit: f.memberCall(at, 'value', target!),
      loopCondition: f.literal(at, false),
      loopStep: f.ident(at, v),
      result: args[1]!,
    });
    return f.call(at, '_?_:_', f.memberCall(at, 'hasValue', target!), flat ? bound : f.call(at, 'optional.of', bound), f.call(at, 'optional.none'));
  };
}

const sortBy: Expander = (f, at, target, args) => {
  const v = simpleName(args[0]!, 'sortBy(var, ...) variable name must be simple identifier');
  if (typeof v !== 'string') return v;
  const input = '@__sortBy_input__';
  const keys = f.comprehension(at, {
    iterRange: f.ident(at, input),
    iterVar: v,
    accuInit: f.list(at),
    loopCondition: f.literal(at, true),
    loopStep: f.call(at, '_+_', f.accuIdent(at), f.list(at, [args[1]!])),
    result: f.accuIdent(at),
  });
  return f.comprehension(at, {
    iterRange: f.list(at),
    iterVar: '#unused',
    accuVar: input,
    accuInit: target!,
    loopCondition: f.literal(at, false),
    loopStep: f.ident(at, input),
    result: f.memberCall(at, '@sortByAssociatedKeys', f.ident(at, input), keys),
  });
};

/** Macros by `name/argument count/receiver-or-global`. */
const MACROS = new Map<string, Expander>([
  ['has/1/g', has],
  ['all/2/r', quantifier('all')],
  ['exists/2/r', quantifier('exists')],
  ['exists_one/2/r', quantifier('existsOne')],
  ['map/2/r', map],
  ['map/3/r', map],
  ['filter/2/r', filter],
  ['all/3/r', quantifier2('all')],
  ['exists/3/r', quantifier2('exists')],
  ['existsOne/3/r', quantifier2('existsOne')],
  ['exists_one/3/r', quantifier2('existsOne')],
  ['transformList/3/r', transform('list')],
  ['transformList/4/r', transform('list')],
  ['transformMap/3/r', transform('map')],
  ['transformMap/4/r', transform('map')],
  ['transformMapEntry/3/r', transform('mapEntry')],
  ['transformMapEntry/4/r', transform('mapEntry')],
  ['optMap/2/r', optMap(false)],
  ['optFlatMap/2/r', optMap(true)],
  ['sortBy/2/r', sortBy],
]);

/** Expands `name(args)` or `target.name(args)` when it is a macro; undefined when it is not. */
export function expandMacro(f: ExprFactory, at: number, name: string, target: Expr | undefined, args: Expr[]): Expr | MacroError | undefined {
  const expander = MACROS.get(`${name}/${args.length}/${target ? 'r' : 'g'}`);
  if (!expander) return undefined;
  const out = expander(f, at, target, args);
  return isError(out) ? out : out;
}

export { isError as isMacroError };
