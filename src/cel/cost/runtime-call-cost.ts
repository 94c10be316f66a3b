/**
 * The cost a call adds at run time, as cel-go's CostTracker computes it in Kubernetes'
 * configuration: the libraries' own trackers first (sets, lists), then Kubernetes' CostEstimator
 * (apiserver/pkg/cel/library/cost.go CallCost), then cel-go's defaults (interpreter/runtimecost.go).
 */
import { actualSize } from '../values/runtime-types.js';
import { ListValue, MapValue, ObjectValue, OpaqueValue, type Result, type Value } from '../values/values.js';
import { LIST_CREATE_BASE_COST, MAX_NAME_FORMAT_REGEX_SIZE, REGEX_STRING_LENGTH_COST_FACTOR, STRING_TRAVERSAL_COST_FACTOR } from './constants.js';

const T = STRING_TRAVERSAL_COST_FACTOR;
const size = (v: Value | undefined): number => (v === undefined ? 1 : actualSize(v));

/** Kubernetes' traversalCost: the cost of walking a value as a data tree. */
function traversalCost(v: Value): number {
  if (typeof v === 'string') return Math.floor(v.length * T);
  if (v instanceof Uint8Array) return Math.floor(v.length * T);
  if (v instanceof ListValue) {
    let c = 0;
    for (const e of v) c += traversalCost(e);
    return c;
  }
  if (v instanceof MapValue) {
    let c = 0;
    for (const k of v.keys()) c += traversalCost(k) + traversalCost(v.get(k)!);
    return c;
  }
  if (v instanceof ObjectValue) {
    let c = 0;
    for (const k of v.fieldNames()) c += traversalCost(k) + traversalCost(v.field(k)!);
    return c;
  }
  return 1;
}

function allocatingList(costFactor: number, n: number): number {
  return Math.floor(n * costFactor) + 1 + LIST_CREATE_BASE_COST;
}

function selfCompare(l: Value): number {
  const n = size(l);
  let factor = 2;
  if (n === 0) return allocatingList(factor, 0);
  const first = (l as ListValue).get(0);
  if (typeof first === 'string' || first instanceof Uint8Array) factor += T;
  return allocatingList(factor, n * n);
}

/** Trackers of cel-go extension libraries, by overload id. */
function libraryTracker(overloadId: string, args: Value[], result: Result): number | undefined {
  switch (overloadId) {
    case 'list_sets_contains_list':
    case 'list_sets_intersects_list':
      return 1 + Math.floor(size(args[0]) * size(args[1]));
    case 'list_sets_equivalent_list':
      return 1 + Math.floor(size(args[0]) * size(args[1]) * 2);
    case 'list_slice':
    case 'lists_range':
    case 'list_reverse':
      return allocatingList(1, result instanceof ListValue ? result.size : 1);
    case 'list_flatten':
      return allocatingList(1, size(args[0]));
    case 'list_flatten_int':
      return allocatingList(Number(args[1] as bigint), size(args[0]));
    case 'list_distinct':
      return selfCompare(args[0]!);
    default:
      if (/^list_\w+_sort$/.test(overloadId)) return selfCompare(args[0]!);
      if (/^list_\w+_sortByAssociatedKeys$/.test(overloadId)) return selfCompare(args[1]!);
      return undefined;
  }
}

/** Kubernetes' CostEstimator.CallCost, by function name. */
function kubernetesCallCost(fn: string, overloadId: string, args: Value[], result: Result): number | undefined {
  switch (fn) {
    case 'isSorted':
    case 'sum':
    case 'max':
    case 'min':
    case 'indexOf':
    case 'lastIndexOf':
      return args.length > 0 ? traversalCost(args[0]!) : 0;
    case 'url':
    case 'lowerAscii':
    case 'upperAscii':
    case 'substring':
    case 'trim':
      return Math.ceil(size(args[0]) * T);
    case 'replace':
    case 'split':
      return Math.ceil(size(args[0]) * 2 * T);
    case 'join':
      return Math.ceil(size(result as Value) * 2 * T);
    case 'find':
    case 'findAll':
      if (args.length >= 2) return Math.ceil((1 + size(args[0])) * T) * Math.ceil(size(args[1]) * REGEX_STRING_LENGTH_COST_FACTOR);
      return undefined;
    case 'cidr':
    case 'isIP':
    case 'isCIDR':
      return Math.ceil(size(args[0]) * T);
    case 'ip':
      if (overloadId === 'cidr_ip') return 1;
      return Math.ceil(size(args[0]) * T);
    case 'ip.isCanonical':
      return Math.ceil(size(args[0]) * 2 * T);
    case 'masked':
    case 'prefixLength':
    case 'family':
    case 'isUnspecified':
    case 'isLoopback':
    case 'isLinkLocalMulticast':
    case 'isLinkLocalUnicast':
    case 'isGlobalUnicast':
      return 1;
    case 'containsIP': {
      const cidrSize = size(args[0]);
      let cost = Math.ceil((cidrSize + cidrSize) * T);
      if (overloadId === 'cidr_contains_ip_string') cost += Math.ceil(size(args[1]) * T);
      return cost;
    }
    case 'containsCIDR': {
      const cidrSize = size(args[0]);
      let cost = Math.ceil((cidrSize + cidrSize) * T) + Math.ceil(cidrSize * T) + 1;
      if (overloadId === 'cidr_contains_cidr_string') cost += Math.ceil(size(args[1]) * T);
      return cost;
    }
    case 'quantity':
    case 'isQuantity':
    case 'semver':
    case 'isSemver':
      return Math.ceil(size(args[0]) * T);
    case 'validate':
      if (args.length >= 2 && args[0] instanceof OpaqueValue) {
        return Math.ceil((1 + size(args[1])) * T) * Math.ceil(MAX_NAME_FORMAT_REGEX_SIZE * REGEX_STRING_LENGTH_COST_FACTOR);
      }
      return undefined;
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
      return 1;
    case '_==_':
      if (args.length === 2 && args[0] instanceof OpaqueValue) return 1;
      return undefined;
    default:
      return undefined;
  }
}

/** cel-go's default call costs, by overload id. */
function defaultCallCost(overloadId: string, args: Value[]): number {
  switch (overloadId) {
    case 'starts_with_string':
    case 'ends_with_string':
    case 'string_to_bytes':
    case 'bytes_to_string':
    case 'strings_quote':
    case 'string_format':
      return Math.ceil(size(args[0]) * T);
    case 'in_list':
      return size(args[1]);
    case 'less_string':
    case 'greater_string':
    case 'less_equals_string':
    case 'greater_equals_string':
    case 'less_bytes':
    case 'greater_bytes':
    case 'less_equals_bytes':
    case 'greater_equals_bytes':
    case 'equals':
    case 'not_equals':
      return Math.ceil(Math.min(size(args[0]), size(args[1])) * T);
    case 'add_string':
    case 'add_bytes':
      return Math.ceil((size(args[0]) + size(args[1])) * T);
    case 'matches_string':
      return Math.ceil((1 + size(args[0])) * T) * Math.ceil(size(args[1]) * REGEX_STRING_LENGTH_COST_FACTOR);
    case 'contains_string':
      return Math.ceil(size(args[0]) * T) * Math.ceil(size(args[1]) * T);
    default:
      return 1;
  }
}

/** The runtime cost of one call: function name, the overload that ran, its arguments (receiver first) and result. */
export function runtimeCallCost(fn: string, overloadId: string, args: Value[], result: Result): number {
  return libraryTracker(overloadId, args, result) ?? kubernetesCallCost(fn, overloadId, args, result) ?? defaultCallCost(overloadId, args);
}
