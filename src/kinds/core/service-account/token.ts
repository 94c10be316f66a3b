/**
 * A ServiceAccount's `token` subresource: POST an `authentication.k8s.io/v1` TokenRequest and get it
 * back with a signed token in `status`, as kubernetes/kubernetes
 * `pkg/registry/core/serviceaccount/storage/token.go` TokenREST.Create does: the body's name,
 * namespace and UID must match the account's, the spec is defaulted (an hour; the API audiences),
 * checked (`pkg/apis/authentication/validation` ValidateTokenRequest), its bound object looked up
 * (a Pod of this account — with its node —, a Secret or a Node, whose UID must match the
 * reference's), the expiry capped at `--service-account-max-token-expiration`, and the token signed
 * by the cluster's issuer. The answer is 201 with the TokenRequest.
 */
import { formatTime } from '../../../clock.js';
import type { BoundObject } from '../../../machinery/auth.js';
import { badRequest, conflict, invalid, notFound } from '../../../machinery/errors.js';
import { fieldError, type FieldError } from '../../../machinery/field-errors.js';
import type { ActionContext, ActionSubresource, KubeObject } from '../../../schema/define-kind.js';
import { isPathSegmentName } from '../../../schema/validation/names.js';
import { goQuote } from '../../../util/go-format.js';
import { TokenRequest as TokenRequestSchema, type TokenRequest } from '../../types/authentication-v1.js';
import type { Node, Pod, Secret, ServiceAccount } from '../../types/core-v1.js';

const GROUP = 'authentication.k8s.io';
const TOKEN_REQUEST_KIND = { group: GROUP, kind: 'TokenRequest' };
/** `MinTokenAgeSec`: ten minutes. */
const MIN_EXPIRATION_SECONDS = 10 * 60;
const MAX_EXPIRATION_SECONDS = 2 ** 32;
/** `SetDefaults_TokenRequestSpec`: an hour. */
const DEFAULT_EXPIRATION_SECONDS = 60 * 60;

/** `ValidateTokenRequest`. */
function tokenRequestErrors(expirationSeconds: number): FieldError[] {
  const errors: FieldError[] = [];
  if (expirationSeconds < MIN_EXPIRATION_SECONDS) {
    errors.push(fieldError.invalid('spec.expirationSeconds', expirationSeconds, 'may not specify a duration less than 10 minutes'));
  }
  if (expirationSeconds > MAX_EXPIRATION_SECONDS) {
    errors.push(fieldError.invalid('spec.expirationSeconds', expirationSeconds, 'may not specify a duration larger than 2^32 seconds'));
  }
  return errors;
}

/** `schema.FromAPIVersionAndKind`: an apiVersion with more than one `/` has neither group nor version. */
function groupVersionKind(apiVersion: string, kind: string): { group: string; version: string; kind: string } {
  if (apiVersion === '' || apiVersion === '/') return { group: '', version: '', kind };
  const slashes = apiVersion.split('/').length - 1;
  if (slashes === 0) return { group: '', version: apiVersion, kind };
  if (slashes === 1) {
    const [group, version] = apiVersion.split('/') as [string, string];
    return { group, version, kind };
  }
  return { group: '', version: '', kind };
}

/** What the generic registry's Get refuses before it looks (`NamespaceKeyFunc`). */
function checkGetName(name: string): void {
  if (name === '') throw badRequest('Name parameter required.');
  const msgs = isPathSegmentName(name);
  if (msgs.length) throw badRequest(`Name parameter invalid: ${goQuote(name)}: ${msgs.join(';')}`);
}

async function getObject<T>(ctx: ActionContext, resource: string, namespace: string, name: string): Promise<T> {
  checkGetName(name);
  const obj = await ctx.read({ group: '', resource }, namespace, name);
  if (!obj) throw notFound({ group: '', resource }, name);
  return obj as T;
}

/** The bound object of the request, looked up and checked, or undefined when it names none. */
async function boundObject(request: TokenRequest, accountName: string, namespace: string, ctx: ActionContext): Promise<BoundObject | undefined> {
  const ref = request.spec?.boundObjectRef;
  if (!ref) return undefined;
  const refName = ref.name ?? '';
  const gvk = groupVersionKind(ref.apiVersion ?? '', ref.kind ?? '');
  let bound: BoundObject;
  if (gvk.group === '' && gvk.kind === 'Pod') {
    const pod = await getObject<Pod>(ctx, 'pods', namespace, refName);
    if (accountName !== (pod.spec?.serviceAccountName ?? '')) {
      throw badRequest(`cannot bind token for serviceaccount ${goQuote(accountName)} to pod running with different serviceaccount name.`);
    }
    let node: BoundObject['node'];
    const nodeName = pod.spec?.nodeName ?? '';
    if (nodeName && ctx.featureEnabled('ServiceAccountTokenPodNodeInfo')) {
      // A node that does not exist (yet) is still named, without a UID.
      const found = (await ctx.read({ group: '', resource: 'nodes' }, '', nodeName)) as Node | undefined;
      node = { name: nodeName, uid: found?.metadata?.uid ?? '' };
    }
    bound = { kind: 'Pod', name: pod.metadata?.name ?? refName, uid: pod.metadata?.uid ?? '', ...(node ? { node } : {}) };
  } else if (gvk.group === '' && gvk.kind === 'Node') {
    if (!ctx.featureEnabled('ServiceAccountTokenNodeBinding')) {
      throw badRequest('cannot bind token to a Node object as the "ServiceAccountTokenNodeBinding" feature-gate is disabled');
    }
    const node = await getObject<Node>(ctx, 'nodes', '', refName);
    bound = { kind: 'Node', name: node.metadata?.name ?? refName, uid: node.metadata?.uid ?? '' };
  } else if (gvk.group === '' && gvk.kind === 'Secret') {
    const secret = await getObject<Secret>(ctx, 'secrets', namespace, refName);
    bound = { kind: 'Secret', name: secret.metadata?.name ?? refName, uid: secret.metadata?.uid ?? '' };
  } else {
    throw badRequest(`cannot bind token to object of type ${gvk.group}/${gvk.version}, Kind=${gvk.kind}`);
  }
  if (ref.uid && bound.uid !== ref.uid) {
    throw conflict(
      { group: gvk.group, resource: gvk.kind },
      refName,
      `the UID in the bound object reference (${ref.uid}) does not match the UID in record. The object might have been deleted and then recreated`,
    );
  }
  return bound;
}

async function createToken(body: KubeObject, target: { readonly namespace?: string; readonly name: string }, ctx: ActionContext) {
  const request = body as TokenRequest;
  const namespace = target.namespace ?? '';
  if (!namespace) throw badRequest('namespace is required');
  const name = target.name;
  const meta = (request.metadata ??= {});
  if (meta.name && meta.name !== name) {
    throw invalid(TOKEN_REQUEST_KIND, name, [fieldError.invalid('metadata.name', meta.name, 'must match the service account name if specified')]);
  }
  if (meta.namespace && meta.namespace !== namespace) {
    throw invalid(TOKEN_REQUEST_KIND, name, [
      fieldError.invalid('metadata.namespace', meta.namespace, 'must match the service account namespace if specified'),
    ]);
  }
  const account = (await ctx.readTarget()).object as ServiceAccount;
  const accountUid = account.metadata?.uid ?? '';
  const warnings: string[] = [];
  if (meta.uid && meta.uid !== accountUid) {
    const why = `the UID in the token request (${meta.uid}) does not match the UID of the service account (${accountUid})`;
    if (ctx.featureEnabled('TokenRequestServiceAccountUIDValidation')) throw conflict({ group: GROUP, resource: 'TokenRequest' }, name, why);
    warnings.push(`${why} but TokenRequestServiceAccountUIDValidation is not enabled. In the future, this will return a conflict error`);
  }

  const issuer = ctx.auth.serviceAccountTokens;
  const spec = (request.spec ??= {});
  if (!spec.audiences?.length) spec.audiences = [...issuer.apiAudiences];
  spec.expirationSeconds ??= DEFAULT_EXPIRATION_SECONDS;
  meta.name ||= name;
  meta.namespace ||= namespace;
  meta.uid ||= accountUid;
  const now = ctx.now();
  meta.creationTimestamp = formatTime(now);
  delete request.status;

  const errors = tokenRequestErrors(spec.expirationSeconds);
  if (errors.length) throw invalid(TOKEN_REQUEST_KIND, '', errors);

  const bound = await boundObject(request, name, namespace, ctx);
  if (issuer.maxExpirationSeconds > 0 && spec.expirationSeconds > issuer.maxExpirationSeconds) {
    warnings.push(`requested expiration of ${spec.expirationSeconds} seconds shortened to ${issuer.maxExpirationSeconds} seconds`);
    spec.expirationSeconds = issuer.maxExpirationSeconds;
  }
  const { token, expirationTimestamp } = await issuer.issueBound({
    namespace,
    serviceAccount: { name: account.metadata?.name ?? name, uid: accountUid },
    audiences: spec.audiences,
    expirationSeconds: spec.expirationSeconds,
    ...(bound ? { boundObject: bound } : {}),
  });
  const answer: TokenRequest = { apiVersion: `${GROUP}/v1`, kind: 'TokenRequest', metadata: meta, spec, status: { token, expirationTimestamp } };
  return { code: 201, body: answer, warnings };
}

/** The `serviceaccounts/token` action (authentication.k8s.io/v1 TokenRequest). */
export const serviceAccountToken: ActionSubresource = {
  kind: { group: GROUP, version: 'v1', kind: 'TokenRequest' },
  get schema() {
    return TokenRequestSchema();
  },
  run: createToken,
};
