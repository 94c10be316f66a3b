/**
 * A Pod's `binding` subresource: POST a `Binding` naming a node, and the pod is assigned to it, as
 * pkg/registry/core/pod/storage/storage.go's BindingREST does (what a scheduler sends). The pod is
 * written directly, without the Pod update rules that keep `spec.nodeName` fixed.
 */
import { formatTime } from '../../../clock.js';
import { ApiError, badRequest, conflict, OBJECT_MODIFIED } from '../../../machinery/errors.js';
import { aggregateMessage, fieldError, type FieldError } from '../../../machinery/field-errors.js';
import type { ActionContext, ActionSubresource, KubeObject } from '../../../schema/define-kind.js';
import { Binding as BindingSchema, type Binding, type Pod } from '../../types/core-v1.js';
import { SUCCESS } from './action-status.js';

/** `ValidatePodBinding` (pkg/apis/core/validation): a Node target, named. */
function bindingErrors(binding: Binding): FieldError[] {
  const errors: FieldError[] = [];
  const kind = binding.target?.kind ?? '';
  if (kind !== '' && kind !== 'Node') errors.push(fieldError.notSupported('target.kind', kind, ['Node', '<empty>']));
  if (!binding.target?.name) errors.push(fieldError.required('target.name'));
  return errors;
}

/** Why the pod cannot be bound, or undefined (`setPodNodeAndMetadata`'s checks, in its order). */
function refusal(pod: Pod): string | undefined {
  const name = pod.metadata?.name ?? '';
  if (pod.metadata?.deletionTimestamp) return `pod ${name} is being deleted, cannot be assigned to a host`;
  if (pod.spec?.nodeName) return `pod ${name} is already assigned to node ${JSON.stringify(pod.spec.nodeName)}`;
  if (pod.spec?.schedulingGates?.length) return `pod ${name} has non-empty .spec.schedulingGates`;
  return undefined;
}

/** The pod bound to `node`: its node name, the binding's annotations, and `PodScheduled` true. */
function bound(pod: Pod, node: string, annotations: Record<string, string> | undefined, now: string): Pod {
  pod.spec = { ...pod.spec!, nodeName: node };
  if (annotations && Object.keys(annotations).length) pod.metadata = { ...pod.metadata, annotations: { ...pod.metadata?.annotations, ...annotations } };
  const conditions = [...(pod.status?.conditions ?? [])];
  const i = conditions.findIndex((c) => c.type === 'PodScheduled');
  if (i < 0) conditions.push({ type: 'PodScheduled', status: 'True', lastProbeTime: null as unknown as string, lastTransitionTime: now });
  else if (conditions[i]!.status !== 'True') conditions[i] = { ...conditions[i]!, status: 'True', lastTransitionTime: now };
  pod.status = { ...pod.status, conditions };
  return pod;
}

/** How often a binding re-reads a pod that changed while it was written. */
const ATTEMPTS = 5;

async function bind(body: KubeObject, target: { readonly name: string }, ctx: ActionContext) {
  const binding = body as Binding;
  if (binding.metadata?.name !== target.name) throw badRequest('name in URL does not match name in Binding object');
  const errors = bindingErrors(binding);
  // BindingREST returns these as a plain error, which the server answers as a 500 without reason.
  if (errors.length) throw new ApiError({ code: 500, message: aggregateMessage(errors) });
  const gr = { group: '', resource: 'pods/binding' };
  for (let attempt = 1; ; attempt++) {
    const { object, revision } = await ctx.readTarget();
    const pod = object as Pod;
    if (binding.metadata?.uid && binding.metadata.uid !== pod.metadata?.uid) {
      throw conflict(gr, target.name, `Precondition failed: UID in precondition: ${binding.metadata.uid}, UID in object meta: ${pod.metadata?.uid ?? ''}`);
    }
    const why = refusal(pod);
    if (why) throw conflict(gr, target.name, why);
    const now = formatTime(ctx.now());
    if (await ctx.writeTarget(bound(pod, binding.target.name!, binding.metadata?.annotations, now), revision))
      return { code: 201, body: SUCCESS, warnings: [] };
    if (attempt >= ATTEMPTS) throw conflict(gr, target.name, OBJECT_MODIFIED);
  }
}

/** The `pods/binding` action. */
export const podBinding: ActionSubresource = {
  kind: { group: '', version: 'v1', kind: 'Binding' },
  get schema() {
    return BindingSchema();
  },
  run: bind,
};
