/**
 * The node agent's feature gates, as component-base's featuregate package handles them: a gate
 * has a default and a maturity; `SetFromMap` refuses an unknown gate (`unrecognized feature gate:
 * X`) and a locked gate set away from its default; `AllAlpha` / `AllBeta` turn on every alpha /
 * beta gate not set explicitly. The registry holds the gates the agent's configuration and
 * endpoints consult (pkg/features/kube_features.go and component-base's logging gates).
 */

/** A gate's maturity. */
export type FeatureMaturity = 'Alpha' | 'Beta' | 'GA' | 'Deprecated';

/** One known gate. */
export interface FeatureSpec {
  readonly default: boolean;
  readonly preRelease: FeatureMaturity;
  /** GA gates that can no longer be turned off. */
  readonly lockToDefault?: boolean;
}

/** The gates the node agent knows, by name. */
export const NODE_AGENT_FEATURE_GATES: Readonly<Record<string, FeatureSpec>> = Object.freeze({
  AllAlpha: { default: false, preRelease: 'Alpha' },
  AllBeta: { default: false, preRelease: 'Beta' },
  /** The checkpoint endpoint (`POST /checkpoint/{namespace}/{pod}/{container}`). */
  ContainerCheckpoint: { default: true, preRelease: 'Beta' },
  /** Device attributes of list type in published ResourceSlices. */
  DRAListTypeAttributes: { default: false, preRelease: 'Alpha' },
  /** Authorizing `/pods`, `/healthz` and `/configz` by their own subresources before `proxy`. */
  KubeletFineGrainedAuthz: { default: true, preRelease: 'Beta' },
  CustomCPUCFSQuotaPeriod: { default: false, preRelease: 'Alpha' },
  ImageMaximumGCAge: { default: true, preRelease: 'Beta' },
  RotateKubeletServerCertificate: { default: true, preRelease: 'Beta' },
  GracefulNodeShutdown: { default: true, preRelease: 'Beta' },
  GracefulNodeShutdownBasedOnPodPriority: { default: true, preRelease: 'Beta' },
  NodeSwap: { default: true, preRelease: 'GA', lockToDefault: true },
  KubeletCrashLoopBackOffMax: { default: false, preRelease: 'Alpha' },
  KubeletEnsureSecretPulledImages: { default: true, preRelease: 'Beta' },
  MemoryQoS: { default: false, preRelease: 'Alpha' },
  NodeLogQuery: { default: false, preRelease: 'Beta' },
  UserNamespacesSupport: { default: true, preRelease: 'Beta' },
  ContextualLogging: { default: true, preRelease: 'Beta' },
  LoggingAlphaOptions: { default: false, preRelease: 'Alpha' },
  LoggingBetaOptions: { default: true, preRelease: 'Beta' },
  ComponentFlagz: { default: false, preRelease: 'Alpha' },
  ComponentStatusz: { default: false, preRelease: 'Alpha' },
  /** `/metrics/slis`: the health checks' SLI metrics (component-base; stable since v1.32). */
  ComponentSLIs: { default: true, preRelease: 'GA' },
  /** Histograms in native form beside the classic buckets, in the protobuf exposition (alpha since v1.36). */
  NativeHistograms: { default: false, preRelease: 'Alpha' },
});

/** A gate map component-base would refuse; the message is its own. */
export class FeatureGateError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'FeatureGateError';
  }
}

/** The effective gates: each known gate's value after the explicit settings. */
export interface FeatureGates {
  /** Whether `name` is on (false for an unknown name). */
  enabled(name: string): boolean;
  /** Every known gate and its value, sorted by name. */
  readonly values: Readonly<Record<string, boolean>>;
}

/**
 * The gates after applying `settings` in order (later maps win), as repeated `SetFromMap` calls
 * do. Throws {@link FeatureGateError}: `unrecognized feature gate: X`, or `cannot set feature
 * gate X to false, feature is locked to true`. Names are checked in sorted order so the error is
 * stable (Go's map order is random).
 */
export function resolveFeatureGates(...settings: readonly (Readonly<Record<string, boolean>> | undefined)[]): FeatureGates {
  const explicit = new Map<string, boolean>();
  for (const map of settings) {
    for (const name of Object.keys(map ?? {}).sort()) {
      const spec = Object.hasOwn(NODE_AGENT_FEATURE_GATES, name) ? NODE_AGENT_FEATURE_GATES[name] : undefined;
      const value = map![name]!;
      if (!spec) throw new FeatureGateError(`unrecognized feature gate: ${name}`);
      if (spec.lockToDefault && spec.default !== value) {
        throw new FeatureGateError(`cannot set feature gate ${name} to ${String(value)}, feature is locked to ${String(spec.default)}`);
      }
      explicit.set(name, value);
    }
  }
  const values: Record<string, boolean> = {};
  for (const name of Object.keys(NODE_AGENT_FEATURE_GATES).sort()) {
    const spec = NODE_AGENT_FEATURE_GATES[name]!;
    let value = explicit.get(name);
    if (value === undefined && name !== 'AllAlpha' && name !== 'AllBeta') {
      if (spec.preRelease === 'Alpha' && explicit.get('AllAlpha') === true) value = true;
      if (spec.preRelease === 'Beta' && explicit.has('AllBeta')) value = explicit.get('AllBeta');
    }
    values[name] = value ?? spec.default;
  }
  return { enabled: (name) => values[name] === true && Object.hasOwn(values, name), values };
}

/** The help text listing of `--feature-gates` (`Name=true|false (ALPHA - default=false)`). */
export function knownFeatureGateLines(): string[] {
  return Object.keys(NODE_AGENT_FEATURE_GATES)
    .sort()
    .map((name) => {
      const spec = NODE_AGENT_FEATURE_GATES[name]!;
      if (name === 'AllAlpha' || name === 'AllBeta') return `${name}=true|false (${spec.preRelease.toUpperCase()} - default=false)`;
      return `${name}=true|false (${spec.preRelease.toUpperCase()} - default=${String(spec.default)})`;
    });
}
