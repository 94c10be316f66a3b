/**
 * What a service account token's claims must still be true of the cluster: kubernetes/kubernetes
 * `pkg/serviceaccount/claims.go` validator (bound tokens: times with go-jose's one-minute leeway,
 * the service account and the bound pod, secret or node still there with the same UID and not
 * deleted before the leeway) and `legacy.go` legacyValidator (secret-based tokens: the claims
 * present, the Secret still holding this very token, the service account's UID, the
 * `kubernetes.io/legacy-token-invalid-since` label). Each refusal throws an `Error` with
 * upstream's message.
 */
import { timingSafeEqual } from 'node:crypto';
import { isDNS1123Label, isDNS1123Subdomain } from '../../schema/validation/names.js';
import { SERVICE_ACCOUNT_USERNAME_PREFIX, type BoundPrivateClaims, type LegacyPrivateClaims, type PublicClaims } from './claims.js';
import { credentialIdForJti, type ServiceAccountInfo } from './user.js';

/**
 * Reads an object of the cluster's current state, or undefined when it does not exist:
 * `(resource, namespace, name)`, namespace empty for a cluster-scoped resource.
 */
export type ObjectReader = (resource: { group: string; resource: string }, namespace: string, name: string) => Promise<object | undefined>;

/** go-jose's `jwt.DefaultLeeway`, in seconds. */
export const LEEWAY_SECONDS = 60;
/** `serviceaccount.InvalidSinceLabelKey`. */
export const INVALID_SINCE_LABEL = 'kubernetes.io/legacy-token-invalid-since';

const INVALIDATED = 'service account token has been invalidated';

interface Meta {
  uid?: string;
  deletionTimestamp?: string;
  labels?: Record<string, string>;
}
interface Obj {
  metadata?: Meta;
  data?: Record<string, string>;
}

const SERVICE_ACCOUNTS = { group: '', resource: 'serviceaccounts' };
const SECRETS = { group: '', resource: 'secrets' };
const PODS = { group: '', resource: 'pods' };
const NODES = { group: '', resource: 'nodes' };

/** What the service account getter answers for a missing account: the client's NotFound text. */
async function getServiceAccount(read: ObjectReader, namespace: string, name: string): Promise<Obj> {
  // client-go refuses to send a GET without a name.
  if (!name) throw new Error('resource name may not be empty');
  const sa = (await read(SERVICE_ACCOUNTS, namespace, name)) as Obj | undefined;
  if (!sa) throw new Error(`serviceaccounts "${name}" not found`);
  return sa;
}

/** Whether the object was marked for deletion before `limitSeconds` (epoch seconds). */
function deletedBefore(obj: Obj, limitSeconds: number): boolean {
  const ts = obj.metadata?.deletionTimestamp;
  if (!ts) return false;
  const ms = Date.parse(ts);
  return Number.isFinite(ms) && ms / 1000 < limitSeconds;
}

/** The bound-token validator (`claims.go` validator.Validate). `now` is in epoch milliseconds. */
export async function validateBound(publicClaims: PublicClaims, priv: BoundPrivateClaims, read: ObjectReader, nowMs: number): Promise<ServiceAccountInfo> {
  const now = nowMs / 1000;
  // jwt.Claims.ValidateWithLeeway, in its order.
  if (publicClaims.nbf !== undefined && now + LEEWAY_SECONDS < publicClaims.nbf) throw new Error('service account token is not valid yet');
  if (publicClaims.exp !== undefined && now - LEEWAY_SECONDS > publicClaims.exp) throw new Error('service account token has expired');
  if (publicClaims.iat !== undefined && now + LEEWAY_SECONDS < publicClaims.iat) throw new Error('service account token is issued in the future');

  const invalidIfDeletedBefore = now - LEEWAY_SECONDS;
  const namespace = priv.namespace;
  const saRef = priv.serviceAccount;
  const sa = await getServiceAccount(read, namespace, saRef.name);
  const saUid = sa.metadata?.uid ?? '';
  if (saUid !== saRef.uid) throw new Error(`service account UID (${saUid}) does not match claim (${saRef.uid})`);
  if (deletedBefore(sa, invalidIfDeletedBefore)) throw new Error(`service account ${namespace}/${saRef.name} has been deleted`);

  if (priv.secret) {
    const secret = (await read(SECRETS, namespace, priv.secret.name)) as Obj | undefined;
    if (!secret) throw new Error(INVALIDATED);
    const uid = secret.metadata?.uid ?? '';
    if (priv.secret.uid !== uid) throw new Error(`secret UID (${uid}) does not match service account secret ref claim (${priv.secret.uid})`);
    if (deletedBefore(secret, invalidIfDeletedBefore)) throw new Error(INVALIDATED);
  }

  let podName: string | undefined;
  let podUid: string | undefined;
  if (priv.pod) {
    const pod = (await read(PODS, namespace, priv.pod.name)) as Obj | undefined;
    if (!pod) throw new Error(INVALIDATED);
    const uid = pod.metadata?.uid ?? '';
    if (priv.pod.uid !== uid) throw new Error(`pod UID (${uid}) does not match service account pod ref claim (${priv.pod.uid})`);
    if (deletedBefore(pod, invalidIfDeletedBefore)) throw new Error(INVALIDATED);
    podName = priv.pod.name;
    podUid = priv.pod.uid;
  }

  let nodeName: string | undefined;
  let nodeUid: string | undefined;
  if (priv.node) {
    if (priv.pod) {
      // A pod-bound token names its pod's node for information: it is not looked up.
      nodeName = priv.node.name;
      nodeUid = priv.node.uid;
    } else {
      const node = (await read(NODES, '', priv.node.name)) as Obj | undefined;
      if (!node) throw new Error(INVALIDATED);
      const uid = node.metadata?.uid ?? '';
      if (priv.node.uid !== uid) throw new Error(`node UID (${uid}) does not match service account node ref claim (${priv.node.uid})`);
      if (deletedBefore(node, invalidIfDeletedBefore)) throw new Error(INVALIDATED);
      nodeName = priv.node.name;
      nodeUid = priv.node.uid;
    }
  }

  return {
    namespace,
    name: saRef.name,
    uid: saRef.uid,
    podName,
    podUid,
    nodeName,
    nodeUid,
    credentialId: credentialIdForJti(publicClaims.jti),
  };
}

/** `apiserverserviceaccount.SplitUsername`: the namespace and name, or undefined when `username` is not a valid service account username. */
export function splitServiceAccountUsername(username: string): [string, string] | undefined {
  if (!username.startsWith(SERVICE_ACCOUNT_USERNAME_PREFIX)) return undefined;
  const parts = username.slice(SERVICE_ACCOUNT_USERNAME_PREFIX.length).split(':');
  if (parts.length !== 2) return undefined;
  const [namespace, name] = parts as [string, string];
  if (isDNS1123Label(namespace).length || isDNS1123Subdomain(name).length) return undefined;
  return [namespace, name];
}

function sameBytes(a: Buffer, b: Buffer): boolean {
  return a.length === b.length && timingSafeEqual(a, b);
}

/** The legacy-token validator (`legacy.go` legacyValidator.Validate, with lookup). */
export async function validateLegacy(token: string, publicClaims: PublicClaims, priv: LegacyPrivateClaims, read: ObjectReader): Promise<ServiceAccountInfo> {
  if (!publicClaims.sub) throw new Error('sub claim is missing');
  const { namespace, secretName, serviceAccountName, serviceAccountUid } = priv;
  if (!namespace) throw new Error('namespace claim is missing');
  if (!secretName) throw new Error('secretName claim is missing');
  if (!serviceAccountName) throw new Error('serviceAccountName claim is missing');
  if (!serviceAccountUid) throw new Error('serviceAccountUID claim is missing');
  const subject = splitServiceAccountUsername(publicClaims.sub);
  if (!subject || subject[0] !== namespace || subject[1] !== serviceAccountName) throw new Error('sub claim is invalid');

  const secret = (await read(SECRETS, namespace, secretName)) as Obj | undefined;
  if (!secret || secret.metadata?.deletionTimestamp) throw new Error('Token has been invalidated');
  const stored = Buffer.from(secret.data?.token ?? '', 'base64');
  if (!sameBytes(stored, Buffer.from(token, 'utf8'))) throw new Error("Token does not match server's copy");

  const sa = await getServiceAccount(read, namespace, serviceAccountName);
  if (sa.metadata?.deletionTimestamp) throw new Error(`ServiceAccount ${namespace}/${serviceAccountName} has been deleted`);
  const saUid = sa.metadata?.uid ?? '';
  if (saUid !== serviceAccountUid) throw new Error(`ServiceAccount UID (${saUid}) does not match claim (${serviceAccountUid})`);

  if (secret.metadata?.labels?.[INVALID_SINCE_LABEL]) {
    throw new Error(
      `the token in secret ${namespace}/${secretName} for service account ${namespace}/${serviceAccountName} has been marked invalid. ` +
        `Use tokens from the TokenRequest API or manually created secret-based tokens, or remove the '${INVALID_SINCE_LABEL}' label from the secret to temporarily allow use of this token`,
    );
  }
  return { namespace, name: serviceAccountName, uid: serviceAccountUid };
}
