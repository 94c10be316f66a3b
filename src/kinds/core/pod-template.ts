/** PodTemplate (core v1). */
import { badRequest } from '../../machinery/errors.js';
import { defineKind, type KubeObject } from '../../schema/define-kind.js';
import { PodTemplate as PodTemplateSchema } from '../types/core-v1.js';
import { withZeroValues } from '../shared/zero-values.js';
import { fieldNode, semanticEqual } from '../shared/semantic-equal.js';
import type { StructuralNode } from '../../schema/structural.js';
import { applyPodTemplateDefaults } from '../shared/pod-spec/defaults.js';
import { QuantityDecodeError } from '../shared/resource-lists.js';
import { containerCells, formatLabels, podTemplateWarnings, validatePodTemplateSpec } from './pod-template/template.js';
import { lazyVersion } from '../shared/lazy-version.js';

/** A PodTemplate object. */
export type PodTemplate = PodTemplateSchema;

/** Decode-time defaults (the template's PodSpec defaults); a malformed quantity is a 400. */
function defaultPodTemplate(pt: PodTemplate): void {
  try {
    applyPodTemplateDefaults((pt.template ??= {}));
  } catch (e) {
    if (e instanceof QuantityDecodeError) throw badRequest(`PodTemplate in version "v1" cannot be handled as a PodTemplate: ${e.message}`);
    throw e;
  }
}

let templateNode: StructuralNode | undefined;

/** `ValidatePodTemplate`: the template, at `template`. */
function rules(pt: PodTemplate, reservedDomain: string) {
  return validatePodTemplateSpec(withZeroValues(pt, PodTemplateSchema()).template ?? {}, 'template', reservedDomain);
}

/**
 * PodTemplate: the template's PodSpec defaults and `ValidatePodTemplate` (the whole pod template,
 * on create and update); generation 1, bumped when the template changes
 * (pkg/registry/core/podtemplate/strategy.go).
 */
export const PodTemplateKind = defineKind<PodTemplate>({
  group: '',
  kind: 'PodTemplate',
  plural: 'podtemplates',
  scope: 'Namespaced',
  generation: {
    changed: (obj: Readonly<KubeObject>, old: Readonly<KubeObject>) =>
      !semanticEqual(obj['template'], old['template'], (templateNode ??= fieldNode(PodTemplateSchema(), 'template'))),
  },
  versions: [lazyVersion('v1', PodTemplateSchema, { storage: true })],
  schemaRequired: false,
  printerColumns: [
    {
      name: 'Containers',
      type: 'string',
      description: 'Names of each container in the template.',
      value: (pt) => containerCells(pt.template?.spec?.containers).names,
    },
    {
      name: 'Images',
      type: 'string',
      description: 'Images referenced by each container in the template.',
      value: (pt) => containerCells(pt.template?.spec?.containers).images,
    },
    { name: 'Pod Labels', type: 'string', description: 'The labels for the pod template.', value: (pt) => formatLabels(pt.template?.metadata?.labels) },
  ],
  ageColumn: false,
  strategy: {
    defaults: (pt) => defaultPodTemplate(pt),
    validate: (pt, ctx) => rules(pt, ctx.reservedDomain),
    warnings(pt, old, ctx) {
      if (old && pt.metadata?.generation === old.metadata?.generation) return [];
      return podTemplateWarnings(pt.template, 'template', ctx.reservedDomain);
    },
  },
});
