import { describe, expect, it } from 'vitest';
import { CriEndpointError, parseCriEndpoint } from '../../src/cri/endpoint.js';

describe('CRI endpoints, as the kubelet parses them on Linux', () => {
  it('takes unix:// URLs', () => {
    expect(parseCriEndpoint('unix:///run/containerd/containerd.sock')).toEqual({ socketPath: '/run/containerd/containerd.sock' });
    expect(parseCriEndpoint('UNIX:///var/run/crio/crio.sock')).toEqual({ socketPath: '/var/run/crio/crio.sock' });
    expect(parseCriEndpoint('unix:///tmp/a%20b.sock').socketPath).toBe('/tmp/a b.sock');
  });

  it('accepts a bare path with the kubelet deprecation notice', () => {
    expect(parseCriEndpoint('/run/containerd/containerd.sock')).toEqual({
      socketPath: '/run/containerd/containerd.sock',
      deprecation:
        'Using this endpoint is deprecated, please consider using full URL format endpoint="/run/containerd/containerd.sock" URL="unix:///run/containerd/containerd.sock"',
    });
  });

  it('refuses tcp and other schemes with the kubelet messages', () => {
    expect(() => parseCriEndpoint('tcp://127.0.0.1:1234')).toThrow(new CriEndpointError('only support unix socket endpoint'));
    expect(() => parseCriEndpoint('npipe:////./pipe/containerd')).toThrow(new CriEndpointError('protocol "npipe" not supported'));
    expect(() => parseCriEndpoint('http://localhost')).toThrow('protocol "http" not supported');
  });

  it('refuses an endpoint without a socket path', () => {
    expect(() => parseCriEndpoint('unix://')).toThrow(/names no socket path/);
    expect(() => parseCriEndpoint('unix:relative.sock')).toThrow(/names no socket path/);
    expect(() => parseCriEndpoint('unix:///bad%zz')).toThrow(/invalid URL escape/);
  });
});
