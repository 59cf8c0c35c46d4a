// A CommonJS TypeScript consumer of the built package: type-checked against dist/index.d.cts.
import { parseWebhook, scoreSubscriber, type Risk } from '@tenure/core';

const parsed = parseWebhook({ event: { type: 'TEST' } });
export const ok: boolean = parsed.ok;
export const score = (risk: Risk): number => risk.score;
export { scoreSubscriber };
