/** The controller loop: starting from a whole stored state, and telling when it is idle. */
import { describe, expect, it } from 'vitest';
import { ControllerLoop, type Controller, type StartingState } from '../../src/controllers/controller-loop.js';
import type { StorageEvent, StoredObject } from '../../src/storage/storage.js';

function stored(namespace: string, name: string, revision: number): StoredObject {
  return { namespace, name, revision, value: { metadata: { name, namespace, resourceVersion: String(revision) } } };
}

/** Two buckets: three ConfigMaps and one Namespace. */
const state: StartingState = {
  revision: 9,
  buckets: new Map([
    [
      'core/configmaps',
      {
        objects: new Map([
          ['default/a', stored('default', 'a', 3)],
          ['default/b', stored('default', 'b', 4)],
          ['other/c', stored('other', 'c', 5)],
        ]),
      },
    ],
    ['core/namespaces', { objects: new Map([['other', stored('', 'other', 2)]]) }],
  ]),
};

/** A controller that records what it observes and reconciles; its work is the object's name. */
function recording(name: string, extra: Partial<Controller> = {}) {
  const observed: string[] = [];
  const reconciled: string[] = [];
  const controller: Controller = {
    name,
    observe(event: StorageEvent) {
      observed.push(`${event.type} ${event.bucket} ${event.namespace}/${event.name}@${event.revision}`);
      return [event.name];
    },
    async reconcile(key) {
      reconciled.push(key);
    },
    ...extra,
  };
  return { controller, observed, reconciled };
}

describe('ControllerLoop.start', () => {
  it('tells a controller of every object as an ADDED event at the state revision, and does the work', async () => {
    const c = recording('all');
    const loop = new ControllerLoop([c.controller]);
    loop.start(state);
    expect(c.observed).toEqual([
      'ADDED core/configmaps default/a@9',
      'ADDED core/configmaps default/b@9',
      'ADDED core/configmaps other/c@9',
      'ADDED core/namespaces /other@9',
    ]);
    await loop.settle();
    expect(c.reconciled).toEqual(['a', 'b', 'c', 'other']);
  });

  it('tells a controller with addsFrom only of the buckets it names', async () => {
    const c = recording('namespaces', { addsFrom: (bucket) => bucket === 'core/namespaces' });
    const loop = new ControllerLoop([c.controller]);
    loop.start(state);
    expect(c.observed).toEqual(['ADDED core/namespaces /other@9']);
    await loop.settle();
    expect(c.reconciled).toEqual(['other']);
  });

  it('hands the whole state to a controller with start, instead of events', async () => {
    const seen: StartingState[] = [];
    const c = recording('whole', {
      start(s) {
        seen.push(s);
        return ['from-start'];
      },
    });
    const loop = new ControllerLoop([c.controller]);
    loop.start(state);
    expect(seen).toEqual([state]);
    expect(c.observed).toEqual([]);
    await loop.settle();
    expect(c.reconciled).toEqual(['from-start']);
  });

  it('from a settled state, skips the work of a controller that keeps only what it observes, and of no other', async () => {
    const skipping = recording('skipping', { keepsOnlyObserved: true });
    const starting = recording('starting', { keepsOnlyObserved: true, start: () => ['from-start'] });
    const learning = recording('learning', { addsFrom: (bucket) => bucket === 'core/namespaces' });
    const loop = new ControllerLoop([skipping.controller, starting.controller, learning.controller]);
    loop.start(state, { settled: true });
    // Still told of every object, so that what it keeps follows the state.
    expect(skipping.observed).toHaveLength(4);
    await loop.settle();
    expect(skipping.reconciled).toEqual([]);
    expect(starting.reconciled).toEqual([]);
    expect(learning.reconciled).toEqual(['other']);
  });

  it('is idle only with nothing queued, running or waiting for its delay', async () => {
    let release: () => void = () => undefined;
    const slow: Controller = {
      name: 'slow',
      observe: (event) => [event.name],
      reconcile: (key) => (key === 'wait' ? new Promise<void>((r) => (release = r)) : Promise.resolve()),
      delayFor: (key) => (key === 'later' ? 60_000 : 0),
    };
    const loop = new ControllerLoop([slow]);
    expect(loop.idle).toBe(true);
    const event = (name: string): StorageEvent => ({ type: 'ADDED', bucket: 'core/configmaps', namespace: 'default', name, revision: 1, object: {} });
    loop.observe(event('later'));
    expect(loop.idle).toBe(false);
    const settled = loop.settle();
    loop.observe(event('wait'));
    await new Promise((r) => setImmediate(r));
    await new Promise((r) => setImmediate(r));
    expect(loop.idle).toBe(false);
    release();
    await settled;
    expect(loop.idle).toBe(true);
    loop.close();
  });
});
