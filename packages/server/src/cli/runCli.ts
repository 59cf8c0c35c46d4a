/** The `tenure` command: parse, then start the service (or print help/version). */
import { listenErrorSetting } from '@tenure/http-edge';
import type { DestinationStream } from 'pino';
import { clockFromSpec } from '../clock/clock.js';
import { createLogger } from '../log/logger.js';
import { createAlertWebhookNotifier } from '../notify/alertWebhookNotifier.js';
import type { Notifier } from '../notify/notifier.js';
import { createSlackNotifier } from '../notify/slackNotifier.js';
import { createSmtpNotifier } from '../notify/smtpNotifier.js';
import { startRetentionServer, type RunningRetentionServer } from '../server/startRetentionServer.js';
import { describeStoreSpec, errorLine, openStore, parseStoreSpec, redactStoreText, sandboxStoreSpec } from '../store/openStore.js';
import { runBackfillCommand } from '../backfill/runBackfillCommand.js';
import { runDataCommand } from './dataCommands.js';
import { runEvaluationCommand } from '../evaluation/runEvaluationCommand.js';
import { MAIN_HELP, SERVE_HELP } from './helpText.js';
import { parseServeArgs, type ServeConfig } from './serveConfig.js';
import { loadServeSettings } from './serveSettings.js';
import { VERSION } from './version.js';

export interface CliIo {
  stdout: (text: string) => void;
  stderr: (text: string) => void;
  /** Where JSON logs go; default stdout. */
  logDestination?: DestinationStream;
  /** Install SIGTERM/SIGINT handlers; default true. */
  handleSignals?: boolean;
}

export interface CliResult {
  /** Exit code to use once `running` (if any) has stopped. */
  code: number;
  running?: RunningRetentionServer;
}

const describeClock = (c: ServeConfig['clock']) => (c.kind === 'fixed' ? new Date(c.at).toISOString() : c.kind);

/**
 * Given the arguments (without node and script), the environment and the io, runs the command:
 * `serve` resolves once the service listens; `replay`, `export`, `import` and `backfill` once done;
 * `--help`/`--version` print and resolve with code 0; bad input (a flag or variable, named as given,
 * in one line; a host or port it cannot listen on, likewise; or any problem of the configuration
 * file, each listed) prints the error and resolves with code 2; a store that cannot be opened prints
 * one line and resolves with code 1.
 *
 * @example
 * const { code, running } = await runCli(process.argv.slice(2), process.env, { stdout: console.log, stderr: console.error });
 */
export async function runCli(argv: readonly string[], env: Readonly<Record<string, string | undefined>>, io: CliIo): Promise<CliResult> {
  const [command, ...rest] = argv;
  if (command === '--version' || command === '-v') return io.stdout(`${VERSION}\n`), { code: 0 };
  if (command === undefined || command === '--help' || command === '-h' || command === 'help') return io.stdout(MAIN_HELP), { code: 0 };
  if (command === 'replay' || command === 'export' || command === 'import') return runDataCommand(command, rest, env, io);
  if (command === 'backfill') return { code: await runBackfillCommand(rest, env, io) };
  if (command === 'backtest' || command === 'tune') return runEvaluationCommand(command, rest, io);
  if (command !== 'serve') return io.stderr(`Unknown command "${command}".\n\n${MAIN_HELP}`), { code: 2 };

  const parsed = parseServeArgs(rest, env);
  if (!parsed.ok) return io.stderr(`tenure serve: ${parsed.error}\n`), { code: 2 };
  if (parsed.help) return io.stdout(SERVE_HELP), { code: 0 };
  const c = parsed.config;
  const settings = await loadServeSettings(c); // a bad configuration file: every problem listed, nothing started
  if (!settings.ok) return io.stderr(`tenure serve: ${settings.message}`), { code: 2 };

  const logger = createLogger({ level: c.logLevel, service: c.serviceName, ...(io.logDestination === undefined ? {} : { destination: io.logDestination }) });
  for (const warning of settings.warnings) logger.warn(warning);
  const storeSpec = parseStoreSpec(c.store);
  if (!storeSpec.ok) return io.stderr(`tenure serve: cannot open store ${redactStoreText(c.store)}: ${storeSpec.error}\n`), { code: 1 };
  // One endpoint from the flags (named `default`), more from the file's `alert_webhooks`.
  const endpoints = [...(c.alertWebhook === undefined ? [] : [{ name: 'default', ...c.alertWebhook }]), ...settings.alertWebhooks];
  const clash = c.alertWebhook === undefined ? undefined : settings.alertWebhooks.find((e) => e.name === 'default');
  if (clash !== undefined) return io.stderr(`tenure serve: --alert-webhook-url (ALERT_WEBHOOK_URL) is the endpoint "default", and ${c.configFile} alert_webhooks names another "default": rename one\n`), { code: 2 };
  const alertWebhooks = endpoints.map((e) => createAlertWebhookNotifier({ name: e.name, url: e.url, secret: e.secret, ...(e.urgencies === undefined ? {} : { urgencies: e.urgencies }) }));
  const notifiers: Notifier[] = [];
  try {
    if (c.smtp !== undefined) notifiers.push(createSmtpNotifier({ smtpUrl: c.smtp.url, from: c.smtp.from, to: c.smtp.to }));
    if (c.slackWebhookUrl !== undefined) notifiers.push(createSlackNotifier({ webhookUrl: c.slackWebhookUrl }));
    const store = await openStore(storeSpec.spec, { applicationName: c.serviceName }).catch(async (error: unknown) => {
      await Promise.allSettled(notifiers.map((n) => n.close?.()));
      throw error;
    });
    // SANDBOX events go to a second namespace of the same kind (docs/storage.md, "Environments").
    const sandboxSpec = sandboxStoreSpec(storeSpec.spec);
    const sandboxStore = await (sandboxSpec.ok ? openStore(sandboxSpec.spec, { applicationName: c.serviceName }) : Promise.reject(new Error(sandboxSpec.error))).catch(
      async (error: unknown) => {
        await Promise.allSettled([store.close(), ...notifiers.map((n) => n.close?.())]);
        throw error;
      },
    );
    const running = await startRetentionServer({
      store,
      sandboxStore,
      port: c.port,
      host: c.host,
      serviceName: c.serviceName,
      webhookAuthKey: c.webhookAuthKey,
      apiKey: c.apiKey,
      metricsPublic: c.metricsPublic,
      clock: clockFromSpec(c.clock),
      logger,
      notifiers,
      alertWebhooks,
      ...settings.service,
      dispatch: { auto: c.autoDispatch, ratePerSecond: c.ratePerSecond, ...settings.dispatch },
      handleSignals: io.handleSignals ?? true,
      shutdownTimeoutMs: c.shutdownTimeoutMs,
      describe: { store: describeStoreSpec(storeSpec.spec), clock: describeClock(c.clock), auto_dispatch: c.autoDispatch, version: VERSION },
    });
    return { code: 0, running };
  } catch (error) {
    // A host or port it cannot listen on is a bad setting: named as given (flag or variable), exit 2.
    const setting = listenErrorSetting(error, c.host);
    if (setting !== null) {
      const value = setting === 'host' ? `"${c.host}"` : String(c.port);
      return io.stderr(`tenure serve: cannot listen on ${parsed.names[setting]} ${value}: ${errorLine(error)}\n`), { code: 2 };
    }
    io.stderr(`tenure serve: ${errorLine(error)}\n`);
    return { code: 1 };
  }
}
