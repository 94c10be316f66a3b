import { describe, expect, it } from 'vitest';
import { PodTemplateKind, type PodTemplate } from '../../../src/kinds/index.js';
import { statusOf, useTestCluster } from '../../support/cluster.js';
import { causeLines, tableOf } from './table.js';

const cluster = useTestCluster();
const templates = () => cluster.client.resource(PodTemplateKind);

function pt(patch: (p: PodTemplate) => void = () => {}): PodTemplate {
  const p: PodTemplate = {
    metadata: { name: 'tpl' },
    template: { metadata: { labels: { app: 'web' } }, spec: { containers: [{ name: 'nginx', image: 'nginx:1.27' }] } },
  };
  patch(p);
  return p;
}

describe('PodTemplate', () => {
  it('fills the PodSpec defaults of the template and starts at generation 1', async () => {
    const created = await templates().create(pt());
    expect(created.metadata?.generation).toBe(1);
    expect(created.template?.spec?.restartPolicy).toBe('Always');
    expect(created.template?.spec?.schedulerName).toBe('default-scheduler');
    expect(created.template?.spec?.containers[0]?.terminationMessagePath).toBe('/dev/termination-log');
  });

  it('validates the template as a pod template at template', async () => {
    const status = await statusOf(() =>
      templates().create(
        pt((p) => {
          p.template!.spec!.containers = [];
          p.template!.spec!.restartPolicy = 'Sometimes';
          p.template!.spec!.ephemeralContainers = [{ name: 'dbg', image: 'busybox' }];
        }),
      ),
    );
    expect(status.code).toBe(422);
    expect(causeLines(status)).toEqual(
      expect.arrayContaining([
        'template.spec.containers: Required value',
        'template.spec.restartPolicy: Unsupported value: "Sometimes": supported values: "Always", "OnFailure", "Never"',
        'template.spec.ephemeralContainers: Forbidden: ephemeral containers not allowed in pod template',
      ]),
    );
  });

  it('requires a template', async () => {
    const status = await statusOf(() => templates().create({ metadata: { name: 'empty' } }));
    expect(causeLines(status)).toContain('template.spec.containers: Required value');
  });

  it('validates updates and bumps the generation when the template changes', async () => {
    const created = await templates().create(pt());
    const relabelled = await templates().update({ ...created, metadata: { ...created.metadata, labels: { a: 'b' } } });
    expect(relabelled.metadata?.generation).toBe(1);
    const changed = await templates().update({ ...relabelled, template: { ...relabelled.template, metadata: { labels: { app: 'api' } } } });
    expect(changed.metadata?.generation).toBe(2);
    const status = await statusOf(() =>
      templates().update({ ...changed, template: { ...changed.template, spec: { ...changed.template!.spec!, containers: [] } } }),
    );
    expect(causeLines(status)).toEqual(['template.spec.containers: Required value']);
  });

  it('prints Containers, Images and Pod Labels, without Age', async () => {
    await templates().create(pt((p) => (p.template!.metadata!.labels = { tier: 'fe', app: 'web' })));
    const t = await tableOf(cluster, '/api/v1/namespaces/default/podtemplates');
    expect(t.columnDefinitions.map((c) => c.name)).toEqual(['Name', 'Containers', 'Images', 'Pod Labels']);
    expect(t.rows[0]!.cells).toEqual(['tpl', 'nginx', 'nginx:1.27', 'app=web,tier=fe']);
  });
});
