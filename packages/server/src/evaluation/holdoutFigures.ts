/**
 * Judging a configuration the way `tenure backtest --config` will: its calibration fitted on the
 * training cutoffs, its figures on the holdout cutoffs with that calibration (an out-of-sample
 * Brier score). Pure.
 */
import { backtestHistory, groupHistory, type BacktestOptions, type Calibration, type GroupedHistory, type StoredRecord, type TenureConfig } from '@tenure/core';

/** A configuration's figures on the holdout. */
export interface HoldoutFigures {
  subscribers: number;
  churned: number;
  roc_auc: number | null;
  pr_auc: number | null;
  brier: number | null;
}

/** A configuration judged: its training calibration and its holdout figures. */
export interface JudgedConfig {
  calibration: Calibration;
  holdout: HoldoutFigures;
}

/**
 * Given a history grouped by customer (walked twice: it must iterate again, as a spilled history
 * does), the training and holdout cutoffs, the horizon and lapse, and a configuration,
 * returns the calibration fitted on the training cutoffs and the figures on the holdout cutoffs
 * (Brier of that calibration). Throws only if the cutoffs were not the ones `tune` returned. Pure.
 *
 * @example
 * const judged = judgeHistory(spilledHistory, tuned.training.cutoffs, tuned.holdout.cutoffs, { horizon_ms }, tuned.config);
 */
export function judgeHistory(
  history: GroupedHistory,
  training: readonly number[],
  holdout: readonly number[],
  window: Pick<BacktestOptions, 'horizon_ms' | 'lapse_ms'>,
  config: TenureConfig,
): JudgedConfig {
  const trained = backtestHistory(history, { ...window, cutoffs: training, config });
  if (!trained.ok) throw new Error(`training cutoffs refused: ${trained.errors[0]?.message}`);
  const calibration = trained.value.calibration;
  const held = backtestHistory(history, { ...window, cutoffs: holdout, config, calibration });
  if (!held.ok) throw new Error(`holdout cutoffs refused: ${held.errors[0]?.message}`);
  const { subscribers, churned, roc_auc, pr_auc, brier } = held.value.pooled;
  return { calibration, holdout: { subscribers, churned, roc_auc, pr_auc, brier } };
}

/**
 * Given a history in memory, the training and holdout cutoffs, the horizon and lapse, and a
 * configuration, returns what `judgeHistory` returns for the same records grouped by customer. Pure.
 *
 * @example
 * const judged = judgeConfig(records, tuned.training.cutoffs, tuned.holdout.cutoffs, { horizon_ms }, tuned.config);
 */
export function judgeConfig(
  records: readonly StoredRecord[],
  training: readonly number[],
  holdout: readonly number[],
  window: Pick<BacktestOptions, 'horizon_ms' | 'lapse_ms'>,
  config: TenureConfig,
): JudgedConfig {
  return judgeHistory(groupHistory(records), training, holdout, window, config);
}

/**
 * Given two configurations, returns each number that differs as `path: before → after`. Pure.
 *
 * @example
 * changedWeights(DEFAULT_CONFIG, tuned); // ['risk.inactivity_cap: 15 → 30']
 */
export function changedWeights(before: TenureConfig, after: TenureConfig): string[] {
  const out: string[] = [];
  const walk = (a: unknown, b: unknown, path: string) => {
    if (typeof a === 'object' && a !== null && typeof b === 'object' && b !== null) {
      for (const key of Object.keys(a)) walk((a as Record<string, unknown>)[key], (b as Record<string, unknown>)[key], path === '' ? key : `${path}.${key}`);
    } else if (a !== b) out.push(`${path}: ${String(a)} → ${String(b)}`);
  };
  walk(before, after, '');
  return out;
}
