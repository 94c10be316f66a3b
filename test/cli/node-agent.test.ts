import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { nodeAgent } from '../../src/cli/node-agent.js';
import { NodeAgentConfigError } from '../../src/nodeagent/config/load.js';

const dir = mkdtempSync(join(tmpdir(), 'memkube-node-agent-cli-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('memkube node-agent', () => {
  it('prints kubelet-style usage with --help and the version with --version, starting nothing', async () => {
    const lines: string[] = [];
    await nodeAgent(['--help'], (l) => lines.push(l));
    expect(lines.join('\n')).toContain('--container-runtime-endpoint');
    expect(lines.join('\n')).toContain('--bootstrap-kubeconfig');
    lines.length = 0;
    await nodeAgent(['--version'], (l) => lines.push(l));
    expect(lines).toEqual(['Kubernetes v1.36.0']);
  });

  it("refuses bad flags and configuration with kubelet's messages, before it starts anything", async () => {
    await expect(nodeAgent(['--port=0'])).rejects.toThrow(
      'failed to validate kubelet configuration, error: invalid configuration: port (--port) 0 must be between 1 and 65535, inclusive',
    );
    await expect(nodeAgent(['--no-such-flag'])).rejects.toThrow(new NodeAgentConfigError('failed to parse kubelet flag: unknown flag: --no-such-flag'));
  });

  it('refuses to run without an API server (standalone mode)', async () => {
    await expect(nodeAgent([`--root-dir=${join(dir, 'root')}`, '--port=10250'], () => undefined, { stderr: { write: () => true } })).rejects.toThrow(
      'standalone mode (no --kubeconfig) is not supported by memkube node-agent: give it the kubeconfig of an API server',
    );
  });
});
