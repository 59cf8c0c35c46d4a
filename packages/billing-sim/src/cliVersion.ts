/** The package version, inlined from package.json at build time (as `tenure --version` does). */
import pkg from '../package.json' with { type: 'json' };

export const VERSION: string = pkg.version;
