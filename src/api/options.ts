/**
 * Validation of request options (`CreateOptions`, `UpdateOptions`, `PatchOptions`, `DeleteOptions`),
 * done before anything else so an invalid option means nothing is processed.
 */
import { badRequest, invalid } from '../machinery/errors.js';
import { fieldError, type FieldError } from '../machinery/field-errors.js';
import type { DeleteOptions, FieldValidation, PatchType, WriteOptions } from '../machinery/request.js';

const META_GROUP = 'meta.k8s.io';
const FIELD_MANAGER_MAX = 128;

function validateDryRun(dryRun: readonly string[] | undefined, errors: FieldError[]): void {
  if (dryRun && dryRun.some((v) => v !== 'All')) {
    errors.push(fieldError.notSupported('dryRun', dryRun, ['All']));
  }
}

/** Go's `unicode.IsPrint`: letters, marks, numbers, punctuation, symbols and the ASCII space. */
const PRINTABLE = /^[\p{L}\p{M}\p{N}\p{P}\p{S} ]$/u;

/** `U+0007`, as Go's `%#U` starts a rune. */
function runeName(ch: string): string {
  return `U+${ch.codePointAt(0)!.toString(16).toUpperCase().padStart(4, '0')}`;
}

function validateFieldManager(fieldManager: string | undefined, errors: FieldError[]): void {
  if (fieldManager === undefined) return;
  // Kubernetes measures the length in bytes and reports every non-printable rune with its byte position.
  if (Buffer.byteLength(fieldManager, 'utf8') > FIELD_MANAGER_MAX) {
    errors.push(fieldError.tooLong('fieldManager', FIELD_MANAGER_MAX));
    return;
  }
  let position = 0;
  for (const ch of fieldManager) {
    if (!PRINTABLE.test(ch)) {
      // Go's %#U adds the character itself only for printable runes, so never here.
      errors.push(fieldError.invalid('fieldManager', fieldManager, `invalid character ${runeName(ch)} (at position ${position})`));
    }
    position += Buffer.byteLength(ch, 'utf8');
  }
}

function validateFieldValidation(value: string | undefined, errors: FieldError[]): void {
  if (value === undefined || value === '') return;
  if (value !== 'Ignore' && value !== 'Warn' && value !== 'Strict') {
    errors.push(fieldError.notSupported('fieldValidation', value, ['', 'Ignore', 'Strict', 'Warn']));
  }
}

/** Checks create/update/patch options; throws 422 Invalid naming the options kind, as Kubernetes does. */
export function validateWriteOptions(kind: 'CreateOptions' | 'UpdateOptions' | 'PatchOptions', options: WriteOptions | undefined): void {
  const errors: FieldError[] = [];
  validateFieldManager(options?.fieldManager, errors);
  validateDryRun(options?.dryRun, errors);
  validateFieldValidation(options?.fieldValidation, errors);
  if (errors.length) throw invalid({ group: META_GROUP, kind }, '', errors);
}

/**
 * Checks patch options (`ValidatePatchOptions`): apply needs a field manager, `force` is for apply
 * only, then the options every write has. 422 Invalid on `PatchOptions.meta.k8s.io`.
 */
export function validatePatchOptions(patchType: PatchType, options: WriteOptions | undefined): void {
  const errors: FieldError[] = [];
  if (patchType === 'apply') {
    if (!options?.fieldManager) errors.push(fieldError.required('fieldManager', 'is required for apply patch'));
  } else if (options?.force !== undefined) {
    errors.push(fieldError.forbidden('force', 'may not be specified for non-apply patch'));
  }
  validateFieldManager(options?.fieldManager, errors);
  validateDryRun(options?.dryRun, errors);
  validateFieldValidation(options?.fieldValidation, errors);
  if (errors.length) throw invalid({ group: META_GROUP, kind: 'PatchOptions' }, '', errors);
}

/** The effective fieldValidation directive (Warn when unset, as since Kubernetes 1.23). */
export function fieldValidationOf(options: WriteOptions | undefined): FieldValidation {
  const v = options?.fieldValidation;
  return v === 'Ignore' || v === 'Strict' ? v : 'Warn';
}

/** Whether the request is a dry run (only `All` is valid; validated before). */
export function isDryRun(options: { dryRun?: string[] } | undefined): boolean {
  return (options?.dryRun?.length ?? 0) > 0;
}

const PROPAGATION = ['Foreground', 'Background', 'Orphan'] as const;

/** Checks delete options; throws 422 Invalid as Kubernetes' `ValidateDeleteOptions` does. */
export function validateDeleteOptions(options: DeleteOptions | undefined): void {
  if (!options) return;
  const errors: FieldError[] = [];
  if (options.orphanDependents !== undefined && options.propagationPolicy !== undefined) {
    errors.push(fieldError.invalid('propagationPolicy', options.propagationPolicy, 'orphanDependents and deletionPropagation cannot be both set'));
  }
  if (options.propagationPolicy !== undefined && !(PROPAGATION as readonly string[]).includes(options.propagationPolicy)) {
    errors.push(fieldError.notSupported('propagationPolicy', options.propagationPolicy, [...PROPAGATION, 'nil']));
  }
  validateDryRun(options.dryRun, errors);
  if (errors.length) throw invalid({ group: META_GROUP, kind: 'DeleteOptions' }, '', errors);
  if (options.gracePeriodSeconds !== undefined && !Number.isInteger(options.gracePeriodSeconds)) {
    throw badRequest(`gracePeriodSeconds must be an integer, got ${options.gracePeriodSeconds}`);
  }
}

/** The grace period a delete asks for: Kubernetes treats a negative one as 1 second. */
export function requestedGracePeriod(options: DeleteOptions | undefined): number | undefined {
  const g = options?.gracePeriodSeconds;
  return g !== undefined && g < 0 ? 1 : g;
}
