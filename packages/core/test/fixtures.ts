// Loads the webhook fixtures: payloads in the billing service's real format, one file per event type.
import { readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const dir = fileURLToPath(new URL('./fixtures/webhooks/', import.meta.url));

/** Every fixture by file name (without `.json`). */
export const webhookFixtures: Record<string, unknown> = Object.fromEntries(
  readdirSync(dir)
    .filter((name) => name.endsWith('.json'))
    .map((name) => [name.slice(0, -'.json'.length), JSON.parse(readFileSync(dir + name, 'utf8')) as unknown]),
);

/** One fixture, parsed from JSON anew (callers may mutate it). */
export function loadFixture(name: string): { api_version: string; event: Record<string, unknown> } {
  return JSON.parse(readFileSync(`${dir}${name}.json`, 'utf8')) as { api_version: string; event: Record<string, unknown> };
}
