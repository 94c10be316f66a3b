/**
 * Loading `--authorization-config` as kube-apiserver does: the messages of a file that does not
 * decode, does not validate, or names a built-in mode otherwise than kube-apiserver requires.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import {
  AuthorizationConfigError,
  loadAuthorizationConfiguration,
  loadAuthorizationConfigurationFile,
  type AuthorizationConfig,
} from '../../../src/config/authorization/index.js';

const dir = mkdtempSync(join(tmpdir(), 'memkube-authz-'));
const kubeconfig = join(dir, 'kubeconfig');
writeFileSync(kubeconfig, 'apiVersion: v1\nkind: Config\n');
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const header = 'apiVersion: apiserver.config.k8s.io/v1\nkind: AuthorizationConfiguration\n';

function failure(text: string): string {
  try {
    loadAuthorizationConfiguration(text);
  } catch (e) {
    expect(e).toBeInstanceOf(AuthorizationConfigError);
    return (e as Error).message;
  }
  throw new Error('the configuration loaded');
}

describe('loadAuthorizationConfiguration', () => {
  it('loads a chain: built-in modes and webhooks, defaulted, durations in milliseconds', () => {
    const config = loadAuthorizationConfiguration(`${header}authorizers:
- type: Node
  name: node
- type: RBAC
  name: rbac
- type: Webhook
  name: opa.example.com
  webhook:
    timeout: 3s
    unauthorizedTTL: 1500ms
    cacheAuthorizedRequests: false
    subjectAccessReviewVersion: v1beta1
    matchConditionSubjectAccessReviewVersion: v1
    failurePolicy: Deny
    connectionInfo:
      type: KubeConfigFile
      kubeConfigFile: ${kubeconfig}
    matchConditions:
    - expression: "!('system:serviceaccounts:kube-system' in request.groups)"
`);
    expect(config).toEqual<AuthorizationConfig>({
      authorizers: [
        { type: 'Node', name: 'node' },
        { type: 'RBAC', name: 'rbac' },
        {
          type: 'Webhook',
          name: 'opa.example.com',
          webhook: {
            timeoutMs: 3000,
            authorizedTTLMs: 300_000,
            cacheAuthorizedRequests: false,
            unauthorizedTTLMs: 1500,
            cacheUnauthorizedRequests: true,
            subjectAccessReviewVersion: 'v1beta1',
            matchConditionSubjectAccessReviewVersion: 'v1',
            failurePolicy: 'Deny',
            connectionInfo: { type: 'KubeConfigFile', kubeConfigFile: kubeconfig },
            matchConditions: [{ expression: "!('system:serviceaccounts:kube-system' in request.groups)" }],
          },
        },
      ],
    });
  });

  it('wraps decoding errors', () => {
    expect(failure(`${header}authorizers:\n- type: RBAC\n  name: rbac\n  mode: strict\n`)).toBe(
      'failed to load AuthorizationConfiguration from file: strict decoding error: unknown field "authorizers[0].mode"',
    );
    expect(failure('apiVersion: apiserver.config.k8s.io/v2\nkind: AuthorizationConfiguration\n')).toBe(
      'failed to load AuthorizationConfiguration from file: no kind "AuthorizationConfiguration" is registered for version "apiserver.config.k8s.io/v2"',
    );
    expect(failure(`${header}authorizers:\n- type: Webhook\n  name: w\n  webhook:\n    timeout: soon\n`)).toBe(
      'failed to load AuthorizationConfiguration from file: time: invalid duration "soon"',
    );
    expect(failure(`${header}authorizers: [`)).toMatch(/^failed to load AuthorizationConfiguration from file: error converting YAML to JSON: yaml: /);
  });

  it('aggregates validation errors as kube-apiserver prints them', () => {
    expect(failure(`${header}authorizers: []\n`)).toBe('authorizers: Required value: at least one authorization mode must be defined');
    expect(failure('')).toBe('authorizers: Required value: at least one authorization mode must be defined');
    expect(failure(`${header}authorizers:\n- type: Foo\n  name: foo\n- type: Webhook\n  name: w\n`)).toBe(
      '[authorizers[0].type: Unsupported value: "Foo": supported values: "ABAC", "AlwaysAllow", "AlwaysDeny", "Node", "RBAC", "Webhook", authorizers[1].webhook: Required value: required when type=Webhook]',
    );
  });

  it('requires the built-in modes to carry their lower-case names', () => {
    expect(failure(`${header}authorizers:\n- type: RBAC\n  name: my-rbac\n`)).toBe('expected name rbac for authorizer RBAC instead of my-rbac');
    expect(failure(`${header}authorizers:\n- type: Node\n  name: nodes\n- type: AlwaysAllow\n  name: allow\n`)).toBe(
      '[expected name node for authorizer Node instead of nodes, expected name alwaysallow for authorizer AlwaysAllow instead of allow]',
    );
  });

  it('refuses what memkube cannot run: ABAC, and in-cluster webhooks', () => {
    expect(failure(`${header}authorizers:\n- type: ABAC\n  name: abac\n`)).toBe('authorizer type ABAC is not supported by memkube');
    expect(
      failure(
        `${header}authorizers:\n- type: Webhook\n  name: w\n  webhook: {timeout: 3s, subjectAccessReviewVersion: v1, failurePolicy: Deny, connectionInfo: {type: InClusterConfig}}\n`,
      ),
    ).toBe('authorizer w: connectionInfo type InClusterConfig is not supported by memkube (use KubeConfigFile)');
  });

  it('refuses hostile input with a message, never a crash', () => {
    expect(failure('[1, 2]')).toMatch(/^failed to load AuthorizationConfiguration from file: couldn't get version\/kind/);
    expect(failure(`${header}authorizers: ${'['.repeat(2000)}`)).toMatch(/^failed to load AuthorizationConfiguration from file: /);
    expect(failure(`${header}authorizers:\n- type: ${'x'.repeat(100_000)}\n  name: n\n`)).toMatch(/^authorizers\[0\]\.type: Unsupported value/);
  });
});

describe('loadAuthorizationConfigurationFile', () => {
  it('reads the file', () => {
    const path = join(dir, 'authz.yaml');
    writeFileSync(path, `${header}authorizers:\n- type: AlwaysDeny\n  name: alwaysdeny\n`);
    expect(loadAuthorizationConfigurationFile(path)).toEqual({ authorizers: [{ type: 'AlwaysDeny', name: 'alwaysdeny' }] });
  });

  it("says when it cannot, in Go's words", () => {
    expect(() => loadAuthorizationConfigurationFile(join(dir, 'missing.yaml'))).toThrow(`open ${join(dir, 'missing.yaml')}: no such file or directory`);
    expect(() => loadAuthorizationConfigurationFile(dir)).toThrow(`read ${dir}: is a directory`);
  });
});
