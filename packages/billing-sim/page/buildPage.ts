/**
 * Builds the simulator's control page into one TypeScript module it serves from memory
 * (`src/page/generated/pageAssets.ts`, committed), with the build the retention dashboard uses
 * too (`@tenure/http-edge/build`): the page script bundled by esbuild, the CSS, and the HTML
 * pointing at both by content hash. Run by `npm run build:page` (part of the package build); a
 * test fails when the committed module is stale.
 */
import { fileURLToPath } from 'node:url';
import { buildPageModule, writePageModuleIfMain, type PageSources } from '@tenure/http-edge/build';

export const GENERATED_PATH = fileURLToPath(new URL('../src/page/generated/pageAssets.ts', import.meta.url));

const PAGE: PageSources = {
  dir: new URL('.', import.meta.url),
  css: 'page.css',
  assetDir: 'page',
  prefix: 'SIM_PAGE',
  title: "The billing simulator's control page",
  command: 'packages/billing-sim/page/buildPage.ts (npm run build:page -w @tenure/billing-sim)',
};

/** Returns the text of the generated module. */
export const buildPageModuleText = (): Promise<string> => buildPageModule(PAGE);

await writePageModuleIfMain(import.meta.url, PAGE, GENERATED_PATH);
