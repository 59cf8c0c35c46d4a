/**
 * Builds the dashboard's page into one TypeScript module the server serves from memory
 * (`src/dashboard/generated/dashboardAssets.ts`, committed): the page script compiled and bundled
 * by esbuild (the core's colour rules included), the CSS, and the HTML pointing at both by content
 * hash, with the build both services' pages share (`@tenure/http-edge/build`). Run by
 * `npm run build:dashboard` (part of the package build); a test fails when the committed module is stale.
 */
import { definePageBuild } from '@tenure/http-edge/build';

const dashboard = await definePageBuild(
  import.meta.url,
  {
    css: 'dashboard.css',
    assetDir: 'dashboard',
    prefix: 'DASHBOARD',
    title: 'The dashboard page',
    command: 'packages/server/dashboard/buildDashboard.ts (npm run build:dashboard -w @tenure/server)',
    keyVariable: 'TENURE_API_KEY',
  },
  '../src/dashboard/generated/dashboardAssets.ts',
);

export const GENERATED_PATH = dashboard.generatedPath;
/** Returns the text of the generated module. */
export const buildDashboardModule = dashboard.build;
