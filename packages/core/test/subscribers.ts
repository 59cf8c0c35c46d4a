// Example-test constants; the builders live in the published testing entry.
import { EXAMPLE_NOW } from '../src/testing/index.js';

export { makeRisk, makeSubscriber } from '../src/testing/index.js';

/** A fixed evaluation time for example tests: the instant `makeSubscriber` builds around. */
export const NOW = EXAMPLE_NOW;
