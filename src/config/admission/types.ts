/**
 * AdmissionConfiguration: the file kube-apiserver's `--admission-control-config-file` names, one
 * entry per admission plugin with its configuration embedded or in a file of its own
 * (k8s.io/apiserver pkg/apis/apiserver/v1/types.go, and v1alpha1 in the `apiserver.k8s.io` group).
 */
import { z } from 'zod';
import { lazyConfigVersion, type ConfigKind } from '../decode.js';
import { lazySchema } from '../../util/lazy-schema.js';

/** One plugin's entry: its name, and its configuration embedded or by path. */
export const AdmissionPluginConfigurationSchema = lazySchema(() =>
  z.object({
    /** The admission plugin's registered name (`EventRateLimit`, `PodSecurity`, ...). */
    name: z.string().optional(),
    /** A file holding the plugin's configuration, relative to the configuration file's directory. */
    path: z.string().optional(),
    /** The plugin's configuration object itself; used instead of `path` when present. */
    configuration: z.unknown().optional(),
  }),
);

function admissionConfigurationSchema(apiVersion: string) {
  return z.object({
    apiVersion: z.literal(apiVersion),
    kind: z.literal('AdmissionConfiguration'),
    plugins: z.array(AdmissionPluginConfigurationSchema()).optional(),
  });
}

/** `apiserver.config.k8s.io/v1`. */
export const AdmissionConfigurationV1Schema = lazySchema(() => admissionConfigurationSchema('apiserver.config.k8s.io/v1'));
/** `apiserver.k8s.io/v1alpha1`, the same fields. */
export const AdmissionConfigurationV1alpha1Schema = lazySchema(() => admissionConfigurationSchema('apiserver.k8s.io/v1alpha1'));

/** One plugin's entry of an AdmissionConfiguration: its name, and its configuration embedded or by path. */
export type AdmissionPluginConfiguration = z.infer<ReturnType<typeof AdmissionPluginConfigurationSchema>>;
/** An AdmissionConfiguration as written, in either served version. */
export type AdmissionConfiguration =
  z.infer<ReturnType<typeof AdmissionConfigurationV1Schema>> | z.infer<ReturnType<typeof AdmissionConfigurationV1alpha1Schema>>;

/** The kind and its two served versions. */
export const AdmissionConfigurationKind: ConfigKind = {
  kind: 'AdmissionConfiguration',
  versions: [
    lazyConfigVersion('apiserver.config.k8s.io/v1', AdmissionConfigurationV1Schema),
    lazyConfigVersion('apiserver.k8s.io/v1alpha1', AdmissionConfigurationV1alpha1Schema),
  ],
};
