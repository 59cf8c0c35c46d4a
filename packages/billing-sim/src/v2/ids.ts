/** The path parameters every API v2 route shares: shapes first (400), then the project's existence (404). */
import { currencyCodeSchema } from '@tenure/core';
import { fail } from '../machine/apiError.js';
import type { BillingSimulator } from '../simulator/createSimulator.js';
import { checkProjectId, projectExists } from '../machine/projects.js';
import { errorResponse, type RouteInput, type SimResponse } from '../http/httpTypes.js';

/** The official document's length limits of the ids in paths. */
const MAX_ID_LENGTH: Record<string, number> = {
  customer_id: 1500,
  subscription_id: 255,
  transaction_id: 255,
  purchase_id: 255,
  entitlement_id: 255,
  product_id: 255,
  webhook_integration_id: 255,
  app_id: 255,
  offering_id: 255,
  package_id: 255,
  invoice_id: 1500,
};

/** A path parameter's decoded value ('' when the route has none). */
export const param = (input: RouteInput, name: string): string => input.params[name] ?? '';

/**
 * Checks the route's ids: `project_id` 1–20 characters, `customer_id` 1–1500, other ids 1–255, a currency code by the
 * one code rule (400 `parameter_error` naming the parameter), then that the project exists (404
 * `resource_missing`, as the real service answers a project that is not there). Null when all hold.
 */
export function checkIds(sim: BillingSimulator, input: RouteInput): SimResponse | null {
  const projectId = param(input, 'project_id');
  const project = checkProjectId(projectId);
  if (!project.ok) return errorResponse(project.error);
  for (const [name, max] of Object.entries(MAX_ID_LENGTH)) {
    const value = input.params[name];
    if (value !== undefined && (value.length === 0 || value.length > max)) return errorResponse(fail('parameter_error', `${name} is 1–${max} characters`, name).error);
  }
  const code = input.params['code'];
  if (code !== undefined && !currencyCodeSchema.safeParse(code).success) {
    return errorResponse(fail('parameter_error', 'virtual_currency_code must be 1–10 characters of A-Z, a-z, 0-9 or _', 'virtual_currency_code').error);
  }
  if (!projectExists(sim.world(), projectId)) return errorResponse(fail('resource_missing', `Project ${projectId} not found`, 'project_id').error);
  return null;
}
