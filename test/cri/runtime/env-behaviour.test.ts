import { describe, expect, it } from 'vitest';
import type { ContainerConfig } from '../../../src/cri/api.js';
import { behaviourFromEnv } from '../../../src/cri/runtime/env-behaviour.js';

const config = (env: Record<string, string>): ContainerConfig => ({
  metadata: { name: 'c', attempt: 0 },
  image: { image: 'busybox' },
  envs: Object.entries(env).map(([key, value]) => ({ key, value })),
});

describe('behaviourFromEnv', () => {
  it('is undefined for a container that scripts nothing', () => {
    expect(behaviourFromEnv(config({ PATH: '/bin' }))).toBeUndefined();
  });

  it('reads what the container prints, how it exits and how its checkpoints go', () => {
    expect(
      behaviourFromEnv(
        config({
          MEMKUBE_CRI_STDOUT: 'out\n',
          MEMKUBE_CRI_STDERR: 'err\n',
          MEMKUBE_CRI_EXIT_CODE: '3',
          MEMKUBE_CRI_EXIT_AFTER_MS: '1500',
          MEMKUBE_CRI_STOP_EXIT_CODE: '143',
          MEMKUBE_CRI_CHECKPOINT_ERROR: 'criu failed',
          MEMKUBE_CRI_CHECKPOINT_DELAY_MS: '20',
        }),
      ),
    ).toEqual({
      logs: [
        { stream: 'stdout', text: 'out\n' },
        { stream: 'stderr', text: 'err\n' },
      ],
      exitCode: 3,
      exitAfterMs: 1500,
      stopExitCode: 143,
      checkpoint: { error: 'criu failed', delayMs: 20 },
    });
  });

  it.each([
    ['MEMKUBE_CRI_EXIT_CODE', '256', 'MEMKUBE_CRI_EXIT_CODE must be an exit code from 0 to 255, not "256"'],
    ['MEMKUBE_CRI_EXIT_CODE', '-1', 'MEMKUBE_CRI_EXIT_CODE must be an exit code from 0 to 255, not "-1"'],
    ['MEMKUBE_CRI_STOP_EXIT_CODE', '1e2', 'MEMKUBE_CRI_STOP_EXIT_CODE must be an exit code from 0 to 255, not "1e2"'],
    ['MEMKUBE_CRI_EXIT_AFTER_MS', '1.5', 'MEMKUBE_CRI_EXIT_AFTER_MS must be a whole number of milliseconds, not "1.5"'],
    ['MEMKUBE_CRI_CHECKPOINT_DELAY_MS', '9'.repeat(40), `MEMKUBE_CRI_CHECKPOINT_DELAY_MS must be a whole number of milliseconds, not "${'9'.repeat(40)}"`],
  ])('refuses %s=%s', (name, value, message) => {
    expect(() => behaviourFromEnv(config({ [name]: value }))).toThrow(message);
  });
});
