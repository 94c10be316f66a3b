/**
 * The written AuthenticationConfiguration turned into its internal form. Upstream registers no
 * defaulting function for this kind (pkg/apis/apiserver/{v1,v1beta1,v1alpha1}/defaults.go default
 * only KMS and webhook authorizer settings), so "defaulting" is the conversion's: every absent
 * field becomes Go's zero value, `discoveryURL` an empty string, and an absent username or group
 * `prefix` stays unset (validation tells an unset prefix from an empty one).
 */
import type { AuthenticationConfiguration, AuthenticationConfigurationInput, JWTAuthenticator, JWTAuthenticatorInput } from './types.js';

function jwtAuthenticator(a: JWTAuthenticatorInput): JWTAuthenticator {
  const issuer = a.issuer ?? {};
  const mappings = a.claimMappings ?? {};
  return {
    issuer: {
      url: issuer.url ?? '',
      discoveryURL: issuer.discoveryURL ?? '',
      certificateAuthority: issuer.certificateAuthority ?? '',
      audiences: issuer.audiences ?? [],
      audienceMatchPolicy: issuer.audienceMatchPolicy ?? '',
      egressSelectorType: issuer.egressSelectorType ?? '',
    },
    claimValidationRules: (a.claimValidationRules ?? []).map((r) => ({
      claim: r.claim ?? '',
      requiredValue: r.requiredValue ?? '',
      expression: r.expression ?? '',
      message: r.message ?? '',
    })),
    claimMappings: {
      username: { claim: mappings.username?.claim ?? '', prefix: mappings.username?.prefix, expression: mappings.username?.expression ?? '' },
      groups: { claim: mappings.groups?.claim ?? '', prefix: mappings.groups?.prefix, expression: mappings.groups?.expression ?? '' },
      uid: { claim: mappings.uid?.claim ?? '', expression: mappings.uid?.expression ?? '' },
      extra: (mappings.extra ?? []).map((e) => ({ key: e.key ?? '', valueExpression: e.valueExpression ?? '' })),
    },
    userValidationRules: (a.userValidationRules ?? []).map((r) => ({ expression: r.expression ?? '', message: r.message ?? '' })),
  };
}

/** The internal form of a decoded AuthenticationConfiguration (any version). */
export function toInternalAuthenticationConfiguration(input: AuthenticationConfigurationInput): AuthenticationConfiguration {
  return {
    jwt: (input.jwt ?? []).map(jwtAuthenticator),
    anonymous: input.anonymous
      ? { enabled: input.anonymous.enabled ?? false, conditions: (input.anonymous.conditions ?? []).map((c) => ({ path: c.path ?? '' })) }
      : undefined,
  };
}
