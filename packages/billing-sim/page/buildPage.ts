/**
 * Builds the simulator's control page into one TypeScript module it serves from memory
 * (`src/page/generated/pageAssets.ts`, committed), with the build the retention dashboard uses
 * too (`@tenure/http-edge/build`): the page script bundled by esbuild, the CSS, and the HTML
 * pointing at both by content hash. Run by `npm run build:page` (part of the package build); a
 * test fails when the committed module is stale.
 */
import { definePageBuild } from '@tenure/http-edge/build';

export const { generatedPath, build } = await definePageBuild(
  import.meta.url,
  {
    css: 'page.css',
    assetDir: 'page',
    prefix: 'SIM_PAGE',
    title: "The billing simulator's control page",
    command: 'packages/billing-sim/page/buildPage.ts (npm run build:page -w @tenure/billing-sim)',
    keyVariable: 'BILLING_SIM_API_KEY',
  },
  '../src/page/generated/pageAssets.ts',
);
