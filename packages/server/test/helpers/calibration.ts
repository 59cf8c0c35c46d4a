/** A calibration for the service's tests: three steps, the shape `calibrate` returns, with its window. */
import { DAY_MS, type ConfigCalibration } from '@tenure/core';
import { T0 } from './fixtures.js';

/**
 * Given the lowest step's probability, returns a 30-day calibration: `low` below 60, 31 % from 60 to
 * 79, 64 % from 80, fitted on `samples` outcomes (`positives` churned) between 150 and 30 days before T0.
 *
 * @example
 * stepCalibration(0.05).probabilities[72]; // 0.31
 */
export function stepCalibration(low: number, samples = 4000, positives = 600): ConfigCalibration {
  return {
    horizon_ms: 30 * DAY_MS,
    samples,
    positives,
    probabilities: Array.from({ length: 101 }, (_, s) => (s >= 80 ? 0.64 : s >= 60 ? 0.31 : low)),
    window: { from: T0 - 150 * DAY_MS, to: T0 - 30 * DAY_MS },
  };
}
