// The paywall: RevenueCat's official web SDK (window.Purchases, its UMD build) configured with the
// app's public key and `proxyURL` pointed at the billing simulator, as any app would point it at a
// proxy. It lists the current offering's packages with their prices, buys one through the Test
// Store's modal and shows the entitlement it unlocks. No framework, no build.
const { Purchases, ErrorCode } = window.Purchases;
const ENTITLEMENT = 'pro';
const USER_KEY = 'paywall.user';

const $ = (id) => document.getElementById(id);
const say = (text, kind = 'info') => {
  $('status').textContent = text;
  $('status').dataset.kind = kind;
};

const PERIODS = { P1W: 'week', P1M: 'month', P2M: '2 months', P3M: '3 months', P6M: '6 months', P1Y: 'year' };
const TRIAL_UNITS = { D: 'day', W: 'week', M: 'month', Y: 'year' };

/** "7-day free trial" from the SDK's trial phase, or null. */
function trialText(product) {
  const trial = product.defaultSubscriptionOption?.trial;
  const match = /^P(\d+)([DWMY])$/.exec(trial?.periodDuration ?? '');
  return match ? `${match[1]}-${TRIAL_UNITS[match[2]]} free trial` : null;
}

function showAccess(customerInfo) {
  const pro = customerInfo.entitlements.active[ENTITLEMENT];
  const access = $('access');
  if (pro === undefined) {
    access.dataset.state = 'none';
    access.textContent = 'You are on the free plan.';
    return;
  }
  access.dataset.state = 'active';
  const until = pro.expirationDate === null ? 'for life' : `until ${pro.expirationDate.toLocaleString()}`;
  access.textContent = `Pro is active ${until}${pro.willRenew ? ', renewing' : ''} (${pro.productIdentifier}).`;
}

function packageCard(purchases, pkg) {
  const product = pkg.webBillingProduct;
  const card = document.createElement('article');
  card.className = 'plan';
  card.dataset.package = pkg.identifier;
  const title = document.createElement('h2');
  title.textContent = product.title;
  const price = document.createElement('p');
  price.className = 'price';
  const period = PERIODS[product.normalPeriodDuration] ?? product.normalPeriodDuration;
  price.textContent = period ? `${product.currentPrice.formattedPrice} / ${period}` : product.currentPrice.formattedPrice;
  card.append(title, price);
  const trial = trialText(product);
  if (trial) {
    const badge = document.createElement('p');
    badge.className = 'trial';
    badge.textContent = trial;
    card.append(badge);
  }
  const buy = document.createElement('button');
  buy.type = 'button';
  buy.textContent = trial ? 'Start free trial' : 'Subscribe';
  buy.addEventListener('click', () => purchase(purchases, pkg, buy));
  card.append(buy);
  return card;
}

async function purchase(purchases, pkg, button) {
  button.disabled = true;
  say('Waiting for the store…');
  try {
    const { customerInfo } = await purchases.purchase({ rcPackage: pkg });
    showAccess(customerInfo);
    say('Thank you: Pro is yours.', 'ok');
  } catch (error) {
    const cancelled = error.errorCode === ErrorCode.UserCancelledError;
    say(cancelled ? 'Purchase cancelled.' : `The purchase failed: ${error.message}`, cancelled ? 'info' : 'error');
  } finally {
    button.disabled = false;
  }
}

async function render(purchases) {
  const [customerInfo, offerings] = await Promise.all([purchases.getCustomerInfo(), purchases.getOfferings()]);
  showAccess(customerInfo);
  const list = $('packages');
  list.replaceChildren();
  const current = offerings.current;
  if (current === null || current.availablePackages.length === 0) {
    list.textContent = 'Nothing to buy yet: create an offering with packages in the billing simulator.';
    return;
  }
  for (const pkg of current.availablePackages) list.append(packageCard(purchases, pkg));
}

async function main() {
  const config = await (await fetch('/config.json')).json();
  const user = localStorage.getItem(USER_KEY) ?? Purchases.generateRevenueCatAnonymousAppUserId();
  localStorage.setItem(USER_KEY, user);
  $('user-id').value = user;
  // eventsURL: the SDK's analytics go to the simulator's sink too (proxyURL does not move them).
  const purchases = Purchases.configure({ apiKey: config.apiKey, appUserId: user, httpConfig: { proxyURL: config.proxyURL, eventsURL: config.proxyURL } });
  $('user-form').addEventListener('submit', async (event) => {
    event.preventDefault();
    const next = $('user-id').value.trim();
    if (next === '' || next === purchases.getAppUserId()) return;
    try {
      const { wasCreated } = await purchases.identifyUser(next);
      localStorage.setItem(USER_KEY, next);
      say(wasCreated ? `Welcome, ${next}.` : `Signed in as ${next}.`, 'ok');
      await render(purchases);
    } catch (error) {
      say(`Could not switch user: ${error.message}`, 'error');
    }
  });
  await render(purchases);
  document.body.dataset.ready = 'true';
}

main().catch((error) => say(`The paywall could not load: ${error.message}`, 'error'));
