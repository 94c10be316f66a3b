import { describe, expect, it } from 'vitest';
import { anonymousAllowed } from '../../../src/auth/authn/anonymous.js';

describe('anonymousAllowed', () => {
  it('lets anonymous requests in everywhere when enabled without conditions', () => {
    expect(anonymousAllowed({ enabled: true, conditions: [] }, '/api/v1/pods')).toBe(true);
  });

  it('lets them in only on the exact paths of the conditions', () => {
    const config = { enabled: true, conditions: [{ path: '/livez' }, { path: '/readyz' }] };
    expect(anonymousAllowed(config, '/livez')).toBe(true);
    expect(anonymousAllowed(config, '/readyz')).toBe(true);
    expect(anonymousAllowed(config, '/livez/')).toBe(false);
    expect(anonymousAllowed(config, '/livez/ping')).toBe(false);
    expect(anonymousAllowed(config, '/healthz')).toBe(false);
  });

  it('refuses them when disabled or not configured', () => {
    expect(anonymousAllowed({ enabled: false, conditions: [] }, '/livez')).toBe(false);
    expect(anonymousAllowed(undefined, '/livez')).toBe(false);
  });
});
