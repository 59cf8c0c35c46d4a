/**
 * API v2 invoices of a customer (Customer Information domain): the list, and the file, a 302 to where
 * it can be downloaded. Which purchases have invoices: `invoiceResource.ts` (Web Billing only). The
 * simulator makes no PDFs: the file's location is a /sim URL answering the invoice as JSON.
 */
import { customerInvoices, type InvoiceResource } from './invoiceResource.js';
import { fail } from '../machine/apiError.js';
import type { BillingSimulator } from '../simulator/createSimulator.js';
import { customerIn } from '../machine/queries.js';
import { errorResponse, json, paginate, respond, type RouteInput, type SimResponse } from '../http/httpTypes.js';
import type { Route } from '../http/route.js';
import { checkIds, param } from './ids.js';

const CUSTOMER = '/v2/projects/:project_id/customers/:customer_id';

/** The customer's invoices, or the answer to send instead (ids 400/404, unknown customer 404). */
function invoicesFor(sim: BillingSimulator, input: RouteInput): { ok: true; invoices: InvoiceResource[] } | { ok: false; response: SimResponse } {
  const bad = checkIds(sim, input);
  if (bad !== null) return { ok: false, response: bad };
  const world = sim.world();
  const customer = customerIn(world, param(input, 'project_id'), param(input, 'customer_id'));
  if (customer === undefined) return { ok: false, response: errorResponse(fail('resource_missing', `Customer ${param(input, 'customer_id')} not found`, 'customer_id').error) };
  return { ok: true, invoices: customerInvoices(customer, world.products) };
}

/** The simulator URL a customer's invoice file redirects to (absolute: the request's own host). */
export const invoiceFileUrl = (input: RouteInput, projectId: string, customerId: string, invoiceId: string): string =>
  `http://${input.headers['host'] ?? '127.0.0.1'}/sim/customers/${encodeURIComponent(customerId)}/invoices/${encodeURIComponent(invoiceId)}?project_id=${encodeURIComponent(projectId)}`;

/** The invoice routes. */
export const invoiceRoutes: Route[] = [
  {
    method: 'GET', pattern: `${CUSTOMER}/invoices`, domain: 'customer_information', summary: "List a customer's invoices, oldest first (Web Billing purchases only: RC_BILLING)",
    handler(sim, input) {
      const found = invoicesFor(sim, input);
      return found.ok ? respond(paginate(found.invoices, (i) => i.id, input.query, input.path)) : found.response;
    },
  },
  {
    method: 'GET', pattern: `${CUSTOMER}/invoices/:invoice_id/file`, domain: 'customer_information', summary: "Get an invoice's file: 302 to a /sim URL answering the invoice",
    handler(sim, input) {
      const found = invoicesFor(sim, input);
      if (!found.ok) return found.response;
      const id = param(input, 'invoice_id');
      if (!found.invoices.some((i) => i.id === id)) return errorResponse(fail('resource_missing', `Invoice ${id} not found`, 'invoice_id').error);
      return { status: 302, headers: { location: invoiceFileUrl(input, param(input, 'project_id'), param(input, 'customer_id'), id) }, body: {} };
    },
  },
];

/** The /sim route the file redirects to: the invoice as JSON. */
export const simInvoiceRoute: Route = {
  method: 'GET', pattern: '/sim/customers/:customer_id/invoices/:invoice_id', summary: "A customer's invoice as JSON (where API v2's invoice file redirects; query project_id)",
  handler(sim, input) {
    const world = sim.world();
    const customer = customerIn(world, input.query['project_id'] ?? sim.settings.default_project_id, param(input, 'customer_id'));
    const invoice = customer === undefined ? undefined : customerInvoices(customer, world.products).find((i) => i.id === param(input, 'invoice_id'));
    return invoice === undefined ? errorResponse(fail('resource_missing', `Invoice ${param(input, 'invoice_id')} not found`, 'invoice_id').error) : json(200, invoice);
  },
};
