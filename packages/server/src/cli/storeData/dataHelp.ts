/** Help texts of the data commands (kept apart so `--help` output is easy to review). */

const STORE_OPTION = `  --store <spec>        DATABASE_URL   sqlite:./data/tenure.db
        memory, sqlite:PATH, or postgres://USER[:PASSWORD]@HOST:PORT/DB[?schema=NAME]`;

const CONFIG_OPTION = `  --config <file>       TENURE_CONFIG  unset: the default rules
        The configuration file "tenure serve" runs: its rules score the rows (with other rules, the
        service would rescore every row at its next start). A file with problems: exit 2, each listed.`;

const CLOCK_OPTION = `  --clock <mode>        TENURE_CLOCK   wall
        The instant subscribers are assessed at: wall (real time), an ISO time (a fixed instant), or
        event (the latest event time read; replay reads none, so it assesses at wall time).`;

export const REPLAY_HELP = `Usage: tenure replay [options]

Rebuild every subscriber and its at-risk row from the stored events and reported activity, after
an upgrade that changed a rule or a configuration change. Runs customer by customer in batches,
each batch in its own transaction, while a live "tenure serve" keeps using the same store: no
webhook is lost or applied twice. Interrupting it is safe; run it again to finish.

Options (flag | environment variable | default):
${STORE_OPTION}
${CLOCK_OPTION}
${CONFIG_OPTION}
  -h, --help            Show this help

Progress goes to stderr: a bar on a terminal, a line every 5 seconds otherwise, then a summary.
Exit status: 0 done; 1 the store could not be opened or failed; 2 flags that do not parse, or a
configuration file with problems.
`;

export const EXPORT_HELP = `Usage: tenure export [--out FILE] [options]

Write everything the store holds as NDJSON, streamed: first every stored event as a webhook body
({"api_version":"1.0","event":{...}}, one per line, in storage order; a line can also be POSTed to
/webhook), then one {"activity":{"customer_id":"...","at":<epoch ms>}} line per customer with
app-reported activity, then one {"moved_subscription":{"original_transaction_id":"...","receiver":
"..."}} line per subscription a TRANSFER moved (where its later events go). Read it back with
"tenure import" (e.g. to move from SQLite to PostgreSQL).

Options (flag | environment variable | default):
  -o, --out <file>                     stdout
        Written to a temporary file beside it, renamed over FILE only when complete.
${STORE_OPTION}
  -h, --help            Show this help

Progress and a summary (lines written) go to stderr.
Exit status: 0 done; 1 the store could not be opened or the output could not be written; 2 flags
that do not parse.
`;

export const IMPORT_HELP = `Usage: tenure import <FILE | -> [options]
       tenure import --format revenuecat-export <FILE | -> [--include-sandbox] [--as-of ISO] [options]
       (--events FILE names the file too, as tenure backtest and tenure tune take it)

Read NDJSON written by "tenure export" (or webhook bodies, one per line) into the store: events in
batches, each batch one transaction, activity per customer, moved subscriptions' routes in file
order (a route applies to the events after its line). Idempotent: events are unique by id and a
route already held changes nothing, so importing a file again, or after an interruption, changes
nothing already stored.

Every line is counted as new, duplicate (event id already stored), ignored (a well-formed event of a
type tenure does not apply, e.g. TRANSFER), activity, routes, or rejected (not JSON, or a field is
invalid; activity of a customer with no events anywhere). Rejected lines are listed on stderr with
their line number and reason (the first 100; --json lists up to 10,000); the other lines are
imported. A duplicate whose transaction another customer holds is counted ("held by another
customer") and the first 10 are named in a warning (--json: held_elsewhere).

With --format revenuecat-export, read RevenueCat's scheduled data export (version 5 transactions
CSV, gzip or plain): every subscriber is derived as of the export from its transactions, as the
webhooks would have built it (event ids derived from the transactions, so importing a file again, or
the next day's, counts nothing twice). Events are stored batch by batch and each customer is folded
once, after the last row. A file without the version 5 columns is refused before anything is
written; a bad row is skipped and listed with its line number. Interrupted (Ctrl-C), it folds what
it stored and exits 130; if it dies, running the file again completes it. See docs/import.md.

Options (flag | environment variable | default):
  FILE                  The file to read; - reads stdin.
  --format <f>                         ndjson
        ndjson or revenuecat-export.
  --include-sandbox     revenuecat-export: import sandbox rows too, into the store's sandbox namespace
        (as sandbox webhooks: SQLite <name>.sandbox.db, PostgreSQL schema <schema>_sandbox);
        skipped and counted otherwise.
  --as-of <iso>                        the latest updated_at in the file
        revenuecat-export: the export's instant; subscriptions that ended by then are expired.
${STORE_OPTION}
${CLOCK_OPTION}
${CONFIG_OPTION}
  --batch-size <n>                     1000 events per transaction (10000 with revenuecat-export)
  --json                Print the report as JSON on stdout (the summary still goes to stderr).
  -h, --help            Show this help

Exit status: 0 every line was imported or skipped as duplicate/ignored; 1 some lines were rejected
(the others are imported), or the file, the store or a write failed; 2 flags that do not parse, or a
configuration file with problems.
`;
