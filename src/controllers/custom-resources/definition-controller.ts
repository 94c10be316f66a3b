/**
 * What apiextensions-apiserver's controllers do for every CustomResourceDefinition, in one
 * controller: the naming controller (accepted names and the `NamesAccepted` condition), the
 * establishing controller (`Established` once the names are accepted), serving (the definition's
 * resources exist while its names are accepted or it is established, as the custom resource
 * handler serves them), and the finalizer (`customresourcecleanup.apiextensions.k8s.io`: a deleted
 * definition first loses every custom resource, then goes). It also keeps the counts of the OpenAPI
 * controllers (`apiextensions_openapi_v{2,3}_regeneration_count`).
 */
import type { EngineContext } from '../../api/context.js';
import type { CustomResourceDefinition } from '../../kinds/types/apiextensions-v1.js';
import { isApiError } from '../../machinery/errors.js';
import type { ApiRequest, ApiResponse } from '../../machinery/request.js';
import type { StorageEvent } from '../../storage/storage.js';
import { timeText } from '../../util/flat-string.js';
import { jsonEqual } from '../../util/json-equal.js';
import type { Controller } from '../controller-loop.js';
import { isConditionTrue, sameCondition, setCondition } from './conditions.js';
import { namesAndConditions, sameNames, takenNames, type CrdCondition } from './names.js';
import { openApiRegenerationCounter } from './openapi-regeneration.js';

type Send = (req: Omit<ApiRequest, 'user'>) => Promise<ApiResponse>;

/** The finalizer every deleted definition gets, removed once its custom resources are gone. */
export const CLEANUP_FINALIZER = 'customresourcecleanup.apiextensions.k8s.io';

/** Where the cluster serves (or stops serving) a definition's custom resources. */
export interface CustomResourceServing {
  /**
   * Serves the resources `crd` defines (again, when the definition changed); `terminating` when
   * the definition is being deleted (creates are then refused). Answers the storage bucket of its
   * objects, or undefined when it cannot be served (a built-in resource has that name).
   */
  serve(crd: CustomResourceDefinition, terminating: boolean): string | undefined;
  /** Stops serving what the definition named `name` defined. */
  unserve(name: string): void;
  /**
   * The API approval condition a definition of a protected group (`*.k8s.io`, `*.kubernetes.io`)
   * carries, from its `api-approved.kubernetes.io` annotation; undefined for other groups.
   */
  approvalCondition?(crd: CustomResourceDefinition): CrdCondition | undefined;
}

/** Creates the controller; `send` runs requests as the system. */
export function customResourceDefinitionController(ctx: EngineContext, send: Send, serving: CustomResourceServing): Controller {
  const group = `apiextensions.${ctx.apiDomain}`;
  const bucket = `${group}/customresourcedefinitions`;
  const resource = { group, version: 'v1', resource: 'customresourcedefinitions' };
  /** The group of every definition seen, for requeueing a group's definitions when names change. */
  const groups = new Map<string, string>();
  /** Custom resource buckets of terminating definitions: a deleted instance moves their cleanup on. */
  const cleaning = new Map<string, string>();
  /** The OpenAPI regeneration counts, following every change of a definition. */
  const regenerations = openApiRegenerationCounter(ctx.metrics);

  const now = () => timeText(ctx.clock.now());

  async function read(name: string): Promise<CustomResourceDefinition | undefined> {
    return (await ctx.storage.get({ bucket, namespace: '', name }))?.value as CustomResourceDefinition | undefined;
  }

  /** Writes `status` through `/status`; false when the definition changed or went meanwhile. */
  async function writeStatus(crd: CustomResourceDefinition, status: CustomResourceDefinition['status']): Promise<boolean> {
    try {
      await send({ verb: 'update', resource, subresource: 'status', name: crd.metadata!.name!, body: { ...crd, status } });
      return true;
    } catch (e) {
      if (isApiError(e, 'NotFound') || isApiError(e, 'Conflict')) return false;
      throw e;
    }
  }

  async function others(of: string, inGroup: string): Promise<CustomResourceDefinition[]> {
    const { items } = await ctx.storage.list(bucket, {});
    return items.map((i) => i.value as CustomResourceDefinition).filter((c) => c.spec?.group === inGroup && c.metadata?.name !== of);
  }

  /** The naming step: true when it wrote (the write's event brings the definition back). */
  async function acceptNames(crd: CustomResourceDefinition): Promise<boolean> {
    if (sameNames(crd.spec.names, crd.status?.acceptedNames)) return false;
    const name = crd.metadata!.name!;
    const { accepted, namesAccepted, established } = namesAndConditions(crd, takenNames(await others(name, crd.spec.group), crd.spec.group, name));
    const current = crd.status?.conditions?.find((c) => c.type === 'NamesAccepted');
    // reflect.DeepEqual: absent and empty lists differ, so the names are compared as JSON.
    if (jsonEqual(accepted, crd.status?.acceptedNames ?? null) && sameCondition(namesAccepted, current)) return false;
    let conditions = setCondition(crd.status?.conditions, namesAccepted, now());
    conditions = setCondition(conditions, established, now());
    return writeStatus(crd, { ...crd.status, acceptedNames: accepted, conditions });
  }

  /** The establishing step: true when it wrote. */
  async function establish(crd: CustomResourceDefinition): Promise<boolean> {
    const conditions = crd.status?.conditions;
    if (!isConditionTrue(conditions, 'NamesAccepted') || isConditionTrue(conditions, 'Established')) return false;
    const established: CrdCondition = { type: 'Established', status: 'True', reason: 'InitialNamesAccepted', message: 'the initial names have been accepted' };
    return writeStatus(crd, { ...crd.status, conditions: setCondition(conditions, established, now()) });
  }

  /** The API approval step (a separate controller upstream): true when it wrote. */
  async function approve(crd: CustomResourceDefinition): Promise<boolean> {
    const condition = serving.approvalCondition?.(crd);
    if (
      !condition ||
      sameCondition(
        condition,
        crd.status?.conditions?.find((c) => c.type === condition.type),
      )
    )
      return false;
    return writeStatus(crd, { ...crd.status, conditions: setCondition(crd.status?.conditions, condition, now()) });
  }

  /**
   * The finalizer: Terminating turns "in progress", the custom resources are deleted, Terminating
   * turns False with the outcome, then the finalizer goes (each step's write brings the definition
   * back for the next one).
   */
  async function finalize(crd: CustomResourceDefinition, served: string | undefined): Promise<void> {
    const name = crd.metadata!.name!;
    const conditions = crd.status?.conditions;
    const terminating = conditions?.find((c) => c.type === 'Terminating');
    if (terminating?.status === 'False') {
      cleaning.forEach((owner, b) => owner === name && cleaning.delete(b));
      await dropFinalizer(crd);
      return;
    }
    const progress: CrdCondition = {
      type: 'Terminating',
      status: 'True',
      reason: 'InstanceDeletionInProgress',
      message: 'CustomResource deletion is in progress',
    };
    if (!sameCondition(terminating, progress)) {
      await writeStatus(crd, { ...crd.status, conditions: setCondition(conditions, progress, now()) });
      return;
    }
    let done: CrdCondition;
    if (isConditionTrue(conditions, 'Established') && served) {
      cleaning.set(served, name);
      if (!(await deleteInstances(crd, served))) return; // instances with finalizers: their deletion requeues
      done = { type: 'Terminating', status: 'False', reason: 'InstanceDeletionCompleted', message: 'removed all instances' };
    } else {
      done = { type: 'Terminating', status: 'False', reason: 'NeverEstablished', message: 'resource was never established' };
    }
    await writeStatus(crd, { ...crd.status, conditions: setCondition(conditions, done, now()) });
  }

  /** Removes the cleanup finalizer; the definition goes when no other finalizer holds it. */
  async function dropFinalizer(crd: CustomResourceDefinition): Promise<void> {
    const finalizers = (crd.metadata?.finalizers ?? []).filter((f) => f !== CLEANUP_FINALIZER);
    try {
      await send({
        verb: 'patch',
        resource,
        name: crd.metadata!.name!,
        patchType: 'merge',
        body: { metadata: { resourceVersion: crd.metadata?.resourceVersion, finalizers: finalizers.length ? finalizers : null } },
      });
    } catch (e) {
      if (!isApiError(e, 'NotFound') && !isApiError(e, 'Conflict')) throw e;
    }
  }

  /** Deletes every instance (a collection delete per namespace); true once none is left. */
  async function deleteInstances(crd: CustomResourceDefinition, served: string): Promise<boolean> {
    const version = crd.spec.versions.find((v) => v.storage)?.name ?? crd.spec.versions[0]!.name;
    const gvr = { group: crd.spec.group, version, resource: crd.status?.acceptedNames?.plural || crd.spec.names.plural };
    const { items } = await ctx.storage.list(served, {});
    const namespaces = new Set(items.map((i) => i.namespace));
    for (const namespace of namespaces) {
      try {
        await send({ verb: 'deletecollection', resource: gvr, ...(namespace ? { namespace } : {}) });
      } catch (e) {
        if (!isApiError(e, 'NotFound')) throw e;
      }
    }
    return (await ctx.storage.list(served, {})).items.length === 0;
  }

  async function reconcile(name: string): Promise<void> {
    const crd = await read(name);
    if (!crd) {
      serving.unserve(name);
      // Its names are free now: the group's other definitions may take them.
      const inGroup = groups.get(name);
      groups.delete(name);
      if (inGroup !== undefined) for (const other of await others(name, inGroup)) await reconcile(other.metadata!.name!);
      return;
    }
    groups.set(name, crd.spec.group);
    const deleting = crd.metadata?.deletionTimestamp !== undefined;
    if (!deleting) {
      if (await acceptNames(crd)) return;
      if (await establish(crd)) return;
      if (await approve(crd)) return;
    }
    const conditions = crd.status?.conditions;
    const served = isConditionTrue(conditions, 'NamesAccepted') || isConditionTrue(conditions, 'Established') ? serving.serve(crd, deleting) : undefined;
    if (served === undefined) serving.unserve(name);
    if (deleting && (crd.metadata?.finalizers ?? []).includes(CLEANUP_FINALIZER)) await finalize(crd, served);
  }

  return {
    name: 'customresourcedefinitions',
    // Custom resources matter to it only when they go (while their definition is cleaned up).
    addsFrom: (b) => b === bucket,
    observe(event: StorageEvent): readonly string[] {
      if (event.bucket === bucket) {
        regenerations.observe(event);
        const crd = event.object as unknown as CustomResourceDefinition;
        const inGroup = crd.spec?.group;
        const keys = [event.name];
        // A definition whose names changed may free or take names another definition of its group waits for.
        if (inGroup !== undefined) for (const [other, g] of groups) if (g === inGroup && other !== event.name) keys.push(other);
        return keys;
      }
      const owner = event.type === 'DELETED' ? cleaning.get(event.bucket) : undefined;
      return owner !== undefined ? [owner] : [];
    },
    reconcile,
  };
}
