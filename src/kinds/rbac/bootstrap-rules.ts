/** Shorthands the bootstrap policy is written with: rules, the bootstrap metadata, roles and bindings. */
import type { PolicyRule, Subject } from '../types/rbac-v1.js';

export const READ = ['get', 'list', 'watch'];
export const WRITE = ['create', 'delete', 'deletecollection', 'patch', 'update'];
export const READ_WRITE = ['create', 'delete', 'deletecollection', 'get', 'list', 'patch', 'update', 'watch'];

/** A resource rule (lists as kube-apiserver stores them: each sorted). */
export function resources(verbs: string[], apiGroups: string[], names: string[], resourceNames?: string[]): PolicyRule {
  return resourceNames ? { apiGroups, resourceNames, resources: names, verbs } : { apiGroups, resources: names, verbs };
}

/** A non-resource rule. */
export function urls(verbs: string[], nonResourceURLs: string[]): PolicyRule {
  return { nonResourceURLs, verbs };
}

/** `create`, `patch` and `update` of events in both groups (bootstrappolicy's `eventsRule`). */
export const EVENTS_RULE = resources(['create', 'patch', 'update'], ['', 'events.k8s.io'], ['events']);

/** The metadata of every bootstrap object: the `rbac-defaults` label and the autoupdate annotation. */
export function bootstrapMetadata(name: string, labels: Record<string, string> = {}, namespace?: string) {
  return {
    name,
    ...(namespace ? { namespace } : {}),
    labels: { 'kubernetes.io/bootstrapping': 'rbac-defaults', ...labels },
    annotations: { 'rbac.authorization.kubernetes.io/autoupdate': 'true' },
  };
}

export const group = (name: string): Subject => ({ kind: 'Group', name });
export const user = (name: string): Subject => ({ kind: 'User', name });
export const serviceAccount = (name: string, namespace: string): Subject => ({ kind: 'ServiceAccount', name, namespace });
