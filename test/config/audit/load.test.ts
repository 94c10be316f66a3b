import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { AuditPolicyError, loadAuditPolicy, readAuditPolicyFile, type Policy } from '../../../src/config/audit/index.js';

const dir = mkdtempSync(join(tmpdir(), 'memkube-audit-policy-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function refused(input: string | object): string {
  try {
    loadAuditPolicy(input as Policy);
  } catch (e) {
    expect(e).toBeInstanceOf(AuditPolicyError);
    return (e as Error).message;
  }
  throw new Error('expected the policy to be refused');
}

const HEADER = 'apiVersion: audit.k8s.io/v1\nkind: Policy\n';

describe('loadAuditPolicy', () => {
  it('reads a policy with every kind of rule', () => {
    const { policy, warnings } = loadAuditPolicy(`${HEADER}omitStages: [RequestReceived]
omitManagedFields: true
rules:
  - level: None
    users: ["system:kube-proxy"]
    verbs: ["watch"]
    resources:
      - group: ""
        resources: ["endpoints", "services", "pods/log", "*/status"]
        resourceNames: ["a"]
  - level: Metadata
    nonResourceURLs: ["/healthz*", "/version"]
  - level: Request
    userGroups: ["system:nodes"]
    namespaces: ["kube-system", ""]
    omitManagedFields: false
  - level: RequestResponse
    resources: [{ group: "*" }]
`);
    expect(warnings).toEqual([]);
    expect(policy.rules.map((r) => r.level)).toEqual(['None', 'Metadata', 'Request', 'RequestResponse']);
    expect(policy.omitStages).toEqual(['RequestReceived']);
    expect(policy.rules[2]!.omitManagedFields).toBe(false);
  });

  it('takes a JSON text and an object alike', () => {
    const object: Policy = { apiVersion: 'audit.k8s.io/v1', kind: 'Policy', rules: [{ level: 'Metadata' }] };
    expect(loadAuditPolicy(JSON.stringify(object)).policy.rules).toEqual([{ level: 'Metadata' }]);
    expect(loadAuditPolicy(object).policy.rules).toEqual([{ level: 'Metadata' }]);
  });

  it('falls back to lenient decoding for unknown and duplicated fields, with the warning kube-apiserver logs', () => {
    const { policy, warnings } = loadAuditPolicy(`${HEADER}rules:\n  - level: Metadata\n    colour: blue\n    level: Request\n`);
    expect(policy.rules).toEqual([{ level: 'Request' }]);
    expect(warnings).toEqual([
      'Audit policy contains errors, falling back to lenient decoding: strict decoding error: json: duplicate field "rules[0].level", unknown field "rules[0].colour"',
    ]);
  });

  it('refuses other versions and kinds, including the removed v1beta1 and v1alpha1', () => {
    expect(refused('apiVersion: audit.k8s.io/v1beta1\nkind: Policy\nrules: [{level: None}]')).toBe(
      'failed decoding: no kind "Policy" is registered for version "audit.k8s.io/v1beta1" in scheme "k8s.io/apiserver/pkg/audit/scheme.go:30"',
    );
    expect(refused('apiVersion: audit.k8s.io/v1alpha1\nkind: Policy\nrules: [{level: None}]')).toMatch(
      /^failed decoding: no kind "Policy" is registered for version "audit.k8s.io\/v1alpha1"/,
    );
    expect(refused('apiVersion: audit.k8s.io/v1\nkind: Event\n')).toMatch(/^failed decoding: no kind "Event"/);
    expect(refused('rules: []\n')).toBe("failed decoding: Object 'Kind' is missing in 'rules: []'");
    expect(refused('')).toBe("failed decoding: Object 'Kind' is missing in ''");
  });

  it('refuses malformed and hostile YAML with a decoding error, never a crash', () => {
    expect(refused(`${HEADER}rules: [`)).toMatch(/^failed decoding: error converting YAML to JSON: yaml: /);
    expect(refused(`${HEADER}rules: ${'['.repeat(20000)}${']'.repeat(20000)}`)).toMatch(/^failed decoding: /);
    expect(refused('- a\n- b\n')).toMatch(/^failed decoding: couldn't get version\/kind; json parse error: json: cannot unmarshal array/);
    expect(refused(`${HEADER}rules: "all"\n`)).toMatch(
      /^failed decoding: json: cannot unmarshal string into Go struct field Policy.rules of type \[\]v1.PolicyRule/,
    );
    expect(refused(`${HEADER}${'x'.repeat(4 * 1024 * 1024)}: 1\n`)).toBe('failed decoding: configuration is larger than 3145728 bytes');
    // Aliases that would expand to a huge document are refused by the YAML reader.
    const bomb = `${HEADER}a: &a ["x","x","x","x","x","x","x","x","x"]\nb: &b [*a,*a,*a,*a,*a,*a,*a,*a,*a]\nc: &c [*b,*b,*b,*b,*b,*b,*b,*b,*b]\nd: &d [*c,*c,*c,*c,*c,*c,*c,*c,*c]\ne: &e [*d,*d,*d,*d,*d,*d,*d,*d,*d]\nf: &f [*e,*e,*e,*e,*e,*e,*e,*e,*e]\ng: [*f,*f,*f,*f,*f,*f,*f,*f,*f]\nrules: [{level: None}]\n`;
    expect(() => loadAuditPolicy(bomb)).toThrow();
  });

  it('refuses a policy without rules', () => {
    expect(refused(HEADER)).toBe('loaded illegal policy with 0 rules');
    expect(refused(`${HEADER}rules: []\n`)).toBe('loaded illegal policy with 0 rules');
  });

  it('validates levels, stages, URLs and groups with kube-apiserver field errors', () => {
    expect(refused(`${HEADER}rules: [{}]`)).toBe('rules[0].level: Required value');
    expect(refused(`${HEADER}rules: [{level: Everything}]`)).toBe(
      'rules[0].level: Unsupported value: "Everything": supported values: "None", "Metadata", "Request", "RequestResponse"',
    );
    expect(refused(`${HEADER}omitStages: [Done]\nrules: [{level: None, omitStages: [ResponseStarted, Later]}]`)).toBe(
      '[omitStages[0]: Invalid value: "Done": allowed stages are RequestReceived,ResponseStarted,ResponseComplete,Panic, rules[0].omitStages[1]: Invalid value: "Later": allowed stages are RequestReceived,ResponseStarted,ResponseComplete,Panic]',
    );
    expect(refused(`${HEADER}rules: [{level: None, nonResourceURLs: ["healthz", "/a*b", "/ok*", "*"]}]`)).toBe(
      `[rules[0].nonResourceURLs[0]: Invalid value: "healthz": non-resource URL rules must begin with a '/' character, rules[0].nonResourceURLs[1]: Invalid value: "/a*b": non-resource URL wildcards '*' must be the final character of the rule]`,
    );
    expect(refused(`${HEADER}rules: [{level: None, nonResourceURLs: ["/x"], namespaces: ["a"]}]`)).toBe(
      'rules[0].nonResourceURLs: Invalid value: ["/x"]: rules cannot apply to both regular resources and non-resource URLs',
    );
    expect(refused(`${HEADER}rules: [{level: None, resources: [{group: "rbac.authorization.k8s.io/v1"}]}]`)).toMatch(
      /^rules\[0\]\.resources\.group: Invalid value: "rbac.authorization.k8s.io\/v1": a lowercase RFC 1123 subdomain must consist of/,
    );
    expect(refused(`${HEADER}rules: [{level: None, resources: [{group: "", resourceNames: ["x"]}]}]`)).toBe(
      'rules[0].resources.resourceNames: Invalid value: ["x"]: using resourceNames requires at least one resource',
    );
  });
});

describe('readAuditPolicyFile', () => {
  it('names the file in its messages', () => {
    const bad = join(dir, 'bad.yaml');
    writeFileSync(bad, `${HEADER}rules: [{level: Loud}]`);
    expect(() => readAuditPolicyFile(bad)).toThrow(
      `rules[0].level: Unsupported value: "Loud": supported values: "None", "Metadata", "Request", "RequestResponse": from file ${bad}`,
    );
    const missing = join(dir, 'missing.yaml');
    expect(() => readAuditPolicyFile(missing)).toThrow(`failed to read file path "${missing}": open ${missing}: no such file or directory`);
    expect(() => readAuditPolicyFile('')).toThrow('file path not specified');
    const good = join(dir, 'good.yaml');
    writeFileSync(good, `${HEADER}rules: [{level: Metadata}]`);
    expect(readAuditPolicyFile(good).policy.rules).toEqual([{ level: 'Metadata' }]);
  });
});
