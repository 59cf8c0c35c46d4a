/** The official API v2 `Customer` object of a simulated customer, and the body that creates one. */
import { z } from 'zod';
import type { CustomerState } from '../machine/world.js';
import { attributeNameSchema } from './attributeResource.js';

/** The body of `POST /customers`: an id of letters, digits, `_` and `-`, and up to 50 attributes. */
export const createCustomerBodySchema = z.strictObject({
  id: z.string().min(1).max(1500).regex(/^[0-9a-zA-Z_-]*$/, 'letters, digits, _ and - only'),
  attributes: z.array(z.strictObject({ name: attributeNameSchema, value: z.string().max(500) })).max(50).optional(),
});

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
