import { describe, expect, it } from 'vitest';
import { DEFAULT_CONFIG } from '../config/defaultConfig.js';
import { SUBSCRIBER_STATES } from '../subscriber/subscriber.js';
import { stateBase } from './stateBase.js';

describe('stateBase', () => {
  it('reads each state its own base points', () => {
    // Distinct points per state, so a case that read another state's field fails.
    const base = Object.fromEntries(SUBSCRIBER_STATES.map((state, i) => [state, 11 * (i + 1)])) as typeof DEFAULT_CONFIG.risk.state_base;
    for (const state of SUBSCRIBER_STATES) expect(stateBase(base, state)).toBe(base[state]);
  });
});
