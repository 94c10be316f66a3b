import { describe, expect, it } from 'vitest';
import { main } from '../examples/in-process-client.js';
import { main as runNodeAgentExample } from '../examples/node-agent.js';
import { main as runOperatorExample } from '../examples/test-an-operator.js';
import { main as runClientNodePortless } from '../examples/client-node-portless.js';
import { main as runSimulateFailures } from '../examples/simulate-failures.js';
import { main as runFakeClusterForAUi } from '../examples/fake-cluster-for-a-ui.js';

describe('examples/in-process-client', () => {
  it('runs and prints what it did', async () => {
    const lines: string[] = [];
    await main((l) => lines.push(l));
    expect(lines[0]).toMatch(/^created settings at resourceVersion \d+$/);
    expect(lines[1]).toMatch(/^updated to mode=safe, resourceVersion \d+$/);
    expect(lines[2]).toBe(
      '409 Conflict: Operation cannot be fulfilled on configmaps "settings": the object has been modified; please apply your changes to the latest version and try again',
    );
    expect(lines[3]).toBe('listed 1 ConfigMap(s) with app=demo');
  });
});

describe('examples/node-agent', () => {
  it('runs a pod on a node agent over memkube cri, reads its log and checkpoints it', async () => {
    const lines: string[] = [];
    await runNodeAgentExample((l) => lines.push(l));
    expect(lines[0]).toMatch(/^node node-1: agent serving on https:\/\/127\.0\.0\.1:\d+$/);
    expect(lines[1]).toMatch(/^pod hello is Running, container memkube:\/\/[0-9a-f]{64}$/);
    expect(lines[2]).toBe('log: hello from memkube cri');
    expect(lines[3]).toMatch(/^checkpoint 200: \/.+\/node-1\/checkpoints\/checkpoint-hello_default-app-\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ\.tar$/);
    expect(lines).toHaveLength(4);
  });
});

describe('examples/snapshots', () => {
  it('resets a fixture, forks it and loads it back from JSON', async () => {
    const { main: runSnapshotsExample } = await import('../examples/snapshots.js');
    const lines: string[] = [];
    await runSnapshotsExample((l) => lines.push(l));
    expect(lines[0]).toMatch(/^fixture: \d+ objects at resourceVersion \d+$/);
    expect(lines.slice(1)).toEqual([
      'after reset: fixture-0 is back, made-by-a-test is gone',
      'the fork emptied its default namespace (0 left); this cluster still has 200',
      'loaded from JSON: fixture-1 has the same uid: true',
    ]);
  });
});

describe('examples/test-an-operator', () => {
  it('runs the controller, waits for its work and times out on the cluster clock', async () => {
    const lines: string[] = [];
    await runOperatorExample((l) => lines.push(l));
    expect(lines).toEqual([
      'blue-team welcomed team blue, managed by welcome-controller',
      'quiet: waitFor: "welcome" in namespace "quiet": the condition did not hold within 1000 ms',
    ]);
  });
});

describe('examples/client-node-portless', () => {
  it('drives client-node against an in-process cluster and prints what it saw', async () => {
    const lines: string[] = [];
    await runClientNodePortless((l) => lines.push(l));
    expect(lines[0]).toMatch(/^listed first at resourceVersion \d+$/);
    expect(lines.slice(1)).toEqual(['the informer saw second added', 'informer cache: first, second']);
  });
});

describe('examples/simulate-failures', () => {
  it('retries throttled and conflicting writes, lists again after a 410 and sees Retry-After over HTTP', async () => {
    const lines: string[] = [];
    await runSimulateFailures((l) => lines.push(l));
    expect(lines).toEqual([
      'created settings after 3 tries',
      'updated to mode=safe after 2 tries',
      'codes the code under test saw: 429 429 201 200 409 200 200',
      'watch ended with 410 Expired; listing again finds 1 ConfigMap(s)',
      'over HTTP: 429, Retry-After: 3',
    ]);
  });
});

describe('examples/define-your-own-kind', () => {
  it('serves a Widget kind: defaults, a refused create, a status write and a list', async () => {
    const { main: runDefineYourOwnKind } = await import('../examples/define-your-own-kind.js');
    const lines: string[] = [];
    await runDefineYourOwnKind((l) => lines.push(l));
    expect(lines).toEqual([
      'created small: size=1 color=red, generation 1',
      'refused: 422 Invalid: Widget.toys.example.com "huge" is invalid: spec.size: Invalid value: 20: spec.size in body should be less than or equal to 10',
      'refused: 422 Invalid: Widget.toys.example.com "huge" is invalid: spec.color: Invalid value: "gold": gold widgets come in size 1 only',
      'status of small: ready=true, observedGeneration=1',
      'listed 2 widgets: blue (size 4, blue), small (size 1, red, ready)',
    ]);
  });
});

describe('examples/fake-cluster-for-a-ui', () => {
  it('serves a browser-like client across origins: preflight, list, watch, ages on the cluster clock, reset', async () => {
    const lines: string[] = [];
    await runFakeClusterForAUi((l) => lines.push(l));
    expect(lines).toEqual([
      'preflight: 204, Authorization allowed: true',
      'list: 200, checkout, storefront; Access-Control-Allow-Origin: http://localhost:5173',
      'watch: ADDED banner',
      'three days later: banner 3d, checkout 3d, storefront 3d',
      'reset: watch ended: true; configmaps: checkout, storefront',
      'another origin: 200, Access-Control-Allow-Origin: none',
    ]);
  });
});

describe('examples/mount-in-a-framework', () => {
  it('serves the API under /k8s in an Express app beside its own route, a watch included, and through Hono', async () => {
    const { main: runMountInAFramework } = await import('../examples/mount-in-a-framework.js');
    const lines: string[] = [];
    await runMountInAFramework((l) => lines.push(l));
    expect(lines[0]).toMatch(/^serving on (http:\/\/127\.0\.0\.1:\d+), the Kubernetes API under \1\/k8s$/);
    expect(lines.slice(1)).toEqual([
      'GET /hello: 200 hello from the app',
      'POST /k8s/api/v1/namespaces/default/configmaps: 201 created settings',
      'GET /k8s/api/v1/namespaces/default/configmaps/settings: 200 mode=fast',
      'watch: ADDED settings',
      'watch: MODIFIED settings mode=safe',
      'GET /k8s/api/v1/namespaces/default/configmaps/missing: 404 NotFound: configmaps "missing" not found',
      'Hono, no socket: GET /k8s/api/v1/namespaces/default/configmaps/settings: 200 mode=safe',
    ]);
  });
});
