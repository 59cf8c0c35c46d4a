/**
 * Whether the service has a calibration, and its horizon: read once from `GET /api/config` (the
 * configuration does not change while the service runs). Without one, the page shows no churn
 * probability anywhere.
 */
import { api } from './api.js';

let horizon: Promise<number | null> | undefined;

/** Resolves with the calibration's horizon (ms), or null without a calibration; a failed read is tried again next time. */
export function churnHorizon(): Promise<number | null> {
  horizon ??= api<{ calibration: { horizon_ms: number } | null }>('api/config').then(
    (config) => config.calibration?.horizon_ms ?? null,
    (error: unknown) => {
      horizon = undefined;
      throw error;
    },
  );
  return horizon;
}
