/**
 * AuthenticationConfiguration validation, with upstream's field paths and messages
 * (k8s.io/apiserver pkg/apis/apiserver/validation/validation.go ValidateAuthenticationConfiguration
 * and what it calls). Compiling a JWT authenticator's CEL happens here too, so an authenticator is
 * built from the same programs validation accepted (`CompileAndValidateJWTAuthenticator`).
 */
import { child, fieldError, index, type FieldError } from '../../machinery/field-errors.js';
import { isDNS1123Subdomain, regexError } from '../../schema/validation/names.js';
import { compareGoStrings } from '../../util/go-format.js';
import { goParseURL } from '../../util/go-url.js';
import { parseCertificate, pemDecode } from '../../pki/x509.js';
import { compileClaimsExpression, compileUserExpression, isCompileFailure, selectsClaim, type CompiledExpression, type CompileFailure } from './cel.js';
import type {
  AuthenticationConfiguration,
  ClaimMappings,
  ClaimValidationRule,
  Issuer,
  JWTAuthenticator,
  PrefixedClaimOrExpression,
  UserValidationRule,
} from './types.js';

/** The most JWT authenticators a configuration may have. */
export const MAX_JWT_AUTHENTICATORS = 64;

/** A claim validation expression and its message. */
export interface CompiledClaimValidation extends CompiledExpression {
  readonly message: string;
}
/** An extra mapping's key and its compiled expression. */
export interface CompiledExtraMapping extends CompiledExpression {
  readonly key: string;
}
/** A user validation expression and its message. */
export interface CompiledUserValidation extends CompiledExpression {
  readonly message: string;
}

/** The CEL programs of one JWT authenticator (`authenticationcel.CELMapper`). */
export interface JwtCelMapper {
  username?: CompiledExpression;
  groups?: CompiledExpression;
  uid?: CompiledExpression;
  extra?: CompiledExtraMapping[];
  claimValidationRules?: CompiledClaimValidation[];
  userValidationRules?: CompiledUserValidation[];
}

/** Options of validation. */
export interface AuthenticationValidationOptions {
  /** Issuer URLs no JWT authenticator may use (kube-apiserver passes `--service-account-issuer`). */
  readonly disallowedIssuers?: readonly string[];
  /** The StructuredAuthenticationConfigurationEgressSelector feature gate (beta, on by default since 1.34). */
  readonly egressSelectorEnabled?: boolean;
}

interface State {
  readonly mapper: JwtCelMapper;
  usesEmailClaim: boolean;
  usesEmailVerifiedClaim: boolean;
}

/** Go's `%s` of a sorted string slice: `[a b c]`. */
function goList(values: Iterable<string>): string {
  return `[${[...new Set(values)].sort(compareGoStrings).join(' ')}]`;
}

/** `ValidateAuthenticationConfiguration`. */
export function validateAuthenticationConfiguration(config: AuthenticationConfiguration, options: AuthenticationValidationOptions = {}): FieldError[] {
  const root = 'jwt';
  if (config.jwt.length > MAX_JWT_AUTHENTICATORS) return [fieldError.tooMany(root, config.jwt.length, MAX_JWT_AUTHENTICATORS)];
  const errors: FieldError[] = [];
  const seenIssuers = new Set<string>();
  const seenDiscoveryURLs = new Set<string>();
  config.jwt.forEach((a, i) => {
    const path = index(root, i);
    errors.push(...compileJwtAuthenticator(a, options, path).errors);
    if (seenIssuers.has(a.issuer.url)) errors.push(fieldError.duplicate(`${path}.issuer.url`, a.issuer.url));
    seenIssuers.add(a.issuer.url);
    if (a.issuer.discoveryURL) {
      if (seenDiscoveryURLs.has(a.issuer.discoveryURL)) errors.push(fieldError.duplicate(`${path}.issuer.discoveryURL`, a.issuer.discoveryURL));
      seenDiscoveryURLs.add(a.issuer.discoveryURL);
    }
  });
  if (config.anonymous && !config.anonymous.enabled && config.anonymous.conditions.length > 0) {
    // The internal type has no JSON tags, so the value prints with Go's field names.
    const conditions = config.anonymous.conditions.map((c) => ({ Path: c.path }));
    errors.push(fieldError.invalid('anonymous.conditions', conditions, 'enabled should be set to true when conditions are defined'));
  }
  return errors;
}

/**
 * Validates one JWT authenticator and compiles its CEL (`CompileAndValidateJWTAuthenticator`);
 * `path` is its field path (`jwt[0]`), empty for paths relative to the authenticator.
 */
export function compileJwtAuthenticator(
  authenticator: JWTAuthenticator,
  options: AuthenticationValidationOptions = {},
  path = '',
): { readonly mapper: JwtCelMapper; readonly errors: FieldError[] } {
  const state: State = { mapper: {}, usesEmailClaim: false, usesEmailVerifiedClaim: false };
  const errors = [
    ...validateIssuer(authenticator.issuer, new Set(options.disallowedIssuers ?? []), child(path, 'issuer'), options.egressSelectorEnabled ?? true),
    ...validateClaimValidationRules(state, authenticator.claimValidationRules, child(path, 'claimValidationRules')),
    ...validateClaimMappings(state, authenticator.claimMappings, child(path, 'claimMappings')),
    ...validateUserValidationRules(state, authenticator.userValidationRules, child(path, 'userValidationRules')),
  ];
  return { mapper: state.mapper, errors };
}

function validateIssuer(issuer: Issuer, disallowed: ReadonlySet<string>, path: string, egressSelectorEnabled: boolean): FieldError[] {
  return [
    ...(issuer.url ? validateURL(issuer.url, disallowed, child(path, 'url')) : [fieldError.required(child(path, 'url'))]),
    ...validateDiscoveryURL(issuer.url, issuer.discoveryURL, child(path, 'discoveryURL')),
    ...validateAudiences(issuer.audiences, issuer.audienceMatchPolicy, child(path, 'audiences'), child(path, 'audienceMatchPolicy')),
    ...validateCertificateAuthority(issuer.certificateAuthority, child(path, 'certificateAuthority')),
    ...validateEgressSelector(issuer.egressSelectorType, child(path, 'egressSelectorType'), egressSelectorEnabled),
  ];
}

const trimTrailingSlashes = (s: string) => s.replace(/\/+$/, '');

function validateDiscoveryURL(issuerURL: string, discoveryURL: string, path: string): FieldError[] {
  if (!discoveryURL) return [];
  const errors: FieldError[] = [];
  if (issuerURL && trimTrailingSlashes(issuerURL) === trimTrailingSlashes(discoveryURL)) {
    errors.push(fieldError.invalid(path, discoveryURL, 'discoveryURL must be different from URL'));
  }
  errors.push(...validateURL(discoveryURL, new Set(), path));
  return errors;
}

function validateURL(url: string, disallowed: ReadonlySet<string>, path: string): FieldError[] {
  const errors: FieldError[] = [];
  if (disallowed.has(url)) errors.push(fieldError.invalid(path, url, `URL must not overlap with disallowed issuers: ${goList(disallowed)}`));
  const parsed = goParseURL(url);
  if (!parsed.ok) return [...errors, fieldError.invalid(path, url, parsed.error)];
  const u = parsed.url;
  if (u.scheme !== 'https') errors.push(fieldError.invalid(path, url, 'URL scheme must be https'));
  if (u.user) errors.push(fieldError.invalid(path, url, 'URL must not contain a username or password'));
  if (u.rawQuery) errors.push(fieldError.invalid(path, url, 'URL must not contain a query'));
  if (u.fragment) errors.push(fieldError.invalid(path, url, 'URL must not contain a fragment'));
  return errors;
}

function validateAudiences(audiences: readonly string[], policy: string, path: string, policyPath: string): FieldError[] {
  if (audiences.length === 0) return [fieldError.required(path, `at least one ${path} is required`)];
  const errors: FieldError[] = [];
  const seen = new Set<string>();
  audiences.forEach((audience, i) => {
    if (!audience) errors.push(fieldError.required(index(path, i)));
    if (seen.has(audience)) errors.push(fieldError.duplicate(index(path, i), audience));
    seen.add(audience);
  });
  if (audiences.length > 1 && policy !== 'MatchAny') {
    errors.push(fieldError.invalid(policyPath, policy, 'audienceMatchPolicy must be MatchAny for multiple audiences'));
  }
  if (audiences.length === 1 && policy && policy !== 'MatchAny') {
    errors.push(fieldError.invalid(policyPath, policy, 'audienceMatchPolicy must be empty or MatchAny for single audience'));
  }
  return errors;
}

/**
 * Why client-go's `cert.NewPoolFromBytes` refuses a PEM bundle, or undefined when it loads: the
 * first `CERTIFICATE` block without headers that does not parse, or no certificate at all.
 */
export function certificateBundleProblem(pem: string): string | undefined {
  let rest = pem;
  let found = false;
  for (;;) {
    const [block, next] = pemDecode(rest);
    if (!block) break;
    rest = next;
    if (block.type !== 'CERTIFICATE' || Object.keys(block.headers).length) continue;
    if (!parseCertificate(block.bytes)) return 'x509: malformed certificate';
    found = true;
  }
  return found ? undefined : 'data does not contain any valid RSA or ECDSA certificates';
}

function validateCertificateAuthority(ca: string, path: string): FieldError[] {
  if (!ca) return [];
  const problem = certificateBundleProblem(ca);
  return problem ? [fieldError.invalid(path, '<omitted>', problem)] : [];
}

function validateEgressSelector(type: string, path: string, enabled: boolean): FieldError[] {
  if (!type) return [];
  const errors: FieldError[] = [];
  if (!enabled) {
    errors.push(
      fieldError.invalid(path, type, 'egress selector is not supported when StructuredAuthenticationConfigurationEgressSelector feature gate is disabled'),
    );
  }
  if (type !== 'controlplane' && type !== 'cluster') errors.push(fieldError.invalid(path, type, 'egress selector must be either controlplane or cluster'));
  return errors;
}

/** `convertCELErrorToValidationError`: compile failures are `Invalid` with the expression as the value. */
function celError(path: string, expression: string, failure: CompileFailure): FieldError {
  return fieldError.invalid(path, expression, failure.detail);
}

function validateClaimValidationRules(state: State, rules: readonly ClaimValidationRule[], path: string): FieldError[] {
  const errors: FieldError[] = [];
  const seenClaims = new Set<string>();
  const seenExpressions = new Set<string>();
  const compiled: CompiledClaimValidation[] = [];
  rules.forEach((rule, i) => {
    const at = index(path, i);
    if (rule.claim && rule.expression) {
      errors.push(fieldError.invalid(at, rule.claim, "claim and expression can't both be set"));
    } else if (!rule.claim && !rule.expression) {
      errors.push(fieldError.required(at, 'claim or expression is required'));
    } else if (rule.claim) {
      if (rule.message) errors.push(fieldError.invalid(child(at, 'message'), rule.message, 'may not be specified when claim is set'));
      if (seenClaims.has(rule.claim)) errors.push(fieldError.duplicate(child(at, 'claim'), rule.claim));
      seenClaims.add(rule.claim);
    } else {
      if (rule.requiredValue) errors.push(fieldError.invalid(child(at, 'requiredValue'), rule.requiredValue, 'may not be specified when expression is set'));
      if (seenExpressions.has(rule.expression)) {
        errors.push(fieldError.duplicate(child(at, 'expression'), rule.expression));
        return;
      }
      seenExpressions.add(rule.expression);
      const result = compileClaimsExpression(rule.expression, true);
      if (isCompileFailure(result)) errors.push(celError(child(at, 'expression'), rule.expression, result));
      else compiled.push({ ...result, message: rule.message });
    }
  });
  if (compiled.length > 0) {
    state.mapper.claimValidationRules = compiled;
    state.usesEmailVerifiedClaim ||= compiled.some((c) => selectsClaim(c, 'email_verified'));
  }
  return errors;
}

function validatePrefixedClaimOrExpression(
  mapping: PrefixedClaimOrExpression,
  path: string,
  required: boolean,
): { compiled?: CompiledExpression; errors: FieldError[] } {
  const errors: FieldError[] = [];
  if (mapping.expression && mapping.claim) {
    errors.push(fieldError.invalid(path, '', "claim and expression can't both be set"));
  } else if (!mapping.expression && !mapping.claim && required) {
    errors.push(fieldError.required(path, 'claim or expression is required'));
  } else if (mapping.expression) {
    if (mapping.prefix !== undefined) errors.push(fieldError.invalid(child(path, 'prefix'), mapping.prefix, 'may not be specified when expression is set'));
    const result = compileClaimsExpression(mapping.expression, false);
    if (isCompileFailure(result)) errors.push(celError(child(path, 'expression'), mapping.expression, result));
    else return { compiled: result, errors };
  } else if (mapping.claim && mapping.prefix === undefined) {
    errors.push(fieldError.required(child(path, 'prefix'), 'prefix is required when claim is set. It can be set to an empty string to disable prefixing'));
  }
  return { errors };
}

/** IsDomainPrefixedPath of k8s.io/apimachinery/pkg/util/validation. */
function domainPrefixedPathErrors(path: string, value: string): FieldError[] {
  if (!value) return [fieldError.required(path)];
  const slash = value.indexOf('/');
  const host = slash < 0 ? value : value.slice(0, slash);
  const rest = slash < 0 ? '' : value.slice(slash + 1);
  if (slash < 0 || !host || !rest) return [fieldError.invalid(path, value, 'must be a domain-prefixed path (such as "acme.io/foo")')];
  const errors = isDNS1123Subdomain(host).map((m) => fieldError.invalid(path, host, m));
  const pathFmt = "[A-Za-z0-9/\\-._~%!$&'()*+,;=:]+";
  if (!/^[A-Za-z0-9/\-._~%!$&'()*+,;=:]+$/.test(rest)) errors.push(fieldError.invalid(path, rest, regexError('Invalid path', pathFmt)));
  return errors;
}

function isKubernetesDomainPrefix(key: string): boolean {
  const slash = key.indexOf('/');
  const domain = slash < 0 ? '' : key.slice(0, slash);
  return domain === 'kubernetes.io' || domain.endsWith('.kubernetes.io') || domain === 'k8s.io' || domain.endsWith('.k8s.io');
}

function validateClaimMappings(state: State, m: ClaimMappings, path: string): FieldError[] {
  const errors: FieldError[] = [];
  const username = validatePrefixedClaimOrExpression(m.username, child(path, 'username'), true);
  errors.push(...username.errors);
  if (username.errors.length === 0 && username.compiled) {
    state.usesEmailClaim ||= selectsClaim(username.compiled, 'email');
    state.usesEmailVerifiedClaim ||= selectsClaim(username.compiled, 'email_verified');
    state.mapper.username = username.compiled;
  }
  const groups = validatePrefixedClaimOrExpression(m.groups, child(path, 'groups'), false);
  errors.push(...groups.errors);
  if (groups.errors.length === 0 && groups.compiled) state.mapper.groups = groups.compiled;

  const uidPath = child(path, 'uid');
  if (m.uid.claim && m.uid.expression) {
    errors.push(fieldError.invalid(uidPath, '', "claim and expression can't both be set"));
  } else if (m.uid.expression) {
    const result = compileClaimsExpression(m.uid.expression, false);
    if (isCompileFailure(result)) errors.push(celError(child(uidPath, 'expression'), m.uid.expression, result));
    else state.mapper.uid = result;
  }

  const extra: CompiledExtraMapping[] = [];
  const seenKeys = new Set<string>();
  m.extra.forEach((mapping, i) => {
    const at = index(child(path, 'extra'), i);
    const keyPath = child(at, 'key');
    errors.push(...domainPrefixedPathErrors(keyPath, mapping.key));
    if (mapping.key !== mapping.key.toLowerCase()) errors.push(fieldError.invalid(keyPath, mapping.key, 'must be lowercase'));
    if (isKubernetesDomainPrefix(mapping.key)) {
      errors.push(fieldError.invalid(keyPath, mapping.key, 'k8s.io, kubernetes.io and their subdomains are reserved for Kubernetes use'));
    }
    if (seenKeys.has(mapping.key)) {
      errors.push(fieldError.duplicate(keyPath, mapping.key));
      return;
    }
    seenKeys.add(mapping.key);
    if (!mapping.valueExpression) {
      errors.push(fieldError.required(child(at, 'valueExpression')));
      return;
    }
    const result = compileClaimsExpression(mapping.valueExpression, false);
    if (isCompileFailure(result)) errors.push(celError(child(at, 'valueExpression'), mapping.valueExpression, result));
    else extra.push({ ...result, key: mapping.key });
  });
  if (extra.length > 0) {
    state.mapper.extra = extra;
    state.usesEmailVerifiedClaim ||= extra.some((c) => selectsClaim(c, 'email_verified'));
  }

  if (state.usesEmailClaim && !state.usesEmailVerifiedClaim) {
    errors.push(
      fieldError.invalid(
        child(path, 'username.expression'),
        m.username.expression,
        'claims.email_verified must be used in claimMappings.username.expression or claimMappings.extra[*].valueExpression or claimValidationRules[*].expression when claims.email is used in claimMappings.username.expression',
      ),
    );
  }
  return errors;
}

function validateUserValidationRules(state: State, rules: readonly UserValidationRule[], path: string): FieldError[] {
  const errors: FieldError[] = [];
  const compiled: CompiledUserValidation[] = [];
  const seen = new Set<string>();
  rules.forEach((rule, i) => {
    const at = child(index(path, i), 'expression');
    if (!rule.expression) {
      errors.push(fieldError.required(at));
      return;
    }
    if (seen.has(rule.expression)) {
      errors.push(fieldError.duplicate(at, rule.expression));
      return;
    }
    seen.add(rule.expression);
    const result = compileUserExpression(rule.expression);
    if (isCompileFailure(result)) errors.push(celError(at, rule.expression, result));
    else compiled.push({ ...result, message: rule.message });
  });
  if (compiled.length > 0) state.mapper.userValidationRules = compiled;
  return errors;
}
