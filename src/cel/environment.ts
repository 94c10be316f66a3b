/**
 * The function library of Kubernetes' CEL environment at v1.36 (apiserver/pkg/cel/environment/
 * base.go for the newest compatibility version): the standard library with optional types and
 * cross-type numeric comparisons, the URL, regex, lists, quantity, IP, CIDR, format and semver
 * libraries of Kubernetes, and cel-go's strings (version 2), sets, two-variable comprehensions and
 * lists (version 3) extensions. Not included, as in Kubernetes' base environment: cel-go's math,
 * bindings (cel.bind) and encoders extensions; the authorizer library (no authorizer variable
 * exists for CRD rules).
 */
import { FunctionTable } from './functions/declarations.js';
import { standardFunctions } from './functions/stdlib.js';
import { extListsFunctions } from './library/ext-lists.js';
import { formatFunctions } from './library/format.js';
import { ipFunctions } from './library/ip.js';
import { listsFunctions } from './library/lists.js';
import { mapInsertFunctions } from './library/map-insert.js';
import { optionalFunctions } from './library/optional.js';
import { quantityFunctions } from './library/quantity.js';
import { regexFunctions } from './library/regex.js';
import { semverFunctions } from './library/semver.js';
import { setsFunctions } from './library/sets.js';
import { stringsFunctions } from './library/strings.js';
import { urlFunctions } from './library/urls.js';

let table: FunctionTable | undefined;

/** The functions of Kubernetes' CEL environment, built once. */
export function kubernetesFunctions(): FunctionTable {
  table ??= new FunctionTable().add(
    ...standardFunctions(),
    ...optionalFunctions(),
    ...mapInsertFunctions(),
    ...stringsFunctions(),
    ...setsFunctions(),
    ...extListsFunctions(),
    ...listsFunctions(),
    ...regexFunctions(),
    ...urlFunctions(),
    ...quantityFunctions(),
    ...ipFunctions(),
    ...formatFunctions(),
    ...semverFunctions(),
  );
  return table;
}

/** Object types the libraries declare (values of these types have no fields a rule can select). */
export const LIBRARY_OBJECT_TYPES: ReadonlySet<string> = new Set(['kubernetes.Quantity', 'kubernetes.URL', 'kubernetes.NamedFormat', 'kubernetes.Semver']);
