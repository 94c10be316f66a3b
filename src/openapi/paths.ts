/**
 * The `paths` of an OpenAPI document, shared by the Swagger 2.0 and OpenAPI 3.0 documents: one
 * path item per served path of each kind, its operations keyed by method and its path parameters,
 * each written the way its document's format spells operations and parameters.
 */
import { kindPaths, type Operation, type OperationParameter } from './operations.js';
import type { JsonSchema, KindSchemaNames } from './schemas.js';

/** How one document format writes an operation and a parameter. */
export interface PathWriters {
  operation(o: Operation): JsonSchema;
  parameter(p: OperationParameter): JsonSchema;
}

/** The `paths` object of the kinds' operations. */
export function documentPaths(kinds: readonly KindSchemaNames[], write: PathWriters): JsonSchema {
  const paths: JsonSchema = {};
  for (const names of kinds) {
    for (const item of kindPaths(names)) {
      const entry: JsonSchema = {};
      for (const o of item.operations) entry[o.method] = write.operation(o);
      entry.parameters = item.parameters.map(write.parameter);
      paths[item.path] = entry;
    }
  }
  return paths;
}

const RESPONSE_TEXT: Readonly<Record<string, string>> = { '200': 'OK', '201': 'Created', '202': 'Accepted' };

/** The description of a response code, as kube-openapi writes it. */
export function responseDescription(code: string): string {
  return RESPONSE_TEXT[code] ?? code;
}

/** The media types an operation answers in: watchable lists and collections stream watch events too. */
export function producedMediaTypes(o: Operation): string[] {
  return o.watchable ? ['application/json', 'application/yaml', 'application/json;stream=watch'] : ['application/json', 'application/yaml'];
}
