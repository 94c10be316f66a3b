/**
 * A definition's `spec.conversion.strategy: Webhook`, as apiextensions-apiserver converts custom
 * resources (pkg/apiserver/conversion/webhook_converter.go): the objects whose apiVersion is not
 * the desired one go to the webhook in one `ConversionReview` (at the first of
 * `conversionReviewVersions` the server speaks), POSTed with a 30 s deadline; the answer and each
 * converted object are checked as the apiserver checks them, and any failure answers the request
 * with a 500 whose message is the apiserver's (`conversion webhook for example.com/v1, Kind=Widget
 * failed: ...`), as a Go error that is not a Status reaches the client.
 *
 * A list, a collection delete or a watch's initial events send their objects in one review, as
 * the converter does for a list. (kube-apiserver itself decodes stored objects one at a time, so
 * there each object goes in a review of its own; the error texts here are those it answers, for
 * the first object that fails.)
 */
import { randomUUID } from 'node:crypto';
import { ApiError, internalError } from '../../../machinery/errors.js';
import type { KubeObject, VersionConversion } from '../../../schema/define-kind.js';
import { callWebhook, WebhookCallError, type WebhookEndpoint } from '../../../webhook/client.js';
import type { EgressDialer } from '../../../webhook/egress-dialer.js';
import type { CustomResourceDefinition } from '../../types/apiextensions-v1.js';
import { ConversionReviewError, conversionReviewBody, convertedObjectsOf, gvkString, reviewVersionOf, type ReviewVersion } from './conversion-review.js';
import { acceptConverted, ConvertedObjectError } from './converted-object.js';
import { webhookEndpoint, type ServiceReader } from './webhook-endpoint.js';

/** How the webhook converter reaches the cluster and the webhook. */
export interface WebhookConversionOptions {
  /** Reads Services, for a `clientConfig.service`; without it every Service is missing. */
  readonly services?: ServiceReader;
  /** The deadline of one webhook call; 30 s, as kube-apiserver allows. */
  readonly timeoutMs?: number;
  /** How to reach the webhook: the `cluster` egress selection; directly when absent. */
  readonly egress?: EgressDialer;
}

/** A failure the apiserver answers as a plain Go error: 500, no reason, its text as the message. */
function plainError(message: string): ApiError {
  return new ApiError({ code: 500, message });
}

/** `isEmptyUnstructuredObject`: nothing but apiVersion and kind (converted without the webhook). */
function isEmptyObject(obj: KubeObject): boolean {
  const keys = Object.keys(obj);
  return keys.length === 2 && keys.includes('apiVersion') && keys.includes('kind');
}

/** The webhook converter of one definition. */
class WebhookConverter {
  private readonly endpoint: WebhookEndpoint | undefined;
  private readonly reviewVersion: ReviewVersion | undefined;

  constructor(
    crd: CustomResourceDefinition,
    private readonly options: WebhookConversionOptions,
  ) {
    const webhook = crd.spec.conversion?.webhook;
    const built = webhookEndpoint(webhook?.clientConfig, options.services);
    // A client the apiserver cannot build makes it refuse every request for the resource.
    this.endpoint = 'endpoint' in built ? (options.egress ? { ...built.endpoint, egress: options.egress } : built.endpoint) : undefined;
    this.reviewVersion = reviewVersionOf(webhook?.conversionReviewVersions ?? []);
  }

  /**
   * `objects` converted to `desired` (`group/version`), in order: synchronous when none needs the
   * webhook, else one review for all that do.
   */
  convert(objects: readonly KubeObject[], desired: string): KubeObject[] | Promise<KubeObject[]> {
    if (!this.endpoint) throw internalError(new Error('error resolving resource'));
    const toConvert = objects.filter((o) => o.apiVersion !== desired && !isEmptyObject(o));
    if (!this.reviewVersion) throw plainError('no supported conversion review versions');
    if (toConvert.length === 0) return objects.map((o) => (o.apiVersion === desired ? o : { ...o, apiVersion: desired }));
    return this.review(this.endpoint, this.reviewVersion, objects, toConvert, desired);
  }

  private async review(
    endpoint: WebhookEndpoint,
    version: ReviewVersion,
    objects: readonly KubeObject[],
    toConvert: KubeObject[],
    desired: string,
  ): Promise<KubeObject[]> {
    const first = gvkString(toConvert[0]!.apiVersion, toConvert[0]!.kind);
    const uid = randomUUID();
    let converted: unknown[];
    try {
      const res = await callWebhook({
        endpoint,
        body: conversionReviewBody(version, uid, desired, toConvert),
        ...(this.options.timeoutMs !== undefined ? { timeoutMs: this.options.timeoutMs } : {}),
      });
      converted = convertedObjectsOf(res, version, uid);
    } catch (e) {
      if (e instanceof WebhookCallError || e instanceof ConversionReviewError) throw plainError(`conversion webhook for ${first} failed: ${e.message}`);
      throw e;
    }
    if (converted.length !== toConvert.length) {
      throw plainError(`conversion webhook for ${first} returned ${converted.length} objects, expected ${toConvert.length}`);
    }
    let next = 0;
    return objects.map((original) => {
      if (original.apiVersion === desired || isEmptyObject(original)) return original;
      try {
        return acceptConverted(original, converted[next++], desired, gvkString(original.apiVersion, original.kind));
      } catch (e) {
        if (e instanceof ConvertedObjectError) throw plainError(e.message);
        throw e;
      }
    });
  }
}

/**
 * The conversion of each version of a definition whose strategy is `Webhook`: to and from the
 * storage version through the webhook; the storage version itself converts only objects stored at
 * another version (before the definition changed its storage version).
 */
export function webhookConversions(crd: CustomResourceDefinition, options: WebhookConversionOptions = {}): (version: string) => VersionConversion {
  const converter = new WebhookConverter(crd, options);
  const group = crd.spec.group;
  const kind = crd.status?.acceptedNames?.kind || crd.spec.names.kind;
  const storage = crd.spec.versions.find((v) => v.storage)?.name ?? crd.spec.versions[0]?.name ?? '';
  const storageApiVersion = `${group}/${storage}`;
  const one = (obj: KubeObject, desired: string): KubeObject | Promise<KubeObject> => {
    const out = converter.convert([obj], desired);
    return out instanceof Promise ? out.then((o) => o[0]!) : out[0]!;
  };
  return (version) => {
    const apiVersion = `${group}/${version}`;
    return {
      storageShape: version === storage,
      // A decoded body may leave apiVersion and kind out; the review sends them, as Go's decoder sets them.
      toStorage: ({ apiVersion: _a, kind: _k, ...rest }) => one({ kind, apiVersion, ...rest }, storageApiVersion),
      fromStorage: (obj) => one(obj, apiVersion),
      fromStorageMany: (objs) => converter.convert(objs, apiVersion),
    };
  };
}
