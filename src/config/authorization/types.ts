/**
 * The AuthorizationConfiguration kind (`--authorization-config`), as k8s.io/apiserver declares it in
 * `pkg/apis/apiserver/{v1,v1beta1,v1alpha1}/types.go`: an ordered list of authorizers, each a type,
 * a name and, for `Webhook`, how to call it. The three versions have the same fields; each is
 * registered in `apiserver.config.k8s.io`.
 */
import { z } from 'zod';
import { lazyConfigVersion, type ConfigKind } from '../decode.js';
import { lazySchema } from '../../util/lazy-schema.js';

/** The group every version of the kind is served in. */
export const AUTHORIZATION_CONFIG_GROUP = 'apiserver.config.k8s.io';

/** The versions, newest first. */
export const AUTHORIZATION_CONFIG_VERSIONS = ['v1', 'v1beta1', 'v1alpha1'] as const;

/** The schema of one version; `version` names the Go package its type errors mention. */
function versionSchema(version: (typeof AUTHORIZATION_CONFIG_VERSIONS)[number]) {
  const id = (name: string) => `io.k8s.apiserver.pkg.apis.apiserver.${version}.${name}`;
  // A metav1.Duration is a Go duration text (`5m`, `30s`); the loader parses it.
  const duration = z.string();
  const matchCondition = z.object({ expression: z.string().optional() }).meta({ id: id('WebhookMatchCondition') });
  const connectionInfo = z
    .object({
      type: z.string().optional(),
      kubeConfigFile: z.string().optional(),
    })
    .meta({ id: id('WebhookConnectionInfo') });
  const webhook = z
    .object({
      authorizedTTL: duration.optional(),
      cacheAuthorizedRequests: z.boolean().optional(),
      unauthorizedTTL: duration.optional(),
      cacheUnauthorizedRequests: z.boolean().optional(),
      timeout: duration.optional(),
      subjectAccessReviewVersion: z.string().optional(),
      matchConditionSubjectAccessReviewVersion: z.string().optional(),
      failurePolicy: z.string().optional(),
      connectionInfo: connectionInfo.optional(),
      matchConditions: z.array(matchCondition).optional(),
    })
    .meta({ id: id('WebhookConfiguration') });
  const authorizer = z
    .object({
      type: z.string().optional(),
      name: z.string().optional(),
      webhook: webhook.optional(),
    })
    .meta({ id: id('AuthorizerConfiguration') });
  return z
    .object({
      apiVersion: z.string(),
      kind: z.string(),
      authorizers: z.array(authorizer).optional(),
    })
    .meta({ id: id('AuthorizationConfiguration') });
}

/** `apiserver.config.k8s.io/v1` AuthorizationConfiguration. */
export const AuthorizationConfigurationV1 = lazySchema(() => versionSchema('v1'));
/** `apiserver.config.k8s.io/v1beta1` AuthorizationConfiguration. */
export const AuthorizationConfigurationV1beta1 = lazySchema(() => versionSchema('v1beta1'));
/** `apiserver.config.k8s.io/v1alpha1` AuthorizationConfiguration. */
export const AuthorizationConfigurationV1alpha1 = lazySchema(() => versionSchema('v1alpha1'));

/** An AuthorizationConfiguration as written (any version: they have the same fields). */
export type AuthorizationConfigurationInput = z.infer<ReturnType<typeof AuthorizationConfigurationV1>>;
/** One authorizer as written. */
export type AuthorizerConfigurationInput = NonNullable<AuthorizationConfigurationInput['authorizers']>[number];
/** A webhook authorizer's settings as written. */
export type WebhookConfigurationInput = NonNullable<AuthorizerConfigurationInput['webhook']>;

/** The kind, for `decodeConfig`. */
export const authorizationConfigurationKind: ConfigKind = {
  kind: 'AuthorizationConfiguration',
  versions: [
    lazyConfigVersion(`${AUTHORIZATION_CONFIG_GROUP}/v1`, AuthorizationConfigurationV1),
    lazyConfigVersion(`${AUTHORIZATION_CONFIG_GROUP}/v1beta1`, AuthorizationConfigurationV1beta1),
    lazyConfigVersion(`${AUTHORIZATION_CONFIG_GROUP}/v1alpha1`, AuthorizationConfigurationV1alpha1),
    // memkube also reads the kind under the group of those versions' other kinds (EgressSelectorConfiguration),
    // where kube-apiserver would not find it.
    lazyConfigVersion('apiserver.k8s.io/v1beta1', AuthorizationConfigurationV1beta1),
    lazyConfigVersion('apiserver.k8s.io/v1alpha1', AuthorizationConfigurationV1alpha1),
  ],
};

/** The authorizer types kube-apiserver knows (`modes.AuthorizationModeChoices`). */
export const AUTHORIZATION_MODES = ['AlwaysAllow', 'AlwaysDeny', 'ABAC', 'Webhook', 'RBAC', 'Node'] as const;
/** One of {@link AUTHORIZATION_MODES}. */
export type AuthorizationMode = (typeof AUTHORIZATION_MODES)[number];
/** The types that may appear more than once (`repeatableAuthorizerTypes`). */
export const REPEATABLE_AUTHORIZER_TYPES: readonly string[] = ['Webhook'];

/** What a webhook does when it cannot be asked or answers badly (`failurePolicy`). */
export type FailurePolicy = 'NoOpinion' | 'Deny';

/** A webhook authorizer's settings, defaulted and validated; durations in milliseconds. */
export interface WebhookAuthorizerConfig {
  readonly timeoutMs: number;
  readonly authorizedTTLMs: number;
  readonly cacheAuthorizedRequests: boolean;
  readonly unauthorizedTTLMs: number;
  readonly cacheUnauthorizedRequests: boolean;
  readonly subjectAccessReviewVersion: 'v1' | 'v1beta1';
  /** `v1`, or empty when there are no match conditions. */
  readonly matchConditionSubjectAccessReviewVersion: string;
  readonly failurePolicy: FailurePolicy;
  readonly connectionInfo: { readonly type: 'KubeConfigFile'; readonly kubeConfigFile: string } | { readonly type: 'InClusterConfig' };
  readonly matchConditions: readonly { readonly expression: string }[];
}

/** One authorizer of a loaded configuration. */
export type AuthorizerConfig =
  | { readonly type: 'Webhook'; readonly name: string; readonly webhook: WebhookAuthorizerConfig }
  | { readonly type: Exclude<AuthorizationMode, 'Webhook'>; readonly name: string };

/** An AuthorizationConfiguration loaded, defaulted and validated: the authorizer chain in order. */
export interface AuthorizationConfig {
  readonly authorizers: readonly AuthorizerConfig[];
}
