/**
 * The AuthenticationConfiguration kind (`--authentication-config`) in its three served versions:
 * `apiserver.config.k8s.io/v1`, `v1beta1` and `v1alpha1` (also read as `apiserver.k8s.io/v1beta1` and `v1alpha1`)
 * (k8s.io/apiserver pkg/apis/apiserver/{v1,v1beta1,v1alpha1}/types.go). The three declare the same
 * fields; only `apiVersion` differs.
 */
import { z } from 'zod';
import { lazyConfigVersion, type ConfigKind } from '../decode.js';
import { lazySchema } from '../../util/lazy-schema.js';

/** `apiserver.config.k8s.io/v1`. */
export const AUTHENTICATION_V1 = 'apiserver.config.k8s.io/v1';
/** `apiserver.config.k8s.io/v1beta1`, where kube-apiserver registers the kind (pkg/apis/apiserver/v1beta1/register.go). */
export const AUTHENTICATION_V1BETA1 = 'apiserver.config.k8s.io/v1beta1';
/** `apiserver.config.k8s.io/v1alpha1`. */
export const AUTHENTICATION_V1ALPHA1 = 'apiserver.config.k8s.io/v1alpha1';
/**
 * `apiserver.k8s.io/v1beta1` and `v1alpha1`: memkube also reads the kind under the group of those
 * versions' other kinds (EgressSelectorConfiguration), where kube-apiserver would not find it.
 */
export const AUTHENTICATION_ALSO_ACCEPTED = ['apiserver.k8s.io/v1beta1', 'apiserver.k8s.io/v1alpha1'] as const;

/** `Issuer`: where the tokens come from and whom they are for. */
export const IssuerSchema = lazySchema(() =>
  z.object({
    url: z.string().optional(),
    discoveryURL: z.string().optional(),
    certificateAuthority: z.string().optional(),
    audiences: z.array(z.string()).optional(),
    /** `MatchAny`, or empty for a single audience. */
    audienceMatchPolicy: z.string().optional(),
    /** `controlplane` or `cluster`. */
    egressSelectorType: z.string().optional(),
  }),
);

/** `ClaimValidationRule`: a claim with a required value, or a CEL expression over `claims` and its message. */
export const ClaimValidationRuleSchema = lazySchema(() =>
  z.object({
    claim: z.string().optional(),
    requiredValue: z.string().optional(),
    expression: z.string().optional(),
    message: z.string().optional(),
  }),
);

/** `PrefixedClaimOrExpression` (username, groups). */
export const PrefixedClaimOrExpressionSchema = lazySchema(() =>
  z.object({
    claim: z.string().optional(),
    /** Set (possibly to `""`) whenever `claim` is. */
    prefix: z.string().optional(),
    expression: z.string().optional(),
  }),
);

/** `ClaimOrExpression` (uid). */
export const ClaimOrExpressionSchema = lazySchema(() =>
  z.object({
    claim: z.string().optional(),
    expression: z.string().optional(),
  }),
);

/** `ExtraMapping`: one key of the user's extra, its values from a CEL expression. */
export const ExtraMappingSchema = lazySchema(() =>
  z.object({
    key: z.string().optional(),
    valueExpression: z.string().optional(),
  }),
);

/** `ClaimMappings`. */
export const ClaimMappingsSchema = lazySchema(() =>
  z.object({
    username: PrefixedClaimOrExpressionSchema().optional(),
    groups: PrefixedClaimOrExpressionSchema().optional(),
    uid: ClaimOrExpressionSchema().optional(),
    extra: z.array(ExtraMappingSchema()).optional(),
  }),
);

/** `UserValidationRule`: a CEL expression over `user` and its message. */
export const UserValidationRuleSchema = lazySchema(() =>
  z.object({
    expression: z.string().optional(),
    message: z.string().optional(),
  }),
);

/** `JWTAuthenticator`. */
export const JWTAuthenticatorSchema = lazySchema(() =>
  z.object({
    issuer: IssuerSchema().optional(),
    claimValidationRules: z.array(ClaimValidationRuleSchema()).optional(),
    claimMappings: ClaimMappingsSchema().optional(),
    userValidationRules: z.array(UserValidationRuleSchema()).optional(),
  }),
);

/** `AnonymousAuthCondition`: a request path anonymous requests may reach. */
export const AnonymousAuthConditionSchema = lazySchema(() =>
  z.object({
    path: z.string().optional(),
  }),
);

/** `AnonymousAuthConfig`. */
export const AnonymousAuthConfigSchema = lazySchema(() =>
  z.object({
    enabled: z.boolean().optional(),
    conditions: z.array(AnonymousAuthConditionSchema()).optional(),
  }),
);

function versionSchema<V extends string>(apiVersion: V) {
  return z.object({
    apiVersion: z.literal(apiVersion),
    kind: z.literal('AuthenticationConfiguration'),
    jwt: z.array(JWTAuthenticatorSchema()).optional(),
    anonymous: AnonymousAuthConfigSchema().optional(),
  });
}

/** The `apiserver.config.k8s.io/v1` schema. */
export const AuthenticationConfigurationV1Schema = lazySchema(() => versionSchema(AUTHENTICATION_V1));
/** The `apiserver.config.k8s.io/v1beta1` schema. */
export const AuthenticationConfigurationV1beta1Schema = lazySchema(() => versionSchema(AUTHENTICATION_V1BETA1));
/** The `apiserver.config.k8s.io/v1alpha1` schema. */
export const AuthenticationConfigurationV1alpha1Schema = lazySchema(() => versionSchema(AUTHENTICATION_V1ALPHA1));

/** An AuthenticationConfiguration as written, in any of its versions. */
export type AuthenticationConfigurationInput =
  | z.infer<ReturnType<typeof AuthenticationConfigurationV1Schema>>
  | z.infer<ReturnType<typeof AuthenticationConfigurationV1beta1Schema>>
  | z.infer<ReturnType<typeof AuthenticationConfigurationV1alpha1Schema>>;
/** A JWT authenticator's `issuer` as written: where the tokens come from and whom they are for. */
export type IssuerInput = z.infer<ReturnType<typeof IssuerSchema>>;
/** One `jwt` entry (`JWTAuthenticator`) of an AuthenticationConfiguration, as written. */
export type JWTAuthenticatorInput = z.infer<ReturnType<typeof JWTAuthenticatorSchema>>;
/** The `anonymous` section (`AnonymousAuthConfig`) of an AuthenticationConfiguration, as written. */
export type AnonymousAuthConfigInput = z.infer<ReturnType<typeof AnonymousAuthConfigSchema>>;

/** The AuthenticationConfiguration kind: its three versions, for `decodeConfig`. */
export const AuthenticationConfigurationKind: ConfigKind = {
  kind: 'AuthenticationConfiguration',
  versions: [
    lazyConfigVersion(AUTHENTICATION_V1, AuthenticationConfigurationV1Schema),
    lazyConfigVersion(AUTHENTICATION_V1BETA1, AuthenticationConfigurationV1beta1Schema),
    lazyConfigVersion(AUTHENTICATION_V1ALPHA1, AuthenticationConfigurationV1alpha1Schema),
    ...AUTHENTICATION_ALSO_ACCEPTED.map((apiVersion) =>
      lazyConfigVersion(
        apiVersion,
        lazySchema(() => versionSchema(apiVersion)),
      ),
    ),
  ],
};

// ---- The internal form (pkg/apis/apiserver/types.go): every field present, Go's zero values. ----

/** `apiserver.Issuer`. */
export interface Issuer {
  readonly url: string;
  /** `''` when not set (the internal type holds a string, not a pointer). */
  readonly discoveryURL: string;
  readonly certificateAuthority: string;
  readonly audiences: readonly string[];
  readonly audienceMatchPolicy: string;
  readonly egressSelectorType: string;
}

/** `apiserver.ClaimValidationRule`. */
export interface ClaimValidationRule {
  readonly claim: string;
  readonly requiredValue: string;
  readonly expression: string;
  readonly message: string;
}

/** `apiserver.PrefixedClaimOrExpression`; `prefix` undefined when not set. */
export interface PrefixedClaimOrExpression {
  readonly claim: string;
  readonly prefix: string | undefined;
  readonly expression: string;
}

/** `apiserver.ClaimOrExpression`. */
export interface ClaimOrExpression {
  readonly claim: string;
  readonly expression: string;
}

/** `apiserver.ExtraMapping`. */
export interface ExtraMapping {
  readonly key: string;
  readonly valueExpression: string;
}

/** `apiserver.ClaimMappings`. */
export interface ClaimMappings {
  readonly username: PrefixedClaimOrExpression;
  readonly groups: PrefixedClaimOrExpression;
  readonly uid: ClaimOrExpression;
  readonly extra: readonly ExtraMapping[];
}

/** `apiserver.UserValidationRule`. */
export interface UserValidationRule {
  readonly expression: string;
  readonly message: string;
}

/** `apiserver.JWTAuthenticator`. */
export interface JWTAuthenticator {
  readonly issuer: Issuer;
  readonly claimValidationRules: readonly ClaimValidationRule[];
  readonly claimMappings: ClaimMappings;
  readonly userValidationRules: readonly UserValidationRule[];
}

/** `apiserver.AnonymousAuthCondition`. */
export interface AnonymousAuthCondition {
  readonly path: string;
}

/** `apiserver.AnonymousAuthConfig`. */
export interface AnonymousAuthConfig {
  readonly enabled: boolean;
  readonly conditions: readonly AnonymousAuthCondition[];
}

/** `apiserver.AuthenticationConfiguration`: the form validation and the authenticators read. */
export interface AuthenticationConfiguration {
  readonly jwt: readonly JWTAuthenticator[];
  /** Undefined when the file has no `anonymous` (the `--anonymous-auth` flag decides then). */
  readonly anonymous: AnonymousAuthConfig | undefined;
}
