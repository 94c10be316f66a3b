/**
 * A kind of one's own through real kubectl, as docs/guides/define-your-own-kind.md shows it: a
 * Widget declared with `defineKind` and served by `cluster.listen()`, then the same Widget
 * installed as a CustomResourceDefinition. Discovery (short names, categories), the printer
 * columns, `-o wide`, `/scale`, `/status`, `kubectl explain`, and a refused create as kubectl prints it.
 */
import { existsSync } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { z } from 'zod';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCluster, defineKind, fieldError, ObjectMetaSchema, type Cluster } from 'memkube';
import { kubectlRunner } from '../support/kubectl.js';

const KUBECTL = '/usr/bin/kubectl';

const WidgetSchema = z.object({
  apiVersion: z.string().optional(),
  kind: z.string().optional(),
  metadata: ObjectMetaSchema.optional(),
  spec: z
    .object({ size: z.int32().optional().describe('How many units wide the widget is.'), color: z.string().optional() })
    .describe('What the widget should be.'),
  status: z.object({ ready: z.boolean().optional(), replicas: z.int32().optional() }).optional(),
});

const WidgetKind = defineKind<z.infer<typeof WidgetSchema>>({
  group: 'toys.example.com',
  kind: 'Widget',
  plural: 'widgets',
  shortNames: ['wd'],
  categories: ['toys'],
  scope: 'Namespaced',
  versions: [{ name: 'v1', schema: WidgetSchema, served: true, storage: true }],
  statusSubresource: true,
  scale: { specReplicasPath: '.spec.size', statusReplicasPath: '.status.replicas' },
  strategy: {
    defaults: (w) => {
      w.spec.size ??= 1;
    },
    validate: (w) => {
      const size = w.spec.size ?? 1;
      return size < 1 || size > 10 ? [fieldError.invalid('spec.size', size, 'must be between 1 and 10, inclusive')] : [];
    },
  },
  printerColumns: [
    { name: 'Size', type: 'integer', value: (w) => w.spec.size },
    { name: 'Color', type: 'string', value: (w) => w.spec.color },
    { name: 'Ready', type: 'boolean', value: (w) => w.status?.ready },
    { name: 'Shape', type: 'string', priority: 1, value: () => 'round' },
  ],
});

const WIDGET_CRD = `apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata:
  name: widgets.toys.example.com
spec:
  group: toys.example.com
  scope: Namespaced
  names: { plural: widgets, singular: widget, kind: Widget, shortNames: [wd], categories: [toys] }
  versions:
    - name: v1
      served: true
      storage: true
      subresources: { status: {} }
      additionalPrinterColumns:
        - { name: Size, type: integer, jsonPath: .spec.size }
        - { name: Color, type: string, jsonPath: .spec.color }
        - { name: Ready, type: boolean, jsonPath: .status.ready }
        - { name: Age, type: date, jsonPath: .metadata.creationTimestamp }
      schema:
        openAPIV3Schema:
          type: object
          properties:
            spec:
              type: object
              properties:
                size: { type: integer, minimum: 1, maximum: 10, default: 1 }
                color: { type: string, default: red }
            status:
              type: object
              properties:
                ready: { type: boolean }
`;

const widgetYaml = (name: string, spec: string) => `apiVersion: toys.example.com/v1\nkind: Widget\nmetadata:\n  name: ${name}\nspec: ${spec}\n`;

/** A cluster on a frozen clock served on 127.0.0.1, with its kubeconfig in a fresh directory. */
async function serveCluster(cluster: Cluster): Promise<{ dir: string; close(): Promise<void> }> {
  const server = await cluster.listen({ port: 0, host: '127.0.0.1' });
  const dir = await mkdtemp(join(tmpdir(), 'memkube-kind-'));
  await writeFile(join(dir, 'kubeconfig'), server.kubeconfig());
  return {
    dir,
    async close() {
      await server.close();
      await cluster.close();
      await rm(dir, { recursive: true, force: true });
    },
  };
}

describe.skipIf(!existsSync(KUBECTL))('kubectl and a kind declared with defineKind', () => {
  let served: { dir: string; close(): Promise<void> };
  const { kubectl, ok } = kubectlRunner(
    KUBECTL,
    () => join(served.dir, 'kubeconfig'),
    () => served.dir,
  );

  beforeAll(async () => {
    const cluster = await createCluster({ kinds: [WidgetKind], clock: new Date('2026-01-01T00:00:00Z') });
    const widgets = cluster.client.resource(WidgetKind);
    const a = await widgets.create({ metadata: { name: 'a' }, spec: { color: 'red' } });
    await widgets.updateStatus({ ...a, status: { ready: true } });
    await widgets.create({ metadata: { name: 'b' }, spec: { size: 3, color: 'blue' } });
    cluster.clock.advance(5_000);
    served = await serveCluster(cluster);
  }, 30_000);
  afterAll(async () => served?.close());

  it('lists the kind by plural, short name and category, with its columns', async () => {
    const table = 'NAME   SIZE   COLOR   READY   AGE\na      1      red     true    5s\nb      3      blue            5s\n';
    expect(await ok('get', 'widgets')).toBe(table);
    expect(await ok('get', 'wd')).toBe(table);
    expect(await ok('get', 'toys')).toBe(table);
    expect(await ok('get', 'wd', '-o', 'wide')).toBe(
      'NAME   SIZE   COLOR   READY   SHAPE   AGE\na      1      red     true    round   5s\nb      3      blue            round   5s\n',
    );
    expect(await ok('api-resources', '--api-group=toys.example.com')).toBe(
      'NAME      SHORTNAMES   APIVERSION            NAMESPACED   KIND\nwidgets   wd           toys.example.com/v1   true         Widget\n',
    );
  });

  it('scales through /scale and writes status through /status', async () => {
    expect(await ok('scale', 'widget', 'b', '--replicas=5')).toBe('widget.toys.example.com/b scaled\n');
    expect(await ok('patch', 'wd', 'b', '--subresource=status', '--type=merge', '-p', '{"status":{"ready":false}}')).toBe(
      'widget.toys.example.com/b patched\n',
    );
    expect(await ok('get', 'wd', 'b', '-o', 'jsonpath={.spec.size} {.status.ready}')).toBe('5 false');
  });

  it('prints the kind’s refusal and the schema’s descriptions', async () => {
    await writeFile(join(served.dir, 'huge.yaml'), widgetYaml('huge', '{ size: 20 }'));
    const refused = await kubectl('apply', '-f', 'huge.yaml');
    expect(refused.code).toBe(1);
    expect(refused.stderr).toBe('The Widget "huge" is invalid: spec.size: Invalid value: 20: must be between 1 and 10, inclusive\n');
    const explained = await ok('explain', 'widgets.spec');
    expect(explained).toContain('DESCRIPTION:\n    What the widget should be.\n');
    expect(explained).toContain('  size\t<integer>\n    How many units wide the widget is.\n');
  });
});

describe.skipIf(!existsSync(KUBECTL))('kubectl and the same Widget as a CustomResourceDefinition', () => {
  let served: { dir: string; close(): Promise<void> };
  const { kubectl, ok } = kubectlRunner(
    KUBECTL,
    () => join(served.dir, 'kubeconfig'),
    () => served.dir,
  );

  beforeAll(async () => {
    const cluster = await createCluster({ clock: new Date('2026-01-01T00:00:00Z') });
    await cluster.load(WIDGET_CRD);
    await cluster.settle();
    served = await serveCluster(cluster);
  }, 30_000);
  afterAll(async () => served?.close());

  it('creates with the schema’s defaults, writes status and refuses a value over the maximum', async () => {
    await writeFile(join(served.dir, 'small.yaml'), widgetYaml('small', '{}'));
    expect(await ok('apply', '-f', 'small.yaml')).toBe('widget.toys.example.com/small created\n');
    expect(await ok('patch', 'widget', 'small', '--subresource=status', '--type=merge', '-p', '{"status":{"ready":true}}')).toBe(
      'widget.toys.example.com/small patched\n',
    );
    expect(await ok('get', 'wd')).toBe('NAME    SIZE   COLOR   READY   AGE\nsmall   1      red     true    0s\n');
    expect(await ok('get', 'toys', '-o', 'name')).toBe('widget.toys.example.com/small\n');

    await writeFile(join(served.dir, 'huge.yaml'), widgetYaml('huge', '{ size: 20 }'));
    const refused = await kubectl('apply', '-f', 'huge.yaml');
    expect(refused.code).toBe(1);
    expect(refused.stderr).toBe('The Widget "huge" is invalid: spec.size: Invalid value: 20: spec.size in body should be less than or equal to 10\n');
  });
});
