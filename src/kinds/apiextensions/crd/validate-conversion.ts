/**
 * `spec.conversion` (apiextensions-apiserver validation.go `validateCustomResourceConversion`,
 * `validateConversionReviewVersions`). Paths are those of the internal type:
 * `spec.conversion.webhookClientConfig` and `spec.conversion.conversionReviewVersions` (v1's
 * `webhook.clientConfig` and `webhook.conversionReviewVersions`).
 */
import { child, fieldError, index, type FieldError } from '../../../machinery/field-errors.js';
import { isDNS1035Label } from '../../../schema/validation/names.js';
import type { InternalConversion } from './internal.js';
import { validateEnum } from './validate-names.js';
import { validateCABundle, validateConversionWebhookService, validateConversionWebhookURL } from './webhook-client.js';

/** The ConversionReview versions the server understands, sorted. */
export const ACCEPTED_CONVERSION_REVIEW_VERSIONS = ['v1', 'v1beta1'];

/** Whether some version is understood, or the list is empty (`hasValidConversionReviewVersionOrEmpty`). */
export function hasValidConversionReviewVersionOrEmpty(versions: readonly string[]): boolean {
  return versions.length === 0 || versions.some((v) => ACCEPTED_CONVERSION_REVIEW_VERSIONS.includes(v));
}

function validateConversionReviewVersions(versions: readonly string[], requireRecognized: boolean, path: string): FieldError[] {
  if (versions.length < 1) return [fieldError.required(path, '')];
  const errors: FieldError[] = [];
  const seen = new Set<string>();
  let accepted = false;
  versions.forEach((v, i) => {
    if (seen.has(v)) {
      errors.push(fieldError.invalid(index(path, i), v, 'duplicate version'));
      return;
    }
    seen.add(v);
    for (const msg of isDNS1035Label(v)) errors.push(fieldError.invalid(index(path, i), v, msg));
    if (ACCEPTED_CONVERSION_REVIEW_VERSIONS.includes(v)) accepted = true;
  });
  if (requireRecognized && !accepted)
    errors.push(fieldError.invalid(path, versions, `must include at least one of ${ACCEPTED_CONVERSION_REVIEW_VERSIONS.join(', ')}`));
  return errors;
}

/** How strictly conversion is checked. */
export interface ConversionOptions {
  readonly requireRecognizedConversionReviewVersion: boolean;
  readonly allowInvalidCABundle: boolean;
}

/** Validates `spec.conversion` at `path`. */
export function validateConversion(conversion: InternalConversion | undefined, opts: ConversionOptions, path: string): FieldError[] {
  if (!conversion) return [];
  const errors = validateEnum(conversion.strategy, ['None', 'Webhook'], child(path, 'strategy'));
  const ccPath = child(path, 'webhookClientConfig');
  const cc = conversion.webhookClientConfig;
  if (conversion.strategy === 'Webhook') {
    if (!cc) errors.push(fieldError.required(ccPath, 'required when strategy is set to Webhook'));
    else {
      if ((cc.url === undefined) === (cc.service === undefined)) errors.push(fieldError.required(ccPath, 'exactly one of url or service is required'));
      else if (cc.url !== undefined) errors.push(...validateConversionWebhookURL(cc.url, child(ccPath, 'url')));
      else if (cc.service) errors.push(...validateConversionWebhookService(cc.service, child(ccPath, 'service')));
      if (cc.caBundle && !opts.allowInvalidCABundle) errors.push(...validateCABundle(cc.caBundle, child(ccPath, 'caBundle')));
    }
    errors.push(
      ...validateConversionReviewVersions(
        conversion.conversionReviewVersions,
        opts.requireRecognizedConversionReviewVersion,
        child(path, 'conversionReviewVersions'),
      ),
    );
  } else {
    if (cc) errors.push(fieldError.forbidden(ccPath, 'should not be set when strategy is not set to Webhook'));
    if (conversion.conversionReviewVersions.length)
      errors.push(fieldError.forbidden(child(path, 'conversionReviewVersions'), 'should not be set when strategy is not set to Webhook'));
  }
  return errors;
}
