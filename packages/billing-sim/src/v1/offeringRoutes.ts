/**
 * API v1's offerings: what the SDKs show (an app's key only; the secret key is refused with 7243, as
 * the billing service refuses it), and a customer's override of its current offering (secret key).
 */
import { toOfferingsInfo } from './offeringsInfo.js';
import { offeringsOf } from '../machine/offerings.js';
import { json } from '../http/httpTypes.js';
import { answerAfter, appUserIdOf, SUBSCRIBER, withCustomer } from './customerRoutes.js';
import { V1_CODES, v1Error } from './v1Errors.js';
import type { V1Route } from './v1Route.js';

/** The offering routes of API v1. */
export const offeringRoutes: V1Route[] = [
  {
    method: 'GET', pattern: `${SUBSCRIBER}/offerings`, access: 'app',
    summary: "The project's offerings with the customer's current one and the placements (the customer need not exist)",
    handler(sim, input, caller) {
      const id = appUserIdOf(input);
      return id.ok ? json(200, toOfferingsInfo(sim.world(), caller.project_id, id.id)) : id.answer;
    },
  },
  {
    method: 'POST', pattern: `${SUBSCRIBER}/offerings/:offering_uuid/override`, access: 'secret',
    summary: "Override a customer's current offering (by its id, or its identifier): 201 with the customer info",
    handler(sim, input, caller) {
      const wanted = input.params['offering_uuid'] ?? '';
      const offering = offeringsOf(sim.world(), caller.project_id).find((o) => o.id === wanted || o.lookup_key === wanted);
      if (offering === undefined) return v1Error(404, V1_CODES.bad_request, `offering_uuid: offering ${wanted} not found`);
      return withCustomer(sim, input, caller, (id) => {
        const done = sim.dispatch({ type: 'assign_offering', project_id: caller.project_id, customer_id: id, offering_id: offering.id });
        return answerAfter(sim, caller, id, done, 201);
      });
    },
  },
  {
    method: 'DELETE', pattern: `${SUBSCRIBER}/offerings/override`, access: 'secret', summary: "Remove a customer's offering override: 201 with the customer info",
    handler(sim, input, caller) {
      const id = appUserIdOf(input);
      if (!id.ok) return id.answer;
      const done = sim.dispatch({ type: 'assign_offering', project_id: caller.project_id, customer_id: id.id, offering_id: null });
      return answerAfter(sim, caller, id.id, done, 201);
    },
  },
];
