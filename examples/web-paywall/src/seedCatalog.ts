/**
 * What the paywall sells, set up on the billing simulator through its own APIs as a team sets up
 * RevenueCat: two subscription products unlocking the `pro` entitlement (monthly with a 7-day free
 * trial, annual), the current offering `default` with the `$rc_monthly` and `$rc_annual` packages;
 * and the Test Store's public key the paywall is configured with.
 */

/** The paywall's catalog. */
export const PAYWALL_PRODUCTS = [
  { id: 'paywall_monthly', type: 'subscription', period: 'P1M', trial_period: 'P7D', price: 9.99, display_name: 'Pro monthly', entitlement_ids: ['pro'] },
  { id: 'paywall_annual', type: 'subscription', period: 'P1Y', price: 59.99, display_name: 'Pro annual', entitlement_ids: ['pro'] },
] as const;

/**
 * Given the simulator's URL (and its secret key when one is set), creates the catalog and the
 * offering in the default project, and returns the project's Test Store public key.
 *
 * @example
 * const apiKey = await seedCatalog('http://127.0.0.1:4000');
 */
export async function seedCatalog(billingUrl: string, secretKey?: string): Promise<string> {
  const call = async (method: string, path: string, body?: unknown) => {
    const res = await fetch(billingUrl + path, {
      method,
      headers: { 'content-type': 'application/json', ...(secretKey === undefined ? {} : { authorization: `Bearer ${secretKey}` }) },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    const json = (await res.json()) as Record<string, any>;
    if (res.status >= 300) throw new Error(`${method} ${path}: ${res.status} ${JSON.stringify(json)}`);
    return json;
  };
  const P = '/v2/projects/proj_sim';
  for (const product of PAYWALL_PRODUCTS) await call('POST', '/sim/products', product);
  const offering = await call('POST', `${P}/offerings`, { lookup_key: 'default', display_name: 'Go Pro' });
  for (const [lookupKey, productId] of [['$rc_monthly', 'paywall_monthly'], ['$rc_annual', 'paywall_annual']] as const) {
    const pkg = await call('POST', `${P}/offerings/${offering['id']}/packages`, { lookup_key: lookupKey, display_name: lookupKey });
    await call('POST', `${P}/packages/${pkg['id']}/actions/attach_products`, { products: [{ product_id: productId, eligibility_criteria: 'all' }] });
  }
  await call('POST', `${P}/offerings/${offering['id']}`, { is_current: true });
  const apps = await call('GET', `${P}/apps`);
  const testApp = (apps['items'] as { id: string; type: string }[]).find((a) => a.type === 'test_store');
  if (testApp === undefined) throw new Error('the simulator has no Test Store app');
  const keys = await call('GET', `${P}/apps/${testApp.id}/public_api_keys`);
  return (keys['items'] as { key: string }[])[0]!.key;
}
