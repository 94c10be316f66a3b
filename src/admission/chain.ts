/**
 * The admission chain of a cluster: the enabled plugins in kube-apiserver's order, every mutating
 * half first, then (after validation) every validating half, as k8s.io/apiserver's
 * `admission.chainAdmissionHandler` runs them. Which plugins are on is configured as
 * `--enable-admission-plugins` / `--disable-admission-plugins` configure kube-apiserver
 * (k8s.io/apiserver pkg/server/options/admission.go, `Validate` and `enabledPluginNames`).
 */
import { readAdmissionConfiguration, type AdmissionPluginConfigs } from '../config/admission/read.js';
import type { MetricsRegistry } from '../metrics/registry.js';
import type { AdmissionAttributes, AdmissionCluster, AdmissionOperation } from './attributes.js';
import { BUILTIN_PLUGINS } from './builtin-plugins.js';
import { admissionMetrics, type AdmissionObserver, type AdmissionStepType, type AdmissionTimer } from './metrics.js';
import type { AdmissionPlugin } from './plugin.js';
import { ALL_ORDERED_PLUGINS, DEFAULT_ON_PLUGINS } from './plugin-names.js';

/**
 * Which admission plugins run, beyond kube-apiserver's defaults.
 * @category Cluster
 */
export interface AdmissionConfig {
  /** Plugins to turn on in addition to the default ones (`--enable-admission-plugins`). */
  readonly enable?: readonly string[];
  /** Plugins to turn off, default ones included (`--disable-admission-plugins`). */
  readonly disable?: readonly string[];
  /**
   * The plugins' configuration file (`--admission-control-config-file`): an AdmissionConfiguration,
   * or the legacy format of ImagePolicyWebhook and PodNodeSelector. Read once, when the chain is made.
   */
  readonly configFile?: string;
}

/**
 * A configuration kube-apiserver would refuse, with its messages.
 * @category Cluster
 */
export class AdmissionConfigError extends Error {
  constructor(readonly problems: readonly string[]) {
    // Go's aggregate error prints one error as is and several as a bracketed list.
    super(problems.length === 1 ? problems[0] : `[${problems.join(', ')}]`);
    this.name = 'AdmissionConfigError';
  }
}

/** The timers of one step type and operation: the step's, and one per plugin that handles it. */
interface StepTimers {
  readonly step: AdmissionTimer | undefined;
  readonly plugins: readonly (AdmissionTimer | undefined)[];
}

/** The enabled plugins of one cluster, in order. */
export class AdmissionChain {
  private readonly mutating: readonly AdmissionPlugin[];
  private readonly validating: readonly AdmissionPlugin[];
  /** Timers by step type and operation, made on first use. */
  private readonly timers: Record<AdmissionStepType, Map<AdmissionOperation, StepTimers>> = { admit: new Map(), validate: new Map() };

  /** `observer` times each step and plugin (the admission metrics); none by default. */
  constructor(
    readonly plugins: readonly AdmissionPlugin[],
    private readonly observer?: AdmissionObserver,
  ) {
    this.mutating = plugins.filter((p) => p.admit);
    this.validating = plugins.filter((p) => p.validate);
  }

  /** The names of the enabled plugins, in the order they run. */
  get names(): string[] {
    return this.plugins.map((p) => p.name);
  }

  /** Runs every mutating plugin; the first refusal stops the request. A promise only when a plugin answers one. */
  admit(attributes: AdmissionAttributes, cluster: AdmissionCluster): void | Promise<void> {
    return this.step('admit', this.mutating, attributes, cluster, 0);
  }

  /** Runs every validating plugin; the first refusal stops the request. A promise only when a plugin answers one. */
  validate(attributes: AdmissionAttributes, cluster: AdmissionCluster): void | Promise<void> {
    return this.step('validate', this.validating, attributes, cluster, 0);
  }

  /**
   * One step from plugin `from` on, timed when there is an observer: the step counts when any
   * plugin of the chain handles the operation (upstream's chain `Handles` it), each plugin when it
   * handles it; a throw is a refusal (`rejected="true"`), measured and passed on. Runs without a
   * promise while the plugins answer synchronously; the first that answers a promise is awaited,
   * and the rest run after it.
   */
  private step(
    type: AdmissionStepType,
    plugins: readonly AdmissionPlugin[],
    attributes: AdmissionAttributes,
    cluster: AdmissionCluster,
    from: number,
    stepStart = this.observer ? performance.now() : 0,
    resumedAt = stepStart,
  ): void | Promise<void> {
    const timers = this.observer && this.timersOf(type, attributes.operation);
    // One clock reading per plugin: the end of one is the start of the next, and the last one's
    // end is the step's (a create passes five plugins: the readings were a tenth of admission).
    let start = resumedAt;
    for (let i = from; i < plugins.length; i++) {
      const plugin = plugins[i]!;
      let pending: void | Promise<void>;
      try {
        pending = type === 'admit' ? plugin.admit!(attributes, cluster) : plugin.validate!(attributes, cluster);
      } catch (e) {
        refused(timers, i, start, stepStart);
        throw e;
      }
      if (pending) return this.after(pending, type, plugins, attributes, cluster, i, start, stepStart);
      if (timers) {
        const end = performance.now();
        timers.plugins[i]?.passed((end - start) / 1000);
        start = end;
      }
    }
    timers?.step?.passed((start - stepStart) / 1000);
  }

  /** The rest of a step once plugin `i` (started at `start`) answered with `pending`. */
  private async after(
    pending: Promise<void>,
    type: AdmissionStepType,
    plugins: readonly AdmissionPlugin[],
    attributes: AdmissionAttributes,
    cluster: AdmissionCluster,
    i: number,
    start: number,
    stepStart: number,
  ): Promise<void> {
    const timers = this.observer && this.timersOf(type, attributes.operation);
    try {
      await pending;
    } catch (e) {
      refused(timers, i, start, stepStart);
      throw e;
    }
    const end = timers ? performance.now() : 0;
    timers?.plugins[i]?.passed((end - start) / 1000);
    const rest = this.step(type, plugins, attributes, cluster, i + 1, stepStart, end);
    if (rest) await rest;
  }

  private timersOf(type: AdmissionStepType, operation: AdmissionOperation): StepTimers {
    let timers = this.timers[type].get(operation);
    if (!timers) {
      const observer = this.observer!;
      const plugins = type === 'admit' ? this.mutating : this.validating;
      timers = {
        step: this.plugins.some((p) => handles(p, operation)) ? observer.step(type, operation) : undefined,
        plugins: plugins.map((p) => (handles(p, operation) ? observer.plugin(p.name, type, operation) : undefined)),
      };
      this.timers[type].set(operation, timers);
    }
    return timers;
  }
}

/** Records a refusal by plugin `i`: its time, and the step's. */
function refused(timers: StepTimers | undefined, i: number, start: number, stepStart: number): void {
  if (!timers) return;
  const now = performance.now();
  timers.plugins[i]?.refused((now - start) / 1000);
  timers.step?.refused((now - stepStart) / 1000);
}

const handles = (plugin: AdmissionPlugin, operation: AdmissionOperation) => !plugin.operations || plugin.operations.includes(operation);

const KNOWN = new Set(ALL_ORDERED_PLUGINS);

/**
 * The chain a configuration turns on: kube-apiserver's defaults, plus `enable`, minus `disable`;
 * with `metrics`, its steps and plugins are timed there (the `apiserver_admission_*` latencies).
 * Names kube-apiserver does not know are refused with its words; so is turning on a plugin memkube
 * does not implement (a default one it does not implement, like LimitRanger, is simply not run).
 */
export function admissionChain(config: AdmissionConfig = {}, metrics?: MetricsRegistry): AdmissionChain {
  return buildAdmissionChain(config, BUILTIN_PLUGINS, metrics);
}

/**
 * {@link admissionChain} over a given set of implemented plugins (the built-in ones in a cluster;
 * tests add plugins that take a configuration). After the plugin names are checked, the
 * configuration file is read and each enabled plugin that takes a configuration gets its own, as
 * kube-apiserver's `Plugins.NewFromPlugins` asks `ConfigFor` of each enabled plugin only: an entry
 * for a plugin that is not enabled, or not known at all, is never looked at (nor its `path` read).
 */
export function buildAdmissionChain(config: AdmissionConfig, implemented: readonly AdmissionPlugin[], metrics?: MetricsRegistry): AdmissionChain {
  const byName = new Map(implemented.map((p) => [p.name, p]));
  const enable = config.enable ?? [];
  const disable = config.disable ?? [];
  const problems: string[] = [];
  for (const name of enable) if (!KNOWN.has(name)) problems.push(`enable-admission-plugins plugin ${JSON.stringify(name)} is unknown`);
  for (const name of disable) if (!KNOWN.has(name)) problems.push(`disable-admission-plugins plugin ${JSON.stringify(name)} is unknown`);
  const overlap = [...new Set(enable.filter((name) => disable.includes(name)))].sort();
  if (overlap.length) problems.push(`[${overlap.join(' ')}] in enable-admission-plugins and disable-admission-plugins overlapped`);
  for (const name of enable) {
    if (KNOWN.has(name) && !byName.has(name) && !DEFAULT_ON_PLUGINS.has(name)) {
      problems.push(`enable-admission-plugins plugin ${JSON.stringify(name)} is not implemented by memkube`);
    }
  }
  if (problems.length) throw new AdmissionConfigError(problems);
  const on = (name: string) => !disable.includes(name) && (DEFAULT_ON_PLUGINS.has(name) || enable.includes(name));
  const enabled = ALL_ORDERED_PLUGINS.filter(on);
  let configs: AdmissionPluginConfigs;
  try {
    configs = readAdmissionConfiguration(enabled, config.configFile ?? '');
  } catch (e) {
    throw new AdmissionConfigError([`failed to read plugin config: ${e instanceof Error ? e.message : String(e)}`]);
  }
  const plugins = enabled.flatMap((name) => {
    // Asked of every enabled plugin, as kube-apiserver does: a `path` that cannot be read fails
    // even for a plugin that takes no configuration (or one memkube does not run).
    const text = configs.configFor(name);
    const plugin = byName.get(name);
    if (!plugin) return [];
    if (text === undefined || !plugin.withConfiguration) return [plugin];
    try {
      return [plugin.withConfiguration(text)];
    } catch (e) {
      throw new AdmissionConfigError([`couldn't init admission plugin ${JSON.stringify(name)}: ${e instanceof Error ? e.message : String(e)}`]);
    }
  });
  return new AdmissionChain(plugins, metrics?.enabled ? admissionMetrics(metrics) : undefined);
}
