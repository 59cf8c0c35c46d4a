/**
 * Buying: a subscription with or without its trial, a top-up pack (`POST /sim/purchases`, which
 * creates the customer on its first purchase), and adding a product to the catalog (`POST /sim/products`).
 */
import { byId, h } from '@tenure/http-edge/page';
import { post } from './api.js';
import type { Emitted, Product } from './types.js';

type Act = (label: string, run: () => Promise<Emitted>) => void;

const priced = (p: Product) => `${p.display_name} · ${p.price.toLocaleString('en-US', { style: 'currency', currency: p.currency })}`;

/** Replaces a select's options, keeping the chosen one when it is still there. */
function fill(select: HTMLSelectElement, products: Product[], label: (p: Product) => string, empty: string): void {
  const chosen = select.value;
  const options = products.map((p) => h('option', { value: p.id }, label(p)));
  select.replaceChildren(...(options.length > 0 ? options : [h('option', { value: '' }, empty)]));
  if (products.some((p) => p.id === chosen)) select.value = chosen;
  select.disabled = products.length === 0;
}

/** Given the catalog and the customers' ids, fills the product pickers and the customer suggestions. */
export function renderPurchaseForms(products: Product[], customerIds: string[]): void {
  const subscriptions = products.filter((p) => p.type === 'subscription');
  const packs = products.filter((p) => p.type === 'consumable');
  fill(byId('p-product'), subscriptions, (p) => `${priced(p)} / ${p.period ?? ''}${p.trial_period === null ? '' : `, trial ${p.trial_period}`}`, 'no subscription product yet');
  fill(byId('t-product'), packs, priced, 'no top-up product yet');
  byId<HTMLButtonElement>('buy').disabled = subscriptions.length === 0;
  byId<HTMLButtonElement>('buy-trial').disabled = subscriptions.length === 0;
  byId<HTMLButtonElement>('topup').disabled = packs.length === 0;
  byId('customer-ids').replaceChildren(...customerIds.map((id) => h('option', { value: id })));
}

const customer = (): string => byId<HTMLInputElement>('p-customer').value.trim();

/** Wires the three forms to their calls. */
export function wirePurchaseForms(act: Act): void {
  byId<HTMLFormElement>('purchase-form').addEventListener('submit', (event) => {
    event.preventDefault();
    const trial = (event.submitter as HTMLButtonElement | null)?.dataset['trial'] === 'true';
    const body = { customer_id: customer(), product_id: byId<HTMLSelectElement>('p-product').value, trial };
    act(`Purchased ${body.product_id}${trial ? ' with trial' : ''} for ${body.customer_id}`, () => post('sim/purchases', body));
  });
  byId<HTMLFormElement>('topup-form').addEventListener('submit', (event) => {
    event.preventDefault();
    const input = byId<HTMLInputElement>('p-customer');
    // The customer field belongs to the other form: check it here, so an empty one is said, not sent.
    if (!input.reportValidity()) return;
    const body = { customer_id: customer(), product_id: byId<HTMLSelectElement>('t-product').value };
    act(`Topped up ${body.customer_id} with ${body.product_id}`, () => post('sim/purchases', body));
  });
  byId<HTMLFormElement>('product-form').addEventListener('submit', (event) => {
    event.preventDefault();
    const value = (id: string) => byId<HTMLInputElement>(id).value.trim();
    const type = value('n-type');
    const body = {
      id: value('n-id'),
      type,
      ...(type === 'subscription' ? { period: value('n-period') || 'P1M' } : {}),
      ...(type === 'subscription' && value('n-trial') !== '' ? { trial_period: value('n-trial') } : {}),
      ...(value('n-price') === '' ? {} : { price: Number(value('n-price')) }),
    };
    act(`Added product ${body.id}`, () => post('sim/products', body));
  });
}
