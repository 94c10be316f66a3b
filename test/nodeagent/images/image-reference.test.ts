import { describe, expect, it } from 'vitest';
import { applyDefaultImageTag, ImageReferenceError, parseImageReference } from '../../../src/nodeagent/images/image-reference.js';

const DIGEST = 'sha256:' + 'a'.repeat(64);

describe('parseImageReference', () => {
  it.each([
    ['nginx', { name: 'docker.io/library/nginx', domain: 'docker.io' }],
    ['nginx:1.25', { name: 'docker.io/library/nginx', domain: 'docker.io', tag: '1.25' }],
    ['team/app', { name: 'docker.io/team/app', domain: 'docker.io' }],
    ['index.docker.io/library/nginx', { name: 'docker.io/library/nginx', domain: 'docker.io' }],
    ['registry.example:5000/team/app:v1', { name: 'registry.example:5000/team/app', domain: 'registry.example:5000', tag: 'v1' }],
    ['localhost/app', { name: 'localhost/app', domain: 'localhost' }],
    [`quay.io/app@${DIGEST}`, { name: 'quay.io/app', domain: 'quay.io', digest: DIGEST }],
    [`quay.io/app:v1@${DIGEST}`, { name: 'quay.io/app', domain: 'quay.io', tag: 'v1', digest: DIGEST }],
  ])('%s', (image, expected) => {
    expect(parseImageReference(image)).toEqual(expected);
  });

  it.each([
    ['', 'repository name must have at least one component'],
    ['Nginx', 'invalid reference format: repository name (library/Nginx) must be lowercase'],
    ['nginx:', 'invalid reference format'],
    ['nginx@sha256:abc', 'invalid reference format'],
    ['a//b', 'invalid reference format'],
    ['-bad/app', 'invalid reference format'],
    [`registry.io/${'a'.repeat(300)}`, 'repository name must not be more than 255 characters'],
  ])('refuses %j', (image, message) => {
    expect(() => parseImageReference(image)).toThrow(new ImageReferenceError(message));
  });

  it('applyDefaultImageTag adds :latest only without tag and digest', () => {
    expect(applyDefaultImageTag('nginx')).toBe('nginx:latest');
    expect(applyDefaultImageTag('registry.io:5000/app')).toBe('registry.io:5000/app:latest');
    expect(applyDefaultImageTag('nginx:1')).toBe('nginx:1');
    expect(applyDefaultImageTag(`nginx@${DIGEST}`)).toBe(`nginx@${DIGEST}`);
    expect(() => applyDefaultImageTag('NGINX')).toThrow(
      `couldn't parse image name "NGINX": invalid reference format: repository name (library/NGINX) must be lowercase`,
    );
  });
});

describe('parseImageReference on hostile input', () => {
  it('answers or throws ImageReferenceError for any text, and names are normalized', async () => {
    const fc = (await import('fast-check')).default;
    fc.assert(
      fc.property(fc.string({ maxLength: 80, unit: fc.constantFrom('a', 'B', '0', '.', '/', ':', '@', '-', '_', '[', ']', ' ', 'é') }), (text) => {
        try {
          const ref = parseImageReference(text);
          expect(ref.name.startsWith(`${ref.domain}/`)).toBe(true);
          expect(parseImageReference(ref.name).name).toBe(ref.name);
        } catch (e) {
          expect(e).toBeInstanceOf(ImageReferenceError);
        }
      }),
    );
  });
});
