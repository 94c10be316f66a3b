/**
 * The user a service account token stands for (k8s.io/apiserver
 * `pkg/authentication/serviceaccount` ServiceAccountInfo.UserInfo): its name, UID, the two service
 * account groups and, for bound tokens, the pod, node and credential ID as `extra`.
 */
import type { UserInfo } from '../../machinery/request.js';
import { serviceAccountUsername } from './claims.js';

/** `AllServiceAccountsGroup`. */
export const ALL_SERVICE_ACCOUNTS_GROUP = 'system:serviceaccounts';
/** `ServiceAccountGroupPrefix`. */
export const SERVICE_ACCOUNT_GROUP_PREFIX = 'system:serviceaccounts:';

/** The `extra` keys of a service account user. */
export const EXTRA_KEYS = {
  podName: 'authentication.kubernetes.io/pod-name',
  podUid: 'authentication.kubernetes.io/pod-uid',
  nodeName: 'authentication.kubernetes.io/node-name',
  nodeUid: 'authentication.kubernetes.io/node-uid',
  credentialId: 'authentication.kubernetes.io/credential-id',
} as const;

/** What a validated token says about its service account (`ServiceAccountInfo`). */
export interface ServiceAccountInfo {
  readonly namespace: string;
  readonly name: string;
  readonly uid: string;
  readonly podName?: string;
  readonly podUid?: string;
  readonly nodeName?: string;
  readonly nodeUid?: string;
  readonly credentialId?: string;
}

/** `CredentialIDForJTI`: `JTI=<jti>`, or empty for a token without one. */
export function credentialIdForJti(jti: string): string {
  return jti ? `JTI=${jti}` : '';
}

/** `ServiceAccountInfo.UserInfo`. */
export function serviceAccountUser(sa: ServiceAccountInfo): UserInfo {
  const extra: Record<string, string[]> = {};
  if (sa.podName && sa.podUid) {
    extra[EXTRA_KEYS.podName] = [sa.podName];
    extra[EXTRA_KEYS.podUid] = [sa.podUid];
  }
  if (sa.credentialId) extra[EXTRA_KEYS.credentialId] = [sa.credentialId];
  if (sa.nodeName) {
    extra[EXTRA_KEYS.nodeName] = [sa.nodeName];
    // The node's UID is optional and only ever given with its name.
    if (sa.nodeUid) extra[EXTRA_KEYS.nodeUid] = [sa.nodeUid];
  }
  return {
    username: serviceAccountUsername(sa.namespace, sa.name),
    uid: sa.uid,
    groups: [ALL_SERVICE_ACCOUNTS_GROUP, `${SERVICE_ACCOUNT_GROUP_PREFIX}${sa.namespace}`],
    ...(Object.keys(extra).length ? { extra } : {}),
  };
}
