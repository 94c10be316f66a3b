/**
 * YAML that nests thousands of levels deep, sent to `memkube serve` (a child process, stopped by
 * PID): the YAML parser recurses once per level and such text used to abort the whole process; it
 * is answered 400 and the server keeps serving.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServe, type ServeProcess } from '../support/serve.js';

describe('memkube serve and deeply nested YAML', () => {
  let dir: string;
  let server: ServeProcess | undefined;

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'memkube-e2e-deep-yaml-'));
    server = await startServe(join(dir, 'kubeconfig'));
  }, 30_000);

  afterAll(async () => {
    await server?.stop();
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  it.each([5_000, 20_000])('answers %i unclosed flow levels with 400 and keeps serving', async (depth) => {
    const res = await fetch(`${server!.url}/api/v1/namespaces/default/configmaps`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/yaml' },
      body: '['.repeat(depth),
    });
    expect(res.status).toBe(400);
    const status = (await res.json()) as { message: string };
    expect(status.message).toContain('error converting YAML to JSON: yaml: exceeded max depth of 500');
    expect((await fetch(`${server!.url}/version`)).status).toBe(200);
  });
});
