/**
 * The store's create: from a decoded working object to a stored one, in Kubernetes' order
 * (k8s.io/apiserver pkg/registry/generic/registry/store.go, `Create`, with the handler's defaulting,
 * field manager and mutating admission before it): defaults → managedFields → mutating admission →
 * server fields → the strategy's prepare → generated name → defaults → validation → validating
 * admission → warnings → storage create (compare-and-swap on absence). Create, create-on-update and
 * apply creating an object all come here.
 */
import type { KubeObject } from '../../schema/define-kind.js';
import type { ResolvedKind } from '../../schema/registry.js';
import { StorageKeyError } from '../../storage/storage.js';
import { alreadyExists } from '../../machinery/errors.js';
import type { ApiRequest, ApiResponse } from '../../machinery/request.js';
import { kindContext, objectKey, storageFor, type EngineContext } from '../context.js';
import { recordManagedFields } from '../field-manager.js';
import { isDryRun } from '../options.js';
import { admissionAttributes } from '../admission-attributes.js';
import { applySchemaDefaults, inServerOrder, metaOf, stampNewObjectMeta, validateObject } from '../write-steps.js';

/** Kubernetes retries a generated name this many times when it collides. */
const GENERATE_NAME_ATTEMPTS = 8;
/** A generated name is cut so that prefix plus suffix stay a valid DNS label. */
const MAX_GENERATE_NAME_PREFIX = 63 - 5;

/** A new object to store, as a verb made it from its request. */
export interface NewObject {
  /** The decoded working copy, in the storage version and the request's namespace. */
  readonly object: KubeObject;
  /** Warnings so far (decoding). */
  readonly warnings: readonly string[];
  /** The field manager already ran (server-side apply records its own managedFields). */
  readonly managedFieldsRecorded?: boolean;
}

/** Creates `created.object`; answers 201 with the stored object. */
export async function createObject(
  ctx: EngineContext,
  kind: ResolvedKind,
  req: ApiRequest,
  version: string,
  created: NewObject,
): Promise<ApiResponse<KubeObject>> {
  const def = kind.definition;
  const obj = created.object;
  const kctx = kindContext(ctx, req, 'create');
  const meta = metaOf(obj);
  // As in Kubernetes: defaults come with decoding, then the field manager records the object as
  // the client meant it, then admission and the strategy change it further (unowned).
  applySchemaDefaults(kind, version, obj);
  def.strategy?.defaults?.(obj, kctx);
  if (!created.managedFieldsRecorded) {
    const recording = recordManagedFields(kind, version, req, obj, undefined, ctx.clock.now());
    if (recording) await recording;
  }
  const attributes = admissionAttributes(kind, req, 'CREATE', obj, undefined);
  // Each step is awaited only when it answers a promise: most answer at once.
  const admitted = ctx.admission.admit(attributes, kctx);
  if (admitted) await admitted;
  stampNewObjectMeta(ctx, kind, obj);
  if (def.resetStatusOnCreate ?? def.statusSubresource) delete obj.status;
  const prepared = def.strategy?.prepareForCreate?.(obj, kctx);
  if (prepared) await prepared;

  const generated = !meta.name && !!meta.generateName;
  const prefix = generated ? meta.generateName!.slice(0, MAX_GENERATE_NAME_PREFIX) : '';
  if (generated) meta.name = prefix + ctx.randomSuffix();
  // Defaults again, for what admission and the strategy added (and a generated name).
  applySchemaDefaults(kind, version, obj);
  def.strategy?.defaults?.(obj, kctx);

  const validated = validateObject(kind, version, obj, undefined, kctx);
  if (validated) await validated;
  const allowed = ctx.admission.validate(attributes, kctx);
  if (allowed) await allowed;
  const warnings = [...created.warnings, ...(def.strategy?.warnings?.(obj, undefined, kctx) ?? [])];

  const storage = storageFor(ctx, isDryRun(req.writeOptions));
  for (let attempt = 1; ; attempt++) {
    try {
      const stored = await storage.create(objectKey(kind, meta.namespace, meta.name!), inServerOrder(obj));
      return { code: 201, body: stored.value as KubeObject, warnings };
    } catch (e) {
      if (!(e instanceof StorageKeyError)) throw e;
      if (!generated || attempt >= GENERATE_NAME_ATTEMPTS) throw alreadyExists({ group: kind.group, resource: def.plural }, meta.name!);
      meta.name = prefix + ctx.randomSuffix();
    }
  }
}
