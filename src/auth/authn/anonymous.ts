/**
 * Anonymous requests (k8s.io/apiserver pkg/authentication/request/anonymous): with anonymous
 * authentication enabled, a request without credentials is `system:anonymous` in
 * `system:unauthenticated` — on every path when the configuration lists no conditions, else only
 * on the paths the conditions name exactly.
 */
import type { AnonymousAuthConfig } from '../../config/authentication/index.js';

/** True when a request for `path` without credentials is let in as the anonymous user. */
export function anonymousAllowed(config: AnonymousAuthConfig | undefined, path: string): boolean {
  if (!config?.enabled) return false;
  if (config.conditions.length === 0) return true;
  return config.conditions.some((c) => c.path === path);
}
