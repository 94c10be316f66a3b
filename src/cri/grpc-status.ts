/**
 * gRPC status codes (`google.golang.org/grpc/codes`), the numbers a CRI runtime answers with.
 * Named here so the runtime and its tests read `GrpcStatus.NotFound` rather than a bare 5.
 * @category CRI runtime
 */
export const GrpcStatus = {
  OK: 0,
  Canceled: 1,
  Unknown: 2,
  InvalidArgument: 3,
  DeadlineExceeded: 4,
  NotFound: 5,
  AlreadyExists: 6,
  PermissionDenied: 7,
  ResourceExhausted: 8,
  FailedPrecondition: 9,
  Aborted: 10,
  OutOfRange: 11,
  Unimplemented: 12,
  Internal: 13,
  Unavailable: 14,
  DataLoss: 15,
  Unauthenticated: 16,
} as const;

/**
 * One of the {@link GrpcStatus} numbers.
 * @category CRI runtime
 */
export type GrpcStatusCode = (typeof GrpcStatus)[keyof typeof GrpcStatus];
