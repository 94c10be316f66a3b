/** What the flowcontrol kinds' printer columns share. */
import type { PrinterColumn } from '../../schema/define-kind.js';

/** The Age column, declared where a kind prints a column after it (FlowSchema's MissingPL). */
export const AGE_COLUMN: PrinterColumn = {
  name: 'Age',
  type: 'date',
  description:
    'CreationTimestamp is a timestamp representing the server time when this object was created. It is not guaranteed to be set in happens-before order across separate operations. Clients may not set this value. It is represented in RFC3339 form and is in UTC.\n\nPopulated by the system. Read-only. Null for lists. More info: https://git.k8s.io/community/contributors/devel/sig-architecture/api-conventions.md#metadata',
  value: (o) => o.metadata?.creationTimestamp,
};
