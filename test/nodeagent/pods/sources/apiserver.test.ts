import { describe, expect, it } from 'vitest';
import { ApiServerPodSource } from '../../../../src/nodeagent/pods/sources/apiserver.js';
import { KubeApiError, type KubeApiClient, type KubeObjectJson, type KubeWatchEvent } from '../../../../src/nodeagent/kube-api.js';
import { silentLog } from '../../../../src/nodeagent/agent-log.js';

const pod = (name: string, rv: string): KubeObjectJson => ({
  apiVersion: 'v1',
  kind: 'Pod',
  metadata: { name, namespace: 'default', uid: `uid-${name}`, resourceVersion: rv },
});

/** A client whose lists and watches answer from scripts, recording their queries. */
function scripted(lists: { rv: string; items: KubeObjectJson[] }[], watches: (KubeWatchEvent[] | Error)[]) {
  const calls: string[] = [];
  const abort = new AbortController();
  const client: KubeApiClient = {
    server: 'http://x.invalid',
    async request<T>(method: string, path: string, options?: { query?: Readonly<Record<string, string>> }) {
      calls.push(`${method} ${path}?${new URLSearchParams(options?.query ?? {}).toString()}`);
      const l = lists.shift();
      if (!l) throw new Error('no more lists');
      return { metadata: { resourceVersion: l.rv }, items: l.items } as T;
    },
    watch(path, options) {
      calls.push(`WATCH ${path}?${new URLSearchParams(options?.query ?? {}).toString()}`);
      const next = watches.shift();
      return {
        async *[Symbol.asyncIterator]() {
          if (!next) {
            abort.abort();
            return;
          }
          if (next instanceof Error) throw next;
          yield* next;
        },
      };
    },
    close() {},
  };
  return { client, calls, abort };
}

describe('ApiServerPodSource', () => {
  it('lists the node’s pods, watches from the list, resumes from the last event, and lists again after 410 Gone', async () => {
    const { client, calls, abort } = scripted(
      [
        { rv: '10', items: [pod('a', '9')] },
        { rv: '40', items: [pod('c', '40')] },
      ],
      [
        [
          { type: 'ADDED', object: pod('b', '11') },
          { type: 'DELETED', object: pod('a', '12') },
        ],
        [{ type: 'BOOKMARK', object: { kind: 'Pod', metadata: { resourceVersion: '20' } } }],
        new KubeApiError(410, 'Expired', 'too old resource version: 20 (30)'),
      ],
    );
    const source = new ApiServerPodSource(client, 'worker-1', silentLog);
    const snapshots: string[][] = [];
    await source.run(abort.signal, () => snapshots.push(source.all().map((p) => p.metadata!.name!)), 1);
    expect(calls).toEqual([
      'GET /api/v1/pods?fieldSelector=spec.nodeName%3Dworker-1',
      'WATCH /api/v1/pods?fieldSelector=spec.nodeName%3Dworker-1&resourceVersion=10&allowWatchBookmarks=true',
      'WATCH /api/v1/pods?fieldSelector=spec.nodeName%3Dworker-1&resourceVersion=12&allowWatchBookmarks=true',
      'WATCH /api/v1/pods?fieldSelector=spec.nodeName%3Dworker-1&resourceVersion=20&allowWatchBookmarks=true',
      'GET /api/v1/pods?fieldSelector=spec.nodeName%3Dworker-1',
      'WATCH /api/v1/pods?fieldSelector=spec.nodeName%3Dworker-1&resourceVersion=40&allowWatchBookmarks=true',
    ]);
    expect(snapshots).toEqual([['a'], ['a', 'b'], ['b'], ['c']]);
  });

  it('lists again after an ERROR event in the stream', async () => {
    const { client, calls, abort } = scripted(
      [
        { rv: '5', items: [] },
        { rv: '9', items: [] },
      ],
      [[{ type: 'ERROR', object: { kind: 'Status', code: 410, reason: 'Expired' } as KubeObjectJson }]],
    );
    const source = new ApiServerPodSource(client, 'n', silentLog);
    await source.run(abort.signal, () => undefined, 1);
    expect(calls.filter((c) => c.startsWith('GET'))).toHaveLength(2);
    expect(source.synced).toBe(true);
  });
});
