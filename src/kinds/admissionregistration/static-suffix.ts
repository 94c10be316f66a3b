/**
 * Names reserved for admission configurations loaded from manifests at server start
 * (`ValidateStaticSuffix` and `WarningsForStaticSuffix` of pkg/apis/admissionregistration/validation):
 * with the `ManifestBasedAdmissionControlConfig` gate on, a create through the API may not use a
 * name ending in `.static.<api domain>`; with it off, such a create only warns. An update warns
 * either way.
 */
import { fieldError, type FieldError } from '../../machinery/field-errors.js';
import type { KindContext, KubeObject } from '../../schema/define-kind.js';
import { goQuote } from '../../util/go-format.js';

/** The feature gate of manifest-based admission configurations. */
export const MANIFEST_BASED_ADMISSION_CONTROL_CONFIG = 'ManifestBasedAdmissionControlConfig';

const suffix = (ctx: KindContext) => `.static.${ctx.apiDomain}`;
const reservedMsg = (ctx: KindContext) =>
  `names ending with ${goQuote(suffix(ctx))} are reserved for static manifest-based configurations and cannot be managed via the API`;

/** The create rule: a reserved name is invalid while the gate is on. */
export function validateStaticSuffix(obj: KubeObject, ctx: KindContext): FieldError[] {
  const name = obj.metadata?.name ?? '';
  if (ctx.operation !== 'create' || !ctx.featureEnabled(MANIFEST_BASED_ADMISSION_CONTROL_CONFIG) || !name.endsWith(suffix(ctx))) return [];
  return [fieldError.invalid('metadata.name', name, reservedMsg(ctx))];
}

/** The warning of a create with the gate off, and of every update. */
export function staticSuffixWarnings(obj: KubeObject, old: unknown, ctx: KindContext): string[] {
  const name = obj.metadata?.name ?? '';
  if (!name.endsWith(suffix(ctx))) return [];
  if (old === undefined && ctx.featureEnabled(MANIFEST_BASED_ADMISSION_CONTROL_CONFIG)) return [];
  return [`metadata.name: ${reservedMsg(ctx)}`];
}
