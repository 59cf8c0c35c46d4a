/**
 * The official API v2 `Invoice` objects of a customer. RevenueCat issues invoices only where it bills
 * the customer itself: Web Billing (store `RC_BILLING`; `INVOICE_ISSUANCE` is a Web Billing event).
 * The app stores, Stripe, Paddle and the simulator's `TEST_STORE` bill through the store, so their
 * purchases have none. So a customer's invoices are one per paid transaction of its `RC_BILLING`
 * subscriptions (`paidTransactions`: a free trial is not billed) and one
 * per `RC_BILLING` one-time purchase, paid when issued; plus, while a subscription's charge has failed
 * (in a grace period, or expired by it), an unpaid invoice for that charge. A recovery bills the
 * charge as a new transaction: the unpaid invoice gives way to its paid one.
 */
import type { Product, CustomerState } from '../machine/world.js';
import { COMMISSION } from './subscriptionResource.js';
import { paidTransactions } from './paidTransactions.js';

/** The store whose purchases RevenueCat bills, and so invoices. */
export const INVOICED_STORE = 'RC_BILLING';

interface MonetaryAmount {
  currency: string;
  gross: number;
  commission: number;
  tax: number;
  proceeds: number;
}

export interface InvoiceResource {
  object: 'invoice';
  id: string;
  total_amount: MonetaryAmount;
  line_items: {
    object: 'invoice.line_item';
    product_identifier: string;
    product_display_name: string | null;
    product_duration: string | null;
    quantity: number;
    unit_amount: MonetaryAmount;
  }[];
  issued_at: number;
  paid_at: number | null;
  invoice_url: string | null;
}

const cents = (n: number) => Math.round(n * 100) / 100;

/** An invoice id: `rcbin` and the store transaction id it bills (stable, so nothing is stored). */
export const invoiceIdOf = (transactionId: string): string => `rcbin${transactionId}`;

function invoice(transactionId: string, at: number, productId: string, product: Product | undefined): InvoiceResource {
  const gross = cents(product?.price ?? 0);
  const commission = cents(gross * COMMISSION);
  const amount = { currency: product?.currency ?? 'USD', gross, commission, tax: 0, proceeds: cents(gross - commission) };
  const duration = typeof product?.period === 'string' ? product.period : null;
  return {
    object: 'invoice',
    id: invoiceIdOf(transactionId),
    total_amount: amount,
    line_items: [
      { object: 'invoice.line_item', product_identifier: productId, product_display_name: product?.display_name ?? null, product_duration: duration, quantity: 1, unit_amount: amount },
    ],
    issued_at: at,
    paid_at: at,
    invoice_url: null,
  };
}

/**
 * Given a customer and the world's catalog, returns its invoices, oldest first (empty unless it bought
 * through `RC_BILLING`: each subscription and one-time purchase by its own store). Pure.
 * `invoice_url` is null: the file is at `.../invoices/{id}/file`.
 *
 * @example
 * customerInvoices(customer, products).map((i) => i.id); // ['rcbin2000000000000000001']
 */
export function customerInvoices(customer: CustomerState, products: ReadonlyMap<string, Product>): InvoiceResource[] {
  const out: InvoiceResource[] = [];
  for (const sub of customer.subscriptions) {
    if (sub.store !== INVOICED_STORE) continue;
    const product = products.get(sub.product_id);
    for (const t of paidTransactions(sub, product)) out.push(invoice(t.id, t.at, sub.product_id, product));
    // A charge that failed (retried in a grace period, or failed for good): its invoice stays unpaid.
    if (sub.failed_at !== null) out.push({ ...invoice(`${sub.id}_${sub.failed_at}`, sub.failed_at, sub.product_id, product), paid_at: null });
  }
  for (const p of customer.purchases) {
    if (p.store === INVOICED_STORE) out.push(invoice(p.transaction_id, p.purchased_at, p.product_id, products.get(p.product_id)));
  }
  return out.sort((a, b) => a.issued_at - b.issued_at);
}
