/** Help texts of `tenure backtest` and `tenure tune` (kept apart so `--help` output is easy to review). */

const HISTORY_OPTIONS = `  --events <file>        The history (required; or <file> alone, as tenure import takes it): NDJSON
                         as \`tenure export\` writes it (events and activity), or with --format
                         revenuecat-export a RevenueCat data export (CSV version 5, plain or gzip;
                         sandbox rows are left out)
  --format <format>      ndjson (default) or revenuecat-export
  --horizon <duration>   Churn within this long after a cutoff counts (default 30d; h, d or w)
  --step <duration>      Time between cutoffs (default 7d)
  --from <date>          First cutoff, 2026-03-01 or an ISO time with its zone (default: the first
                         midnight UTC one horizon after the history's first record)
  --to <date>            Last cutoff at most (default: one horizon before the history's last record)
  --lapse <duration>     A period ended this long ago with no event counts as lapsed (default 3d)
  --config <file>        A tenure config file (what \`tenure tune\` writes): its weights and bands are
                         scored, and its calibration judged (Brier out of sample)
  --json                 Print the report as JSON on stdout
  -h, --help             Show this help`;

export const BACKTEST_HELP = `Usage: tenure backtest (--events <file> | <file>) [options]

Measure the risk score on your own history: at each cutoff every live subscriber is scored from the
records before it, and labelled by whether it churned within the horizon after it. Prints, pooled and
per cutoff: subscribers, churners, base rate, ROC AUC, PR AUC, Brier score and lift per band, with a
warning beside any figure with under 30 churners. See docs/backtesting.md.

Options:
${HISTORY_OPTIONS}
  --html <file>          Also write one self-contained HTML page: ROC and precision-recall curves,
                         calibration plot, lift by band and the per-cutoff table

A progress bar is drawn on stderr when it is a terminal. Bad input exits 2 with one line.

Example:
  tenure export --out history.ndjson
  tenure backtest --events history.ndjson --horizon 30d --step 7d --html report.html
`;

export const TUNE_HELP = `Usage: tenure tune (--events <file> | <file>) --out <file> [options]

Search for weights that rank your own churners better, and prove them on a later holdout: the latest
share of cutoffs is held out, the weights are tuned on earlier cutoffs whose horizon ends before it.
Prints the starting and the tuned weights on the holdout (ROC AUC, PR AUC, Brier, churners) and
writes a config file with the weights, the bands and a calibration fitted on the training period.
When nothing beats the starting weights on the holdout it says so and writes those.

Options:
${HISTORY_OPTIONS.replace('are\n                         scored, and its calibration judged (Brier out of sample)', 'are\n                         the starting point (default: the built-in configuration)')}
  --holdout <share>      Share of cutoffs held out, strictly between 0 and 100% (default 25%)
  --seed <n>             Seeds the search order; same seed and history, same result (default 1)
  --rounds <n>           Search rounds, 1 to 50 (default 4)
  -o, --out <file>       The config file to write (required), e.g. tenure.config.json

Example:
  tenure tune --events history.ndjson --holdout 25% --out tenure.config.json
  tenure backtest --events history.ndjson --config tenure.config.json
`;
