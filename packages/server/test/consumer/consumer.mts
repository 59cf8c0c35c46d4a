// An ESM TypeScript consumer of the built package: type-checked against dist/index.d.ts.
import { createRetentionRequestListener, createMemorySubscriberStore, type Notifier } from '@tenure/server';

const notifiers: Notifier[] = [];
export const listener = createRetentionRequestListener({ store: createMemorySubscriberStore(), notifiers });
