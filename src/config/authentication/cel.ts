/**
 * The CEL of an AuthenticationConfiguration (k8s.io/apiserver pkg/authentication/cel/compile.go):
 * claim expressions see `claims`, a `map(string, dyn)` of the token's claims; user validation rules
 * see `user`, a `kubernetes.UserInfo` object (username, uid, groups, extra). Validation rules must
 * be `bool`; mappings may be of any type (checked when they run). Programs run with Kubernetes'
 * per-call cost limit, as the base environment's programs do.
 */
import { Environment, type Program } from '../../cel/index.js';
import { walkExpr, type Expr } from '../../cel/syntax/ast.js';
import { BOOL, DYN, STRING, listType, mapType, structType } from '../../cel/types/types.js';
import type { CelType } from '../../cel/index.js';

/** The name of the claims variable. */
export const CLAIMS_VARIABLE = 'claims';
/** The name of the user variable. */
export const USER_VARIABLE = 'user';
/** The object type of `user`. */
export const USER_INFO_TYPE = 'kubernetes.UserInfo';

const USER_FIELDS: ReadonlyMap<string, CelType> = new Map([
  ['username', STRING],
  ['uid', STRING],
  ['groups', listType(STRING)],
  ['extra', mapType(STRING, listType(STRING))],
]);

let claimsEnv: Environment | undefined;
let userEnv: Environment | undefined;

function environment(variable: typeof CLAIMS_VARIABLE | typeof USER_VARIABLE): Environment {
  if (variable === CLAIMS_VARIABLE) {
    claimsEnv ??= new Environment({ variables: [{ name: CLAIMS_VARIABLE, type: mapType(STRING, DYN) }] });
    return claimsEnv;
  }
  userEnv ??= new Environment({
    variables: [{ name: USER_VARIABLE, type: structType(USER_INFO_TYPE) }],
    types: {
      hasStructType: (name) => name === USER_INFO_TYPE,
      fieldType: (name, field) => (name === USER_INFO_TYPE ? USER_FIELDS.get(field) : undefined),
    },
  });
  return userEnv;
}

/** A compiled expression of the configuration. */
export interface CompiledExpression {
  readonly expression: string;
  readonly program: Program;
}

/** An expression that did not compile: the detail of upstream's `cel.Error` (always `Invalid`). */
export interface CompileFailure {
  readonly detail: string;
}

/** `compiler.compile`: parse and check; `mustBeBool` for validation rules (`must evaluate to bool`). */
function compile(variable: typeof CLAIMS_VARIABLE | typeof USER_VARIABLE, expression: string, mustBeBool: boolean): CompiledExpression | CompileFailure {
  const result = environment(variable).compile(expression);
  if (!result.ok) return { detail: `compilation failed: ${result.issues}` };
  if (mustBeBool && result.program.outputType.kind !== BOOL.kind) return { detail: 'must evaluate to bool' };
  return { expression, program: result.program };
}

/** Compiles an expression over `claims` (`CompileClaimsExpression`). */
export function compileClaimsExpression(expression: string, mustBeBool: boolean): CompiledExpression | CompileFailure {
  return compile(CLAIMS_VARIABLE, expression, mustBeBool);
}

/** Compiles a user validation rule over `user` (`CompileUserExpression`); it must be `bool`. */
export function compileUserExpression(expression: string): CompiledExpression | CompileFailure {
  return compile(USER_VARIABLE, expression, true);
}

/** True for a failed compilation. */
export function isCompileFailure(r: CompiledExpression | CompileFailure): r is CompileFailure {
  return 'detail' in r;
}

/**
 * True when the expression selects `claims.<field>` anywhere, plainly or as `claims.?<field>`
 * (pkg/apis/apiserver/validation `hasSelectExp`).
 */
export function selectsClaim(compiled: CompiledExpression, field: string): boolean {
  let found = false;
  walkExpr(compiled.program.checked.parsed.expr, (e: Expr) => {
    if (found) return;
    if (e.kind === 'select' && e.field === field && e.operand.kind === 'ident' && e.operand.name === CLAIMS_VARIABLE) found = true;
    if (
      e.kind === 'call' &&
      e.target === undefined &&
      e.fn === '_?._' &&
      e.args.length === 2 &&
      e.args[0]!.kind === 'ident' &&
      e.args[0]!.name === CLAIMS_VARIABLE &&
      e.args[1]!.kind === 'literal' &&
      e.args[1]!.value === field
    )
      found = true;
  });
  return found;
}
