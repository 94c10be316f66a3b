/**
 * `pods/{name}/log`: a container's log streamed from the agent of the pod's node, as
 * kube-apiserver's LogREST (pkg/registry/core/pod/rest/log.go) with `LogLocation`
 * (pkg/registry/core/pod/strategy.go): the options validated, the container defaulted when the pod
 * has one, the agent's `/containerLogs/<ns>/<pod>/<container>` asked with the options as its query;
 * the answer is `text/plain`, streamed as it comes (with `follow`, until the agent ends it or the
 * client goes); a pod not yet on a node answers 204 with no body.
 */
import { badRequest, invalid } from '../../../machinery/errors.js';
import { nodeAgentUrl } from '../../../machinery/node-connections.js';
import type { ApiResponse, StreamedBody } from '../../../machinery/request.js';
import { emptyStreamedBody, streamedBody } from '../../../machinery/streamed-body.js';
import type { ConnectSubresource, KubeObject } from '../../../schema/define-kind.js';
import { agentResponseError, locateNodeAgent, plainFailure } from '../node-agent.js';
import { containerLogsQuery, decodePodLogOptions, validatePodLogOptions } from './log-options.js';

interface NamedContainer {
  name?: string;
}

interface PodShape extends KubeObject {
  spec?: { nodeName?: string; containers?: NamedContainer[]; initContainers?: NamedContainer[]; ephemeralContainers?: NamedContainer[] };
}

/** Every container's name in `podutil.VisitContainers` order: init containers, containers, ephemeral containers. */
function containerNames(pod: PodShape): string[] {
  const spec = pod.spec ?? {};
  return [...(spec.initContainers ?? []), ...(spec.containers ?? []), ...(spec.ephemeralContainers ?? [])].map((c) => c.name ?? '');
}

/** `validateContainer`: the named container must exist; none named is the only one, else a 400 listing them. */
export function logContainer(pod: PodShape, requested: string | undefined): string {
  const name = pod.metadata?.name ?? '';
  if (!requested) {
    const containers = pod.spec?.containers ?? [];
    if (containers.length === 1) return containers[0]!.name ?? '';
    if (containers.length === 0) throw badRequest(`a container name must be specified for pod ${name}`);
    throw badRequest(`a container name must be specified for pod ${name}, choose one of: [${containerNames(pod).join(' ')}]`);
  }
  if (!containerNames(pod).includes(requested)) throw badRequest(`container ${requested} is not valid for pod ${name}`);
  return requested;
}

const POD_LOG = { group: '', resource: 'pods/log' };

/** The Pod's `log` subresource. */
export const podLog: ConnectSubresource = {
  methods: ['GET'],
  async connect(target, request, ctx): Promise<ApiResponse<StreamedBody>> {
    const opts = decodePodLogOptions(request.params);
    const errs = validatePodLogOptions(opts);
    if (errs.length > 0) throw invalid({ group: '', kind: 'PodLogOptions' }, target.name, errs);
    const pod = (await ctx.readTarget()) as PodShape;
    const container = logContainer(pod, opts.container);
    const nodeName = pod.spec?.nodeName;
    if (!nodeName) return { code: 204, body: emptyStreamedBody(), warnings: [] };
    const location = await locateNodeAgent(ctx, nodeName);
    const agentRequest = {
      method: 'GET',
      path: `/containerLogs/${[target.namespace ?? '', target.name, container].map(encodeURIComponent).join('/')}`,
      query: containerLogsQuery(opts),
    };
    let res;
    try {
      res = await ctx.nodes.send(location, { ...agentRequest, insecureSkipTLSVerify: opts.insecureSkipTLSVerifyBackend === true });
    } catch (e) {
      // http.Client.Do's error: the method and URL, then the transport's failure.
      throw plainFailure(`Get ${JSON.stringify(nodeAgentUrl(location, agentRequest))}: ${e instanceof Error ? e.message : String(e)}`);
    }
    const failure = await agentResponseError(res, POD_LOG, target.name);
    if (failure) throw failure;
    // LocationStreamer's ContentType: whatever the agent said, the log is plain text.
    return { code: 200, body: streamedBody({ chunks: res.body, release: () => res.body.cancel(), contentType: 'text/plain' }), warnings: [] };
  },
};
