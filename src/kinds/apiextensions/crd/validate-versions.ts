/**
 * The versions of a definition (apiextensions-apiserver validation.go, the versions part of
 * `validateCustomResourceDefinitionSpec` and `validateCustomResourceDefinitionVersion`): DNS-1035
 * names, unique, exactly one storage version, a deprecation warning only on deprecated versions,
 * and each version's own schema, subresources, printer columns and selectable fields.
 */
import { child, fieldError, GoPrinted, index, type FieldError } from '../../../machinery/field-errors.js';
import { isDNS1035Label } from '../../../schema/validation/names.js';
import { goJson } from '../../../util/go-format.js';
import { internalVersionsJson } from './internal-json.js';
import type { InternalSpec, InternalVersion } from './internal.js';
import { newStructuralError } from './new-structural.js';
import type { CrdValidationOptions } from './options.js';
import { schemaNestingErrors } from './schema-depth.js';
import { validateColumn } from './validate-columns.js';
import { validateSchema } from './validate-schema.js';
import { validateSelectableFields } from './validate-selectable-fields.js';
import { hasStatus, validateSubresources } from './validate-subresources.js';

/** `validateDeprecationWarning`. */
function deprecationWarningErrors(deprecated: boolean, warning: string | undefined): string[] {
  if (!deprecated && warning !== undefined) return ['can only be set for deprecated versions'];
  if (warning === undefined) return [];
  const errors: string[] = [];
  const bytes = Buffer.byteLength(warning, 'utf8');
  if (bytes > 256) errors.push('must be <= 256 characters long');
  if (bytes === 0) errors.push('must not be an empty string');
  let at = 0;
  for (const ch of warning) {
    const cp = ch.codePointAt(0)!;
    // unicode.IsPrint: letters, marks, numbers, punctuation, symbols and the ASCII space.
    const printable = cp === 0x20 || /^[\p{L}\p{M}\p{N}\p{P}\p{S}]$/u.test(ch);
    if (!printable) {
      errors.push(`must only contain printable UTF-8 characters; non-printable character found at index ${at}`);
      break;
    }
    at += Buffer.byteLength(ch, 'utf8');
  }
  if (/[\uD800-\uDFFF]/.test(warning.replace(/[\uD800-\uDBFF][\uDC00-\uDFFF]/g, ''))) errors.push('must only contain printable UTF-8 characters');
  return errors;
}

/** The subresources that apply to a version (`getSubresourcesForVersion`). */
function subresourcesFor(spec: InternalSpec, v: InternalVersion): InternalVersion['subresources'] {
  return spec.versions.some((x) => x.subresources) ? v.subresources : spec.subresources;
}

/** `validateCustomResourceDefinitionVersion`. */
function validateVersion(v: InternalVersion, spec: InternalSpec, opts: CrdValidationOptions, requireStructural: boolean, path: string): FieldError[] {
  const errors: FieldError[] = [];
  for (const msg of deprecationWarningErrors(v.deprecated, v.deprecationWarning))
    errors.push(fieldError.invalid(child(path, 'deprecationWarning'), new GoPrinted(goJson(v.deprecationWarning ?? null)), msg));
  const schemaPath = child(path, 'schema');
  const deep = schemaNestingErrors(v.schema?.openAPIV3Schema, child(schemaPath, 'openAPIV3Schema'));
  if (deep.length) return [...errors, ...deep];
  const suppress = opts.versionsWithUnchangedSchemas.has(v.name);
  errors.push(...validateSchema(v.schema, hasStatus(subresourcesFor(spec, v)), suppress, opts, requireStructural, schemaPath));
  errors.push(...validateSubresources(v.subresources, child(path, 'subresources')));
  v.additionalPrinterColumns.forEach((c, i) => errors.push(...validateColumn(c, index(child(path, 'additionalPrinterColumns'), i))));
  if (v.selectableFields.length) {
    const schema = v.schema?.openAPIV3Schema;
    if (!schema) errors.push(fieldError.invalid(child(path, 'selectableFields'), '', 'may only be set when `version.schema.openAPIV3Schema` is not included'));
    else {
      const err = newStructuralError(schema);
      if (err) errors.push(fieldError.invalid(child(path, 'schema.openAPIV3Schema'), '', err));
      errors.push(...validateSelectableFields(v.selectableFields, schema, child(path, 'selectableFields'), opts.allowTooManySelectableFields.has(v.name)));
    }
  }
  return errors;
}

/** The versions loop of the spec: names, each version, then uniqueness and the storage flag. */
export function validateVersions(spec: InternalSpec, opts: CrdValidationOptions, requireStructural: boolean, path: string): FieldError[] {
  const errors: FieldError[] = [];
  const versionsPath = child(path, 'versions');
  let storageCount = 0;
  const seen = new Set<string>();
  let unique = true;
  spec.versions.forEach((v, i) => {
    if (v.storage) storageCount++;
    if (seen.has(v.name)) unique = false;
    seen.add(v.name);
    const nameErrors = isDNS1035Label(v.name);
    if (nameErrors.length) errors.push(fieldError.invalid(child(index(versionsPath, i), 'name'), v.name, nameErrors.join(',')));
    errors.push(...validateVersion(v, spec, opts, requireStructural, index(versionsPath, i)));
  });
  const shown = (): GoPrinted => new GoPrinted(goJson(internalVersionsJson(spec.versions)));
  if (!unique) errors.push(fieldError.invalid(versionsPath, shown(), 'must contain unique version names'));
  if (storageCount !== 1) errors.push(fieldError.invalid(versionsPath, shown(), 'must have exactly one version marked as storage version'));
  if (spec.version !== '') {
    const versionErrors = isDNS1035Label(spec.version);
    if (versionErrors.length) errors.push(fieldError.invalid(child(path, 'version'), spec.version, versionErrors.join(',')));
  }
  return errors;
}
