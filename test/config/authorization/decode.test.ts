/**
 * Decoding an AuthorizationConfiguration in each version, strictly, and the defaults every
 * version applies to a webhook.
 */
import { describe, expect, it } from 'vitest';
import {
  AUTHORIZATION_CONFIG_VERSIONS,
  authorizationConfigurationKind,
  defaultAuthorizationConfiguration,
  DEFAULT_AUTHORIZED_TTL,
  DEFAULT_UNAUTHORIZED_TTL,
  goDurationString,
  type AuthorizationConfigurationInput,
} from '../../../src/config/authorization/index.js';
import { ConfigDecodeError, decodeConfig } from '../../../src/config/decode.js';

const webhookYaml = (apiVersion: string, webhook: string) => `apiVersion: ${apiVersion}
kind: AuthorizationConfiguration
authorizers:
- type: Node
  name: node
- type: Webhook
  name: example.com
  webhook:
${webhook
  .trim()
  .split('\n')
  .map((l) => `    ${l}`)
  .join('\n')}
`;

const fullWebhook = `
timeout: 3s
authorizedTTL: 1m
cacheAuthorizedRequests: false
unauthorizedTTL: 10s
cacheUnauthorizedRequests: false
subjectAccessReviewVersion: v1
matchConditionSubjectAccessReviewVersion: v1
failurePolicy: Deny
connectionInfo:
  type: KubeConfigFile
  kubeConfigFile: /etc/authz/kubeconfig
matchConditions:
- expression: request.user != 'admin'
`;

describe('AuthorizationConfiguration decoding', () => {
  for (const version of AUTHORIZATION_CONFIG_VERSIONS) {
    it(`decodes apiserver.config.k8s.io/${version} with every field`, () => {
      const decoded = decodeConfig<AuthorizationConfigurationInput>(
        webhookYaml(`apiserver.config.k8s.io/${version}`, fullWebhook),
        authorizationConfigurationKind,
      );
      expect(decoded.apiVersion).toBe(`apiserver.config.k8s.io/${version}`);
      expect(decoded.value.authorizers).toEqual([
        { type: 'Node', name: 'node' },
        {
          type: 'Webhook',
          name: 'example.com',
          webhook: {
            timeout: '3s',
            authorizedTTL: '1m',
            cacheAuthorizedRequests: false,
            unauthorizedTTL: '10s',
            cacheUnauthorizedRequests: false,
            subjectAccessReviewVersion: 'v1',
            matchConditionSubjectAccessReviewVersion: 'v1',
            failurePolicy: 'Deny',
            connectionInfo: { type: 'KubeConfigFile', kubeConfigFile: '/etc/authz/kubeconfig' },
            matchConditions: [{ expression: "request.user != 'admin'" }],
          },
        },
      ]);
    });

    it(`refuses an unknown field in ${version}, naming its path`, () => {
      const text = webhookYaml(`apiserver.config.k8s.io/${version}`, `${fullWebhook}\nretries: 3`);
      expect(() => decodeConfig(text, authorizationConfigurationKind)).toThrow('strict decoding error: unknown field "authorizers[1].webhook.retries"');
    });
  }

  it('is read in apiserver.k8s.io v1beta1 and v1alpha1 too, but in no other version of that group', () => {
    expect(decodeConfig(webhookYaml('apiserver.k8s.io/v1beta1', fullWebhook), authorizationConfigurationKind).apiVersion).toBe('apiserver.k8s.io/v1beta1');
    expect(decodeConfig(webhookYaml('apiserver.k8s.io/v1alpha1', fullWebhook), authorizationConfigurationKind).apiVersion).toBe('apiserver.k8s.io/v1alpha1');
    expect(() => decodeConfig(webhookYaml('apiserver.k8s.io/v1', fullWebhook), authorizationConfigurationKind)).toThrow(
      new ConfigDecodeError('no kind "AuthorizationConfiguration" is registered for version "apiserver.k8s.io/v1"'),
    );
  });

  it('reports a field of the wrong type as Go does', () => {
    const text = webhookYaml('apiserver.config.k8s.io/v1', `${fullWebhook.replace('cacheAuthorizedRequests: false', 'cacheAuthorizedRequests: "no"')}`);
    expect(() => decodeConfig(text, authorizationConfigurationKind)).toThrow(
      'json: cannot unmarshal string into Go struct field WebhookConfiguration.authorizers.webhook.cacheAuthorizedRequests of type bool',
    );
  });
});

describe('AuthorizationConfiguration defaults', () => {
  it('gives a webhook authorizedTTL 5m, unauthorizedTTL 30s and both caches on', () => {
    const doc = defaultAuthorizationConfiguration({
      apiVersion: 'apiserver.config.k8s.io/v1',
      kind: 'AuthorizationConfiguration',
      authorizers: [{ type: 'Webhook', name: 'w', webhook: { timeout: '3s' } }],
    });
    const w = doc.authorizers[0]!.webhook!;
    expect(goDurationString(w.authorizedTTL)).toBe('5m0s');
    expect(goDurationString(w.unauthorizedTTL)).toBe('30s');
    expect(w.authorizedTTL).toBe(DEFAULT_AUTHORIZED_TTL);
    expect(w.unauthorizedTTL).toBe(DEFAULT_UNAUTHORIZED_TTL);
    expect(w.cacheAuthorizedRequests).toBe(true);
    expect(w.cacheUnauthorizedRequests).toBe(true);
    expect(w.timeout).toBe(3_000_000_000n);
  });

  it('treats a zero TTL as unset, and keeps what was written', () => {
    const doc = defaultAuthorizationConfiguration({
      apiVersion: 'apiserver.config.k8s.io/v1',
      kind: 'AuthorizationConfiguration',
      authorizers: [{ type: 'Webhook', name: 'w', webhook: { authorizedTTL: '0s', unauthorizedTTL: '1h', cacheAuthorizedRequests: false } }],
    });
    const w = doc.authorizers[0]!.webhook!;
    expect(goDurationString(w.authorizedTTL)).toBe('5m0s');
    expect(goDurationString(w.unauthorizedTTL)).toBe('1h0m0s');
    expect(w.cacheAuthorizedRequests).toBe(false);
    expect(w.timeout).toBe(0n);
  });

  it('leaves authorizers without a webhook alone', () => {
    expect(defaultAuthorizationConfiguration({ apiVersion: 'v', kind: 'k', authorizers: [{ type: 'RBAC', name: 'rbac' }] })).toEqual({
      authorizers: [{ type: 'RBAC', name: 'rbac' }],
    });
  });

  it("refuses a duration Go cannot parse with time.ParseDuration's message", () => {
    expect(() =>
      defaultAuthorizationConfiguration({ apiVersion: 'v', kind: 'k', authorizers: [{ type: 'Webhook', name: 'w', webhook: { timeout: '5 minutes' } }] }),
    ).toThrow(new ConfigDecodeError('time: invalid duration "5 minutes"'));
  });
});

describe('goDurationString', () => {
  it("prints durations as Go's time.Duration.String()", () => {
    const cases: [bigint, string][] = [
      [0n, '0s'],
      [-30_000_000_000n, '-30s'],
      [60_000_000_000n, '1m0s'],
      [1_500_000_000n, '1.5s'],
      [500_000_000n, '500ms'],
      [1_500n, '1.5µs'],
      [12n, '12ns'],
      [3_723_000_000_000n, '1h2m3s'],
      [3_600_000_000_000n, '1h0m0s'],
    ];
    for (const [ns, text] of cases) expect(goDurationString(ns)).toBe(text);
  });
});
