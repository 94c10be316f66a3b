/**
 * Several token authenticators as one (k8s.io/apiserver `pkg/authentication/token/union`): each is
 * asked in order until one knows the token; the refusals of those that knew it but refused it are
 * what the caller hears when none accepts it.
 */
import type { AuthenticationResult, TokenAuthenticator } from '../../machinery/auth.js';

/** Thrown when every authenticator passed on a token and some refused it; the message joins their reasons. */
export class TokenRefusedError extends Error {
  constructor(readonly reasons: readonly string[]) {
    super(reasons.length === 1 ? reasons[0] : `[${reasons.join(', ')}]`);
    this.name = 'TokenRefusedError';
  }
}

/** The union of `authenticators`. */
export function unionTokenAuthenticator(authenticators: readonly TokenAuthenticator[]): TokenAuthenticator {
  return {
    async authenticateToken(token, audiences): Promise<AuthenticationResult | undefined> {
      const reasons: string[] = [];
      for (const authenticator of authenticators) {
        try {
          const result = await authenticator.authenticateToken(token, audiences);
          if (result) return result;
        } catch (e) {
          reasons.push(e instanceof Error ? e.message : String(e));
        }
      }
      if (reasons.length) throw new TokenRefusedError(reasons);
      return undefined;
    },
  };
}
