/** Which paths name resources rather than discovery, health or another document of the server. */
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { isResourcePath } from '../../src/http/non-resource.js';

/** The definition, by splitting: `api` and two more segments, or `apis` and three more, empty segments not counted. */
function bySplitting(pathname: string): boolean {
  const parts = pathname.split('/').filter(Boolean);
  return (parts[0] === 'api' && parts.length > 2) || (parts[0] === 'apis' && parts.length > 3);
}

describe('isResourcePath', () => {
  it.each([
    ['/api/v1/pods', true],
    ['/api/v1/namespaces/default/configmaps/x', true],
    ['/apis/apps/v1/deployments', true],
    ['//api//v1//pods/', true],
    ['/api/v1', false],
    ['/api/v1/', false],
    ['/apis/apps/v1', false],
    ['/api', false],
    ['/apis', false],
    ['/apix/v1/pods', false],
    ['/ap/v1/pods', false],
    ['/apis2/apps/v1/deployments', false],
    ['/openapi/v3/apis/apps/v1', false],
    ['/healthz', false],
    ['', false],
    ['/', false],
  ])('%s: %s', (path, expected) => {
    expect(isResourcePath(path)).toBe(expected);
  });

  it('agrees with splitting the path on every path, hostile ones too', () => {
    const segment = fc.oneof(fc.constantFrom('', 'api', 'apis', 'v1', 'apps', 'pods', 'ap', 'apiss'), fc.string({ maxLength: 6 }));
    const path = fc.array(segment, { maxLength: 8 }).map((parts) => parts.join('/'));
    fc.assert(
      fc.property(
        fc.oneof(
          path,
          path.map((p) => `/${p}`),
          fc.string({ maxLength: 40 }),
        ),
        (p) => isResourcePath(p) === bySplitting(p),
      ),
      { numRuns: 2000 },
    );
  });
});
