/**
 * How strictly a definition is validated (apiextensions-apiserver validation.go
 * `validationOptions`): everything on create; on update, each rule a stored definition already
 * breaks is relaxed, so a definition accepted by an older server can still be updated
 * (see `ratcheting.ts`).
 */
import type { CrdValidationHooks } from './hooks.js';

/** The options of one validation. */
export interface CrdValidationOptions {
  /** Schemas may hold defaults. */
  readonly allowDefaults: boolean;
  /** Schemas must be given for every version. */
  readonly requireOpenAPISchema: boolean;
  /** `type` must be an OpenAPI v3 type. */
  readonly requireValidPropertyType: boolean;
  /** Schemas must be structural. */
  readonly requireStructuralSchema: boolean;
  /** Defaults must survive pruning. */
  readonly requirePrunedDefaults: boolean;
  /** Items of a `set` list must be atomic. */
  readonly requireAtomicSetType: boolean;
  /** Keys of a `map` list are required or defaulted and not nullable; set and map items are not nullable. */
  readonly requireMapListKeysMapSetValidation: boolean;
  /** A webhook conversion must name a ConversionReview version the server understands. */
  readonly requireRecognizedConversionReviewVersion: boolean;
  /** `spec.scope` and `spec.names.kind` may not change (the definition is established). */
  readonly requireImmutableNames: boolean;
  /** The conversion webhook's caBundle is not checked. */
  readonly allowInvalidCABundle: boolean;
  /** CEL rules and message expressions of the stored definition. */
  readonly preexistingRules: ReadonlySet<string>;
  readonly preexistingMessageExpressions: ReadonlySet<string>;
  /** Versions whose schema the update leaves as it was: their rules are not held to the per-expression cost limit. */
  readonly versionsWithUnchangedSchemas: ReadonlySet<string>;
  /** Versions (`''` for the top level) whose selectable fields may stay above the limit, unchanged. */
  readonly allowTooManySelectableFields: ReadonlySet<string>;
  readonly hooks: CrdValidationHooks;
}

/** The options of a create. */
export function createOptions(hooks: CrdValidationHooks): CrdValidationOptions {
  return {
    allowDefaults: true,
    requireOpenAPISchema: true,
    requireValidPropertyType: true,
    requireStructuralSchema: true,
    requirePrunedDefaults: true,
    requireAtomicSetType: true,
    requireMapListKeysMapSetValidation: true,
    requireRecognizedConversionReviewVersion: true,
    requireImmutableNames: false,
    allowInvalidCABundle: true,
    preexistingRules: new Set(),
    preexistingMessageExpressions: new Set(),
    versionsWithUnchangedSchemas: new Set(),
    allowTooManySelectableFields: new Set(),
    hooks,
  };
}
