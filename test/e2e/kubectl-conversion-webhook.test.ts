/**
 * kubectl v1.33 against `memkube serve` (a child process, stopped by PID) and a real HTTPS
 * conversion webhook in this process: a CustomResourceDefinition whose v2 converts through the
 * webhook, read and written at both versions, then the webhook gone.
 */
import { existsSync } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startConversionWebhook, type ConversionWebhook } from '../support/conversion-webhook.js';
import { kubectlRunner } from '../support/kubectl.js';
import { startServe, type ServeProcess } from '../support/serve.js';

const KUBECTL = '/usr/lib/google-cloud-sdk/bin/kubectl.1.33';

const crdYaml = (url: string, caBundle: string) => `apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata:
  name: widgets.example.com
spec:
  group: example.com
  scope: Namespaced
  names: {plural: widgets, singular: widget, kind: Widget}
  versions:
  - name: v1
    served: true
    storage: true
    schema:
      openAPIV3Schema:
        type: object
        properties:
          spec: {type: object, properties: {size: {type: integer}}}
  - name: v2
    served: true
    storage: false
    schema:
      openAPIV3Schema:
        type: object
        properties:
          spec: {type: object, properties: {count: {type: integer}}}
  conversion:
    strategy: Webhook
    webhook:
      conversionReviewVersions: [v1]
      clientConfig:
        url: ${url}
        caBundle: ${caBundle}
`;

describe.skipIf(!existsSync(KUBECTL))('kubectl and a conversion webhook', () => {
  let dir: string;
  let server: ServeProcess | undefined;
  let hook: ConversionWebhook | undefined;

  const { kubectl, ok } = kubectlRunner(
    KUBECTL,
    () => join(dir, 'kubeconfig'),
    () => dir,
  );

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'memkube-conversion-'));
    hook = await startConversionWebhook();
    server = await startServe(join(dir, 'kubeconfig'));
    await writeFile(join(dir, 'crd.yaml'), crdYaml(hook.url, hook.caBundle));
    await writeFile(join(dir, 'v1.yaml'), 'apiVersion: example.com/v1\nkind: Widget\nmetadata: {name: a}\nspec: {size: 3}\n');
    await writeFile(join(dir, 'v2.yaml'), 'apiVersion: example.com/v2\nkind: Widget\nmetadata: {name: b}\nspec: {count: 4}\n');
  }, 30_000);
  afterAll(async () => {
    await server?.stop();
    await hook?.close();
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  it('serves both versions through the webhook, and reports its failure as kube-apiserver does', async () => {
    expect(await ok('apply', '-f', 'crd.yaml')).toBe('customresourcedefinition.apiextensions.k8s.io/widgets.example.com created\n');
    await ok('wait', '--for=condition=Established', 'crd/widgets.example.com', '--timeout=20s');
    // The definition is served once discovery shows it; kubectl may need a moment to see it.
    for (let i = 0; i < 50 && (await kubectl('get', 'widgets.v2.example.com')).code !== 0; i++) await new Promise((r) => setTimeout(r, 100));
    expect(await ok('create', '-f', 'v1.yaml')).toBe('widget.example.com/a created\n');
    expect(await ok('create', '-f', 'v2.yaml')).toBe('widget.example.com/b created\n');
    expect(await ok('get', 'widgets.v2.example.com', '-o', 'jsonpath={range .items[*]}{.metadata.name}={.spec.count} {end}')).toBe('a=3 b=4 ');
    expect(await ok('get', 'widgets.v1.example.com', '-o', 'jsonpath={range .items[*]}{.metadata.name}={.spec.size} {end}')).toBe('a=3 b=4 ');
    expect(await ok('patch', 'widgets.v2.example.com', 'a', '--type=merge', '-p', '{"spec":{"count":5}}')).toBe('widget.example.com/a patched\n');
    expect(await ok('get', 'widgets.v1.example.com', 'a', '-o', 'jsonpath={.spec.size}')).toBe('5');
    expect(hook!.received.length).toBeGreaterThan(0);

    await hook!.close();
    const failed = await kubectl('get', 'widgets.v2.example.com', 'a', '-o', 'json');
    expect(failed.code).not.toBe(0);
    expect(failed.stderr).toContain(
      `Error from server: conversion webhook for example.com/v1, Kind=Widget failed: Post "${hook!.url}?timeout=30s": dial tcp 127.0.0.1:${hook!.port}: connect: connection refused`,
    );
    // The storage version needs no webhook.
    expect(await ok('get', 'widgets.v1.example.com', 'a', '-o', 'jsonpath={.spec.size}')).toBe('5');
  }, 60_000);
});
