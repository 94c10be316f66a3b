/**
 * The service account token controller of kube-controller-manager (kubernetes/kubernetes
 * `pkg/controller/serviceaccount/tokens_controller.go`): a Secret of type
 * `kubernetes.io/service-account-token` that names a ServiceAccount
 * (`kubernetes.io/service-account.name`) gets a legacy token, the namespace and the root CA
 * (`data.token`, `data.namespace`, `data["ca.crt"]`) and the account's UID annotation
 * (`kubernetes.io/service-account.uid`); a token Secret whose account does not exist (or has another
 * UID than the annotation says) is deleted, as are the token Secrets of a deleted account; a
 * deleted token Secret is removed from its account's `secrets`.
 */
import type { EngineContext } from '../api/context.js';
import type { ServiceAccountTokenIssuer } from '../machinery/auth.js';
import { isApiError } from '../machinery/errors.js';
import type { ApiRequest, ApiResponse } from '../machinery/request.js';
import type { StorageEvent, StoredValue } from '../storage/storage.js';
import type { Controller } from './controller-loop.js';

type Send = (req: Omit<ApiRequest, 'user'>) => Promise<ApiResponse>;

/** `v1.SecretTypeServiceAccountToken`. */
export const SERVICE_ACCOUNT_TOKEN_TYPE = 'kubernetes.io/service-account-token';
/** `v1.ServiceAccountNameKey`. */
export const SERVICE_ACCOUNT_NAME_KEY = 'kubernetes.io/service-account.name';
/** `v1.ServiceAccountUIDKey`. */
export const SERVICE_ACCOUNT_UID_KEY = 'kubernetes.io/service-account.uid';

const SECRETS = { group: '', version: 'v1', resource: 'secrets' };
const SERVICE_ACCOUNTS = { group: '', version: 'v1', resource: 'serviceaccounts' };
const SEP = '\u0000';

interface Meta {
  name?: string;
  namespace?: string;
  uid?: string;
  resourceVersion?: string;
  annotations?: Record<string, string>;
}
interface SecretLike {
  metadata?: Meta;
  type?: string;
  data?: Record<string, string>;
  [key: string]: unknown;
}
interface AccountLike {
  metadata?: Meta;
  secrets?: { name?: string }[];
  [key: string]: unknown;
}

/** Options of the controller. */
export interface ServiceAccountTokensOptions {
  readonly issuer: ServiceAccountTokenIssuer;
  /** The PEM CA bundle put into `ca.crt` (kube-controller-manager's `--root-ca-file`); none when empty. */
  readonly rootCA?: string;
}

const isTokenSecret = (value: StoredValue | undefined): value is SecretLike => (value as SecretLike | undefined)?.type === SERVICE_ACCOUNT_TOKEN_TYPE;

const b64 = (text: string) => Buffer.from(text, 'utf8').toString('base64');

/** Creates the token controller. */
export function serviceAccountTokensController(ctx: EngineContext, send: Send, options: ServiceAccountTokensOptions): Controller {
  const rootCA = options.rootCA ?? '';

  async function getAccount(namespace: string, name: string): Promise<AccountLike | undefined> {
    return (await ctx.storage.get({ bucket: 'core/serviceaccounts', namespace, name }))?.value as AccountLike | undefined;
  }

  /** Deletes a token Secret if it still has `uid`; already gone or replaced is fine (`deleteToken`). */
  async function deleteToken(namespace: string, name: string, uid: string | undefined): Promise<void> {
    try {
      await send({ verb: 'delete', resource: SECRETS, namespace, name, deleteOptions: uid ? { preconditions: { uid } } : {} });
    } catch (e) {
      if (!isApiError(e, 'NotFound') && !isApiError(e, 'Conflict')) throw e;
    }
  }

  /** `syncSecret` for an existing Secret. */
  async function syncSecret(namespace: string, name: string): Promise<void> {
    const secret = (await ctx.storage.get({ bucket: 'core/secrets', namespace, name }))?.value as SecretLike | undefined;
    if (!isTokenSecret(secret)) return;
    const saName = secret.metadata?.annotations?.[SERVICE_ACCOUNT_NAME_KEY] ?? '';
    if (!saName) return;
    const saUid = secret.metadata?.annotations?.[SERVICE_ACCOUNT_UID_KEY] ?? '';
    const account = await getAccount(namespace, saName);
    if (!account || (saUid && saUid !== account.metadata?.uid)) {
      await deleteToken(namespace, name, secret.metadata?.uid);
      return;
    }
    // generateTokenIfNeeded
    const data = secret.data ?? {};
    const needsCA = rootCA !== '' && data['ca.crt'] !== b64(rootCA);
    const needsNamespace = !data.namespace;
    const needsToken = !data.token;
    if (!needsCA && !needsNamespace && !needsToken) return;
    const next: SecretLike = structuredClone(secret) as SecretLike;
    next.data = { ...data };
    if (needsCA) next.data['ca.crt'] = b64(rootCA);
    if (needsNamespace) next.data.namespace = b64(namespace);
    if (needsToken) {
      const token = await options.issuer.issueLegacy({ namespace, name, serviceAccount: { name: saName, uid: account.metadata?.uid ?? '' } });
      next.data.token = b64(token);
    }
    next.metadata = {
      ...next.metadata,
      annotations: { ...next.metadata?.annotations, [SERVICE_ACCOUNT_NAME_KEY]: saName, [SERVICE_ACCOUNT_UID_KEY]: account.metadata?.uid ?? '' },
    };
    try {
      await send({ verb: 'update', resource: SECRETS, namespace, name, body: next });
    } catch (e) {
      // Changed meanwhile (its event brings it back) or gone: nothing to do now.
      if (!isApiError(e, 'Conflict') && !isApiError(e, 'NotFound')) throw e;
    }
  }

  /** A deleted token Secret leaves its account's `secrets` (`removeSecretReference`). */
  async function removeReference(namespace: string, secretName: string, saName: string, saUid: string): Promise<void> {
    const account = await getAccount(namespace, saName);
    if (!account || (saUid && saUid !== account.metadata?.uid)) return;
    if (!account.secrets?.some((s) => s.name === secretName)) return;
    const next = structuredClone(account) as AccountLike;
    next.secrets = account.secrets.filter((s) => s.name !== secretName);
    try {
      await send({ verb: 'update', resource: SERVICE_ACCOUNTS, namespace, name: saName, body: next });
    } catch (e) {
      // Gone is fine; a conflict is read again on the loop's retry.
      if (!isApiError(e, 'NotFound')) throw e;
    }
  }

  /** The token Secrets of a deleted account go too (`deleteTokens`; `IsServiceAccountToken`). */
  async function deleteTokensOf(namespace: string, saName: string, saUid: string): Promise<void> {
    const { items } = await ctx.storage.list('core/secrets', { namespace });
    for (const { value } of items) {
      if (!isTokenSecret(value)) continue;
      const annotations = value.metadata?.annotations ?? {};
      if (annotations[SERVICE_ACCOUNT_NAME_KEY] !== saName) continue;
      const uid = annotations[SERVICE_ACCOUNT_UID_KEY] ?? '';
      if (uid && uid !== saUid) continue;
      await deleteToken(namespace, value.metadata?.name ?? '', value.metadata?.uid);
    }
  }

  return {
    name: 'serviceaccount-token',
    addsFrom: (bucket) => bucket === 'core/secrets',
    keepsOnlyObserved: true,
    observe(event: StorageEvent): readonly string[] {
      if (event.bucket === 'core/secrets') {
        if (event.type !== 'DELETED') return isTokenSecret(event.object) ? [['secret', event.namespace, event.name].join(SEP)] : [];
        if (!isTokenSecret(event.object)) return [];
        const annotations = event.object.metadata?.annotations ?? {};
        const saName = annotations[SERVICE_ACCOUNT_NAME_KEY] ?? '';
        return saName ? [['deleted', event.namespace, event.name, saName, annotations[SERVICE_ACCOUNT_UID_KEY] ?? ''].join(SEP)] : [];
      }
      if (event.bucket === 'core/serviceaccounts' && event.type === 'DELETED') {
        const uid = ((event.object as AccountLike).metadata?.uid as string | undefined) ?? '';
        return [['account', event.namespace, event.name, uid].join(SEP)];
      }
      return [];
    },
    async reconcile(key: string): Promise<void> {
      const [what, namespace, name, saName, saUid] = key.split(SEP) as [string, string, string, string?, string?];
      if (what === 'secret') await syncSecret(namespace, name);
      else if (what === 'deleted') await removeReference(namespace, name, saName ?? '', saUid ?? '');
      else if (what === 'account') await deleteTokensOf(namespace, name, saName ?? '');
    },
  };
}
