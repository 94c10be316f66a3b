/**
 * Every rule of ValidateAuthorizationConfiguration, with upstream's field paths and messages.
 */
import { describe, expect, it } from 'vitest';
import {
  validateAuthorizationConfiguration,
  type AuthorizationConfigurationDocument,
  type AuthorizerConfigurationDocument,
  type FileStat,
  type WebhookConfigurationDocument,
} from '../../../src/config/authorization/index.js';
import { fieldErrorMessage } from '../../../src/machinery/field-errors.js';

const S = 1_000_000_000n;
const regularFile = (): FileStat => ({ regular: true });

function webhook(overrides: Partial<WebhookConfigurationDocument> = {}): WebhookConfigurationDocument {
  return {
    authorizedTTL: 300n * S,
    cacheAuthorizedRequests: true,
    unauthorizedTTL: 30n * S,
    cacheUnauthorizedRequests: true,
    timeout: 3n * S,
    subjectAccessReviewVersion: 'v1',
    matchConditionSubjectAccessReviewVersion: '',
    failurePolicy: 'NoOpinion',
    connectionInfo: { type: 'KubeConfigFile', kubeConfigFile: '/etc/kubeconfig' },
    matchConditions: [],
    ...overrides,
  };
}

function messages(authorizers: AuthorizerConfigurationDocument[], statFile: (p: string) => FileStat = regularFile): string[] {
  const doc: AuthorizationConfigurationDocument = { authorizers };
  return validateAuthorizationConfiguration(doc, { statFile }).map(fieldErrorMessage);
}

const hook = (overrides: Partial<WebhookConfigurationDocument> = {}): AuthorizerConfigurationDocument[] => [
  { type: 'Webhook', name: 'w', webhook: webhook(overrides) },
];

describe('validateAuthorizationConfiguration: authorizers', () => {
  it('accepts a valid chain', () => {
    expect(
      messages([{ type: 'Node', name: 'node' }, { type: 'RBAC', name: 'rbac' }, ...hook(), { type: 'Webhook', name: 'second', webhook: webhook() }]),
    ).toEqual([]);
  });

  it('requires at least one authorizer', () => {
    expect(messages([])).toEqual(['authorizers: Required value: at least one authorization mode must be defined']);
  });

  it('requires a type, and stops there', () => {
    expect(messages([{ type: '', name: '' }])).toEqual(['authorizers[0].type: Required value']);
  });

  it('refuses an unknown type, listing the known ones in order', () => {
    expect(messages([{ type: 'Foo', name: 'foo' }])).toEqual([
      'authorizers[0].type: Unsupported value: "Foo": supported values: "ABAC", "AlwaysAllow", "AlwaysDeny", "Node", "RBAC", "Webhook"',
    ]);
  });

  it('refuses a repeated type other than Webhook', () => {
    expect(
      messages([
        { type: 'RBAC', name: 'rbac' },
        { type: 'RBAC', name: 'rbac2' },
      ]),
    ).toEqual(['authorizers[1].type: Duplicate value: "RBAC"']);
    expect(messages([...hook(), { type: 'Webhook', name: 'w2', webhook: webhook() }])).toEqual([]);
  });

  it('requires a unique DNS-subdomain name', () => {
    expect(messages([{ type: 'RBAC', name: '' }])).toEqual(['authorizers[0].name: Required value']);
    expect(messages([...hook(), { type: 'Webhook', name: 'w', webhook: webhook() }])).toEqual(['authorizers[1].name: Duplicate value: "w"']);
    expect(messages([{ type: 'Webhook', name: 'FOO.example.domain', webhook: webhook() }])).toEqual([
      "authorizers[0].name: Invalid value: \"FOO.example.domain\": authorizer name is invalid: a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')",
    ]);
  });

  it('requires webhook settings exactly for type Webhook', () => {
    expect(messages([{ type: 'Webhook', name: 'w' }])).toEqual(['authorizers[0].webhook: Required value: required when type=Webhook']);
    expect(messages([{ type: 'RBAC', name: 'rbac', webhook: webhook() }])).toEqual([
      'authorizers[0].webhook: Invalid value: "non-null": may only be specified when type=Webhook',
    ]);
  });
});

describe('validateAuthorizationConfiguration: webhook settings (reported under the authorizer)', () => {
  it('requires a timeout above 0s and at most 30s', () => {
    expect(messages(hook({ timeout: 0n }))).toEqual(['authorizers[0].timeout: Required value']);
    expect(messages(hook({ timeout: -30n * S }))).toEqual(['authorizers[0].timeout: Invalid value: "-30s": must be > 0s and <= 30s']);
    expect(messages(hook({ timeout: 60n * S }))).toEqual(['authorizers[0].timeout: Invalid value: "1m0s": must be > 0s and <= 30s']);
    expect(messages(hook({ timeout: 30n * S }))).toEqual([]);
  });

  it('requires positive TTLs', () => {
    expect(messages(hook({ authorizedTTL: 0n }))).toEqual(['authorizers[0].authorizedTTL: Required value']);
    expect(messages(hook({ authorizedTTL: -30n * S }))).toEqual(['authorizers[0].authorizedTTL: Invalid value: "-30s": must be > 0s']);
    expect(messages(hook({ unauthorizedTTL: 0n }))).toEqual(['authorizers[0].unauthorizedTTL: Required value']);
    expect(messages(hook({ unauthorizedTTL: -30n * S }))).toEqual(['authorizers[0].unauthorizedTTL: Invalid value: "-30s": must be > 0s']);
  });

  it('requires subjectAccessReviewVersion v1 or v1beta1', () => {
    expect(messages(hook({ subjectAccessReviewVersion: '' }))).toEqual(['authorizers[0].subjectAccessReviewVersion: Required value']);
    expect(messages(hook({ subjectAccessReviewVersion: 'v2beta1' }))).toEqual([
      'authorizers[0].subjectAccessReviewVersion: Unsupported value: "v2beta1": supported values: "v1", "v1beta1"',
    ]);
    expect(messages(hook({ subjectAccessReviewVersion: 'v1beta1' }))).toEqual([]);
  });

  it('requires matchConditionSubjectAccessReviewVersion v1 with match conditions', () => {
    expect(messages(hook({ matchConditions: [{ expression: 'true' }] }))).toEqual([
      'authorizers[0].matchConditionSubjectAccessReviewVersion: Required value: required if match conditions are specified',
    ]);
    expect(messages(hook({ matchConditionSubjectAccessReviewVersion: 'v1beta1' }))).toEqual([
      'authorizers[0].matchConditionSubjectAccessReviewVersion: Unsupported value: "v1beta1": supported values: "v1"',
    ]);
  });

  it('requires failurePolicy NoOpinion or Deny', () => {
    expect(messages(hook({ failurePolicy: '' }))).toEqual(['authorizers[0].failurePolicy: Required value']);
    expect(messages(hook({ failurePolicy: 'AlwaysAllow' }))).toEqual([
      'authorizers[0].failurePolicy: Unsupported value: "AlwaysAllow": supported values: "NoOpinion", "Deny"',
    ]);
    expect(messages(hook({ failurePolicy: 'Deny' }))).toEqual([]);
  });

  it('checks connectionInfo', () => {
    expect(messages(hook({ connectionInfo: { type: '' } }))).toEqual(['authorizers[0].connectionInfo.type: Required value']);
    expect(messages(hook({ connectionInfo: { type: 'ExternalClusterConfig' } }))).toEqual([
      'authorizers[0].connectionInfo.type: Unsupported value: apiserver.WebhookConnectionInfo{Type:"ExternalClusterConfig", KubeConfigFile:(*string)(nil)}: supported values: "InClusterConfig", "KubeConfigFile"',
    ]);
    expect(messages(hook({ connectionInfo: { type: 'InClusterConfig', kubeConfigFile: '' } }))).toEqual([
      'authorizers[0].connectionInfo.kubeConfigFile: Invalid value: "": can only be set when type=KubeConfigFile',
    ]);
    expect(messages(hook({ connectionInfo: { type: 'InClusterConfig' } }))).toEqual([]);
    expect(messages(hook({ connectionInfo: { type: 'KubeConfigFile' } }))).toEqual(['authorizers[0].connectionInfo.kubeConfigFile: Required value']);
    expect(messages(hook({ connectionInfo: { type: 'KubeConfigFile', kubeConfigFile: '../some/relative/path/kubeconfig' } }))).toEqual([
      'authorizers[0].connectionInfo.kubeConfigFile: Invalid value: "../some/relative/path/kubeconfig": must be an absolute path',
    ]);
  });

  it('checks the kubeconfig file on disk', () => {
    const missing = (p: string): FileStat => ({ error: `stat ${p}: no such file or directory` });
    expect(messages(hook(), missing)).toEqual([
      'authorizers[0].connectionInfo.kubeConfigFile: Invalid value: "/etc/kubeconfig": error loading file: stat /etc/kubeconfig: no such file or directory',
    ]);
    expect(messages(hook(), () => ({ regular: false }))).toEqual([
      'authorizers[0].connectionInfo.kubeConfigFile: Invalid value: "/etc/kubeconfig": must be a regular file',
    ]);
    // The real file system, by default.
    const doc = { authorizers: hook({ connectionInfo: { type: 'KubeConfigFile', kubeConfigFile: '/nonexistent/memkube/kubeconfig' } }) };
    expect(validateAuthorizationConfiguration(doc).map(fieldErrorMessage)).toEqual([
      'authorizers[0].connectionInfo.kubeConfigFile: Invalid value: "/nonexistent/memkube/kubeconfig": error loading file: stat /nonexistent/memkube/kubeconfig: no such file or directory',
    ]);
    expect(
      validateAuthorizationConfiguration({ authorizers: hook({ connectionInfo: { type: 'KubeConfigFile', kubeConfigFile: '/' } }) }).map(fieldErrorMessage),
    ).toEqual(['authorizers[0].connectionInfo.kubeConfigFile: Invalid value: "/": must be a regular file']);
  });

  it('reports every problem of a webhook, in upstream order', () => {
    expect(messages(hook({ timeout: 0n, subjectAccessReviewVersion: '', failurePolicy: '', connectionInfo: { type: '' } }))).toEqual([
      'authorizers[0].timeout: Required value',
      'authorizers[0].subjectAccessReviewVersion: Required value',
      'authorizers[0].failurePolicy: Required value',
      'authorizers[0].connectionInfo.type: Required value',
    ]);
  });
});

describe('validateAuthorizationConfiguration: matchConditions', () => {
  const withConditions = (...expressions: string[]) =>
    messages(hook({ matchConditionSubjectAccessReviewVersion: 'v1', matchConditions: expressions.map((expression) => ({ expression })) }));

  it('accepts conditions over the request', () => {
    expect(
      withConditions(
        "has(request.resourceAttributes) && request.resourceAttributes.namespace == 'kube-system'",
        "request.user == 'admin'",
        "'system:masters' in request.groups",
        "has(request.nonResourceAttributes) && request.nonResourceAttributes.path.startsWith('/healthz')",
        "request.extra.exists(k, k == 'scopes')",
        "request.uid != ''",
      ),
    ).toEqual([]);
  });

  it('refuses blank and repeated expressions', () => {
    expect(withConditions('  ')).toEqual(['authorizers[0].matchConditions[0].expression: Required value']);
    expect(withConditions("request.user == 'admin'", "request.user == 'admin'")).toEqual([
      'authorizers[0].matchConditions[1].expression: Duplicate value: "request.user == \'admin\'"',
    ]);
  });

  it('refuses expressions that do not compile, with the compiler message', () => {
    expect(withConditions('test')).toEqual([
      "authorizers[0].matchConditions[0].expression: Invalid value: \"test\": compilation failed: ERROR: <input>:1:1: undeclared reference to 'test' (in container '')\n | test\n | ^",
    ]);
    expect(withConditions("request.user = 'test'")).toEqual([
      "authorizers[0].matchConditions[0].expression: Invalid value: \"request.user = 'test'\": compilation failed: ERROR: <input>:1:14: Syntax error: token recognition error at: '='\n | request.user = 'test'\n | .............^\nERROR: <input>:1:16: Syntax error: extraneous input ''test'' expecting <EOF>\n | request.user = 'test'\n | ...............^",
    ]);
    expect(withConditions('request.foo')).toEqual([
      'authorizers[0].matchConditions[0].expression: Invalid value: "request.foo": compilation failed: ERROR: <input>:1:8: undefined field \'foo\'\n | request.foo\n | .......^',
    ]);
  });

  it('requires a bool result', () => {
    expect(withConditions('request.user')).toEqual([
      'authorizers[0].matchConditions[0].expression: Invalid value: "request.user": must evaluate to bool but got string',
    ]);
    expect(withConditions('request.groups')).toEqual([
      'authorizers[0].matchConditions[0].expression: Invalid value: "request.groups": must evaluate to bool but got list(string)',
    ]);
  });

  it('allows at most 64 conditions', () => {
    const many = Array.from({ length: 65 }, (_, i) => `request.user == 'u${i}'`);
    expect(withConditions(...many)).toEqual(['authorizers[0].matchConditions: Too many: 65: must have at most 64 items']);
    expect(withConditions(...many.slice(0, 64))).toEqual([]);
  });
});
