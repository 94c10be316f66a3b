/**
 * Waiting on an injected clock: a simulated delay ("the checkpoint takes 5 s") resolves when the
 * clock has moved that far, whether a test moves a manual clock by hand or real time passes.
 */
import type { Clock } from '../../clock.js';

interface AdvancingClock extends Clock {
  onAdvance(listener: (now: number) => void): () => void;
  readonly realTime?: boolean;
}

function canListen(clock: Clock): clock is AdvancingClock {
  return typeof (clock as Partial<AdvancingClock>).onAdvance === 'function';
}

/**
 * Resolves once `clock.now() >= until`. A clock with `onAdvance` (memkube's CombinedClock) is
 * watched for manual moves; a clock that follows real time (any clock without `realTime: false`)
 * is also checked by a timer. `signal` abandons the wait.
 */
export function waitForClock(clock: Clock, until: number, signal?: AbortSignal): Promise<void> {
  if (clock.now() >= until) return Promise.resolve();
  return new Promise((resolve, reject) => {
    let timer: ReturnType<typeof setTimeout> | undefined;
    let unlisten: (() => void) | undefined;
    const done = (): void => {
      if (timer) clearTimeout(timer);
      unlisten?.();
      signal?.removeEventListener('abort', abort);
    };
    const check = (): void => {
      if (clock.now() < until) return;
      done();
      resolve();
    };
    const abort = (): void => {
      done();
      reject(signal?.reason instanceof Error ? signal.reason : new Error('aborted'));
    };
    if (canListen(clock)) unlisten = clock.onAdvance(check);
    const followsRealTime = !canListen(clock) || clock.realTime !== false;
    if (followsRealTime) {
      const poll = (): void => {
        check();
        if (clock.now() < until) timer = setTimeout(poll, Math.min(1000, Math.max(1, until - clock.now())));
      };
      timer = setTimeout(poll, Math.max(1, until - clock.now()));
    }
    signal?.addEventListener('abort', abort, { once: true });
  });
}
