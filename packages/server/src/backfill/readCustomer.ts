/**
 * Reading from API v2 for the backfill: one list page checked against its schema, every page of a
 * list, and everything the backfill needs about one customer (its subscriptions with their
 * transactions, and its one-time purchases), in one environment.
 */
import type { z } from 'zod';
import { apiCustomerSchema, apiPurchaseSchema, apiSubscriptionSchema, apiTransactionSchema, listSchema, type ApiCustomer, type CustomerHistory } from './apiObjects.js';
import { ApiV2Error, type ApiV2Client } from './apiV2Client.js';

/** A list's items and the cursor of its next page (`starting_after` of `next_page`; null on the last page). */
export interface ListPage<T> {
  items: T[];
  next: string | null;
}

/**
 * Given a `next_page` value (a path or a URL, or null), returns its `starting_after` cursor, or
 * null when there is no next page. Pure.
 *
 * @example
 * cursorOf('/v2/projects/p1/customers?starting_after=c9&limit=100'); // 'c9'
 */
export function cursorOf(nextPage: string | null | undefined): string | null {
  if (nextPage == null || nextPage === '') return null;
  const cursor = new URL(nextPage, 'http://next.page').searchParams.get('starting_after');
  if (cursor === null || cursor === '') throw new ApiV2Error('response', 200, `next_page has no starting_after cursor: ${nextPage.slice(0, 200)}`);
  return cursor;
}

/**
 * Given the client, a list path (with its query, without the cursor), a cursor and the item
 * schema, GETs one page and checks it; a page that does not match is an `ApiV2Error` naming the field.
 *
 * @example
 * const page = await readPage(api, '/projects/p1/customers?limit=100', null, apiCustomerSchema);
 */
export async function readPage<S extends z.ZodType>(api: ApiV2Client, path: string, cursor: string | null, item: S): Promise<ListPage<z.infer<S>>> {
  const join = path.includes('?') ? '&' : '?';
  const body = await api.get(cursor === null ? path : `${path}${join}starting_after=${encodeURIComponent(cursor)}`);
  const parsed = listSchema(item).safeParse(body);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw new ApiV2Error('response', 200, `unexpected answer to GET ${path.split('?')[0]}: ${issue?.path.join('.') || 'body'}: ${issue?.message ?? 'invalid'}`);
  }
  return { items: parsed.data.items as z.infer<S>[], next: cursorOf(parsed.data.next_page) };
}

/**
 * Given the client, a list path and the item schema, reads every page and resolves with all items.
 *
 * @example
 * const subs = await readAll(api, '/projects/p1/customers/c1/subscriptions?limit=100', apiSubscriptionSchema);
 */
export async function readAll<S extends z.ZodType>(api: ApiV2Client, path: string, item: S): Promise<z.infer<S>[]> {
  const out: z.infer<S>[] = [];
  let cursor: string | null = null;
  do {
    const page: ListPage<z.infer<S>> = await readPage(api, path, cursor, item);
    out.push(...page.items);
    cursor = page.next;
  } while (cursor !== null);
  return out;
}

/**
 * Given the client, the project and a cursor (null: from the start), counts the customers listed
 * after it, 100 a page (a hundredth of the requests a backfill of them makes): what an ETA needs,
 * since API v2 does not count a project's customers.
 *
 * @example
 * const left = await countCustomers(api, 'proj1', null);
 */
export async function countCustomers(api: ApiV2Client, project: string, cursor: string | null): Promise<number> {
  let count = 0;
  let next = cursor;
  do {
    const page: ListPage<ApiCustomer> = await readPage(api, `/projects/${encodeURIComponent(project)}/customers?limit=100`, next, apiCustomerSchema);
    count += page.items.length;
    if (page.next !== null && (page.next === next || page.items.length === 0)) throw new ApiV2Error('response', 200, `the customers list does not move past ${next ?? 'its first page'}`);
    next = page.next;
  } while (next !== null);
  return count;
}

/**
 * Given the client, the project, the environment and a customer of the customers list, reads its
 * subscriptions (with every transaction of each) and one-time purchases in that environment.
 * Resolves with null when the customer is gone (404: deleted since the list was read).
 *
 * @example
 * const history = await readCustomer(api, 'proj1', 'production', { id: 'c1' });
 */
export async function readCustomer(api: ApiV2Client, project: string, environment: 'production' | 'sandbox', customer: ApiCustomer): Promise<CustomerHistory | null> {
  const projectPath = `/projects/${encodeURIComponent(project)}`;
  const customerPath = `${projectPath}/customers/${encodeURIComponent(customer.id)}`;
  try {
    const subscriptions = (await readAll(api, `${customerPath}/subscriptions?environment=${environment}&limit=100`, apiSubscriptionSchema)).filter((s) => s.environment === environment);
    const withTransactions = [];
    for (const subscription of subscriptions) {
      const transactions = await readAll(api, `${projectPath}/subscriptions/${encodeURIComponent(subscription.id)}/transactions?limit=100`, apiTransactionSchema);
      withTransactions.push({ subscription, transactions });
    }
    const purchases = (await readAll(api, `${customerPath}/purchases?environment=${environment}&limit=100`, apiPurchaseSchema)).filter((p) => p.environment === environment);
    return { customer, subscriptions: withTransactions, purchases };
  } catch (error) {
    if (error instanceof ApiV2Error && error.kind === 'not_found') return null;
    throw error;
  }
}
