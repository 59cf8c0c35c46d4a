/** The web paywall example: its server and the catalog it sells (what `npm start` runs beside the two services). */
export { PAYWALL_PRODUCTS, seedCatalog } from './seedCatalog.js';
export { startPaywallServer, type PaywallOptions, type RunningPaywall } from './startPaywallServer.js';
