/** PriorityLevelConfiguration (flowcontrol.apiserver v1, cluster-scoped, with `/status`). */
import { defineKind } from '../../schema/define-kind.js';
import { specGeneration } from '../shared/semantic-equal.js';
import { PriorityLevelConfiguration as V1 } from '../types/flowcontrol-v1.js';
import { defaultPriorityLevel, validateConditions, validatePriorityLevel } from './validation.js';
import { lazyVersion } from '../shared/lazy-version.js';

/** A PriorityLevelConfiguration object. */
export type PriorityLevelConfiguration = V1;

const limited = (pl: Readonly<PriorityLevelConfiguration>) => pl.spec?.limited;
const queuing = (pl: Readonly<PriorityLevelConfiguration>) => pl.spec?.limited?.limitResponse?.queuing;
/** A cell that is `<none>` without the value's struct, as Kubernetes prints it. */
const orNone = (v: number | undefined, present: boolean): number | string => (present ? (v ?? 0) : '<none>');

/**
 * PriorityLevelConfiguration: `Exempt` (only the level named `exempt`) or `Limited` with shares
 * (default 30, zero allowed), lendable and borrowing percents, and a `Queue` (64 queues, hand size
 * 8, queue length 50 by default, checked as Kubernetes checks shuffle sharding) or `Reject` limit
 * response; the mandatory `catch-all` keeps its fixed spec, `exempt` its type. Status changes only
 * through `/status`. Requests are not limited: memkube stores the configuration only.
 */
export const PriorityLevelConfigurationKind = defineKind<PriorityLevelConfiguration>({
  group: 'flowcontrol.apiserver.{api_domain}',
  kind: 'PriorityLevelConfiguration',
  plural: 'prioritylevelconfigurations',
  scope: 'Cluster',
  // 1 on create, one more when the spec changes (pkg/registry/flowcontrol/prioritylevelconfiguration/strategy.go).
  generation: specGeneration(V1),
  versions: [lazyVersion('v1', V1, { storage: true })],
  statusSubresource: true,
  schemaRequired: false,
  printerColumns: [
    {
      name: 'Type',
      type: 'string',
      description:
        '`type` indicates whether this priority level is subject to limitation on request execution.  A value of `"Exempt"` means that requests of this priority level are not subject to a limit (and thus are never queued) and do not detract from the capacity made available to other priority levels.  A value of `"Limited"` means that (a) requests of this priority level _are_ subject to limits and (b) some of the server\'s limited capacity is made available exclusively to this priority level. Required.',
      value: (pl) => pl.spec?.type ?? '',
    },
    {
      name: 'NominalConcurrencyShares',
      type: 'string',
      description:
        '`nominalConcurrencyShares` (NCS) contributes to the computation of the NominalConcurrencyLimit (NominalCL) of this level. This is the number of execution seats available at this priority level. This is used both for requests dispatched from this priority level as well as requests dispatched from other priority levels borrowing seats from this level. The server\'s concurrency limit (ServerCL) is divided among the Limited priority levels in proportion to their NCS values:\n\nNominalCL(i)  = ceil( ServerCL * NCS(i) / sum_ncs ) sum_ncs = sum[priority level k] NCS(k)\n\nBigger numbers mean a larger nominal concurrency limit, at the expense of every other priority level.\n\nIf not specified, this field defaults to a value of 30.\n\nSetting this field to zero supports the construction of a "jail" for this priority level that is used to hold some request(s)',
      value: (pl) => orNone(limited(pl)?.nominalConcurrencyShares, limited(pl) !== undefined),
    },
    {
      name: 'Queues',
      type: 'string',
      description:
        '`queues` is the number of queues for this priority level. The queues exist independently at each apiserver. The value must be positive.  Setting it to 1 effectively precludes shufflesharding and thus makes the distinguisher method of associated flow schemas irrelevant.  This field has a default value of 64.',
      value: (pl) => orNone(queuing(pl)?.queues, queuing(pl) !== undefined),
    },
    {
      name: 'HandSize',
      type: 'string',
      description:
        "`handSize` is a small positive number that configures the shuffle sharding of requests into queues.  When enqueuing a request at this priority level the request's flow identifier (a string pair) is hashed and the hash value is used to shuffle the list of queues and deal a hand of the size specified here.  The request is put into one of the shortest queues in that hand. `handSize` must be no larger than `queues`, and should be significantly smaller (so that a few heavy flows do not saturate most of the queues).  See the user-facing documentation for more extensive guidance on setting this field.  This field has a default value of 8.",
      value: (pl) => orNone(queuing(pl)?.handSize, queuing(pl) !== undefined),
    },
    {
      name: 'QueueLengthLimit',
      type: 'string',
      description:
        '`queueLengthLimit` is the maximum number of requests allowed to be waiting in a given queue of this priority level at a time; excess requests are rejected.  This value must be positive.  If not specified, it will be defaulted to 50.',
      value: (pl) => orNone(queuing(pl)?.queueLengthLimit, queuing(pl) !== undefined),
    },
  ],
  strategy: {
    defaults: defaultPriorityLevel,
    validate: (pl, ctx) => (ctx.subresource === 'status' ? validateConditions(pl.status?.conditions) : validatePriorityLevel(pl)),
  },
});
