// A CommonJS TypeScript consumer of the built package: type-checked against dist/index.d.cts.
import { createRetentionApp, type RetentionOptions } from '@tenure/server';

const options: RetentionOptions = { serviceName: 'cjs-consumer', dispatch: { auto: false } };
export const app = createRetentionApp(options);
