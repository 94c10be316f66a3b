/**
 * The API Priority and Fairness configuration a new Kubernetes v1.36 cluster holds: the mandatory
 * and suggested PriorityLevelConfigurations and FlowSchemas of
 * k8s.io/apiserver/pkg/apis/flowcontrol/bootstrap (default.go), as the API serves them (defaults
 * filled), each with the `apf.kubernetes.io/autoupdate-spec: "true"` annotation the server's
 * configuration producer sets. `createCluster` creates them once, when the cluster starts.
 */
import type { FlowSchema, PriorityLevelConfiguration, PolicyRulesWithSubjects, ResourcePolicyRule, Subject } from '../types/flowcontrol-v1.js';

/** The annotation that lets the server keep a bootstrap object's spec up to date. */
export const AUTO_UPDATE_ANNOTATION = 'apf.kubernetes.io/autoupdate-spec';

const AUTHENTICATED = 'system:authenticated';
const UNAUTHENTICATED = 'system:unauthenticated';
const KUBE_CONTROLLER_MANAGER = 'system:kube-controller-manager';
const KUBE_SCHEDULER = 'system:kube-scheduler';

const groups = (...names: string[]): Subject[] => names.map((name) => ({ kind: 'Group', group: { name } }));
const users = (...names: string[]): Subject[] => names.map((name) => ({ kind: 'User', user: { name } }));
const kubeSystemServiceAccounts = (...names: string[]): Subject[] =>
  names.map((name) => ({ kind: 'ServiceAccount', serviceAccount: { name, namespace: 'kube-system' } }));

const rule = (verbs: string[], apiGroups: string[], resources: string[], namespaces: string[], clusterScope: boolean): ResourcePolicyRule => ({
  verbs,
  apiGroups,
  resources,
  clusterScope,
  namespaces,
});
/** Every verb on every resource and non-resource URL. */
const everything = (subjects: Subject[]): PolicyRulesWithSubjects => ({
  subjects,
  resourceRules: [rule(['*'], ['*'], ['*'], ['*'], true)],
  nonResourceRules: [{ verbs: ['*'], nonResourceURLs: ['*'] }],
});

const meta = (name: string) => ({ name, annotations: { [AUTO_UPDATE_ANNOTATION]: 'true' } });

function flowSchema(
  name: string,
  priorityLevel: string,
  matchingPrecedence: number,
  distinguisher: string | undefined,
  ...rules: PolicyRulesWithSubjects[]
): FlowSchema {
  return {
    metadata: meta(name),
    spec: {
      priorityLevelConfiguration: { name: priorityLevel },
      matchingPrecedence,
      ...(distinguisher ? { distinguisherMethod: { type: distinguisher } } : {}),
      rules,
    },
  };
}

function queued(name: string, shares: number, lendablePercent: number, queues: number, handSize: number): PriorityLevelConfiguration {
  return {
    metadata: meta(name),
    spec: {
      type: 'Limited',
      limited: {
        nominalConcurrencyShares: shares,
        lendablePercent,
        limitResponse: { type: 'Queue', queuing: { queues, handSize, queueLengthLimit: 50 } },
      },
    },
  };
}

/** The bootstrap objects, their API groups named under `apiDomain`. */
export interface FlowControlBootstrap {
  readonly priorityLevels: readonly PriorityLevelConfiguration[];
  readonly flowSchemas: readonly FlowSchema[];
}

/** The mandatory objects (`exempt`, `catch-all`), whose spec may not be changed. */
export function mandatoryPriorityLevels(): PriorityLevelConfiguration[] {
  return [
    { metadata: meta('exempt'), spec: { type: 'Exempt', exempt: { nominalConcurrencyShares: 0, lendablePercent: 0 } } },
    { metadata: meta('catch-all'), spec: { type: 'Limited', limited: { nominalConcurrencyShares: 5, lendablePercent: 0, limitResponse: { type: 'Reject' } } } },
  ];
}

/** The mandatory FlowSchemas (`exempt`, `catch-all`). */
export function mandatoryFlowSchemas(): FlowSchema[] {
  return [
    flowSchema('exempt', 'exempt', 1, undefined, everything(groups('system:masters'))),
    flowSchema('catch-all', 'catch-all', 10000, 'ByUser', everything(groups(UNAUTHENTICATED, AUTHENTICATED))),
  ];
}

/** Every bootstrap object, mandatory then suggested. */
export function flowControlBootstrap(apiDomain: string): FlowControlBootstrap {
  const coordination = `coordination.${apiDomain}`;
  const priorityLevels = [
    ...mandatoryPriorityLevels(),
    queued('system', 30, 33, 64, 6),
    queued('node-high', 40, 25, 64, 6),
    queued('leader-election', 10, 0, 16, 4),
    queued('workload-high', 40, 50, 128, 6),
    queued('workload-low', 100, 90, 128, 6),
    queued('global-default', 20, 50, 128, 6),
  ];
  const leaderElectionRules = (coreNamespaces: string[]): ResourcePolicyRule[] => [
    rule(['get', 'create', 'update'], [''], ['endpoints', 'configmaps'], coreNamespaces, false),
    rule(['get', 'create', 'update'], [coordination], ['leases'], ['*'], false),
  ];
  const flowSchemas = [
    ...mandatoryFlowSchemas(),
    flowSchema('system-nodes', 'system', 500, 'ByUser', everything(groups('system:nodes'))),
    flowSchema('system-node-high', 'node-high', 400, 'ByUser', {
      subjects: groups('system:nodes'),
      resourceRules: [rule(['*'], [''], ['nodes', 'nodes/status'], ['*'], true), rule(['*'], [coordination], ['leases'], ['*'], false)],
    }),
    flowSchema('probes', 'exempt', 2, undefined, {
      subjects: groups(UNAUTHENTICATED, AUTHENTICATED),
      nonResourceRules: [{ verbs: ['get'], nonResourceURLs: ['/healthz', '/readyz', '/livez'] }],
    }),
    flowSchema('system-leader-election', 'leader-election', 100, 'ByUser', {
      subjects: [...users(KUBE_CONTROLLER_MANAGER, KUBE_SCHEDULER), ...kubeSystemServiceAccounts('*')],
      resourceRules: leaderElectionRules(['kube-system']),
    }),
    flowSchema('workload-leader-election', 'leader-election', 200, 'ByUser', {
      subjects: kubeSystemServiceAccounts('*'),
      resourceRules: leaderElectionRules(['*']),
    }),
    flowSchema('endpoint-controller', 'workload-high', 150, 'ByUser', {
      subjects: [...users(KUBE_CONTROLLER_MANAGER), ...kubeSystemServiceAccounts('endpoint-controller', 'endpointslicemirroring-controller')],
      resourceRules: [rule(['get', 'create', 'update'], [''], ['endpoints'], ['*'], false)],
    }),
    flowSchema('kube-controller-manager', 'workload-high', 800, 'ByNamespace', everything(users(KUBE_CONTROLLER_MANAGER))),
    flowSchema('kube-scheduler', 'workload-high', 800, 'ByNamespace', everything(users(KUBE_SCHEDULER))),
    flowSchema('kube-system-service-accounts', 'workload-high', 900, 'ByNamespace', everything(kubeSystemServiceAccounts('*'))),
    flowSchema('service-accounts', 'workload-low', 9000, 'ByUser', everything(groups('system:serviceaccounts'))),
    flowSchema('global-default', 'global-default', 9900, 'ByUser', everything(groups(UNAUTHENTICATED, AUTHENTICATED))),
  ];
  return { priorityLevels, flowSchemas };
}
