/**
 * Offerings and packages through the pure machine: whatever sequence of configuration commands runs,
 * the world's offering configuration stays consistent.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { pmapGet, pmapValues } from '../../src/machine/persistentMap.js';
import { toProduct } from '../../src/machine/products.js';
import { createWorld, transition, type SimCommand, type World } from '../../src/index.js';

const SETTINGS = { app_id: 'app_sim', store: 'TEST_STORE', environment: 'SANDBOX' as const, default_project_id: 'p1', country_code: 'US' };
const PROJECTS = ['p1', 'p2'] as const;
const KEYS = ['a', 'b', 'c'] as const;

/** A step: which command, with indexes into the offerings and packages that exist when it runs. */
type Step =
  | { kind: 'create_offering'; project: number; key: number }
  | { kind: 'update_offering'; pick: number; current: boolean | undefined }
  | { kind: 'delete_offering'; pick: number }
  | { kind: 'create_package'; pick: number; key: number }
  | { kind: 'delete_package'; pick: number }
  | { kind: 'attach'; pick: number; product: string; criteria: 'all' | 'google_sdk_lt_6' | 'google_sdk_ge_6' };

// Creations and attachments weigh more, so sequences build configurations worth checking.
const stepArb: fc.Arbitrary<Step> = fc.oneof(
  { weight: 3, arbitrary: fc.record({ kind: fc.constant('create_offering' as const), project: fc.nat(1), key: fc.nat(2) }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('update_offering' as const), pick: fc.nat(9), current: fc.option(fc.boolean(), { nil: undefined }) }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('delete_offering' as const), pick: fc.nat(9) }) },
  { weight: 4, arbitrary: fc.record({ kind: fc.constant('create_package' as const), pick: fc.nat(9), key: fc.nat(2) }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('delete_package' as const), pick: fc.nat(9) }) },
  {
    weight: 5,
    arbitrary: fc.record({
      kind: fc.constant('attach' as const),
      pick: fc.nat(9),
      product: fc.constantFrom('monthly', 'annual', 'ghost'),
      criteria: fc.constantFrom('all' as const, 'google_sdk_lt_6' as const, 'google_sdk_ge_6' as const),
    }),
  },
);

/** The command a step names in this world: `pick` modulo what exists (an unknown id when nothing does: a 404 path). */
function commandOf(world: World, step: Step): SimCommand {
  const offerings = pmapValues(world.api.offerings).sort((a, b) => a.seq - b.seq);
  const packages = pmapValues(world.api.packages).sort((a, b) => a.seq - b.seq);
  const pick = step.kind === 'create_offering' ? 0 : step.pick;
  const offering = offerings[pick % Math.max(1, offerings.length)];
  const pkg = packages[pick % Math.max(1, packages.length)];
  const project = offering?.project_id ?? 'p1';
  switch (step.kind) {
    case 'create_offering':
      return { type: 'create_offering', project_id: PROJECTS[step.project]!, input: { lookup_key: KEYS[step.key]!, display_name: 'O' } };
    case 'update_offering':
      return { type: 'update_offering', project_id: project, id: offering?.id ?? 'ofrngnone', update: { is_current: step.current } };
    case 'delete_offering':
      return { type: 'delete_offering', project_id: project, id: offering?.id ?? 'ofrngnone' };
    case 'create_package':
      return { type: 'create_package', project_id: project, offering_id: offering?.id ?? 'ofrngnone', input: { lookup_key: KEYS[step.key]!, display_name: 'P' } };
    case 'delete_package':
      return { type: 'delete_package', project_id: pkg?.project_id ?? 'p1', id: pkg?.id ?? 'pkgenone' };
    case 'attach':
      return { type: 'attach_package_products', project_id: pkg?.project_id ?? 'p1', id: pkg?.id ?? 'pkgenone', products: [{ product_id: step.product, eligibility_criteria: step.criteria }] };
  }
}

/** Every consistency rule of the offering configuration; the broken ones, by name. */
function broken(world: World): string[] {
  const problems: string[] = [];
  const offerings = pmapValues(world.api.offerings);
  const packages = pmapValues(world.api.packages);
  for (const project of PROJECTS) {
    const current = pmapGet(world.api.current_offering, project);
    if (current !== undefined && pmapGet(world.api.offerings, current)?.project_id !== project) problems.push(`current offering of ${project} missing`);
    const keys = offerings.filter((o) => o.project_id === project).map((o) => o.lookup_key);
    if (new Set(keys).size !== keys.length) problems.push(`offering lookup keys repeat in ${project}`);
  }
  for (const p of packages) {
    const offering = pmapGet(world.api.offerings, p.offering_id);
    if (offering === undefined || offering.project_id !== p.project_id) problems.push(`package ${p.id} without its offering`);
    const siblings = packages.filter((q) => q.offering_id === p.offering_id && q.lookup_key === p.lookup_key);
    if (siblings.length > 1) problems.push(`package lookup key ${p.lookup_key} repeats`);
    const criteria = p.products.map((h) => h.eligibility_criteria);
    if (new Set(criteria).size !== criteria.length) problems.push(`package ${p.id} holds two products for one criteria`);
    if (p.products.some((h) => !world.products.has(h.product_id))) problems.push(`package ${p.id} holds a product not in the catalog`);
  }
  return problems;
}

const product = (input: Parameters<typeof toProduct>[0]) => {
  const made = toProduct(input);
  if (!made.ok) throw new Error(made.message);
  return made.product;
};
const CATALOG = [product({ id: 'monthly', type: 'subscription', period: 'P1M' }), product({ id: 'annual', type: 'subscription', period: 'P1Y' })];
const start = () => createWorld(SETTINGS, 'offerings', Date.UTC(2026, 0, 1), CATALOG);

describe('offerings and packages in the machine', () => {
  it('keep one existing current offering per project at most, unique lookup keys, packages inside their offerings and one product per criteria', () => {
    fc.assert(
      fc.property(fc.array(stepArb, { minLength: 10, maxLength: 60 }), (steps) => {
        let world = start();
        for (const step of steps) {
          const hadCurrent = (project: string) => pmapGet(world.api.current_offering, project) !== undefined;
          const command = commandOf(world, step);
          const before = command.type === 'create_offering' ? hadCurrent(command.project_id) : true;
          const out = transition(world, command, world.now);
          if (!out.ok) continue;
          // The project's first offering (none current before it) becomes current.
          if (command.type === 'create_offering' && !before) expect(pmapGet(out.world.api.current_offering, command.project_id)).toBe((out.value as { id: string }).id);
          world = out.world;
          expect(broken(world)).toEqual([]);
        }
      }),
    );
  });

  it('refuses a configuration command only with 404, 409 or 422 (never a server error)', () => {
    fc.assert(
      fc.property(fc.array(stepArb, { minLength: 10, maxLength: 60 }), (steps) => {
        let world = start();
        for (const step of steps) {
          const out = transition(world, commandOf(world, step), world.now);
          if (out.ok) world = out.world;
          else expect(out.error.type).toMatch(/^(resource_missing|resource_already_exists|unprocessable_entity_error)$/);
        }
      }),
    );
  });
});
