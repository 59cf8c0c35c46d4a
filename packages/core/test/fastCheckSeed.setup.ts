// Pins fast-check's seed when FC_SEED is set, so a failing property run in CI can be replayed locally.
import fc from 'fast-check';

const seed = process.env.FC_SEED;
if (seed !== undefined && seed !== '') {
  fc.configureGlobal({ seed: Number(seed) });
}
