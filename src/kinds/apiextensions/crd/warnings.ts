/**
 * The warnings of a definition's create and update (apiextensions-apiserver registry strategy.go
 * `WarningsOnCreate`/`WarningsOnUpdate`, pkg/apiserver/validation formats.go
 * `GetUnrecognizedFormats`): `unrecognized format "<f>"` for each format the server does not
 * check (ignored at runtime); an update warns only of formats the stored definition did not have.
 */
import type { CustomResourceDefinition, JSONSchemaProps } from '../../types/apiextensions-v1.js';
import { goQuote } from '../../../util/go-format.js';
import { internalSpec } from './internal.js';
import { schemaHas } from './schema-access.js';

/** The string formats Kubernetes v1.36 checks, without dashes (go-openapi's normalization). */
const STRING_FORMATS = new Set(
  [
    'bsonobjectid',
    'uri',
    'email',
    'hostname',
    'ipv4',
    'ipv6',
    'cidr',
    'mac',
    'uuid',
    'uuid3',
    'uuid4',
    'uuid5',
    'isbn',
    'isbn10',
    'isbn13',
    'creditcard',
    'ssn',
    'hexcolor',
    'rgbcolor',
    'byte',
    'password',
    'date',
    'duration',
    'datetime',
    'k8s-short-name',
    'k8s-long-name',
  ].map((f) => f.replaceAll('-', '')),
);

/** Whether a node's format is one Kubernetes does not recognize for its type. */
function unrecognized(s: JSONSchemaProps): boolean {
  const format = s.format;
  if (!format) return false;
  switch (s.type ?? '') {
    case '':
    case 'string':
      return !STRING_FORMATS.has(format.replaceAll('-', ''));
    case 'integer':
      return format !== 'int32' && format !== 'int64';
    case 'number':
      return format !== 'float' && format !== 'double';
    default:
      return true;
  }
}

/** The unrecognized formats of a definition, every occurrence, top-level schema first. */
export function unrecognizedFormats(crd: CustomResourceDefinition): string[] {
  const spec = internalSpec(crd);
  const out: string[] = [];
  const collect = (root: JSONSchemaProps | undefined): void => {
    schemaHas(root, (s) => {
      if (unrecognized(s)) out.push(s.format!);
      return false;
    });
  };
  collect(spec.validation?.openAPIV3Schema ?? undefined);
  for (const v of spec.versions) collect(v.schema?.openAPIV3Schema ?? undefined);
  return out;
}

/** The warnings of a create (`old` undefined) or an update. */
export function customResourceDefinitionWarnings(crd: CustomResourceDefinition, old?: CustomResourceDefinition): string[] {
  const known = new Set(old ? unrecognizedFormats(old) : []);
  return unrecognizedFormats(crd)
    .filter((f) => !known.has(f))
    .map((f) => `unrecognized format ${goQuote(f)}`);
}
