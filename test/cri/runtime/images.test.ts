import { describe, expect, it } from 'vitest';
import { normalizeImageReference, parseImageReference } from '../../../src/cri/runtime/images.js';

describe('image references', () => {
  it.each([
    ['nginx', 'docker.io/library/nginx:latest'],
    ['nginx:1.27', 'docker.io/library/nginx:1.27'],
    ['library/nginx', 'docker.io/library/nginx:latest'],
    ['bitnami/redis:7', 'docker.io/bitnami/redis:7'],
    ['registry.k8s.io/pause:3.10', 'registry.k8s.io/pause:3.10'],
    ['localhost:5000/app', 'localhost:5000/app:latest'],
    ['localhost/app:v1', 'localhost/app:v1'],
    [`busybox@sha256:${'a'.repeat(64)}`, `docker.io/library/busybox@sha256:${'a'.repeat(64)}`],
    [`busybox:1@sha256:${'b'.repeat(64)}`, `docker.io/library/busybox:1@sha256:${'b'.repeat(64)}`],
  ])('normalizes %s to %s', (input, expected) => {
    expect(normalizeImageReference(input)).toBe(expected);
  });

  it.each(['', 'Nginx', 'nginx:', 'nginx@sha256:zz', 'a//b', 'nginx:bad tag'])('rejects %j', (input) => {
    expect(parseImageReference(input)).toBeUndefined();
  });
});
