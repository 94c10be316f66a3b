/**
 * Turning verified claims into a user, as the OIDC authenticator's `AuthenticateToken` does after
 * verification (plugin/pkg/authenticator/token/oidc/oidc.go): username (a claim and its prefix,
 * with the `email_verified` rule, or a CEL expression), groups, uid, extra (the credential id of
 * `jti`, then CEL mappings), required claims, claim validation rules, then user validation rules.
 * Every refusal is an `Error` with upstream's message.
 */
import { goQuote } from '../../../util/go-format.js';
import type { Value } from '../../../cel/index.js';
import type { CompiledExpression, JWTAuthenticator, JwtCelMapper } from '../../../config/authentication/index.js';
import type { UserInfo } from '../../../machinery/request.js';
import { parseJson } from '../../../codec/json.js';
import { celStringList, JsonMap, UserInfoValue } from './cel-values.js';
import { goUnmarshalTypeError } from './go-json.js';

/** The extra key of a token's credential id (`user.CredentialIDKey`). */
export const CREDENTIAL_ID_KEY = 'authentication.kubernetes.io/credential-id';

type Claims = Readonly<Record<string, unknown>>;

const has = (c: Claims, name: string) => Object.prototype.hasOwnProperty.call(c, name);

/** `claims.unmarshalClaim` into a Go string: null reads as `""`. */
function claimString(c: Claims, name: string): string {
  if (!has(c, name)) throw new Error('claim not present');
  const v = c[name];
  if (v === null) return '';
  if (typeof v !== 'string') throw new Error(goUnmarshalTypeError(v, 'string'));
  return v;
}

/** `claims.unmarshalClaim` into a Go bool: null reads as false. */
function claimBool(c: Claims, name: string): boolean {
  const v = c[name];
  if (v === null) return false;
  if (typeof v !== 'boolean') throw new Error(goUnmarshalTypeError(v, 'bool'));
  return v;
}

/** `stringOrArray`: a list of strings, or one string. */
function stringOrArray(v: unknown): string[] | undefined {
  if (v === null) return undefined;
  if (Array.isArray(v) && v.every((x) => x === null || typeof x === 'string')) return v.map((x) => (x as string | null) ?? '');
  if (typeof v === 'string') return [v];
  throw new Error(goUnmarshalTypeError(v, 'string'));
}

function evaluate(compiled: CompiledExpression, variables: Record<string, Value>): Value {
  const r = compiled.program.evaluate(variables);
  if (!r.ok) throw new Error(`expression '${compiled.expression}' resulted in error: ${r.error}`);
  return r.value;
}

const errorText = (e: unknown) => (e instanceof Error ? e.message : String(e));

/**
 * Maps verified claims to a user for one authenticator; throws upstream's errors. `payloadText`,
 * the claims' JSON text, gives CEL integers where the token wrote integers.
 */
export function mapClaimsToUser(authenticator: JWTAuthenticator, mapper: JwtCelMapper, claims: Claims, payloadText?: string): UserInfo {
  const usesCel = mapper.username || mapper.groups || mapper.uid || mapper.extra || mapper.claimValidationRules;
  // Decoded again with the raw text of its numbers kept, so CEL tells `1` from `1.0` as Go does.
  const celClaims = usesCel && payloadText !== undefined ? (parseJson(payloadText, { rawScalars: true }).value as Claims) : claims;
  const claimsValue: Record<string, Value> = usesCel ? { claims: new JsonMap(celClaims) } : {};
  const mappings = authenticator.claimMappings;

  // Username.
  let username: string;
  if (mapper.username) {
    let v: Value;
    try {
      v = evaluate(mapper.username, claimsValue);
    } catch (e) {
      throw new Error(`oidc: error evaluating username claim expression: ${errorText(e)}`);
    }
    if (typeof v !== 'string') throw new Error('oidc: error evaluating username claim expression: username claim expression must return a string');
    if (v === '') throw new Error('oidc: empty username via CEL expression is not allowed');
    username = v;
  } else {
    const claim = mappings.username.claim;
    try {
      username = claimString(claims, claim);
    } catch (e) {
      throw new Error(`oidc: parse username claims ${goQuote(claim)}: ${errorText(e)}`);
    }
    if (claim === 'email' && has(claims, 'email_verified')) {
      let verified: boolean;
      try {
        verified = claimBool(claims, 'email_verified');
      } catch (e) {
        throw new Error(`oidc: parse 'email_verified' claim: ${errorText(e)}`);
      }
      if (!verified) throw new Error('oidc: email not verified');
    }
    if (mappings.username.prefix) username = mappings.username.prefix + username;
  }

  // Groups: the claim when the token has it, else the expression.
  let groups: string[] | undefined;
  const groupsClaim = mappings.groups.claim;
  if (groupsClaim && has(claims, groupsClaim)) {
    try {
      groups = stringOrArray(claims[groupsClaim]);
    } catch (e) {
      throw new Error(`oidc: parse groups claim ${goQuote(groupsClaim)}: ${errorText(e)}`);
    }
    const prefix = mappings.groups.prefix;
    if (groups && prefix) groups = groups.map((g) => prefix + g);
  } else if (mapper.groups) {
    let v: Value;
    try {
      v = evaluate(mapper.groups, claimsValue);
    } catch (e) {
      throw new Error(`oidc: error evaluating group claim expression: ${errorText(e)}`);
    }
    const list = celStringList(v);
    if (list && 'error' in list) throw new Error(`oidc: error evaluating group claim expression: ${list.error}`);
    groups = list;
  }

  // UID.
  let uid = '';
  if (mappings.uid.claim) {
    try {
      uid = claimString(claims, mappings.uid.claim);
    } catch (e) {
      throw new Error(`oidc: parse uid claim ${goQuote(mappings.uid.claim)}: ${errorText(e)}`);
    }
  } else if (mapper.uid) {
    let v: Value;
    try {
      v = evaluate(mapper.uid, claimsValue);
    } catch (e) {
      throw new Error(`oidc: error evaluating uid claim expression: ${errorText(e)}`);
    }
    if (typeof v !== 'string') throw new Error('oidc: error evaluating uid claim expression: uid claim expression must return a string');
    uid = v;
  }

  // Extra: the credential id, then the mappings (an evaluation error is passed on as it is, as upstream does).
  const extra: Record<string, string[]> = {};
  if (typeof claims.jti === 'string' && claims.jti !== '') extra[CREDENTIAL_ID_KEY] = [`JTI=${claims.jti}`];
  for (const mapping of mapper.extra ?? []) {
    const v = evaluate(mapping, claimsValue);
    const list = celStringList(v);
    if (list && 'error' in list) throw new Error(`oidc: error evaluating extra claim expression: ${mapping.expression}: ${list.error}`);
    if (list) extra[mapping.key] = list;
  }

  const user: UserInfo = { username, groups: groups ?? [], ...(uid ? { uid } : {}), ...(Object.keys(extra).length ? { extra } : {}) };

  // Required claims.
  for (const rule of authenticator.claimValidationRules) {
    if (!rule.claim) continue;
    if (!has(claims, rule.claim)) throw new Error(`oidc: required claim ${rule.claim} not present in ID token`);
    let value: string;
    try {
      value = claimString(claims, rule.claim);
    } catch (e) {
      throw new Error(`oidc: parse claim ${rule.claim}: ${errorText(e)}`);
    }
    if (value !== rule.requiredValue) {
      throw new Error(`oidc: required claim ${rule.claim} value does not match. Got = ${value}, want = ${rule.requiredValue}`);
    }
  }

  checkRules('oidc: error evaluating claim validation expression', mapper.claimValidationRules, claimsValue);
  if (mapper.userValidationRules) checkRules('oidc: error evaluating user info validation rule', mapper.userValidationRules, { user: new UserInfoValue(user) });
  return user;
}

/** Evaluates every rule, then `checkValidationRulesEvaluation`: each must be true, in order. */
function checkRules(prefix: string, rules: readonly (CompiledExpression & { readonly message: string })[] | undefined, variables: Record<string, Value>): void {
  if (!rules) return;
  let results: Value[];
  try {
    results = rules.map((r) => evaluate(r, variables));
  } catch (e) {
    throw new Error(`${prefix}: ${errorText(e)}`);
  }
  results.forEach((v, i) => {
    if (typeof v !== 'boolean') throw new Error(`${prefix}: validation expression must return a boolean`);
    if (!v) throw new Error(`${prefix}: validation expression '${rules[i]!.expression}' failed: ${rules[i]!.message}`);
  });
}
