/** The official API v2 `Customer` object of a simulated customer. */
import type { CustomerState } from '../sim/state.js';

/** A customer as `GET /v2/projects/{project_id}/customers/{customer_id}` answers it (schema `Customer`). */
export interface CustomerResource {
  object: 'customer';
  id: string;
  project_id: string;
  first_seen_at: number;
  last_seen_at: number | null;
  last_seen_app_version: string | null;
  last_seen_country: string | null;
  last_seen_platform: string | null;
  last_seen_platform_version: string | null;
}

/**
 * Given a customer, returns its `Customer` object. The simulator has no SDK: the app version,
 * platform and platform version are null (the document allows it); the country is the one of the
 * customer's latest subscription, or null.
 *
 * @example
 * toCustomerResource(customer).object; // 'customer'
 */
export function toCustomerResource(customer: CustomerState): CustomerResource {
  return {
    object: 'customer',
    id: customer.id,
    project_id: customer.project_id,
    first_seen_at: customer.first_seen_at,
    last_seen_at: customer.last_seen_at,
    last_seen_app_version: null,
    last_seen_country: customer.subscriptions.at(-1)?.country_code ?? null,
    last_seen_platform: null,
    last_seen_platform_version: null,
  };
}
