/**
 * The zod schema of CompositePodGroup (scheduling/v1alpha3). The kind is not in the reference
 * OpenAPI, so it is declared here by hand in the generated types' style. Layout as Kubernetes v1.36,
 * except `disruptionMode`, which memkube serves as the string `Single` or `All` (a departure).
 */
import { z } from 'zod';
import { lazySchema } from '../types/lazy-schema.js';
import { Condition, ObjectMeta } from '../types/meta-v1.js';

const ID = 'io.k8s.api.scheduling.v1alpha3';

/** References the Workload and the template in it that a group was created from. */
export const WorkloadReference = lazySchema(() =>
  z
    .object({
      templateName: z.string(),
      workloadName: z.string(),
    })
    .meta({ id: `${ID}.WorkloadReference` }),
);
export type WorkloadReference = z.infer<ReturnType<typeof WorkloadReference>>;

/** Marks basic scheduling: the child groups are scheduled independently. Empty by design. */
export const CompositeBasicSchedulingPolicy = lazySchema(() => z.object({}).meta({ id: `${ID}.CompositeBasicSchedulingPolicy` }));
export type CompositeBasicSchedulingPolicy = z.infer<ReturnType<typeof CompositeBasicSchedulingPolicy>>;

/** Gang scheduling: at least `minGroupCount` child groups are admitted together. */
export const CompositeGangSchedulingPolicy = lazySchema(() =>
  z
    .object({
      minGroupCount: z.int32(),
    })
    .meta({ id: `${ID}.CompositeGangSchedulingPolicy` }),
);
export type CompositeGangSchedulingPolicy = z.infer<ReturnType<typeof CompositeGangSchedulingPolicy>>;

/** Exactly one of `basic` and `gang`. */
export const CompositePodGroupSchedulingPolicy = lazySchema(() =>
  z
    .object({
      basic: CompositeBasicSchedulingPolicy().optional(),
      gang: CompositeGangSchedulingPolicy().optional(),
    })
    .meta({ id: `${ID}.CompositePodGroupSchedulingPolicy`, 'x-kubernetes-unions': [{ 'fields-to-discriminateBy': { basic: 'Basic', gang: 'Gang' } }] }),
);
export type CompositePodGroupSchedulingPolicy = z.infer<ReturnType<typeof CompositePodGroupSchedulingPolicy>>;

/** One topology constraint: the node label key naming the domain the group must fit in. */
export const TopologyConstraint = lazySchema(() =>
  z
    .object({
      key: z.string(),
    })
    .meta({ id: `${ID}.TopologyConstraint` }),
);
export type TopologyConstraint = z.infer<ReturnType<typeof TopologyConstraint>>;

/** Scheduling constraints (topology) of a CompositePodGroup. */
export const CompositePodGroupSchedulingConstraints = lazySchema(() =>
  z
    .object({
      topology: z.array(TopologyConstraint()).meta({ 'x-kubernetes-list-type': 'atomic' }).optional(),
    })
    .meta({ id: `${ID}.CompositePodGroupSchedulingConstraints` }),
);
export type CompositePodGroupSchedulingConstraints = z.infer<ReturnType<typeof CompositePodGroupSchedulingConstraints>>;

/** The desired state; every field is immutable. */
export const CompositePodGroupSpec = lazySchema(() =>
  z
    .object({
      disruptionMode: z.string().optional(),
      parentCompositePodGroupName: z.string().optional(),
      preemptionPolicy: z.string().optional(),
      priority: z.int32().optional(),
      priorityClassName: z.string().optional(),
      schedulingConstraints: CompositePodGroupSchedulingConstraints().optional(),
      schedulingPolicy: CompositePodGroupSchedulingPolicy(),
      workloadRef: WorkloadReference(),
    })
    .meta({ id: `${ID}.CompositePodGroupSpec` }),
);
export type CompositePodGroupSpec = z.infer<ReturnType<typeof CompositePodGroupSpec>>;

/** The observed state: conditions merged on `type`. */
export const CompositePodGroupStatus = lazySchema(() =>
  z
    .object({
      conditions: z
        .array(Condition())
        .meta({
          'x-kubernetes-list-map-keys': ['type'],
          'x-kubernetes-list-type': 'map',
          'x-kubernetes-patch-merge-key': 'type',
          'x-kubernetes-patch-strategy': 'merge',
        })
        .optional(),
    })
    .meta({ id: `${ID}.CompositePodGroupStatus` }),
);
export type CompositePodGroupStatus = z.infer<ReturnType<typeof CompositePodGroupStatus>>;

/** A CompositePodGroup. */
export const CompositePodGroup = lazySchema(() =>
  z
    .object({
      apiVersion: z.string().optional(),
      kind: z.string().optional(),
      metadata: ObjectMeta().optional(),
      spec: CompositePodGroupSpec(),
      status: CompositePodGroupStatus().optional(),
    })
    .meta({
      id: `${ID}.CompositePodGroup`,
      'x-kubernetes-group-version-kind': [{ group: 'scheduling.k8s.io', kind: 'CompositePodGroup()', version: 'v1alpha3' }],
    }),
);
export type CompositePodGroup = z.infer<ReturnType<typeof CompositePodGroup>>;
