/**
 * Validation of a Pod's containers (`validateContainers`, `validateInitContainers`,
 * `validateContainerCommon` and what they call in `pkg/apis/core/validation/validation.go`):
 * names, images, ports, environment, volume mounts and devices, probes, lifecycle hooks,
 * resources, resize and restart policies, security contexts.
 */
import { child, fieldError, index, type FieldError } from '../../../machinery/field-errors.js';
import { regexError } from '../../../schema/validation/names.js';
import { validateNonnegativeField } from '../../../schema/validation/object-meta.js';
import type { Container, HTTPGetAction, LifecycleHandler, Probe, Volume } from '../../types/core-v1.js';
import { envErrors, envFromErrors } from './env.js';
import { dns1123LabelErrors, isValidPortName, isValidPortNum, localDescendingPathErrors } from './formats.js';
import { resourceRequirementsErrors } from './resources.js';
import { containerSecurityContextErrors } from './security.js';

/** What container validation needs to know about the pod around it. */
export interface ContainerContext {
  /** Valid volumes by name. */
  readonly volumes: ReadonlyMap<string, Volume>;
  readonly podClaimNames: ReadonlySet<string>;
  readonly gracePeriod: number | undefined;
  readonly restartPolicy: string;
  readonly hostUsers: boolean;
  readonly os: string | undefined;
}

const NOT_INIT_ALWAYS = 'may not be set for init containers without restartPolicy=Always';

/** `validateContainers`: the regular containers. */
export function validateContainers(containers: Container[], path: string, ctx: ContainerContext): FieldError[] {
  if (containers.length === 0) return [fieldError.required(path)];
  const errs: FieldError[] = [];
  const names = new Set<string>();
  containers.forEach((c, i) => {
    const p = index(path, i);
    errs.push(...validateContainerCommon(c, p, ctx));
    if (names.has(c.name)) errs.push(fieldError.duplicate(child(p, 'name'), c.name));
    else names.add(c.name);
    if (c.lifecycle) errs.push(...lifecycleErrors(c.lifecycle, child(p, 'lifecycle'), ctx));
    errs.push(...probeErrors(c.livenessProbe, child(p, 'livenessProbe'), ctx, 'liveness'));
    errs.push(...probeErrors(c.readinessProbe, child(p, 'readinessProbe'), ctx, 'readiness'));
    errs.push(...probeErrors(c.startupProbe, child(p, 'startupProbe'), ctx, 'startup'));
    errs.push(...containerRestartPolicyErrors(c, p));
  });
  errs.push(...hostPortConflicts(containers, path));
  return errs;
}

/** `validateInitContainers`. */
export function validateInitContainers(initContainers: Container[], regular: Container[], path: string, ctx: ContainerContext): FieldError[] {
  const errs: FieldError[] = [];
  const names = new Set(regular.map((c) => c.name));
  initContainers.forEach((c, i) => {
    const p = index(path, i);
    errs.push(...validateContainerCommon(c, p, ctx));
    errs.push(...initRestartPolicyErrors(c, p));
    const sidecar = c.restartPolicy === 'Always';
    if (names.has(c.name)) errs.push(fieldError.duplicate(child(p, 'name'), c.name));
    else if (c.name.length > 0) names.add(c.name);
    errs.push(...hostPortConflicts([c], path));
    if (sidecar) {
      if (c.lifecycle) errs.push(...lifecycleErrors(c.lifecycle, child(p, 'lifecycle'), ctx));
      errs.push(...probeErrors(c.livenessProbe, child(p, 'livenessProbe'), ctx, 'liveness'));
      errs.push(...probeErrors(c.readinessProbe, child(p, 'readinessProbe'), ctx, 'readiness'));
      errs.push(...probeErrors(c.startupProbe, child(p, 'startupProbe'), ctx, 'startup'));
    } else {
      for (const f of ['lifecycle', 'livenessProbe', 'readinessProbe', 'startupProbe'] as const) {
        if (c[f]) errs.push(fieldError.forbidden(child(p, f), NOT_INIT_ALWAYS));
      }
      (c.resizePolicy ?? []).forEach((policy, j) => {
        if (policy.restartPolicy === 'RestartContainer') {
          errs.push(
            fieldError.invalid(
              child(index(child(p, 'resizePolicy'), j), 'restartPolicy'),
              policy.restartPolicy,
              "must not be set to 'RestartContainer' for non-sidecar initContainers",
            ),
          );
        }
      });
    }
  });
  return errs;
}

/** `validateContainerCommon`. */
export function validateContainerCommon(c: Container, path: string, ctx: ContainerContext): FieldError[] {
  const errs: FieldError[] = [];
  const namePath = child(path, 'name');
  if (c.name.length === 0) errs.push(fieldError.required(namePath));
  else errs.push(...dns1123LabelErrors(c.name, namePath));
  if (!c.image) errs.push(fieldError.required(child(path, 'image')));
  const tmp = c.terminationMessagePolicy ?? '';
  if (tmp === '') errs.push(fieldError.required(child(path, 'terminationMessagePolicy')));
  else if (tmp !== 'File' && tmp !== 'FallbackToLogsOnError') {
    errs.push(fieldError.notSupported(child(path, 'terminationMessagePolicy'), tmp, ['File', 'FallbackToLogsOnError']));
  }
  const mounts = new Map((c.volumeMounts ?? []).map((m) => [m.name, m.mountPath]));
  const devices = new Map((c.volumeDevices ?? []).map((d) => [d.name, d.devicePath]));
  errs.push(...portErrors(c, child(path, 'ports')));
  errs.push(...envErrors(c.env ?? [], child(path, 'env')));
  errs.push(...envFromErrors(c, child(path, 'envFrom')));
  errs.push(...volumeMountErrors(c, devices, child(path, 'volumeMounts'), ctx));
  errs.push(...volumeDeviceErrors(c, mounts, child(path, 'volumeDevices'), ctx));
  const pull = c.imagePullPolicy ?? '';
  if (pull === '') errs.push(fieldError.required(child(path, 'imagePullPolicy')));
  else if (pull !== 'Always' && pull !== 'IfNotPresent' && pull !== 'Never') {
    errs.push(fieldError.notSupported(child(path, 'imagePullPolicy'), pull, ['Always', 'IfNotPresent', 'Never']));
  }
  errs.push(...resourceRequirementsErrors(c.resources ?? {}, child(path, 'resources'), ctx.podClaimNames));
  errs.push(...resizePolicyErrors(c, child(path, 'resizePolicy'), ctx.restartPolicy));
  errs.push(...containerSecurityContextErrors(c.securityContext, child(path, 'securityContext'), ctx.hostUsers));
  return errs;
}

/** `validateContainerOnlyForPod`: no surrounding whitespace in the image. */
export function imageWhitespaceErrors(containers: Container[], path: string): FieldError[] {
  const errs: FieldError[] = [];
  containers.forEach((c, i) => {
    const image = c.image ?? '';
    if (image.length !== image.trim().length)
      errs.push(fieldError.invalid(child(index(path, i), 'image'), image, 'must not have leading or trailing whitespace'));
  });
  return errs;
}

function portErrors(c: Container, path: string): FieldError[] {
  const errs: FieldError[] = [];
  const names = new Set<string>();
  (c.ports ?? []).forEach((port, i) => {
    const p = index(path, i);
    const name = port.name ?? '';
    if (name.length > 0) {
      const msgs = isValidPortName(name);
      if (msgs.length) for (const msg of msgs) errs.push(fieldError.invalid(child(p, 'name'), name, msg));
      else if (names.has(name)) errs.push(fieldError.duplicate(child(p, 'name'), name));
      else names.add(name);
    }
    if (!port.containerPort) errs.push(fieldError.required(child(p, 'containerPort')));
    else for (const msg of isValidPortNum(port.containerPort)) errs.push(fieldError.invalid(child(p, 'containerPort'), port.containerPort, msg));
    if (port.hostPort) for (const msg of isValidPortNum(port.hostPort)) errs.push(fieldError.invalid(child(p, 'hostPort'), port.hostPort, msg));
    const protocol = port.protocol ?? '';
    if (protocol === '') errs.push(fieldError.required(child(p, 'protocol')));
    else if (protocol !== 'TCP' && protocol !== 'UDP' && protocol !== 'SCTP')
      errs.push(fieldError.notSupported(child(p, 'protocol'), protocol, ['SCTP', 'TCP', 'UDP']));
  });
  return errs;
}

/** `AccumulateUniqueHostPorts`. */
function hostPortConflicts(containers: Container[], path: string): FieldError[] {
  const errs: FieldError[] = [];
  const seen = new Set<string>();
  containers.forEach((c, ci) => {
    (c.ports ?? []).forEach((port, pi) => {
      if (!port.hostPort) return;
      const id = `${port.protocol ?? ''}/${port.hostIP ?? ''}/${port.hostPort}`;
      if (seen.has(id)) errs.push(fieldError.duplicate(child(index(child(index(path, ci), 'ports'), pi), 'hostPort'), id));
      else seen.add(id);
    });
  });
  return errs;
}

function volumeMountErrors(c: Container, devices: Map<string, string>, path: string, ctx: ContainerContext): FieldError[] {
  const errs: FieldError[] = [];
  const mountPoints = new Set<string>();
  const devicePaths = new Set(devices.values());
  (c.volumeMounts ?? []).forEach((m, i) => {
    const p = index(path, i);
    if (!m.name) errs.push(fieldError.required(child(p, 'name')));
    if (!ctx.volumes.has(m.name)) errs.push(fieldError.notFound(child(p, 'name'), m.name));
    if (!m.mountPath) errs.push(fieldError.required(child(p, 'mountPath')));
    if (mountPoints.has(m.mountPath)) errs.push(fieldError.invalid(child(p, 'mountPath'), m.mountPath, 'must be unique'));
    mountPoints.add(m.mountPath);
    if (devices.has(m.name)) errs.push(fieldError.invalid(child(p, 'name'), m.name, 'must not already exist in volumeDevices'));
    if (devicePaths.has(m.mountPath)) errs.push(fieldError.invalid(child(p, 'mountPath'), m.mountPath, 'must not already exist as a path in volumeDevices'));
    // Kubernetes reports these two at the list's path, without the index.
    if (m.subPath) errs.push(...localDescendingPathErrors(m.subPath, child(path, 'subPath')));
    if (m.subPathExpr) {
      if (m.subPath) errs.push(fieldError.invalid(child(p, 'subPathExpr'), m.subPathExpr, 'subPathExpr and subPath are mutually exclusive'));
      errs.push(...localDescendingPathErrors(m.subPathExpr, child(path, 'subPathExpr')));
    }
    if (m.mountPropagation !== undefined) {
      const pp = child(path, 'mountPropagation');
      if (!['Bidirectional', 'HostToContainer', 'None'].includes(m.mountPropagation))
        errs.push(fieldError.notSupported(pp, m.mountPropagation, ['Bidirectional', 'HostToContainer', 'None']));
      if (m.mountPropagation === 'Bidirectional' && c.securityContext?.privileged !== true) {
        errs.push(fieldError.forbidden(pp, 'Bidirectional mount propagation is available only to privileged containers'));
      }
    }
    if (m.recursiveReadOnly !== undefined) {
      const rp = child(path, 'recursiveReadOnly');
      if (m.recursiveReadOnly === 'Enabled' || m.recursiveReadOnly === 'IfPossible') {
        if (!m.readOnly) errs.push(fieldError.forbidden(rp, 'may only be specified when readOnly is true'));
        if (m.mountPropagation !== undefined && m.mountPropagation !== 'None')
          errs.push(fieldError.forbidden(rp, 'may only be specified when mountPropagation is None or not specified'));
      } else if (m.recursiveReadOnly !== 'Disabled') {
        errs.push(fieldError.notSupported(rp, m.recursiveReadOnly, ['Disabled', 'Enabled', 'IfPossible']));
      }
    }
  });
  return errs;
}

function volumeDeviceErrors(c: Container, mounts: Map<string, string>, path: string, ctx: ContainerContext): FieldError[] {
  const errs: FieldError[] = [];
  const paths = new Set<string>();
  const names = new Set<string>();
  const mountPaths = new Set(mounts.values());
  (c.volumeDevices ?? []).forEach((d, i) => {
    const p = index(path, i);
    const volume = ctx.volumes.get(d.name);
    if (!d.name) errs.push(fieldError.required(child(p, 'name')));
    if (names.has(d.name)) errs.push(fieldError.invalid(child(p, 'name'), d.name, 'must be unique'));
    if (volume && !volume.persistentVolumeClaim && !volume.ephemeral) {
      errs.push(fieldError.invalid(child(p, 'name'), d.name, 'can only use volume source type of PersistentVolumeClaim or Ephemeral for block mode'));
    }
    if (!volume) errs.push(fieldError.notFound(child(p, 'name'), d.name));
    if (!d.devicePath) errs.push(fieldError.required(child(p, 'devicePath')));
    if (paths.has(d.devicePath)) errs.push(fieldError.invalid(child(p, 'devicePath'), d.devicePath, 'must be unique'));
    if (d.devicePath && d.devicePath.split('/').includes('..'))
      errs.push(fieldError.invalid(child(p, 'devicePath'), d.devicePath, "can not contain backsteps ('..')"));
    else paths.add(d.devicePath);
    if (mounts.has(d.name)) errs.push(fieldError.invalid(child(p, 'name'), d.name, 'must not already exist in volumeMounts'));
    if (mountPaths.has(d.devicePath)) errs.push(fieldError.invalid(child(p, 'devicePath'), d.devicePath, 'must not already exist as a path in volumeMounts'));
    if (d.name) names.add(d.name);
  });
  return errs;
}

function probeErrors(probe: Probe | undefined, path: string, ctx: ContainerContext, kind: 'liveness' | 'readiness' | 'startup'): FieldError[] {
  if (!probe) return [];
  const errs = handlerErrors(probe, path, ctx, false);
  for (const f of ['initialDelaySeconds', 'timeoutSeconds', 'periodSeconds', 'successThreshold', 'failureThreshold'] as const) {
    errs.push(...validateNonnegativeField(probe[f] ?? 0, child(path, f)));
  }
  if (probe.terminationGracePeriodSeconds !== undefined && probe.terminationGracePeriodSeconds <= 0) {
    errs.push(fieldError.invalid(child(path, 'terminationGracePeriodSeconds'), probe.terminationGracePeriodSeconds, 'must be greater than 0'));
  }
  if (kind !== 'readiness' && (probe.successThreshold ?? 0) !== 1) {
    errs.push(fieldError.invalid(child(path, 'successThreshold'), probe.successThreshold ?? 0, 'must be 1'));
  }
  if (kind === 'readiness' && probe.terminationGracePeriodSeconds !== undefined) {
    errs.push(fieldError.invalid(child(path, 'terminationGracePeriodSeconds'), probe.terminationGracePeriodSeconds, 'must not be set for readinessProbes'));
  }
  return errs;
}

function lifecycleErrors(lifecycle: NonNullable<Container['lifecycle']>, path: string, ctx: ContainerContext): FieldError[] {
  const errs: FieldError[] = [];
  if (lifecycle.postStart) errs.push(...handlerErrors(lifecycle.postStart, child(path, 'postStart'), ctx, true));
  if (lifecycle.preStop) errs.push(...handlerErrors(lifecycle.preStop, child(path, 'preStop'), ctx, true));
  if (lifecycle.stopSignal !== undefined) {
    const p = child(path, 'stopSignal');
    if (ctx.os === undefined) errs.push(fieldError.forbidden(p, 'may not be set for containers with empty `spec.os.name`'));
    else if (ctx.os === 'windows' && lifecycle.stopSignal !== 'SIGKILL' && lifecycle.stopSignal !== 'SIGTERM') {
      errs.push(fieldError.notSupported(p, lifecycle.stopSignal, ['SIGKILL', 'SIGTERM']));
    }
  }
  return errs;
}

/** `validateHandler`: exactly one handler type. */
function handlerErrors(h: Probe | LifecycleHandler, path: string, ctx: ContainerContext, lifecycle: boolean): FieldError[] {
  const errs: FieldError[] = [];
  let count = 0;
  const one = (name: string, check: () => FieldError[]) => {
    if (count > 0) errs.push(fieldError.forbidden(child(path, name), 'may not specify more than 1 handler type'));
    else {
      count++;
      errs.push(...check());
    }
  };
  if (h.exec) one('exec', () => (h.exec!.command?.length ? [] : [fieldError.required(child(child(path, 'exec'), 'command'))]));
  if (h.httpGet) one('httpGet', () => httpGetErrors(h.httpGet!, child(path, 'httpGet')));
  if (h.tcpSocket) one('tcpSocket', () => portNumOrNameErrors(h.tcpSocket!.port, child(child(path, 'tcpSocket'), 'port')));
  if (!lifecycle && 'grpc' in h && h.grpc) one('grpc', () => portNumOrNameErrors(h.grpc!.port, child(child(path, 'grpc'), 'port')));
  if (lifecycle && 'sleep' in h && h.sleep) {
    one('sleep', () => {
      const seconds = h.sleep!.seconds;
      if (ctx.gracePeriod === undefined || (seconds >= 0 && seconds <= ctx.gracePeriod)) return [];
      return [fieldError.invalid(child(path, 'sleep'), seconds, `must be non-negative and less than terminationGracePeriodSeconds (${ctx.gracePeriod})`)];
    });
  }
  if (count === 0) errs.push(fieldError.required(path, 'must specify a handler type'));
  return errs;
}

function httpGetErrors(http: HTTPGetAction, path: string): FieldError[] {
  const errs: FieldError[] = [];
  if (!http.path) errs.push(fieldError.required(child(path, 'path')));
  errs.push(...portNumOrNameErrors(http.port, child(path, 'port')));
  const scheme = http.scheme ?? '';
  if (scheme !== 'HTTP' && scheme !== 'HTTPS') errs.push(fieldError.notSupported(child(path, 'scheme'), scheme, ['HTTP', 'HTTPS']));
  for (const header of http.httpHeaders ?? []) {
    if (!/^[-A-Za-z0-9]+$/.test(header.name)) {
      errs.push(
        fieldError.invalid(
          child(path, 'httpHeaders'),
          header.name,
          regexError("a valid HTTP header must consist of alphanumeric characters or '-'", '[-A-Za-z0-9]+', 'X-Header-Name'),
        ),
      );
    }
  }
  return errs;
}

/** `ValidatePortNumOrName`. */
export function portNumOrNameErrors(port: number | string, path: string): FieldError[] {
  if (typeof port === 'number') return isValidPortNum(port).map((msg) => fieldError.invalid(path, port, msg));
  return isValidPortName(port).map((msg) => fieldError.invalid(path, port, msg));
}

function containerRestartPolicyErrors(c: Container, path: string): FieldError[] {
  const errs: FieldError[] = [];
  const rules = c.restartPolicyRules ?? [];
  if (c.restartPolicy === undefined) {
    if (rules.length === 0) return errs;
    errs.push(fieldError.required(child(path, 'restartPolicy'), 'must specify restartPolicy when restart rules are used'));
  } else if (!['Always', 'Never', 'OnFailure'].includes(c.restartPolicy)) {
    errs.push(fieldError.notSupported(child(path, 'restartPolicy'), c.restartPolicy, ['Always', 'Never', 'OnFailure']));
  }
  if (rules.length > 20) errs.push(fieldError.tooMany(child(path, 'restartPolicyRules'), rules.length, 20));
  rules.forEach((rule, i) => {
    const p = index(child(path, 'restartPolicyRules'), i);
    if (rule.action !== 'Restart' && rule.action !== 'RestartAllContainers')
      errs.push(fieldError.notSupported(child(p, 'action'), rule.action, ['Restart', 'RestartAllContainers']));
    if (!rule.exitCodes) {
      errs.push(fieldError.required(child(p, 'exitCodes'), 'must be specified'));
      return;
    }
    const op = rule.exitCodes.operator;
    if (op !== 'In' && op !== 'NotIn') errs.push(fieldError.notSupported(child(child(p, 'exitCodes'), 'operator'), op, ['In', 'NotIn']));
    const n = rule.exitCodes.values?.length ?? 0;
    if (n > 255) errs.push(fieldError.tooMany(child(child(p, 'exitCodes'), 'values'), n, 255));
  });
  return errs;
}

function initRestartPolicyErrors(c: Container, path: string): FieldError[] {
  if (c.restartPolicy === undefined) {
    return c.restartPolicyRules?.length ? [fieldError.required(child(path, 'restartPolicy'), 'must specify restartPolicy when restart rules are used')] : [];
  }
  return containerRestartPolicyErrors(c, path);
}

function resizePolicyErrors(c: Container, path: string, podRestartPolicy: string): FieldError[] {
  const errs: FieldError[] = [];
  const seen = new Set<string>();
  for (const p of c.resizePolicy ?? []) {
    if (seen.has(p.resourceName)) errs.push(fieldError.duplicate(index(path, (c.resizePolicy ?? []).indexOf(p)), p.resourceName));
    seen.add(p.resourceName);
    if (p.resourceName === '') errs.push(fieldError.required(path));
    else if (p.resourceName !== 'cpu' && p.resourceName !== 'memory') errs.push(fieldError.notSupported(path, p.resourceName, ['cpu', 'memory']));
    if (p.restartPolicy === '') errs.push(fieldError.required(path));
    else if (p.restartPolicy !== 'NotRequired' && p.restartPolicy !== 'RestartContainer')
      errs.push(fieldError.notSupported(path, p.restartPolicy, ['NotRequired', 'RestartContainer']));
    if (podRestartPolicy === 'Never' && p.restartPolicy !== 'NotRequired')
      errs.push(fieldError.invalid(path, p.restartPolicy, "must be 'NotRequired' when pod `restartPolicy` is 'Never'"));
  }
  return errs;
}
