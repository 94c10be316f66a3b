/**
 * TracingConfiguration: the file kube-apiserver's `--tracing-config-file` names, saying where
 * spans are exported (an OTLP gRPC endpoint) and how many new traces are sampled
 * (k8s.io/component-base/tracing/api/v1 TracingConfiguration, embedded in k8s.io/apiserver
 * pkg/apis/apiserver/{v1,v1beta1,v1alpha1}/types.go). Every version is registered in the
 * `apiserver.config.k8s.io` group (pkg/apis/apiserver/<version>/register.go).
 */
import { z } from 'zod';
import { lazyConfigVersion, type ConfigKind } from '../decode.js';
import { lazySchema } from '../../util/lazy-schema.js';

function tracingConfigurationSchema(apiVersion: string) {
  return z.object({
    apiVersion: z.literal(apiVersion),
    kind: z.literal('TracingConfiguration'),
    /** The collector's OTLP gRPC endpoint (insecure); `localhost:4317` when unset. */
    endpoint: z.string().optional(),
    /**
     * New traces sampled per million; when unset (or 0) none, while a request whose caller's
     * trace is sampled is still traced (the sampler follows its parent).
     */
    samplingRatePerMillion: z.int32().optional(),
  });
}

/** `apiserver.config.k8s.io/v1`. */
export const TracingConfigurationV1Schema = lazySchema(() => tracingConfigurationSchema('apiserver.config.k8s.io/v1'));
/** `apiserver.config.k8s.io/v1beta1`, the same fields. */
export const TracingConfigurationV1beta1Schema = lazySchema(() => tracingConfigurationSchema('apiserver.config.k8s.io/v1beta1'));
/** `apiserver.config.k8s.io/v1alpha1`, the same fields. */
export const TracingConfigurationV1alpha1Schema = lazySchema(() => tracingConfigurationSchema('apiserver.config.k8s.io/v1alpha1'));

/** A TracingConfiguration as written, in any of its three versions. */
export type TracingConfiguration =
  | z.infer<ReturnType<typeof TracingConfigurationV1Schema>>
  | z.infer<ReturnType<typeof TracingConfigurationV1beta1Schema>>
  | z.infer<ReturnType<typeof TracingConfigurationV1alpha1Schema>>;

/** The kind and its three served versions. */
export const TracingConfigurationKind: ConfigKind = {
  kind: 'TracingConfiguration',
  versions: [
    lazyConfigVersion('apiserver.config.k8s.io/v1', TracingConfigurationV1Schema),
    lazyConfigVersion('apiserver.config.k8s.io/v1beta1', TracingConfigurationV1beta1Schema),
    // memkube also reads the kind under the group of those versions' other kinds (EgressSelectorConfiguration),
    // where kube-apiserver would not find it.
    lazyConfigVersion(
      'apiserver.k8s.io/v1beta1',
      lazySchema(() => tracingConfigurationSchema('apiserver.k8s.io/v1beta1')),
    ),
    lazyConfigVersion(
      'apiserver.k8s.io/v1alpha1',
      lazySchema(() => tracingConfigurationSchema('apiserver.k8s.io/v1alpha1')),
    ),
    lazyConfigVersion('apiserver.config.k8s.io/v1alpha1', TracingConfigurationV1alpha1Schema),
  ],
};

/** The OTLP gRPC endpoint used when none is configured (the exporter's default). */
export const DEFAULT_TRACING_ENDPOINT = 'localhost:4317';

/** The largest `samplingRatePerMillion`: every new trace. */
export const MAX_SAMPLING_RATE_PER_MILLION = 1_000_000;

/**
 * The fraction of new traces sampled (`NewProvider`): `samplingRatePerMillion / 1e6` when it is
 * positive, else 0 (never; a sampled parent still makes its request sampled).
 */
export function samplingFraction(config: { readonly samplingRatePerMillion?: number }): number {
  const rate = config.samplingRatePerMillion;
  return rate !== undefined && rate > 0 ? rate / MAX_SAMPLING_RATE_PER_MILLION : 0;
}
