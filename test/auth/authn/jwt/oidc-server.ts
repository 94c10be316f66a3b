/**
 * A real OIDC provider for the JWT authenticator's tests: HTTPS on 127.0.0.1 with a self-signed
 * CA, a discovery document and a key set the test controls, and signing keys (RS256, ES256).
 */
import { createServer, type Server } from 'node:https';
import type { AddressInfo } from 'node:net';
import { CompactSign, exportJWK, generateKeyPair, type JWK } from 'jose';
import { generateServingCertificate } from '../../../../src/pki/self-signed.js';

/** A signing key and its public JWK. */
export interface SigningKey {
  readonly alg: 'RS256' | 'ES256';
  readonly kid: string;
  readonly privateKey: Awaited<ReturnType<typeof generateKeyPair>>['privateKey'];
  readonly jwk: JWK;
}

/** Makes a key pair; its public JWK carries `kid` and `alg`. */
export async function signingKey(alg: 'RS256' | 'ES256', kid: string): Promise<SigningKey> {
  const { privateKey, publicKey } = await generateKeyPair(alg, { extractable: true });
  return { alg, kid, privateKey, jwk: { ...(await exportJWK(publicKey)), kid, alg, use: 'sig' } };
}

/** Signs `claims` as a compact JWS with `key` (header overrides allowed). */
export async function sign(key: SigningKey, claims: Record<string, unknown>, header: Record<string, unknown> = {}): Promise<string> {
  return new CompactSign(new TextEncoder().encode(JSON.stringify(claims))).setProtectedHeader({ alg: key.alg, kid: key.kid, ...header }).sign(key.privateKey);
}

/** What the provider answers; tests change it between calls. */
export interface ProviderBehaviour {
  /** Replaces the discovery answer. */
  discovery?: { status: number; body: string; contentType?: string };
  /** The issuer the discovery document names; the server's own URL by default. */
  discoveredIssuer?: string;
  /** Never answers discovery (a server that hangs). */
  hangDiscovery?: boolean;
  /** The keys the key set lists. */
  keys: JWK[];
  /** Cache-Control of the key set. */
  jwksCacheControl?: string;
  /** Replaces the key set answer. */
  jwks?: { status: number; body: string };
}

/** A running provider. */
export interface OidcProvider {
  readonly url: string;
  readonly ca: string;
  readonly behaviour: ProviderBehaviour;
  readonly requests: { discovery: number; jwks: number; custom: number };
  close(): Promise<void>;
}

/** Starts a provider on 127.0.0.1:0. `/custom-discovery` serves the discovery document too (for discoveryURL). */
export async function startProvider(keys: JWK[]): Promise<OidcProvider> {
  const { ca, serving } = await generateServingCertificate({ hosts: ['127.0.0.1'] });
  const behaviour: ProviderBehaviour = { keys };
  const requests = { discovery: 0, jwks: 0, custom: 0 };
  let url = '';
  const hanging = new Set<import('node:http').ServerResponse>();
  const server: Server = createServer({ key: serving.key, cert: serving.cert }, (req, res) => {
    const path = req.url ?? '';
    if (path === '/.well-known/openid-configuration' || path === '/custom-discovery') {
      if (path === '/custom-discovery') requests.custom++;
      else requests.discovery++;
      if (behaviour.hangDiscovery) {
        hanging.add(res);
        return;
      }
      if (behaviour.discovery) {
        res.writeHead(behaviour.discovery.status, { 'Content-Type': behaviour.discovery.contentType ?? 'text/plain' });
        res.end(behaviour.discovery.body);
        return;
      }
      res.writeHead(200, { 'Content-Type': 'application/json' });
      res.end(JSON.stringify({ issuer: behaviour.discoveredIssuer ?? url, jwks_uri: `${url}/jwks`, id_token_signing_alg_values_supported: ['RS256'] }));
      return;
    }
    if (path === '/jwks') {
      requests.jwks++;
      if (behaviour.jwks) {
        res.writeHead(behaviour.jwks.status, { 'Content-Type': 'application/json' });
        res.end(behaviour.jwks.body);
        return;
      }
      res.writeHead(200, { 'Content-Type': 'application/json', ...(behaviour.jwksCacheControl ? { 'Cache-Control': behaviour.jwksCacheControl } : {}) });
      res.end(JSON.stringify({ keys: behaviour.keys }));
      return;
    }
    res.writeHead(404);
    res.end();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  url = `https://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    url,
    ca: ca.cert,
    behaviour,
    requests,
    close: () =>
      new Promise<void>((resolve) => {
        for (const res of hanging) res.destroy();
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
