/**
 * The simulator CLI's settings: each from its flag or its environment variable (a flag wins; an
 * empty value counts as unset, as in `tenure serve`), checked. A bad one is one line that names
 * where the value came from first: `BILLING_SIM_PORT (--port) must be …, got "abc"` for a variable,
 * `--port (BILLING_SIM_PORT) …` for a flag. Pure: the parsed flags and the environment in, values out.
 */
import { createIntegrationBodySchema } from './v2/integrationResource.js';
import { LOG_LEVELS, parseLogLevel, type LogLevel } from './cliLog.js';
import type { RateLimitSettings } from './http/rateLimit/rateLimits.js';
import { VIRTUAL_CLOCK_END } from './machine/clockBounds.js';
import type { IntegrationInput } from './machine/integrations.js';
import { MAX_PROJECT_ID_LENGTH } from './machine/projects.js';

/** Each flag's environment variable (the options table of docs/billing-sim.md). */
const VARIABLES = {
  port: 'BILLING_SIM_PORT',
  host: 'BILLING_SIM_HOST',
  seed: 'BILLING_SIM_SEED',
  start: 'BILLING_SIM_START',
  'webhook-url': 'BILLING_SIM_WEBHOOK_URL',
  'webhook-auth': 'BILLING_SIM_WEBHOOK_AUTH',
  'retry-schedule': 'BILLING_SIM_RETRY_SCHEDULE',
  'shutdown-timeout-ms': 'BILLING_SIM_SHUTDOWN_TIMEOUT_MS',
  'rate-limits': 'BILLING_SIM_RATE_LIMITS',
  project: 'BILLING_SIM_PROJECTS',
  'log-level': 'LOG_LEVEL',
  'metrics-public': 'METRICS_PUBLIC',
  'follow-wall-clock': 'BILLING_SIM_FOLLOW_WALL_CLOCK',
} as const satisfies Record<string, string>;
type Flag = keyof typeof VARIABLES;

/** What `parseArgs` gave, by flag. */
export type FlagValues = Readonly<Record<string, string | boolean | string[] | undefined>>;
type Env = Readonly<Record<string, string | undefined>>;
type Checked<T> = { ok: true; value: T } | { ok: false; error: string };

/** A setting's text and its name in an error, where the value came from first. */
interface Setting {
  text: string | undefined;
  name: string;
}

function settingOf(flag: Flag, values: FlagValues, env: Env): Setting {
  const given = values[flag];
  const envText = env[VARIABLES[flag]];
  if (typeof given === 'string' && given !== '') return { text: given, name: `--${flag} (${VARIABLES[flag]})` };
  if (envText !== undefined && envText !== '') return { text: envText, name: `${VARIABLES[flag]} (--${flag})` };
  return { text: undefined, name: `--${flag} (${VARIABLES[flag]})` };
}

const bad = (s: Setting, rule: string, got = `, got "${s.text}"`): { ok: false; error: string } => ({ ok: false, error: `${s.name} must be ${rule}${got}` });

/** What every command but `population` reads: the log level, METRICS_PUBLIC and the webhook target. */
export interface CommonSettings {
  level: LogLevel;
  metricsPublic: boolean;
  retrySchedule: 'real' | 'fast' | undefined;
  /** The `--webhook-url` target with its Authorization value, as a webhook integration's body; null without a URL. */
  integration: IntegrationInput | null;
}

/**
 * Given the parsed flags and the environment, returns the settings every command reads, or the
 * first bad one's line. Pure.
 *
 * @example
 * readCommonSettings({}, { LOG_LEVEL: 'loud' }); // { ok: false, error: 'LOG_LEVEL (--log-level) must be one of fatal, …, got "loud"' }
 */
export function readCommonSettings(values: FlagValues, env: Env): Checked<CommonSettings> {
  const levelSetting = settingOf('log-level', values, env);
  const level = parseLogLevel(levelSetting.text ?? 'info');
  if (level === undefined) return bad(levelSetting, `one of ${LOG_LEVELS.join(', ')}`);
  const metrics = settingOf('metrics-public', values, env);
  const publicText = metrics.text?.toLowerCase();
  if (publicText !== undefined && !['true', 'false', '1', '0'].includes(publicText)) return bad(metrics, 'true or false');
  const schedule = settingOf('retry-schedule', values, env);
  if (schedule.text !== undefined && schedule.text !== 'real' && schedule.text !== 'fast') return bad(schedule, 'real or fast');
  const url = settingOf('webhook-url', values, env);
  const auth = settingOf('webhook-auth', values, env);
  let integration: CommonSettings['integration'] = null;
  if (url.text !== undefined) {
    const body = createIntegrationBodySchema.safeParse({ name: 'tenure-billing-sim --webhook-url', url: url.text, authorization_header: auth.text ?? null });
    if (!body.success) {
      // The Authorization value is a secret: its error says how long it is, not what it is.
      const authFailed = body.error.issues.some((issue) => issue.path[0] === 'authorization_header');
      return authFailed ? bad(auth, 'at most 5000 characters', `, got ${auth.text?.length}`) : bad(url, 'an http or https URL');
    }
    integration = body.data;
  }
  return {
    ok: true,
    value: { level, metricsPublic: values['metrics-public'] === true || publicText === 'true' || publicText === '1', retrySchedule: schedule.text, integration },
  };
}

/** What `serve` reads besides the common settings. */
export interface ServeSettings {
  port: number;
  host: string;
  /** How a listen that fails names its host or port setting. */
  names: { port: string; host: string };
  /** The virtual clock's start (epoch ms). */
  now: number;
  seed: string | undefined;
  shutdownTimeoutMs: number;
  rateLimits: RateLimitSettings | false;
  projects: string[];
  /** The virtual clock follows the wall clock (`--follow-wall-clock`). */
  followWallClock: boolean;
}

/** `on` → the documented limits, `off` → no refusals, a number → the documented limits per that many ms; null when invalid. */
function parseRateLimits(text: string): RateLimitSettings | false | null {
  if (text === 'on') return {};
  if (text === 'off') return false;
  const ms = Number(text);
  return /^\d+$/.test(text) && ms >= 1 && ms <= 3_600_000 ? { window_ms: ms } : null;
}

/**
 * Given the parsed flags, the environment and the wall clock's now (the default start), returns
 * what `serve` reads, or the first bad setting's line. Pure.
 *
 * @example
 * readServeSettings({}, { BILLING_SIM_PORT: 'abc' }, Date.now()); // { ok: false, error: 'BILLING_SIM_PORT (--port) must be a port number from 0 to 65535, got "abc"' }
 */
export function readServeSettings(values: FlagValues, env: Env, wallNow: number): Checked<ServeSettings> {
  const port = settingOf('port', values, env);
  const portNumber = Number(port.text ?? '4000');
  if (!/^\d+$/.test(port.text ?? '4000') || portNumber > 65535) return bad(port, 'a port number from 0 to 65535');
  const host = settingOf('host', values, env);
  const start = settingOf('start', values, env);
  const now = start.text === undefined ? wallNow : Date.parse(start.text);
  if (!Number.isSafeInteger(now) || now < 0 || now > VIRTUAL_CLOCK_END) return bad(start, 'an ISO 8601 date-time from 1970 to 2100-01-01T00:00:00Z');
  const shutdown = settingOf('shutdown-timeout-ms', values, env);
  const shutdownTimeoutMs = Number(shutdown.text ?? '10000');
  if (!/^\d+$/.test(shutdown.text ?? '10000') || shutdownTimeoutMs > 3_600_000) return bad(shutdown, 'an integer from 0 to 3600000 (ms)');
  const rate = settingOf('rate-limits', values, env);
  const rateLimits = parseRateLimits(rate.text ?? 'on');
  if (rateLimits === null) return bad(rate, 'on, off or a window in ms from 1 to 3600000');
  const flagProjects = values['project'];
  const fromFlag = Array.isArray(flagProjects) && flagProjects.length > 0;
  const projects = fromFlag ? flagProjects : (env['BILLING_SIM_PROJECTS'] ?? '').split(',').filter((p) => p !== '');
  const badProject = projects.find((p) => p.length < 1 || p.length > MAX_PROJECT_ID_LENGTH);
  if (badProject !== undefined) {
    const name = fromFlag ? '--project (BILLING_SIM_PROJECTS)' : 'BILLING_SIM_PROJECTS (--project)';
    return bad({ name, text: badProject }, `a project id of 1-${MAX_PROJECT_ID_LENGTH} characters`);
  }
  const follow = settingOf('follow-wall-clock', values, env);
  const followText = follow.text?.toLowerCase();
  if (followText !== undefined && !['true', 'false', '1', '0'].includes(followText)) return bad(follow, 'true or false');
  return {
    ok: true,
    value: {
      followWallClock: values['follow-wall-clock'] === true || followText === 'true' || followText === '1',
      port: portNumber,
      host: host.text ?? '127.0.0.1',
      names: { port: port.name, host: host.name },
      now,
      seed: settingOf('seed', values, env).text,
      shutdownTimeoutMs,
      rateLimits,
      projects,
    },
  };
}
