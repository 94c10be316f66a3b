import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { join } from 'node:path';
import { CombinedClock } from '../../../src/clock.js';
import { CriError } from '../../../src/cri/api.js';
import { checkpointLocation } from '../../../src/nodeagent/server/checkpoint.js';
import { createNodeAgentServer, type NodeAgentServer } from '../../../src/nodeagent/server/index.js';
import { FakeRuntime, pod, podSource, secured, tempDir } from './fixtures.js';

describe('POST /checkpoint/{namespace}/{pod}/{container}', () => {
  const tmp = tempDir();
  const runtime = new FakeRuntime();
  const web = pod('default', 'web', ['nginx', 'sidecar'], {
    spec: {
      containers: [
        { name: 'nginx', image: 'x' },
        { name: 'sidecar', image: 'x' },
      ],
      initContainers: [{ name: 'setup', image: 'x' }],
    },
  } as never);
  const clock = new CombinedClock({ frozenAt: Date.UTC(2026, 11, 1, 22, 30, 5, 250) });
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
    });
    port = (await server.listen()).port;
  });
  afterAll(async () => {
    await server.close();
    tmp.remove();
  });
  beforeEach(() => {
    runtime.checkpoints = [];
    runtime.checkpointError = undefined;
    runtime.containers = [
      { id: 'old', pod: web, name: 'nginx', attempt: 0, state: 'CONTAINER_EXITED', logPath: '' },
      { id: 'cur', pod: web, name: 'nginx', attempt: 1, state: 'CONTAINER_RUNNING', logPath: '' },
    ];
  });

  it('asks the runtime to checkpoint the running container into <root>/checkpoints and lists the archive', async () => {
    const answer = await secured(port, '/checkpoint/default/web/nginx?timeout=3&timeout=7', { method: 'POST' });
    const location = join(tmp.dir, 'checkpoints', 'checkpoint-web_default-nginx-2026-12-01T22:30:05Z.tar');
    expect([answer.status, answer.headers['content-type'], answer.body]).toEqual([200, 'application/json', JSON.stringify({ items: [location] })]);
    expect(runtime.checkpoints).toEqual([{ containerId: 'cur', location, timeout: 7n }]);
  });

  it('uses the runtime default timeout (0) without the parameter', async () => {
    await secured(port, '/checkpoint/default/web/nginx', { method: 'POST' });
    expect(runtime.checkpoints[0]!.timeout).toBe(0n);
  });

  it("answers 404 with kubelet's texts for a missing pod, container or a bad timeout", async () => {
    const noPod = await secured(port, '/checkpoint/default/nope/nginx', { method: 'POST' });
    expect([noPod.status, noPod.body, noPod.headers['content-type']]).toEqual([404, 'pod does not exist', 'text/plain; charset=utf-8']);
    const otherNamespace = await secured(port, '/checkpoint/kube-system/web/nginx', { method: 'POST' });
    expect(otherNamespace.body).toBe('pod does not exist');
    const noContainer = await secured(port, '/checkpoint/default/web/db', { method: 'POST' });
    expect([noContainer.status, noContainer.body]).toEqual([404, 'container db does not exist']);
    const badTimeout = await secured(port, '/checkpoint/default/web/nginx?timeout=1.5', { method: 'POST' });
    expect([badTimeout.status, badTimeout.body]).toEqual([404, 'cannot parse value of timeout parameter']);
    expect(runtime.checkpoints).toEqual([]);
  });

  it('answers 500 when the container is not running or the runtime fails, with the runtime error text', async () => {
    const init = await secured(port, '/checkpoint/default/web/setup', { method: 'POST' });
    expect([init.status, init.body]).toEqual([500, 'checkpointing of default/web/setup failed (container setup not found)']);
    runtime.checkpointError = new CriError(12, 'method CheckpointContainer not implemented');
    const failed = await secured(port, '/checkpoint/default/web/nginx', { method: 'POST' });
    expect([failed.status, failed.body]).toEqual([
      500,
      'checkpointing of default/web/nginx failed (rpc error: code = Unimplemented desc = method CheckpointContainer not implemented)',
    ]);
  });

  it('never lets path parts leave the checkpoints directory (encoded dots and slashes, NUL, long names)', async () => {
    for (const path of [
      '/checkpoint/default/%2e%2e/nginx',
      '/checkpoint/default/web/%2e%2e%2f%2e%2e%2fescape',
      '/checkpoint/%2e%2e%2F%2e%2e/web/nginx',
      '/checkpoint/default/web%00/nginx',
      `/checkpoint/default/${'a'.repeat(300)}/nginx`,
    ]) {
      const answer = await secured(port, path, { method: 'POST' });
      expect(answer.status, path).toBe(404);
    }
    const dotted = await secured(port, '/checkpoint/default/../../etc/nginx', { method: 'POST' });
    expect([dotted.status, dotted.headers.location]).toEqual([301, '/etc/nginx']);
    expect(runtime.checkpoints).toEqual([]);
  });

  it('refuses locations that would not be one file directly in the checkpoints directory', () => {
    const at = Date.UTC(2026, 0, 2, 3, 4, 5);
    expect(checkpointLocation('/var/lib/kubelet', 'web_default', 'nginx', at)).toBe(
      '/var/lib/kubelet/checkpoints/checkpoint-web_default-nginx-2026-01-02T03:04:05Z.tar',
    );
    expect(checkpointLocation('/r', '../../x_default', 'c', at)).toBeUndefined();
    expect(checkpointLocation('/r', 'web_default', 'a\0b', at)).toBeUndefined();
    expect(checkpointLocation('/r', 'web_default', 'c'.repeat(250), at)).toBeUndefined();
  });
});
