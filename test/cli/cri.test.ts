import { describe, expect, it } from 'vitest';
import { parseCriArgs } from '../../src/cli/cri.js';

describe('memkube cri flags', () => {
  it('takes --socket (a path or unix://), --root-dir and repeated --image', () => {
    expect(parseCriArgs(['--socket', 'unix:///run/m.sock', '--root-dir=/var/lib/m', '--image', 'nginx', '--image=busybox'])).toEqual({
      socket: '/run/m.sock',
      rootDir: '/var/lib/m',
      images: ['nginx', 'busybox'],
    });
    expect(parseCriArgs(['--socket=/run/a.sock'])).toEqual({ socket: '/run/a.sock', images: [] });
  });

  it('refuses a missing socket, a flag without its value and unknown flags', () => {
    expect(() => parseCriArgs([])).toThrow(/^--socket is required\nusage: memkube cri/);
    expect(() => parseCriArgs(['--socket'])).toThrow('flag needs an argument: --socket');
    expect(() => parseCriArgs(['--socket', '/a', '--port', '1'])).toThrow(/^unknown flag: --port/);
  });

  it('takes --checkpoint-unimplemented, without a value', () => {
    expect(parseCriArgs(['--socket=/run/a.sock', '--checkpoint-unimplemented'])).toEqual({ socket: '/run/a.sock', images: [], checkpointUnimplemented: true });
    expect(() => parseCriArgs(['--socket=/run/a.sock', '--checkpoint-unimplemented=false'])).toThrow(/^--checkpoint-unimplemented takes no value/);
  });
});
