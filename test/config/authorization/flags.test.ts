/**
 * kube-apiserver's authorization flags: Validate()'s rules and messages, and the configuration the
 * legacy flags stand for.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import {
  authorizationConfigFromFlags,
  AuthorizationConfigError,
  resolveAuthorizationConfig,
  validateAuthorizationFlags,
  type AuthorizationConfig,
} from '../../../src/config/authorization/index.js';

describe('validateAuthorizationFlags', () => {
  it('accepts the defaults and every supported mode', () => {
    expect(validateAuthorizationFlags({})).toEqual([]);
    expect(validateAuthorizationFlags({ authorizationMode: '' })).toEqual([]);
    expect(validateAuthorizationFlags({ authorizationMode: 'Node,RBAC,AlwaysAllow,AlwaysDeny' })).toEqual([]);
    expect(validateAuthorizationFlags({ authorizationMode: 'Webhook', authorizationWebhookConfigFile: '/k' })).toEqual([]);
  });

  it('refuses unknown and repeated modes', () => {
    expect(validateAuthorizationFlags({ authorizationMode: 'RBAC,Foo' })).toEqual(['authorization-mode "Foo" is not a valid mode']);
    expect(validateAuthorizationFlags({ authorizationMode: 'rbac' })).toEqual(['authorization-mode "rbac" is not a valid mode']);
    expect(validateAuthorizationFlags({ authorizationMode: 'RBAC,Node,RBAC' })).toEqual([
      'authorization-mode ["RBAC" "Node" "RBAC"] has mode specified more than once',
    ]);
  });

  it('ties the webhook config file and the Webhook mode together', () => {
    expect(validateAuthorizationFlags({ authorizationMode: 'RBAC,Webhook' })).toEqual(["authorization-mode Webhook's authorization config file not passed"]);
    expect(validateAuthorizationFlags({ authorizationMode: 'RBAC', authorizationWebhookConfigFile: '/k' })).toEqual([
      'cannot specify --authorization-webhook-config-file without mode Webhook',
    ]);
    expect(validateAuthorizationFlags({ authorizationWebhookConfigFile: '/k' })).toEqual([
      'cannot specify --authorization-webhook-config-file without mode Webhook',
    ]);
  });

  it('ties the policy file and ABAC together, and refuses ABAC itself', () => {
    expect(validateAuthorizationFlags({ authorizationMode: 'ABAC' })).toEqual(["authorization-mode ABAC's authorization policy file not passed"]);
    expect(validateAuthorizationFlags({ authorizationPolicyFile: '/p' })).toEqual(['cannot specify --authorization-policy-file without mode ABAC']);
    expect(validateAuthorizationFlags({ authorizationMode: 'ABAC', authorizationPolicyFile: '/p' })).toEqual([
      'authorization-mode ABAC is not supported by memkube',
    ]);
  });

  it('reports every problem in order', () => {
    expect(validateAuthorizationFlags({ authorizationMode: 'Foo,Webhook,Foo', authorizationPolicyFile: '/p' })).toEqual([
      'authorization-mode "Foo" is not a valid mode',
      "authorization-mode Webhook's authorization config file not passed",
      'authorization-mode "Foo" is not a valid mode',
      'cannot specify --authorization-policy-file without mode ABAC',
      'authorization-mode ["Foo" "Webhook" "Foo"] has mode specified more than once',
    ]);
  });

  it('refuses a duration flag Go cannot parse, as pflag does', () => {
    expect(validateAuthorizationFlags({ authorizationWebhookCacheAuthorizedTtl: '5 minutes' })).toEqual([
      'invalid argument "5 minutes" for "--authorization-webhook-cache-authorized-ttl" flag: time: invalid duration "5 minutes"',
    ]);
    expect(validateAuthorizationFlags({ authorizationWebhookCacheUnauthorizedTtl: 'x' })).toEqual([
      'invalid argument "x" for "--authorization-webhook-cache-unauthorized-ttl" flag: time: invalid duration "x"',
    ]);
  });

  it('makes --authorization-config exclusive with --authorization-mode and --authorization-webhook-*', () => {
    const message = '--authorization-config can not be specified when --authorization-mode or --authorization-webhook-* flags are defined';
    expect(validateAuthorizationFlags({ authorizationConfig: '/a', authorizationMode: 'RBAC' })).toEqual([message]);
    expect(validateAuthorizationFlags({ authorizationConfig: '/a', authorizationWebhookVersion: 'v1' })).toEqual([message]);
    expect(validateAuthorizationFlags({ authorizationConfig: '/a', authorizationWebhookConfigFile: '/k' })).toEqual([message]);
    expect(validateAuthorizationFlags({ authorizationConfig: '/a', authorizationWebhookCacheAuthorizedTtl: '1m' })).toEqual([message]);
    expect(validateAuthorizationFlags({ authorizationConfig: '/a', authorizationWebhookCacheUnauthorizedTtl: '1m' })).toEqual([message]);
    // Even a mode equal to the default counts as given.
    expect(validateAuthorizationFlags({ authorizationConfig: '/a', authorizationMode: 'AlwaysAllow' })).toEqual([message]);
    expect(validateAuthorizationFlags({ authorizationConfig: '/a' })).toEqual([]);
  });
});

describe('authorizationConfigFromFlags', () => {
  it('defaults to AlwaysAllow', () => {
    expect(authorizationConfigFromFlags({})).toEqual({ authorizers: [{ type: 'AlwaysAllow', name: 'alwaysallow' }] });
    expect(authorizationConfigFromFlags({ authorizationMode: '' })).toEqual({ authorizers: [{ type: 'AlwaysAllow', name: 'alwaysallow' }] });
  });

  it('keeps the order of the modes and names them in lower case; the webhook is "default"', () => {
    expect(
      authorizationConfigFromFlags({
        authorizationMode: 'Node,Webhook,RBAC',
        authorizationWebhookConfigFile: '/etc/authz-webhook.kubeconfig',
      }),
    ).toEqual<AuthorizationConfig>({
      authorizers: [
        { type: 'Node', name: 'node' },
        {
          type: 'Webhook',
          name: 'default',
          webhook: {
            timeoutMs: 30_000,
            authorizedTTLMs: 300_000,
            cacheAuthorizedRequests: true,
            unauthorizedTTLMs: 30_000,
            cacheUnauthorizedRequests: true,
            subjectAccessReviewVersion: 'v1beta1',
            matchConditionSubjectAccessReviewVersion: '',
            failurePolicy: 'NoOpinion',
            connectionInfo: { type: 'KubeConfigFile', kubeConfigFile: '/etc/authz-webhook.kubeconfig' },
            matchConditions: [],
          },
        },
        { type: 'RBAC', name: 'rbac' },
      ],
    });
  });

  it('takes the webhook version and TTLs from their flags; a zero TTL switches its cache off', () => {
    const config = authorizationConfigFromFlags({
      authorizationMode: 'Webhook',
      authorizationWebhookConfigFile: '/k',
      authorizationWebhookVersion: 'v1',
      authorizationWebhookCacheAuthorizedTtl: '0s',
      authorizationWebhookCacheUnauthorizedTtl: '1m30s',
    });
    const w = config.authorizers[0]!;
    expect(w.type === 'Webhook' && w.webhook).toMatchObject({
      subjectAccessReviewVersion: 'v1',
      authorizedTTLMs: 0,
      cacheAuthorizedRequests: false,
      unauthorizedTTLMs: 90_000,
      cacheUnauthorizedRequests: true,
    });
  });

  it('throws the aggregated Validate() errors, and the webhook version error', () => {
    expect(() => authorizationConfigFromFlags({ authorizationMode: 'Foo' })).toThrow(
      new AuthorizationConfigError('authorization-mode "Foo" is not a valid mode'),
    );
    expect(() => authorizationConfigFromFlags({ authorizationMode: 'Foo,Bar' })).toThrow(
      new AuthorizationConfigError('[authorization-mode "Foo" is not a valid mode, authorization-mode "Bar" is not a valid mode]'),
    );
    expect(() =>
      authorizationConfigFromFlags({ authorizationMode: 'Webhook', authorizationWebhookConfigFile: '/k', authorizationWebhookVersion: 'v2' }),
    ).toThrow(new AuthorizationConfigError('unsupported webhook authorizer version "v2", supported versions are "v1", "v1beta1"'));
  });
});

describe('resolveAuthorizationConfig', () => {
  const dir = mkdtempSync(join(tmpdir(), 'memkube-authz-flags-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('loads --authorization-config, or translates the legacy flags', () => {
    const path = join(dir, 'authz.yaml');
    writeFileSync(path, 'apiVersion: apiserver.config.k8s.io/v1beta1\nkind: AuthorizationConfiguration\nauthorizers:\n- {type: RBAC, name: rbac}\n');
    expect(resolveAuthorizationConfig({ authorizationConfig: path })).toEqual({ authorizers: [{ type: 'RBAC', name: 'rbac' }] });
    expect(resolveAuthorizationConfig({ authorizationMode: 'RBAC' })).toEqual({ authorizers: [{ type: 'RBAC', name: 'rbac' }] });
    expect(() => resolveAuthorizationConfig({ authorizationConfig: path, authorizationMode: 'RBAC' })).toThrow(
      '--authorization-config can not be specified when --authorization-mode or --authorization-webhook-* flags are defined',
    );
    expect(() => resolveAuthorizationConfig({ authorizationConfig: join(dir, 'none.yaml') })).toThrow(
      `open ${join(dir, 'none.yaml')}: no such file or directory`,
    );
  });
});
