import { defineConfig } from 'tsup';

export default defineConfig({
  entry: ['src/index.ts', 'src/cli.ts'],
  format: ['esm', 'cjs'],
  dts: { entry: 'src/index.ts', compilerOptions: { customConditions: [] } },
  sourcemap: true,
  clean: true,
  target: 'node20',
});
