/**
 * A watch cut short by a fault: its first events pass, then it ends as a dropped connection does,
 * or with the 410 Expired ERROR event a server sends when the client's resourceVersion left its
 * history. Both are what informers must survive by relisting.
 */
import type { WatchEvent, WatchStream } from '../../machinery/request.js';
import { tooOldResourceVersion } from '../list-options.js';

/** The resourceVersion of an event's object, as a number (0 when it has none). */
function revisionOf(event: WatchEvent): number {
  const rv = (event.object as { metadata?: { resourceVersion?: unknown } } | null)?.metadata?.resourceVersion;
  const n = typeof rv === 'string' ? Number(rv) : NaN;
  return Number.isSafeInteger(n) ? n : 0;
}

/** `inner` limited to `afterEvents` events, then ended (`drop`) or expired with a 410 ERROR event (`expire`). */
export function faultedWatch(inner: WatchStream, mode: 'drop' | 'expire', afterEvents: number, startRevision: number): WatchStream {
  let ended = false;
  // Ended by its consumer, or by the server before the fault's point: then no ERROR event follows.
  let endedEarly = false;
  let reached = afterEvents === 0;
  let markDone: () => void = () => undefined;
  const done = new Promise<void>((resolve) => (markDone = resolve));
  const finish = () => {
    if (ended) return;
    ended = true;
    inner.close();
    markDone();
  };
  void inner.done.then(() => {
    if (!ended && !reached) endedEarly = true;
    finish();
  });
  return {
    close: () => {
      if (!ended) endedEarly = true;
      finish();
    },
    done,
    get overflowed() {
      return inner.overflowed;
    },
    async *[Symbol.asyncIterator]() {
      let sent = 0;
      let revision = startRevision;
      try {
        if (!reached) {
          for await (const event of inner) {
            revision = Math.max(revision, revisionOf(event));
            yield event;
            if (++sent >= afterEvents) {
              reached = true;
              break;
            }
          }
        }
        if (mode === 'expire' && reached && !endedEarly) {
          yield { type: 'ERROR', object: tooOldResourceVersion(revision, revision + 1).status };
        }
      } finally {
        finish();
      }
    },
  };
}
