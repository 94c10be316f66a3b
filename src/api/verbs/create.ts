/**
 * create: decode → namespace → server fields → prepare → defaults → validate → admission →
 * store (compare-and-swap on absence) → answer 201 with the stored object.
 */
import type { KubeObject } from '../../schema/define-kind.js';
import type { ResolvedKind } from '../../schema/registry.js';
import { StorageKeyError } from '../../storage/storage.js';
import { kindContext, objectKey, storageFor, type EngineContext } from '../context.js';
import { decodeBody } from '../decode-body.js';
import { alreadyExists, badRequest } from '../../machinery/errors.js';
import { recordManagedFields } from '../field-manager.js';
import { fieldValidationOf, isDryRun, validateWriteOptions } from '../options.js';
import type { ApiRequest, ApiResponse } from '../../machinery/request.js';
import { checkNamespaceForCreate, inServerOrder, metaOf, reconcileNamespace, stampNewObjectMeta, validateObject } from '../write-steps.js';

/** Kubernetes retries a generated name this many times when it collides. */
const GENERATE_NAME_ATTEMPTS = 8;
/** A generated name is cut so that prefix plus suffix stay a valid DNS label. */
const MAX_GENERATE_NAME_PREFIX = 63 - 5;

/** Creates an object from an already-decoded working copy; shared by create and create-on-update. */
export async function createObject(
  ctx: EngineContext,
  kind: ResolvedKind,
  req: ApiRequest,
  version: string,
  obj: KubeObject,
  warnings: string[],
  managedFieldsDone = false,
): Promise<ApiResponse<KubeObject>> {
  const def = kind.definition;
  const kctx = kindContext(ctx, req, 'create');
  const meta = metaOf(obj);
  // As in Kubernetes: defaults come with decoding, then the field manager records the object as
  // the client meant it, then admission and the strategy change it further (unowned).
  def.strategy?.defaults?.(obj, kctx);
  if (!managedFieldsDone) recordManagedFields(kind, version, req, obj, undefined, ctx.clock.now());
  // NamespaceLifecycle admission, before the strategy and validation.
  await checkNamespaceForCreate(ctx, kind, meta.name || meta.generateName || 'Unknown', meta.namespace);
  stampNewObjectMeta(ctx, kind, obj);
  if (def.resetStatusOnCreate ?? def.statusSubresource) delete obj.status;
  await def.strategy?.prepareForCreate?.(obj, kctx);

  const generated = !meta.name && !!meta.generateName;
  const prefix = generated ? meta.generateName!.slice(0, MAX_GENERATE_NAME_PREFIX) : '';
  if (generated) meta.name = prefix + ctx.randomSuffix();
  // Defaults again, for what admission and the strategy added (and a generated name).
  def.strategy?.defaults?.(obj, kctx);

  await validateObject(kind, version, obj, undefined, kctx);
  warnings.push(...(def.strategy?.warnings?.(obj, undefined, kctx) ?? []));

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

/** The create verb. */
export async function create(ctx: EngineContext, kind: ResolvedKind, req: ApiRequest, version: string): Promise<ApiResponse<KubeObject>> {
  validateWriteOptions('CreateOptions', req.writeOptions);
  const { object, warnings } = decodeBody(ctx.registry, kind, version, req.body, fieldValidationOf(req.writeOptions), req.duplicateFields);
  rejectResourceVersionOnCreate(object);
  reconcileNamespace(kind, object, req.namespace);
  return createObject(ctx, kind, req, version, object, warnings);
}

/**
 * A numeric resourceVersion on a new object is refused (Kubernetes answers this with a plain 500;
 * we answer 400 with the same message, because the fault is the client's). A non-numeric one is
 * silently dropped, as Kubernetes does.
 */
function rejectResourceVersionOnCreate(obj: KubeObject): void {
  const rv = obj.metadata?.resourceVersion;
  if (rv && /^\d+$/.test(rv) && Number(rv) !== 0) throw badRequest('resourceVersion should not be set on objects to be created');
}
