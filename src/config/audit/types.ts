/**
 * The audit policy kube-apiserver reads from `--audit-policy-file` (`audit.k8s.io/v1` Policy,
 * k8s.io/apiserver `pkg/apis/audit/v1/types.go`): which requests are recorded, at which level, and
 * which stages are left out. Only `audit.k8s.io/v1` is read, as kube-apiserver v1.36 reads it.
 */
import { z } from 'zod';
import { lazyConfigVersion, type ConfigKind } from '../decode.js';
import { lazySchema } from '../../util/lazy-schema.js';

/**
 * How much of a request is recorded.
 * @category Audit
 */
export type AuditLevel = 'None' | 'Metadata' | 'Request' | 'RequestResponse';

/**
 * The audit levels from least to most.
 * @category Audit
 */
export const AUDIT_LEVELS: readonly AuditLevel[] = ['None', 'Metadata', 'Request', 'RequestResponse'];

/**
 * When in a request's life an event is made.
 * @category Audit
 */
export type AuditStage = 'RequestReceived' | 'ResponseStarted' | 'ResponseComplete' | 'Panic';

/**
 * The audit stages, in the order a request goes through them.
 * @category Audit
 */
export const AUDIT_STAGES: readonly AuditStage[] = ['RequestReceived', 'ResponseStarted', 'ResponseComplete', 'Panic'];

/** The Go package of these types, so type errors name them as kube-apiserver's decoder does (`v1.PolicyRule`). */
const GO_PACKAGE = 'io.k8s.apiserver.pkg.apis.audit.v1';

/** A group and some of its resources (`GroupResources`). */
export const GroupResourcesSchema = lazySchema(() =>
  z
    .object({
      group: z.string().optional(),
      resources: z.array(z.string()).optional(),
      resourceNames: z.array(z.string()).optional(),
    })
    .meta({ id: `${GO_PACKAGE}.GroupResources` }),
);

/** One rule: the requests it matches and the level they are recorded at (`PolicyRule`). */
export const PolicyRuleSchema = lazySchema(() =>
  z
    .object({
      level: z.string().optional(),
      users: z.array(z.string()).optional(),
      userGroups: z.array(z.string()).optional(),
      verbs: z.array(z.string()).optional(),
      resources: z.array(GroupResourcesSchema()).optional(),
      namespaces: z.array(z.string()).optional(),
      nonResourceURLs: z.array(z.string()).optional(),
      omitStages: z.array(z.string()).optional(),
      omitManagedFields: z.boolean().optional(),
    })
    .meta({ id: `${GO_PACKAGE}.PolicyRule` }),
);

/** The whole policy file (`Policy`). */
export const PolicySchema = lazySchema(() =>
  z
    .object({
      apiVersion: z.literal('audit.k8s.io/v1'),
      kind: z.literal('Policy'),
      metadata: z.record(z.string(), z.unknown()).optional(),
      rules: z.array(PolicyRuleSchema()).optional(),
      omitStages: z.array(z.string()).optional(),
      omitManagedFields: z.boolean().optional(),
    })
    .meta({ id: `${GO_PACKAGE}.Policy` }),
);

/**
 * A group and resources of a rule, as written.
 * @category Audit
 */
export type GroupResources = z.infer<ReturnType<typeof GroupResourcesSchema>>;

/**
 * A rule as written.
 * @category Audit
 */
export interface PolicyRule {
  level?: AuditLevel | string;
  users?: string[];
  userGroups?: string[];
  verbs?: string[];
  resources?: GroupResources[];
  namespaces?: string[];
  nonResourceURLs?: string[];
  omitStages?: (AuditStage | string)[];
  omitManagedFields?: boolean;
}

/**
 * An audit.k8s.io/v1 Policy as written (what `createCluster({ audit: { policy } })` takes besides its text).
 * @category Audit
 */
export interface Policy {
  apiVersion: 'audit.k8s.io/v1';
  kind: 'Policy';
  metadata?: Record<string, unknown>;
  rules?: PolicyRule[];
  omitStages?: (AuditStage | string)[];
  omitManagedFields?: boolean;
}

/**
 * A rule once validated: its level and stages are known values.
 * @category Audit
 */
export interface ValidPolicyRule extends Omit<PolicyRule, 'level' | 'omitStages'> {
  level: AuditLevel;
  omitStages?: AuditStage[];
}

/**
 * A policy once decoded and validated: at least one rule, every level and stage known.
 * @category Audit
 */
export interface AuditPolicy {
  rules: ValidPolicyRule[];
  omitStages?: AuditStage[];
  omitManagedFields?: boolean;
}

/** The configuration kind, for `decodeConfig`. */
export const PolicyKind: ConfigKind = {
  kind: 'Policy',
  versions: [lazyConfigVersion('audit.k8s.io/v1', PolicySchema)],
};
