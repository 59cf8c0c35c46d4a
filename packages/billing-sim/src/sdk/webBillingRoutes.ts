/**
 * The web SDK's routes the official document does not list (`revenuecat-sdk-web.md`): the products it
 * prices packages with, the branding it loads before a purchase, and a sink for its analytics events,
 * so a page needs nothing but `proxyURL` (and `eventsURL`) pointed at the simulator.
 */
import { toWebBillingProducts } from './webBillingProducts.js';
import { projectRecord } from '../machine/projects.js';
import { json } from '../http/httpTypes.js';
import { appUserIdOf } from '../v1/customerRoutes.js';
import { badField } from '../v1/v1Errors.js';
import type { V1Route } from '../v1/v1Route.js';

/** Every value of a repeated query parameter (`?id=a&id=b`). */
const allOf = (search: string | undefined, name: string): string[] => new URLSearchParams(search ?? '').getAll(name);

/** The web SDK's routes. */
export const webBillingRoutes: V1Route[] = [
  {
    method: 'GET', pattern: '/rcbilling/v1/subscribers/:app_user_id/products', access: 'any',
    summary: 'The products of ?id=…&id=… with their prices in micros, as the web SDK parses them (currency: the catalog\'s)',
    handler(sim, input) {
      const id = appUserIdOf(input);
      if (!id.ok) return id.answer;
      const currency = input.query['currency'];
      if (currency !== undefined && !/^[A-Z]{3}$/.test(currency)) return badField('currency', 'an ISO 4217 code such as USD');
      return json(200, toWebBillingProducts(sim.world(), allOf(input.search, 'id')));
    },
  },
  {
    method: 'GET', pattern: '/rcbilling/v1/branding', access: 'any', summary: "The checkout's branding: the project's name, no icon, the default appearance",
    handler: (sim, _input, caller) => json(200, { id: caller.project_id, app_name: projectRecord(sim.world(), caller.project_id).name, app_icon: null, app_icon_webp: null, appearance: null }),
  },
  {
    method: 'POST', pattern: '/v1/events', access: 'any', summary: "The SDK's analytics events (point httpConfig.eventsURL here): acknowledged, not kept",
    handler: () => json(200, {}),
  },
];
