/**
 * Who calls API v1, from its `Authorization` header: a project's app by its public key (what the
 * SDKs send; they may call what the SDKs call), or the secret key (`BILLING_SIM_API_KEY`: every
 * operation, on the default project). Without a secret key set (development mode), any key with a
 * public prefix (`test_`, `rcb_`, `appl_`, `goog_`…) reaches the default project as that kind of app,
 * and any other key is read as a secret key.
 */
import type { SecretMatcher } from '@tenure/http-edge';
import { appsOf, PUBLIC_KEY_PREFIXES, publicKeyOf, type SimApp } from '../v2/apps.js';
import { projectIds } from '../machine/projects.js';
import type { World } from '../machine/world.js';

/** A caller of API v1: its project, the kind of key, and for a public key the app it belongs to. */
export type V1Caller = { kind: 'secret'; project_id: string } | { kind: 'public'; project_id: string; app: SimApp };

interface PublicKeys {
  settings: World['settings'];
  apps: SimApp[];
  /** Every project's apps by public key, the first project (in `projectIds` order) winning. */
  byKey: Map<string, { project_id: string; app: SimApp }>;
}

/** Per world's projects (and settings): a request reads the keys instead of deriving every project's. */
const keysByProjects = new WeakMap<World['projects'], PublicKeys>();

function publicKeysOf(world: World): PublicKeys {
  const known = keysByProjects.get(world.projects);
  if (known !== undefined && known.settings === world.settings) return known;
  const apps = appsOf(world.settings);
  const byKey: PublicKeys['byKey'] = new Map();
  for (const projectId of projectIds(world)) {
    for (const app of apps) {
      const key = publicKeyOf(projectId, app);
      if (!byKey.has(key)) byKey.set(key, { project_id: projectId, app });
    }
  }
  const keys = { settings: world.settings, apps, byKey };
  keysByProjects.set(world.projects, keys);
  return keys;
}

/**
 * Given the world, the `Authorization` header and the secret key's matcher (undefined in development
 * mode), returns the caller, or null for a key that opens nothing (401, code 7225).
 *
 * @example
 * resolveCaller(world, `Bearer ${publicKeyOf('proj_sim', appsOf(world.settings)[0]!)}`, undefined)?.kind; // 'public'
 */
export function resolveCaller(world: World, authorization: string, secret: SecretMatcher | undefined): V1Caller | null {
  const key = /^Bearer (\S+)$/.exec(authorization)?.[1];
  if (key === undefined) return null;
  const home = world.settings.default_project_id;
  if (secret?.matches(authorization) === true) return { kind: 'secret', project_id: home };
  const { apps, byKey } = publicKeysOf(world);
  const owner = byKey.get(key);
  if (owner !== undefined) return { kind: 'public', project_id: owner.project_id, app: owner.app };
  if (secret !== undefined) return null;
  const prefix = PUBLIC_KEY_PREFIXES.find((p) => key.startsWith(p));
  if (prefix === undefined) return { kind: 'secret', project_id: home };
  const app = apps.find((a) => a.key_prefix === prefix) ?? apps[0]!;
  return { kind: 'public', project_id: home, app };
}
