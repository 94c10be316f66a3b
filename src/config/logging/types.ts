/**
 * LoggingConfiguration (k8s.io/component-base logs/api/v1/types.go): the logging options every
 * Kubernetes component has, as flags (`--logging-format`, `-v`, `--vmodule`, ...) or embedded in
 * its configuration file (KubeletConfiguration's `logging`). It has no apiVersion of its own.
 */
import { z } from 'zod';
import { lazySchema } from '../../util/lazy-schema.js';

/** The traditional klog text format (the default). */
export const TEXT_LOG_FORMAT = 'text';
/** One JSON object per line (gated by LoggingBetaOptions). */
export const JSON_LOG_FORMAT = 'json';

/** `splitStream` and `infoBufferSize`, shared by the text and JSON options. */
export const OutputRoutingOptionsSchema = lazySchema(() =>
  z.object({
    /** Errors to stderr, info messages to stdout (buffered by `infoBufferSize`); alpha. */
    splitStream: z.boolean().optional(),
    /** A resource quantity of bytes (`512`, `1K`, `2Ki`); 0 disables buffering; alpha. */
    infoBufferSize: z.union([z.string(), z.number()]).optional(),
  }),
);

/** A file pattern and the verbosity of the files it matches. */
export const VModuleItemSchema = lazySchema(() =>
  z.object({
    /** A base file name without its extension, or a glob for such names. */
    filePattern: z.string().optional(),
    verbosity: z.number().int().optional(),
  }),
);

/** The zod schema of a LoggingConfiguration: format, flush frequency, verbosity, per-file verbosity and the text and JSON output options. */
export const LoggingConfigurationSchema = lazySchema(() =>
  z.object({
    /** `text` (default) or `json`. */
    format: z.string().optional(),
    /** Maximum time between flushes: a Go duration string (`5s`) or an integer of nanoseconds. */
    flushFrequency: z.union([z.string(), z.number()]).optional(),
    /** The threshold of `V(n)` messages; 0 logs only the most important. */
    verbosity: z.number().int().optional(),
    /** Per-file verbosity (text format only). */
    vmodule: z.array(VModuleItemSchema()).optional(),
    options: z
      .object({
        text: OutputRoutingOptionsSchema().optional(),
        json: OutputRoutingOptionsSchema().optional(),
      })
      .optional(),
  }),
);

/** `splitStream` and `infoBufferSize`, shared by the text and JSON options. */
export type OutputRoutingOptions = z.infer<ReturnType<typeof OutputRoutingOptionsSchema>>;
/** A file pattern and the verbosity of the files it matches. */
export type VModuleItem = z.infer<ReturnType<typeof VModuleItemSchema>>;
/** A LoggingConfiguration, as the file or the logging flags give it. */
export type LoggingConfiguration = z.infer<ReturnType<typeof LoggingConfigurationSchema>>;
