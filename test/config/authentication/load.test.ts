import { describe, expect, it } from 'vitest';
import { ANONYMOUS_FLAG_CONFLICT, AuthenticationConfigurationError, loadAuthenticationConfiguration } from '../../../src/config/authentication/index.js';

const jwt = `
jwt:
- issuer:
    url: https://issuer.example.com
    audiences: [memkube]
  claimMappings:
    username:
      claim: sub
      prefix: "oidc:"
`;

function failure(text: string, options?: Parameters<typeof loadAuthenticationConfiguration>[1]): string {
  try {
    loadAuthenticationConfiguration(text, options);
  } catch (e) {
    expect(e).toBeInstanceOf(AuthenticationConfigurationError);
    return (e as Error).message;
  }
  throw new Error('loaded');
}

describe('loadAuthenticationConfiguration', () => {
  it.each([
    'apiserver.config.k8s.io/v1',
    'apiserver.config.k8s.io/v1beta1',
    'apiserver.config.k8s.io/v1alpha1',
    'apiserver.k8s.io/v1beta1',
    'apiserver.k8s.io/v1alpha1',
  ])('reads %s', (apiVersion) => {
    const config = loadAuthenticationConfiguration(`apiVersion: ${apiVersion}\nkind: AuthenticationConfiguration\n${jwt}`);
    expect(config.jwt).toHaveLength(1);
    expect(config.jwt[0]!.issuer).toEqual({
      url: 'https://issuer.example.com',
      discoveryURL: '',
      certificateAuthority: '',
      audiences: ['memkube'],
      audienceMatchPolicy: '',
      egressSelectorType: '',
    });
    expect(config.jwt[0]!.claimMappings).toEqual({
      username: { claim: 'sub', prefix: 'oidc:', expression: '' },
      groups: { claim: '', prefix: undefined, expression: '' },
      uid: { claim: '', expression: '' },
      extra: [],
    });
    expect(config.anonymous).toBeUndefined();
  });

  it('reads JSON, and a file with nothing but its kind', () => {
    expect(loadAuthenticationConfiguration('{"apiVersion":"apiserver.config.k8s.io/v1","kind":"AuthenticationConfiguration"}')).toEqual({
      jwt: [],
      anonymous: undefined,
    });
  });

  it('defaults anonymous fields to their zero values', () => {
    const config = loadAuthenticationConfiguration('apiVersion: apiserver.config.k8s.io/v1\nkind: AuthenticationConfiguration\nanonymous: {}\n');
    expect(config.anonymous).toEqual({ enabled: false, conditions: [] });
  });

  it('refuses unknown and duplicate fields, naming each', () => {
    expect(
      failure(
        'apiVersion: apiserver.config.k8s.io/v1\nkind: AuthenticationConfiguration\njwt:\n- issuer: {url: https://x, audiences: [a], foo: 1}\n  bar: 2\n',
      ),
    ).toBe('strict decoding error: unknown field "jwt[0].issuer.foo", unknown field "jwt[0].bar"');
    expect(failure('apiVersion: apiserver.config.k8s.io/v1\nkind: AuthenticationConfiguration\nanonymous: {enabled: true, enabled: false}\n')).toBe(
      'strict decoding error: json: duplicate field "anonymous.enabled"',
    );
  });

  it('refuses other kinds and versions, wrong types and empty text, naming the file', () => {
    expect(failure('apiVersion: apiserver.config.k8s.io/v1\nkind: AuthorizationConfiguration\n')).toBe(
      'no kind "AuthorizationConfiguration" is registered for version "apiserver.config.k8s.io/v1"',
    );
    expect(failure('apiVersion: apiserver.k8s.io/v1\nkind: AuthenticationConfiguration\n', { file: '/etc/authn.yaml' })).toBe(
      'failed to load authentication configuration from file "/etc/authn.yaml": no kind "AuthenticationConfiguration" is registered for version "apiserver.k8s.io/v1"',
    );
    expect(failure('', { file: 'a.yaml' })).toBe('failed to load authentication configuration from file "a.yaml": empty config data');
    expect(failure('apiVersion: apiserver.config.k8s.io/v1\nkind: AuthenticationConfiguration\nanonymous: {enabled: "yes"}\n')).toMatch(
      /^json: cannot unmarshal string into Go .*enabled/,
    );
  });

  it('refuses an anonymous section when --anonymous-auth was given', () => {
    const text = 'apiVersion: apiserver.config.k8s.io/v1\nkind: AuthenticationConfiguration\nanonymous: {enabled: true}\n';
    expect(ANONYMOUS_FLAG_CONFLICT).toBe(
      'anonymous: Forbidden: --anonymous-auth flag cannot be set when anonymous field is configured in authentication configuration file',
    );
    expect(failure(text, { anonymousFlagSet: true })).toBe(ANONYMOUS_FLAG_CONFLICT);
    expect(loadAuthenticationConfiguration(text, { anonymousFlagSet: false }).anonymous).toEqual({ enabled: true, conditions: [] });
    // Without an anonymous section the flag decides, and the file loads.
    expect(
      loadAuthenticationConfiguration(`apiVersion: apiserver.config.k8s.io/v1\nkind: AuthenticationConfiguration\n${jwt}`, { anonymousFlagSet: true }).jwt,
    ).toHaveLength(1);
  });

  it('reports every validation error in one message', () => {
    const text = `apiVersion: apiserver.config.k8s.io/v1
kind: AuthenticationConfiguration
jwt:
- issuer: {url: "http://a", audiences: []}
  claimMappings: {username: {claim: sub}}
`;
    expect(failure(text)).toBe(
      'invalid authentication configuration: [jwt[0].issuer.url: Invalid value: "http://a": URL scheme must be https, jwt[0].issuer.audiences: Required value: at least one jwt[0].issuer.audiences is required, jwt[0].claimMappings.username.prefix: Required value: prefix is required when claim is set. It can be set to an empty string to disable prefixing]',
    );
    expect(failure(text.replace('http://a', 'https://a').replace('[]', '[x]'), { disallowedIssuers: ['https://a'] })).toBe(
      'invalid authentication configuration: [jwt[0].issuer.url: Invalid value: "https://a": URL must not overlap with disallowed issuers: [https://a], jwt[0].claimMappings.username.prefix: Required value: prefix is required when claim is set. It can be set to an empty string to disable prefixing]',
    );
  });
});
