import { describe, expect, it } from 'vitest';
import { aggregateMessage } from '../../../src/machinery/field-errors.js';
import {
  compileJwtAuthenticator,
  toInternalAuthenticationConfiguration,
  validateAuthenticationConfiguration,
  type AuthenticationConfiguration,
  type JWTAuthenticatorInput,
  type AuthenticationValidationOptions,
} from '../../../src/config/authentication/index.js';
import { generateServingCertificate } from '../../../src/pki/self-signed.js';

const base: JWTAuthenticatorInput = {
  issuer: { url: 'https://issuer-url', audiences: ['audience'] },
  claimMappings: { username: { claim: 'sub', prefix: '' } },
};

type Patch = (a: JWTAuthenticatorInput) => JWTAuthenticatorInput;

function config(...jwt: JWTAuthenticatorInput[]): AuthenticationConfiguration {
  return toInternalAuthenticationConfiguration({ apiVersion: 'apiserver.config.k8s.io/v1', kind: 'AuthenticationConfiguration', jwt });
}

function messageOf(c: AuthenticationConfiguration, options?: AuthenticationValidationOptions): string {
  const errors = validateAuthenticationConfiguration(c, options);
  return errors.length ? aggregateMessage(errors) : '';
}

/** The message for one authenticator, under `root` (upstream's unit tests put the rules under `issuer.`). */
function oneMessage(patch: Patch, options?: AuthenticationValidationOptions, root = 'issuer'): string {
  const a = config(patch(structuredClone(base))).jwt[0]!;
  const errors = compileJwtAuthenticator(a, options, root).errors;
  return errors.length ? aggregateMessage(errors) : '';
}

const EMAIL_RULE =
  'claims.email_verified must be used in claimMappings.username.expression or claimMappings.extra[*].valueExpression or claimValidationRules[*].expression when claims.email is used in claimMappings.username.expression';

/** Issuer checks: paths from the authenticator itself (`issuer.url`). */
const issuerMessage = (patch: Patch, options?: AuthenticationValidationOptions) => oneMessage(patch, options, '');

describe('validateAuthenticationConfiguration', () => {
  it('accepts a minimal authenticator and an empty configuration', () => {
    expect(messageOf(config(base))).toBe('');
    expect(messageOf(config())).toBe('');
  });

  it('refuses more than 64 authenticators, and nothing else', () => {
    const many = Array.from({ length: 65 }, () => ({ issuer: {} }));
    expect(messageOf(config(...many))).toBe('jwt: Too many: 65: must have at most 64 items');
  });

  it('refuses duplicate issuers and discovery URLs', () => {
    const a = { ...base, issuer: { ...base.issuer, discoveryURL: 'https://discovery-url/.well-known/openid-configuration' } };
    const b = { ...a, issuer: { ...a.issuer, url: 'https://other' } };
    expect(messageOf(config(base, base))).toBe('jwt[1].issuer.url: Duplicate value: "https://issuer-url"');
    expect(messageOf(config(a, b))).toBe('jwt[1].issuer.discoveryURL: Duplicate value: "https://discovery-url/.well-known/openid-configuration"');
  });

  it('checks the issuer URL', () => {
    const url = (u: string) => (a: JWTAuthenticatorInput) => ({ ...a, issuer: { ...a.issuer, url: u } });
    expect(issuerMessage(url(''))).toBe('issuer.url: Required value');
    expect(issuerMessage(url('https://issuer-url:invalid-port'))).toBe(
      'issuer.url: Invalid value: "https://issuer-url:invalid-port": parse "https://issuer-url:invalid-port": invalid port ":invalid-port" after host',
    );
    expect(issuerMessage(url('http://issuer-url'))).toBe('issuer.url: Invalid value: "http://issuer-url": URL scheme must be https');
    expect(issuerMessage(url('https://user:pass@issuer-url'))).toBe(
      'issuer.url: Invalid value: "https://user:pass@issuer-url": URL must not contain a username or password',
    );
    expect(issuerMessage(url('https://issuer-url?query'))).toBe('issuer.url: Invalid value: "https://issuer-url?query": URL must not contain a query');
    expect(issuerMessage(url('https://issuer-url#fragment'))).toBe('issuer.url: Invalid value: "https://issuer-url#fragment": URL must not contain a fragment');
    expect(messageOf(config(base), { disallowedIssuers: ['c', 'https://issuer-url', 'a', 'b'] })).toBe(
      'jwt[0].issuer.url: Invalid value: "https://issuer-url": URL must not overlap with disallowed issuers: [a b c https://issuer-url]',
    );
  });

  it('checks the discovery URL', () => {
    const disc = (d: string) => (a: JWTAuthenticatorInput) => ({ ...a, issuer: { ...a.issuer, discoveryURL: d } });
    expect(issuerMessage(disc('https://oidc.oidc-namespace.svc'))).toBe('');
    expect(issuerMessage(disc('http://oidc.oidc-namespace.svc'))).toBe(
      'issuer.discoveryURL: Invalid value: "http://oidc.oidc-namespace.svc": URL scheme must be https',
    );
    expect(issuerMessage(disc('https://oidc.oidc-namespace.svc?query'))).toBe(
      'issuer.discoveryURL: Invalid value: "https://oidc.oidc-namespace.svc?query": URL must not contain a query',
    );
    expect(issuerMessage(disc('https://issuer-url///'))).toBe(
      'issuer.discoveryURL: Invalid value: "https://issuer-url///": discoveryURL must be different from URL',
    );
    expect(issuerMessage(disc('https://issuer-url'))).toBe('issuer.discoveryURL: Invalid value: "https://issuer-url": discoveryURL must be different from URL');
  });

  it('checks audiences and the match policy', () => {
    const aud = (audiences: string[], audienceMatchPolicy?: string) => (a: JWTAuthenticatorInput) => ({
      ...a,
      issuer: { ...a.issuer, audiences, ...(audienceMatchPolicy === undefined ? {} : { audienceMatchPolicy }) },
    });
    expect(issuerMessage(aud([]))).toBe('issuer.audiences: Required value: at least one issuer.audiences is required');
    expect(issuerMessage(aud(['']))).toBe('issuer.audiences[0]: Required value');
    expect(issuerMessage(aud(['audience'], 'MatchExact'))).toBe(
      'issuer.audienceMatchPolicy: Invalid value: "MatchExact": audienceMatchPolicy must be empty or MatchAny for single audience',
    );
    expect(issuerMessage(aud(['audience', 'audience'], 'MatchAny'))).toBe('issuer.audiences[1]: Duplicate value: "audience"');
    expect(issuerMessage(aud(['a', 'b']))).toBe('issuer.audienceMatchPolicy: Invalid value: "": audienceMatchPolicy must be MatchAny for multiple audiences');
    expect(issuerMessage(aud(['a', 'b'], 'MatchAny'))).toBe('');
  });

  it('checks the certificate authority', async () => {
    const ca = (certificateAuthority: string) => (a: JWTAuthenticatorInput) => ({ ...a, issuer: { ...a.issuer, certificateAuthority } });
    expect(issuerMessage(ca('bogus'))).toBe(
      'issuer.certificateAuthority: Invalid value: "<omitted>": data does not contain any valid RSA or ECDSA certificates',
    );
    const { ca: real } = await generateServingCertificate({ hosts: ['127.0.0.1'] });
    expect(issuerMessage(ca(real.cert))).toBe('');
    const broken = '-----BEGIN CERTIFICATE-----\nAAAA\n-----END CERTIFICATE-----\n';
    expect(issuerMessage(ca(broken))).toBe('issuer.certificateAuthority: Invalid value: "<omitted>": x509: malformed certificate');
  });

  it('checks the egress selector type', () => {
    const egress = (egressSelectorType: string) => (a: JWTAuthenticatorInput) => ({ ...a, issuer: { ...a.issuer, egressSelectorType } });
    expect(issuerMessage(egress('cluster'))).toBe('');
    expect(issuerMessage(egress('panda'))).toBe('issuer.egressSelectorType: Invalid value: "panda": egress selector must be either controlplane or cluster');
    expect(issuerMessage(egress('controlplane'), { egressSelectorEnabled: false })).toBe(
      'issuer.egressSelectorType: Invalid value: "controlplane": egress selector is not supported when StructuredAuthenticationConfigurationEgressSelector feature gate is disabled',
    );
  });

  it('checks claim validation rules', () => {
    const rules =
      (...claimValidationRules: NonNullable<JWTAuthenticatorInput['claimValidationRules']>) =>
      (a: JWTAuthenticatorInput) => ({ ...a, claimValidationRules });
    expect(oneMessage(rules({}))).toBe('issuer.claimValidationRules[0]: Required value: claim or expression is required');
    expect(oneMessage(rules({ claim: 'claim', expression: 'true' }))).toBe(
      'issuer.claimValidationRules[0]: Invalid value: "claim": claim and expression can\'t both be set',
    );
    expect(oneMessage(rules({ claim: 'claim', message: 'message' }))).toBe(
      'issuer.claimValidationRules[0].message: Invalid value: "message": may not be specified when claim is set',
    );
    expect(oneMessage(rules({ expression: 'true', requiredValue: 'value' }))).toBe(
      'issuer.claimValidationRules[0].requiredValue: Invalid value: "value": may not be specified when expression is set',
    );
    expect(oneMessage(rules({ claim: 'claim' }, { claim: 'claim' }))).toBe('issuer.claimValidationRules[1].claim: Duplicate value: "claim"');
    expect(oneMessage(rules({ expression: "claims.foo == 'bar'" }, { expression: "claims.foo == 'bar'" }))).toBe(
      'issuer.claimValidationRules[1].expression: Duplicate value: "claims.foo == \'bar\'"',
    );
    expect(oneMessage(rules({ expression: 'foo.bar' }))).toBe(
      "issuer.claimValidationRules[0].expression: Invalid value: \"foo.bar\": compilation failed: ERROR: <input>:1:1: undeclared reference to 'foo' (in container '')\n | foo.bar\n | ^",
    );
    expect(oneMessage(rules({ expression: 'claims.foo' }))).toBe(
      'issuer.claimValidationRules[0].expression: Invalid value: "claims.foo": must evaluate to bool',
    );
  });

  it('checks username, groups and uid mappings', () => {
    const mappings = (claimMappings: NonNullable<JWTAuthenticatorInput['claimMappings']>) => (a: JWTAuthenticatorInput) => ({ ...a, claimMappings });
    expect(oneMessage(mappings({}))).toBe('issuer.claimMappings.username: Required value: claim or expression is required');
    expect(oneMessage(mappings({ username: { claim: 'sub', expression: 'claims.sub' } }))).toBe(
      'issuer.claimMappings.username: Invalid value: "": claim and expression can\'t both be set',
    );
    expect(oneMessage(mappings({ username: { expression: 'claims.sub', prefix: 'prefix' } }))).toBe(
      'issuer.claimMappings.username.prefix: Invalid value: "prefix": may not be specified when expression is set',
    );
    expect(oneMessage(mappings({ username: { claim: 'sub' } }))).toBe(
      'issuer.claimMappings.username.prefix: Required value: prefix is required when claim is set. It can be set to an empty string to disable prefixing',
    );
    expect(oneMessage(mappings({ username: { expression: 'foo.bar' } }))).toBe(
      "issuer.claimMappings.username.expression: Invalid value: \"foo.bar\": compilation failed: ERROR: <input>:1:1: undeclared reference to 'foo' (in container '')\n | foo.bar\n | ^",
    );
    const user = { username: { claim: 'sub', prefix: '' } };
    expect(oneMessage(mappings({ ...user, groups: { claim: 'g', expression: 'claims.g' } }))).toBe(
      'issuer.claimMappings.groups: Invalid value: "": claim and expression can\'t both be set',
    );
    expect(oneMessage(mappings({ ...user, groups: { claim: 'g' } }))).toBe(
      'issuer.claimMappings.groups.prefix: Required value: prefix is required when claim is set. It can be set to an empty string to disable prefixing',
    );
    expect(oneMessage(mappings({ ...user, groups: { expression: 'claims.g', prefix: 'prefix' } }))).toBe(
      'issuer.claimMappings.groups.prefix: Invalid value: "prefix": may not be specified when expression is set',
    );
    expect(oneMessage(mappings({ ...user, uid: { claim: 'u', expression: 'claims.u' } }))).toBe(
      'issuer.claimMappings.uid: Invalid value: "": claim and expression can\'t both be set',
    );
    expect(oneMessage(mappings({ ...user, uid: { expression: 'foo.bar' } }))).toBe(
      "issuer.claimMappings.uid.expression: Invalid value: \"foo.bar\": compilation failed: ERROR: <input>:1:1: undeclared reference to 'foo' (in container '')\n | foo.bar\n | ^",
    );
  });

  it('checks extra mappings', () => {
    const extra =
      (...e: { key?: string; valueExpression?: string }[]) =>
      (a: JWTAuthenticatorInput) => ({
        ...a,
        claimMappings: { ...a.claimMappings, extra: e },
      });
    expect(oneMessage(extra({ key: 'example.org/foo', valueExpression: 'claims.foo' }))).toBe('');
    expect(oneMessage(extra({ valueExpression: 'claims.foo' }))).toBe('issuer.claimMappings.extra[0].key: Required value');
    expect(oneMessage(extra({ key: 'example.org/foo' }))).toBe('issuer.claimMappings.extra[0].valueExpression: Required value');
    expect(oneMessage(extra({ key: 'example.org/foo', valueExpression: 'a' }, { key: 'example.org/foo', valueExpression: 'b' }))).toBe(
      '[issuer.claimMappings.extra[0].valueExpression: Invalid value: "a": compilation failed: ERROR: <input>:1:1: undeclared reference to \'a\' (in container \'\')\n | a\n | ^, issuer.claimMappings.extra[1].key: Duplicate value: "example.org/foo"]',
    );
    expect(oneMessage(extra({ key: 'foo', valueExpression: 'claims.foo' }))).toBe(
      'issuer.claimMappings.extra[0].key: Invalid value: "foo": must be a domain-prefixed path (such as "acme.io/foo")',
    );
    expect(oneMessage(extra({ key: 'example.org/Foo', valueExpression: 'claims.foo' }))).toBe(
      'issuer.claimMappings.extra[0].key: Invalid value: "example.org/Foo": must be lowercase',
    );
    for (const key of ['k8s.io/foo', 'example.k8s.io/foo', 'kubernetes.io/foo', 'example.kubernetes.io/foo']) {
      expect(oneMessage(extra({ key, valueExpression: 'claims.foo' }))).toBe(
        `issuer.claimMappings.extra[0].key: Invalid value: "${key}": k8s.io, kubernetes.io and their subdomains are reserved for Kubernetes use`,
      );
    }
  });

  it('requires claims.email_verified wherever a username expression reads claims.email', () => {
    const username =
      (expression: string, more: Partial<JWTAuthenticatorInput> = {}) =>
      (a: JWTAuthenticatorInput) => ({
        ...a,
        ...more,
        claimMappings: { ...more.claimMappings, username: { expression } },
      });
    for (const expression of [
      'claims.email',
      "['yay', string(claims.email), 'panda'].join(' ')",
      'claims.?email',
      '{claims.?email: "panda"}',
      '{"fancy": claims.?email}',
      '["a"].map(i, i + claims.email)',
      'has(claims.email) ? claims.email : claims.sub',
      'claims.email.trim()',
    ]) {
      expect(oneMessage(username(expression))).toBe(`issuer.claimMappings.username.expression: Invalid value: ${JSON.stringify(expression)}: ${EMAIL_RULE}`);
    }
    expect(oneMessage(username('claims.email_verified ? claims.email : claims.sub'))).toBe('');
    expect(oneMessage(username('claims.email', { claimValidationRules: [{ expression: 'claims.?email_verified.orValue(true) == true' }] }))).toBe('');
    expect(
      oneMessage(username('claims.email', { claimMappings: { extra: [{ key: 'example.org/v', valueExpression: 'string(claims.email_verified)' }] } })),
    ).toBe('');
    // A username claim (not an expression) named email is checked when a token arrives instead.
    expect(oneMessage((a) => ({ ...a, claimMappings: { username: { claim: 'email', prefix: '' } } }))).toBe('');
    // An invalid rule that reads email_verified does not count.
    expect(
      messageOf(
        config({
          ...base,
          claimValidationRules: [{ expression: 'claims.?email_verified.orValue(true)' }],
          claimMappings: { username: { expression: '{claims.?email: "panda"}' } },
        }),
      ),
    ).toBe(
      `[jwt[0].claimValidationRules[0].expression: Invalid value: "claims.?email_verified.orValue(true)": must evaluate to bool, jwt[0].claimMappings.username.expression: Invalid value: "{claims.?email: \\"panda\\"}": ${EMAIL_RULE}]`,
    );
  });

  it('checks user validation rules', () => {
    const rules =
      (...userValidationRules: { expression?: string; message?: string }[]) =>
      (a: JWTAuthenticatorInput) => ({ ...a, userValidationRules });
    expect(oneMessage(rules({ expression: "!user.username.startsWith('system:')", message: 'no' }))).toBe('');
    expect(oneMessage(rules({}))).toBe('issuer.userValidationRules[0].expression: Required value');
    expect(oneMessage(rules({ expression: "user.username == 'foo'" }, { expression: "user.username == 'foo'" }))).toBe(
      'issuer.userValidationRules[1].expression: Duplicate value: "user.username == \'foo\'"',
    );
    expect(oneMessage(rules({ expression: 'foo.bar' }))).toBe(
      "issuer.userValidationRules[0].expression: Invalid value: \"foo.bar\": compilation failed: ERROR: <input>:1:1: undeclared reference to 'foo' (in container '')\n | foo.bar\n | ^",
    );
    expect(oneMessage(rules({ expression: 'user.username' }))).toBe(
      'issuer.userValidationRules[0].expression: Invalid value: "user.username": must evaluate to bool',
    );
    expect(oneMessage(rules({ expression: 'user.nope == 1' }))).toMatch(
      /^issuer.userValidationRules\[0\].expression: Invalid value: "user.nope == 1": compilation failed: ERROR: <input>:1:5: undefined field 'nope'/,
    );
    expect(oneMessage(rules({ expression: "user.groups.all(g, g != 'x') && size(user.extra) >= 0 && user.uid != 'u'" }))).toBe('');
  });

  it('checks anonymous conditions need enabled', () => {
    const c = toInternalAuthenticationConfiguration({
      apiVersion: 'apiserver.config.k8s.io/v1',
      kind: 'AuthenticationConfiguration',
      anonymous: { enabled: false, conditions: [{ path: '/livez' }] },
    });
    expect(messageOf(c)).toBe('anonymous.conditions: Invalid value: [{"Path":"/livez"}]: enabled should be set to true when conditions are defined');
    expect(messageOf({ ...c, anonymous: { enabled: true, conditions: [{ path: '/livez' }] } })).toBe('');
  });
});
