/**
 * @tenure/core/testing: the fast-check arbitraries and builders tenure's own property tests use,
 * so you can property-test your own configuration (see docs/testing-your-config.md). Needs
 * `fast-check` (a peer dependency of this entry only; the main entry does not load it).
 */
export {
  stateArb,
  eventKeyArb,
  customerIdArb,
  subscriberArb,
  nowFor,
  subscriberAtArb,
  riskArb,
  riskArbFor,
  subscriberRiskAtArb,
  assessmentsArb,
} from './subscriberArbitraries.js';
export { handledEventArb, distinctEventsArb, multiSubscriptionEventsArb, aliasedEventsArb } from './eventArbitraries.js';
export { storableIdArb } from './idArbitraries.js';
export { EXAMPLE_NOW, makeSubscriber, makeRisk } from './builders.js';
