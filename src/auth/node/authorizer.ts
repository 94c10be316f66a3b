/**
 * The Node authorizer (`--authorization-mode=Node`; `plugin/pkg/auth/authorizer/node/node_authorizer.go`):
 * lets kubelets (`system:node:<name>` in `system:nodes`) read the secrets, config maps, claims,
 * volumes and resource claims of the pods bound to their node, create tokens for those pods'
 * service accounts, keep their own lease, CSINode, Node and resource slices, and do what the
 * `system:node` role's rules (bootstrappolicy `NodeRules`) allow. It has no opinion on other users.
 * Relations are read from storage at each request instead of from a graph kept in memory.
 */
import type { AuthorizationAttributes, AuthorizationResult, Authorizer, RulesForResult } from '../../machinery/auth.js';
import type { UserInfo } from '../../machinery/request.js';
import type { Storage } from '../../storage/storage.js';
import type { PolicyRule } from '../../kinds/types/rbac-v1.js';
import { BOOTSTRAP_CLUSTER_ROLES } from '../../kinds/rbac/bootstrap-policy.js';
import { rulesAllow } from '../rbac/rule-matching.js';
import { StorageNodeRelations, type RelatedType } from './relations.js';

/** The group every kubelet is in. */
export const NODES_GROUP = 'system:nodes';
/** The prefix of a kubelet's user name. */
export const NODE_USER_PREFIX = 'system:node:';
/** The namespace of node leases. */
const NODE_LEASE_NAMESPACE = 'kube-node-lease';

/** `NodeIdentity` of the default node identifier: the node's name, or undefined when the user is not a node. */
export function nodeIdentity(user: Readonly<UserInfo>): string | undefined {
  if (!user.username.startsWith(NODE_USER_PREFIX)) return undefined;
  if (!user.groups.includes(NODES_GROUP)) return undefined;
  return user.username.slice(NODE_USER_PREFIX.length);
}

/** The rules of the bootstrap `system:node` role (`NodeRules`). */
export function nodeRules(): readonly PolicyRule[] {
  return BOOTSTRAP_CLUSTER_ROLES.find((r) => r.metadata?.name === 'system:node')?.rules ?? [];
}

const ALLOW: AuthorizationResult = { decision: 'Allow', reason: '' };
const noOpinion = (reason = ''): AuthorizationResult => ({ decision: 'NoOpinion', reason });

/** Whether a field selector (`a=b,c==d`) requires `field` to equal `value`. */
function selectsField(selector: string | undefined, field: string, value: string): boolean {
  for (const term of (selector ?? '').split(',')) {
    const m = /^\s*([^!=\s]+)\s*==?\s*(.*?)\s*$/.exec(term);
    if (m && m[1] === field && m[2] === value) return true;
  }
  return false;
}

/** Options of {@link createNodeAuthorizer}. */
export interface NodeAuthorizerOptions {
  /** The cluster's API domain, `k8s.io` by default. */
  apiDomain?: string;
  /** The static rules every node has (`system:node`'s by default). */
  rules?: readonly PolicyRule[];
}

/** The Node authorizer over a storage. */
export function createNodeAuthorizer(storage: Storage, options: NodeAuthorizerOptions = {}): Authorizer {
  const domain = options.apiDomain ?? 'k8s.io';
  const rules = options.rules ?? nodeRules();
  const relations = new StorageNodeRelations(storage, domain);
  const groups = { storage: `storage.${domain}`, resource: `resource.${domain}`, coordination: `coordination.${domain}` };

  const related = async (node: string, type: RelatedType, a: AuthorizationAttributes): Promise<AuthorizationResult> => {
    if (!a.name) return noOpinion('No Object name found');
    if (await relations.related(node, type, a.namespace ?? '', a.name)) return ALLOW;
    return noOpinion(`no relationship found between node '${node}' and this object`);
  };
  const authorizeGet = (node: string, type: RelatedType, a: AuthorizationAttributes) => {
    if (a.verb !== 'get') return noOpinion('can only get individual resources of this type');
    if (a.subresource) return noOpinion('cannot get subresource');
    return related(node, type, a);
  };
  const authorizeRead = (node: string, type: RelatedType, a: AuthorizationAttributes) => {
    if (!['get', 'list', 'watch'].includes(a.verb)) return noOpinion('can only read resources of this type');
    if (a.subresource) return noOpinion('cannot read subresource');
    if (!a.namespace) return noOpinion('can only read namespaced object of this type');
    return related(node, type, a);
  };
  // The name of a lease or CSINode is the node's; a create names none (NodeRestriction admission checks it).
  const sameName = (node: string, a: AuthorizationAttributes, what: string) =>
    a.verb !== 'create' && a.name !== node ? noOpinion(`can only access ${what} with the same name as the requesting node`) : ALLOW;

  const resourceRequest = async (node: string, a: AuthorizationAttributes): Promise<AuthorizationResult | undefined> => {
    const group = a.apiGroup ?? '';
    const key = `${group}/${a.resource ?? ''}`;
    switch (key) {
      case '/secrets':
        return authorizeRead(node, 'secret', a);
      case '/configmaps':
        return authorizeRead(node, 'configmap', a);
      case '/persistentvolumeclaims':
        if (a.subresource === 'status') {
          if (a.verb !== 'update' && a.verb !== 'patch') return noOpinion('can only get/update/patch this type');
          return related(node, 'pvc', a);
        }
        return authorizeGet(node, 'pvc', a);
      case '/persistentvolumes':
        return authorizeGet(node, 'pv', a);
      case `${groups.resource}/resourceclaims`:
        return authorizeGet(node, 'resourceclaim', a);
      case `${groups.storage}/volumeattachments`:
        return authorizeGet(node, 'volumeattachment', a);
      case '/serviceaccounts':
        if (a.verb !== 'create' || !a.name) return noOpinion('can only create tokens for individual service accounts');
        if (a.subresource !== 'token') return noOpinion('can only create token subresource of serviceaccount');
        return (await relations.related(node, 'serviceaccount', a.namespace ?? '', a.name))
          ? ALLOW
          : noOpinion(`no relationship found between node '${node}' and this object`);
      case `${groups.coordination}/leases`:
        if (!['get', 'create', 'update', 'patch', 'delete'].includes(a.verb)) return noOpinion('can only get, create, update, patch, or delete a node lease');
        if (a.namespace !== NODE_LEASE_NAMESPACE) return noOpinion(`can only access leases in the "${NODE_LEASE_NAMESPACE}" system namespace`);
        return sameName(node, a, 'node lease');
      case `${groups.storage}/csinodes`:
        if (!['get', 'create', 'update', 'patch', 'delete'].includes(a.verb)) return noOpinion('can only get, create, update, patch, or delete a CSINode');
        if (a.subresource) return noOpinion('cannot authorize CSINode subresources');
        return sameName(node, a, 'CSINode');
      case `${groups.resource}/resourceslices`:
        if (a.subresource) return noOpinion('cannot authorize ResourceSlice subresources');
        if (a.verb === 'create') return ALLOW;
        if (['get', 'update', 'patch', 'delete'].includes(a.verb)) return related(node, 'resourceslice', a);
        if (['watch', 'list', 'deletecollection'].includes(a.verb)) {
          return selectsField(a.fieldSelector, 'nodeName', node)
            ? ALLOW
            : noOpinion('can only list/watch/deletecollection resourceslices with nodeName field selector');
        }
        return noOpinion('only the following verbs are allowed for a ResourceSlice: get, watch, list, create, update, patch, delete, deletecollection');
      case '/nodes':
        return authorizeNode(node, a);
      case '/pods':
        return authorizePod(node, a);
      default:
        return undefined;
    }
  };

  const authorizeNode = (node: string, a: AuthorizationAttributes): AuthorizationResult => {
    if (!a.subresource) {
      if (['create', 'update', 'patch'].includes(a.verb)) return ALLOW;
      if (['get', 'list', 'watch'].includes(a.verb)) {
        if (a.name === node) return ALLOW;
        if (!a.name) return noOpinion(`node '${node}' cannot read all nodes, only its own Node object`);
        return noOpinion(`node '${node}' cannot read '${a.name}', only its own Node object`);
      }
    } else if (a.subresource === 'status' && (a.verb === 'update' || a.verb === 'patch')) return ALLOW;
    return noOpinion();
  };

  const authorizePod = async (node: string, a: AuthorizationAttributes): Promise<AuthorizationResult> => {
    if (!a.subresource) {
      if (a.verb === 'get') return authorizeGet(node, 'pod', a);
      if (a.verb === 'list' || a.verb === 'watch') {
        if (selectsField(a.fieldSelector, 'spec.nodeName', node)) return ALLOW;
        if (a.name) return related(node, 'pod', a);
        return noOpinion('can only list/watch pods with spec.nodeName field selector');
      }
      if (a.verb === 'create' || a.verb === 'delete') return ALLOW;
    } else if (a.subresource === 'status' && (a.verb === 'update' || a.verb === 'patch')) return ALLOW;
    else if (a.subresource === 'eviction' && a.verb === 'create') return ALLOW;
    return noOpinion();
  };

  return {
    async authorize(a) {
      const node = nodeIdentity(a.user);
      if (node === undefined) return noOpinion();
      if (node === '') return noOpinion(`unknown node for user "${a.user.username}"`);
      if (a.resourceRequest) {
        const answer = await resourceRequest(node, a);
        if (answer) return answer;
      }
      return rulesAllow(a, rules) ? ALLOW : noOpinion();
    },
    rulesFor(user): RulesForResult {
      // Nodes' permissions are not a list of rules.
      if (nodeIdentity(user) !== undefined) {
        return { resourceRules: [], nonResourceRules: [], incomplete: true, evaluationError: 'node authorizer does not support user rule resolution' };
      }
      return { resourceRules: [], nonResourceRules: [], incomplete: false };
    },
  };
}
