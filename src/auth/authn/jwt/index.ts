/**
 * JWT (OIDC) token authentication as kube-apiserver configures it with `--authentication-config`.
 */
export { createJwtAuthenticators, MAX_TOKEN_BYTES, type JwtAuthenticatorOptions, type JwtAuthenticators } from './authenticator.js';
export { httpsGet, MAX_OIDC_RESPONSE_BYTES, type HttpGet, type HttpGetRequest, type HttpGetResponse } from './http-get.js';
export { SUPPORTED_SIGNING_ALGORITHMS } from './verify.js';
export { CREDENTIAL_ID_KEY } from './user-mapping.js';
export { untrustedIssuer } from './token.js';
