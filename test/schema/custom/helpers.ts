import { ObjectMeta } from '../../../src/kinds/types/meta-v1.js';
import { fieldErrorMessage, type FieldError } from '../../../src/machinery/field-errors.js';
import { compileCustomSchema, type CompiledCustomSchema, type JsonSchemaProps } from '../../../src/schema/custom/index.js';
import { structuralOf } from '../../../src/schema/structural.js';

export const objectMeta = structuralOf(ObjectMeta());

/** Compiles a schema with the built-in ObjectMeta. */
export function compile(props: JsonSchemaProps): CompiledCustomSchema {
  return compileCustomSchema(props, { objectMeta });
}

/** A resource schema whose `spec` is `spec`. */
export function withSpec(spec: JsonSchemaProps, extra: Record<string, JsonSchemaProps> = {}): CompiledCustomSchema {
  return compile({ type: 'object', properties: { spec, ...extra } });
}

/** The messages of field errors, as the API server prints them. */
export function messages(errors: readonly FieldError[]): string[] {
  return errors.map(fieldErrorMessage);
}

/** Validates `{spec}` against a schema of `spec` and answers the messages. */
export function specErrors(spec: JsonSchemaProps, value: unknown): string[] {
  return messages(withSpec(spec).validate({ spec: value }));
}

/** Deep-freezes a JSON value (as storage freezes objects). */
export function deepFreeze<T>(v: T): T {
  if (typeof v === 'object' && v !== null) {
    for (const x of Object.values(v)) deepFreeze(x);
    Object.freeze(v);
  }
  return v;
}
