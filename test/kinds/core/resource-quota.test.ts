import { describe, expect, it } from 'vitest';
import { ResourceQuotaKind, type ResourceQuota } from '../../../src/kinds/index.js';
import { statusOf, useTestCluster } from '../../support/cluster.js';
import { causeLines, tableOf } from './table.js';

const cluster = useTestCluster();
const quotas = () => cluster.client.resource(ResourceQuotaKind);

function quota(spec: ResourceQuota['spec'], name = 'q'): ResourceQuota {
  return { metadata: { name }, spec };
}

async function causes(q: ResourceQuota) {
  const status = await statusOf(() => quotas().create(q));
  expect(status.code).toBe(422);
  return causeLines(status);
}

describe('ResourceQuota', () => {
  it('stores canonical quantities and drops a status sent on create', async () => {
    const created = await quotas().create({
      ...quota({ hard: { pods: '10', 'requests.memory': '1024Mi', 'count/deployments.apps': '2' } }),
      status: { hard: { pods: '1' } },
    });
    expect(created.spec?.hard).toEqual({ pods: '10', 'requests.memory': '1Gi', 'count/deployments.apps': '2' });
    expect(created.status).toBeUndefined();
    expect(created.metadata?.generation).toBeUndefined();
  });

  it('checks resource names and quantities', async () => {
    expect(await causes(quota({ hard: { storage: '1Gi', widgets: '1', pods: '1.5', cpu: '-1' } }))).toEqual([
      'spec.hard[storage]: Invalid value: "storage": must be a standard resource for quota',
      'spec.hard[widgets]: Invalid value: "widgets": must be a standard resource type or fully qualified',
      'spec.hard[widgets]: Invalid value: "widgets": must be a standard resource for quota',
      'spec.hard[pods]: Invalid value: 1500m: must be an integer',
      'spec.hard[cpu]: Invalid value: "-1": must be greater than or equal to 0',
    ]);
  });

  it('checks scopes against the resources and each other', async () => {
    expect(await causes(quota({ hard: { pods: '1', secrets: '1' }, scopes: ['BestEffort', 'NotBestEffort', 'Someday'] }))).toEqual([
      'spec.scopes: Invalid value: ["BestEffort","NotBestEffort","Someday"]: unsupported scope applied to resource',
      'spec.scopes: Invalid value: ["BestEffort","NotBestEffort","Someday"]: unsupported scope applied to resource',
      'spec.scopes: Invalid value: ["BestEffort","NotBestEffort","Someday"]: unsupported scope',
      'spec.scopes: Invalid value: ["BestEffort","NotBestEffort","Someday"]: conflicting scopes',
    ]);
  });

  it('checks the scope selector', async () => {
    expect(
      await causes(
        quota({
          hard: { pods: '1' },
          scopeSelector: {
            matchExpressions: [
              { scopeName: 'Terminating', operator: 'In', values: ['x'] },
              { scopeName: 'PriorityClass', operator: 'In' },
              { scopeName: 'PriorityClass', operator: 'Exists', values: ['high'] },
              { scopeName: 'PriorityClass', operator: 'Near' },
            ],
          },
        }),
      ),
    ).toEqual([
      'spec.scopeSelector.matchExpressions.operator: Invalid value: "In": must be \'Exist\' when scope is any of ResourceQuotaScopeTerminating, ResourceQuotaScopeNotTerminating, ResourceQuotaScopeBestEffort, ResourceQuotaScopeNotBestEffort or ResourceQuotaScopeCrossNamespacePodAffinity',
      "spec.scopeSelector.matchExpressions.values: Required value: must be at least one value when `operator` is 'In' or 'NotIn' for scope selector",
      "spec.scopeSelector.matchExpressions.values: Invalid value: [\"high\"]: must be no value when `operator` is 'Exist' or 'DoesNotExist' for scope selector",
      'spec.scopeSelector.matchExpressions.operator: Invalid value: "Near": not a valid selector operator',
    ]);
  });

  it('keeps the scopes once created and lets hard change', async () => {
    const created = await quotas().create(quota({ hard: { pods: '1' }, scopes: ['BestEffort'] }));
    const grown = await quotas().update({ ...created, spec: { ...created.spec, hard: { pods: '5' } } });
    expect(grown.spec?.hard).toEqual({ pods: '5' });
    const status = await statusOf(() => quotas().update({ ...grown, spec: { ...grown.spec, scopes: ['NotTerminating'] } }));
    expect(causeLines(status)).toEqual(['spec.scopes: Invalid value: ["NotTerminating"]: field is immutable']);
  });

  it('writes status through /status only and prints requests and limits from it', async () => {
    const created = await quotas().create(quota({ hard: { pods: '10', 'requests.cpu': '1', 'limits.cpu': '2', 'limits.memory': '2Gi' } }));
    const kept = await quotas().update({ ...created, status: { hard: { pods: '10' } } });
    expect(kept.status).toBeUndefined();
    const written = await quotas().updateStatus({
      ...created,
      status: { hard: { pods: '10', 'requests.cpu': '1', 'limits.cpu': '2', 'limits.memory': '2Gi' }, used: { pods: '1', 'limits.memory': '512Mi' } },
    });
    const bad = await statusOf(() => quotas().updateStatus({ ...written, status: { used: { pods: '-1' } } }));
    expect(causeLines(bad)).toEqual(['status.used[pods]: Invalid value: "-1": must be greater than or equal to 0']);
    const t = await tableOf(cluster, '/api/v1/namespaces/default/resourcequotas');
    expect(t.columnDefinitions.map((c) => c.name)).toEqual(['Name', 'Request', 'Limit', 'Age']);
    expect(t.rows[0]!.cells).toEqual(['q', 'pods: 1/10, requests.cpu: 0/1', 'limits.cpu: 0/2, limits.memory: 512Mi/2Gi', '0s']);
  });
});
