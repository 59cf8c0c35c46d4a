/** API v2 customers (Customer Information domain). */
import { toCustomerResource } from '../../api/customerResource.js';
import { fail } from '../../sim/apiError.js';
import { customerIn } from '../../sim/queries.js';
import { errorResponse, json } from '../httpTypes.js';
import type { Route } from '../route.js';
import { checkIds, param } from './ids.js';

const CUSTOMER = '/v2/projects/:project_id/customers/:customer_id';

/** The customer routes. */
export const customerRoutes: Route[] = [
  {
    method: 'GET', pattern: CUSTOMER, domain: 'customer_information', summary: 'Get a customer (the Customer object)',
    handler(sim, input) {
      const bad = checkIds(sim, input);
      if (bad !== null) return bad;
      const customer = customerIn(sim.world(), param(input, 'project_id'), param(input, 'customer_id'));
      return customer === undefined
        ? errorResponse(fail('resource_missing', `Customer ${param(input, 'customer_id')} not found`, 'customer_id').error)
        : json(200, toCustomerResource(customer));
    },
  },
];
