import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadNodeAgentSettings } from '../../../src/nodeagent/config/load.js';

const DOC = resolve(import.meta.dirname, '../../../docs/node-agent-configuration.md');

/** The ```yaml blocks of the reference, in order. */
function yamlBlocks(markdown: string): string[] {
  return [...markdown.matchAll(/^```yaml\n([\s\S]*?)^```$/gm)].map((m) => m[1]!);
}

describe('docs/node-agent-configuration.md examples', () => {
  const blocks = yamlBlocks(readFileSync(DOC, 'utf8'));
  const fs = (files: Record<string, string>) => ({
    cwd: '/',
    readFile: (p: string) => {
      if (!Object.hasOwn(files, p)) throw Object.assign(new Error(p), { code: 'ENOENT' });
      return files[p]!;
    },
    readDir: (p: string) =>
      Object.keys(files)
        .filter((f) => f.startsWith(`${p}/`))
        .map((f) => ({ name: f.slice(p.length + 1), isDirectory: false })),
    strict: true,
  });

  it('has the three examples', () => expect(blocks).toHaveLength(3));

  it('decodes and validates the cluster node example strictly', () => {
    const { config, warnings } = loadNodeAgentSettings(['--config=/etc/memkube/agent.yaml'], fs({ '/etc/memkube/agent.yaml': blocks[0]! }));
    expect(warnings).toEqual([]);
    expect(config).toMatchObject({
      tlsCertFile: '/etc/memkube/pki/agent.crt',
      authentication: { x509: { clientCAFile: '/etc/memkube/pki/ca.crt' }, webhook: { cacheTTL: '2m0s' } },
      authorization: { mode: 'Webhook', webhook: { cacheAuthorizedTTL: '5m0s' } },
      registerWithTaints: [{ key: 'example.com/dedicated', value: 'edge', effect: 'NoSchedule' }],
    });
  });

  it('decodes and validates the standalone example strictly', () => {
    const { config } = loadNodeAgentSettings(['--config=/k.yaml'], fs({ '/k.yaml': blocks[1]! }));
    expect(config).toMatchObject({
      kind: 'KubeletConfiguration',
      staticPodPath: '/etc/kubernetes/manifests',
      fileCheckFrequency: '10s',
      logging: { format: 'json', verbosity: 2 },
    });
  });

  it('merges the drop-in example over the cluster node example', () => {
    const { config } = loadNodeAgentSettings(
      ['--config=/etc/memkube/agent.yaml', '--config-dir=/etc/memkube/agent.d'],
      fs({ '/etc/memkube/agent.yaml': blocks[0]!, '/etc/memkube/agent.d/20-pods.conf': blocks[2]! }),
    );
    expect(config.maxPods).toBe(250);
    expect(config.clusterDNS).toEqual([]);
    expect(config.clusterDomain).toBe('cluster.local');
  });
});
