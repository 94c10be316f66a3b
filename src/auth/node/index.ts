/** The Node authorizer: kubelets' access to what their pods use, and the static node rules. */
export { createNodeAuthorizer, nodeIdentity, nodeRules, NODES_GROUP, NODE_USER_PREFIX, type NodeAuthorizerOptions } from './authorizer.js';
export { StorageNodeRelations, type RelatedType } from './relations.js';
export { podReferences, persistentVolumeSecrets, type PodReferences } from './pod-references.js';
