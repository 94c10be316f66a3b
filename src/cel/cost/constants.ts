/** cel-go's cost constants (common/cost.go) and Kubernetes' CEL limits (apiserver/pkg/apis/cel/config.go). */

/** Cost of reading a variable or selecting a field. */
export const SELECT_AND_IDENT_COST = 1;
/** Cost of a constant. */
export const CONST_COST = 0;
/** Base cost of building a list. */
export const LIST_CREATE_BASE_COST = 10;
/** Base cost of building a map. */
export const MAP_CREATE_BASE_COST = 30;
/** Base cost of building a message. */
export const STRUCT_CREATE_BASE_COST = 40;
/** Cost per character of traversing a string. */
export const STRING_TRAVERSAL_COST_FACTOR = 0.1;
/** Cost factor per character of a regular expression. */
export const REGEX_STRING_LENGTH_COST_FACTOR = 0.25;

/** The largest value a cost estimate takes (Go's math.MaxUint64, held exactly as a bigint elsewhere). */
export const MAX_UINT64 = 2n ** 64n - 1n;

/** Kubernetes' runtime cost limit of one CEL expression evaluation (PerCallLimit). */
export const PER_CALL_LIMIT = 1_000_000;
/** Kubernetes' runtime cost budget of all CEL validation of one custom resource (RuntimeCELCostBudget). */
export const RUNTIME_CEL_COST_BUDGET = 10_000_000;
/** The largest estimated cost of one x-kubernetes-validations expression (apiextensions StaticEstimatedCostLimit). */
export const STATIC_ESTIMATED_COST_LIMIT = 10_000_000;
/** The largest estimated cost of all x-kubernetes-validations of a CRD (apiextensions StaticEstimatedCRDCostLimit). */
export const STATIC_ESTIMATED_CRD_COST_LIMIT = 100_000_000;
/** The largest request the API server accepts (MaxRequestSizeBytes): 3 MiB. */
export const MAX_REQUEST_SIZE_BYTES = 3 * 1024 * 1024;
/** The longest message a messageExpression may produce (MaxEvaluatedMessageExpressionSizeBytes). */
export const MAX_EVALUATED_MESSAGE_EXPRESSION_SIZE_BYTES = 5 * 1024;
/** The largest regular expression a named format validates with (apiserver/pkg/cel MaxNameFormatRegexSize). */
export const MAX_NAME_FORMAT_REGEX_SIZE = 128;
