/** The CLI's help texts (kept apart so `--help` output is easy to review). */

export const MAIN_HELP = `Usage: tenure <command> [options]

Commands:
  serve       Run the retention service (webhook receiver, API, alerts)
  replay      Rebuild every subscriber and at-risk row from the stored events (after a rules or
              config change); safe while the service runs
  export      Write the stored events and reported activity as NDJSON
  import      Read NDJSON events into the store (idempotent: duplicates are counted, not applied)
  backfill    Read a RevenueCat project's customers over API v2 into the store (resumable;
              the key from REVENUECAT_API_KEY)
  backtest    Measure the risk score on a history file: ROC AUC, PR AUC, Brier, lift per band,
              per cutoff and pooled (--html writes a report page); reads no store
  tune        Tune the weights on a history file, prove them on a later holdout, write a config file

Each store command takes --store / DATABASE_URL (default sqlite:./data/tenure.db); each command takes --help.

Options:
  -h, --help     Show help (also: tenure <command> --help)
  -v, --version  Print the version
`;

export const SERVE_HELP = `Usage: tenure serve [options]

Run the retention service: POST /webhook receives the billing service's (RevenueCat's) webhooks,
/api/* serves scores, recommendations, at-risk lists and dispatch, GET /health, /openapi.json and
/metrics (Prometheus).
Every option can be given as a flag or as an environment variable; a flag wins. A bad value stops the
start with exit code 2 and one line naming it as given (e.g. PORT (--port) for the variable); so does
a host or port it cannot listen on (a host name that does not resolve, an address in use).

Options (flag | environment variable | default):
  --port <n>                    PORT                       3000
  --host <addr>                 HOST                       127.0.0.1 (use 0.0.0.0 in a container)
  --webhook-auth-key <value>    BILLING_WEBHOOK_AUTH_KEY   unset: webhook auth is OFF (development mode)
        The exact Authorization header value configured in the billing service, compared in constant time.
  --api-key <key>               TENURE_API_KEY             unset: /api/* is OPEN (development mode)
        /api/* then requires "Authorization: Bearer <key>", and so does GET /metrics unless public.
  --metrics-public              METRICS_PUBLIC=true        off: GET /metrics (Prometheus) needs the API key when one is set
  --store <spec>                DATABASE_URL               sqlite:./data/tenure.db
        memory: in process, lost on restart (tests, trying things out).
        sqlite:PATH: one file (the directory is created on first run); events, subscribers, the
          at-risk index, the dispatch log and cooldowns survive restarts.
        postgres://USER:PASSWORD@HOST:5432/DB[?schema=NAME]: several replicas on one database.
        A store that cannot be opened stops the start with one line on stderr and exit code 1.
  --service-name <name>         SERVICE_NAME               tenure
  --clock <mode>                TENURE_CLOCK               wall
        wall: real time. event: now = the latest event time seen (simulations on a virtual clock).
        An ISO time (e.g. 2026-01-12T00:00:00Z): a fixed now.
  --smtp-url <url>              SMTP_URL                   unset: no email alerts
        smtp://user:pass@host:587 or smtps://user:pass@host:465
  --alert-email-from <addr>     ALERT_EMAIL_FROM           required with SMTP_URL
  --alert-email-to <addrs>      ALERT_EMAIL_TO             required with SMTP_URL (comma-separated)
  --slack-webhook-url <url>     SLACK_WEBHOOK_URL          unset: no chat alerts
  --alert-rate <n>              ALERT_RATE_PER_SECOND      1 message per second per channel (0 = no limit)
  --alert-cooldown-hours <h>    ALERT_COOLDOWN_HOURS       24: same subscriber + action alerted at most once
        per window; when set, it replaces every cooldown of the --config file.
  --config <file>               TENURE_CONFIG              unset: the default rules, no calibration
        A JSON file: rule overrides (risk, bands, recommend), alert cooldowns per urgency and channel,
        a calibration (each score's churn probability). A file with problems: each listed, exit 2,
        nothing started. Rows scored under other rules are rescored once before listening.
        Its "offers" (per action: entitlement, duration, auto, daily_cap, cooldown) are granted
        through RevenueCat's API v2 and need REVENUECAT_API_KEY and --revenuecat-project.
  --revenuecat-project <id>     REVENUECAT_PROJECT         unset: the RevenueCat project offers are granted in
  --revenuecat-base-url <url>   REVENUECAT_API_BASE_URL    https://api.revenuecat.com/v2 (a simulator's /v2 URL in tests)
  --no-auto-dispatch            TENURE_AUTO_DISPATCH=false auto-dispatch is on: a webhook that raises an
        immediate recommendation sends its alert right away (after answering the webhook).
  --log-level <level>           LOG_LEVEL                  info (fatal, error, warn, info, debug, trace, silent)
  --shutdown-timeout-ms <ms>    TENURE_SHUTDOWN_TIMEOUT_MS 10000: bound of a graceful shutdown
  -h, --help                    Show this help

Prefer environment variables for secrets: flags are visible in the process list.
SIGTERM/SIGINT stop accepting connections, finish in-flight requests and pending alerts, then exit 0,
all within --shutdown-timeout-ms: alerts still unsent then are recorded as failed ("not sent before
shutdown") with their cooldowns released, so the next dispatch sends them. A second signal exits at once.
`;
