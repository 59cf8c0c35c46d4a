// An ESM TypeScript consumer of the built package: type-checked against dist/index.d.ts.
import { DEFAULT_CONFIG, recommend, type Recommendation } from '@tenure/core';

export const firstAction = (list: Recommendation[]): string | undefined => list[0]?.action;
export const base: number = DEFAULT_CONFIG.risk.state_base.churned;
export { recommend };
