import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { appendFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { CombinedClock } from '../../../src/clock.js';
import { createNodeAgentServer, type NodeAgentServer } from '../../../src/nodeagent/server/index.js';
import { FakeRuntime, pod, podSource, secured, tempDir } from './fixtures.js';

describe('GET /containerLogs/{namespace}/{pod}/{container}', () => {
  const tmp = tempDir();
  const runtime = new FakeRuntime();
  const web = pod('default', 'web', ['nginx', 'waiting'], {
    status: { containerStatuses: [{ name: 'waiting', state: { waiting: { reason: 'ImagePullBackOff' } } }] },
  } as never);
  const clock = new CombinedClock({ frozenAt: Date.UTC(2026, 11, 1, 10, 0, 10) });
  const current = join(tmp.dir, 'current.log');
  const previous = join(tmp.dir, 'previous.log');
  let server: NodeAgentServer;
  let port = 0;

  beforeAll(async () => {
    server = createNodeAgentServer({
      address: '127.0.0.1',
      port: 0,
      rootDir: tmp.dir,
      nodeName: 'n',
      pods: podSource([web]),
      runtime: runtime.asRuntime(),
      clock,
      followCheckMs: 10,
    });
    port = (await server.listen()).port;
  });
  afterAll(async () => {
    await server.close();
    tmp.remove();
  });
  beforeEach(() => {
    writeFileSync(previous, '2026-12-01T09:00:00Z stdout F before restart\n');
    writeFileSync(current, '2026-12-01T10:00:00Z stdout F first\n2026-12-01T10:00:05Z stderr F second\n2026-12-01T10:00:08Z stdout F third\n');
    runtime.containers = [
      { id: 'c0', pod: web, name: 'nginx', attempt: 0, state: 'CONTAINER_EXITED', logPath: previous },
      { id: 'c1', pod: web, name: 'nginx', attempt: 1, state: 'CONTAINER_EXITED', logPath: current },
    ];
  });

  it('streams the current attempt, chunked and without a content type', async () => {
    const answer = await secured(port, '/containerLogs/default/web/nginx');
    expect([answer.status, answer.body, answer.headers['transfer-encoding'], answer.headers['content-type']]).toEqual([
      200,
      'first\nsecond\nthird\n',
      'chunked',
      undefined,
    ]);
  });

  it('reads the attempt before with previous, tail, timestamps, limitBytes and since', async () => {
    expect((await secured(port, '/containerLogs/default/web/nginx?previous=true')).body).toBe('before restart\n');
    expect((await secured(port, '/containerLogs/default/web/nginx?tailLines=1')).body).toBe('third\n');
    expect((await secured(port, '/containerLogs/default/web/nginx?tail=all')).body).toBe('first\nsecond\nthird\n');
    expect((await secured(port, '/containerLogs/default/web/nginx?tailLines=1&timestamps=1')).body).toBe('2026-12-01T10:00:08Z third\n');
    expect((await secured(port, '/containerLogs/default/web/nginx?limitBytes=8')).body).toBe('first\nse');
    // The clock says 10:00:10, so five seconds back is 10:00:05.
    expect((await secured(port, '/containerLogs/default/web/nginx?sinceSeconds=5')).body).toBe('second\nthird\n');
    expect((await secured(port, '/containerLogs/default/web/nginx?sinceTime=2026-12-01T10:00:06Z')).body).toBe('third\n');
  });

  it('follows a running container until it exits', async () => {
    runtime.containers[1]!.state = 'CONTAINER_RUNNING';
    const answer = secured(port, '/containerLogs/default/web/nginx?follow=true&tailLines=1');
    setTimeout(() => {
      appendFileSync(current, '2026-12-01T10:00:09Z stdout F fourth\n');
      runtime.containers[1]!.state = 'CONTAINER_EXITED';
    }, 50);
    expect((await answer).body).toBe('third\nfourth\n');
  });

  it("refuses bad queries with kubelet's JSON-looking texts", async () => {
    for (const [query, status, body] of [
      ['tailLines=x', 400, '{"message": "Unable to decode query."}'],
      ['sinceTime=yesterday', 400, '{"message": "Unable to decode query."}'],
      ['tailLines=99999999999999999999', 400, '{"message": "Unable to decode query."}'],
      ['tailLines=-1', 422, '{"message": "Invalid request."}'],
      ['limitBytes=0', 422, '{"message": "Invalid request."}'],
      ['sinceSeconds=0', 422, '{"message": "Invalid request."}'],
      ['sinceSeconds=5&sinceTime=2026-12-01T10:00:06Z', 422, '{"message": "Invalid request."}'],
      ['stream=Stderr', 400, 'unable to return the given log stream: "Stderr". Please enable PodLogsQuerySplitStreams feature gate in kubelet'],
    ] as const) {
      const answer = await secured(port, `/containerLogs/default/web/nginx?${query}`);
      expect([answer.status, answer.body], query).toEqual([status, body]);
    }
  });

  it('answers missing pods, containers and attempts as kubelet does', async () => {
    const noPod = await secured(port, '/containerLogs/default/nope/nginx');
    expect([noPod.status, noPod.body]).toEqual([404, 'pod "nope" does not exist']);
    const noContainer = await secured(port, '/containerLogs/default/web/db');
    expect([noContainer.status, noContainer.body]).toEqual([404, 'container "db" not found in pod "web"']);
    const waiting = await secured(port, '/containerLogs/default/web/waiting');
    expect([waiting.status, waiting.body]).toEqual([400, `container "waiting" in pod "web" is waiting to start: image can't be pulled`]);
    runtime.containers = runtime.containers.slice(1);
    const noPrevious = await secured(port, '/containerLogs/default/web/nginx?previous=true');
    expect([noPrevious.status, noPrevious.body]).toEqual([400, 'previous terminated container "nginx" in pod "web" not found']);
    expect((await secured(port, '/containerLogs/default/web')).body).toBe('404: Page Not Found');
    expect((await secured(port, '/containerLogs/default/web/nginx', { method: 'DELETE' })).status).toBe(405);
  });

  it('writes a runtime that cannot say where the log is into the already started answer', async () => {
    runtime.statusError = new Error('rpc error: code = Unavailable desc = gone');
    try {
      const answer = await secured(port, '/containerLogs/default/web/nginx');
      expect([answer.status, answer.body]).toEqual([200, 'unable to retrieve container logs for fake://c1']);
    } finally {
      runtime.statusError = undefined;
    }
  });

  it('writes a failure to read the file into the already started answer', async () => {
    runtime.containers[1]!.logPath = join(tmp.dir, 'gone.log');
    const answer = await secured(port, '/containerLogs/default/web/nginx');
    const gone = join(tmp.dir, 'gone.log');
    expect([answer.status, answer.body]).toEqual([200, `failed to open log file "${gone}": open ${gone}: no such file or directory`]);
  });
});
