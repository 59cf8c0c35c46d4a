/** API v1 (the SDKs' and most backends' API) and the web SDK's own routes, one module per resource under `../v1/` (the web SDK's under `../sdk/`). */
import { customerRoutes } from '../v1/customerRoutes.js';
import { entitlementRoutes } from '../v1/entitlementRoutes.js';
import { offeringRoutes } from '../v1/offeringRoutes.js';
import { receiptRoutes } from '../v1/receiptRoutes.js';
import { storeActionRoutes } from '../v1/storeActionRoutes.js';
import type { V1Route } from '../v1/v1Route.js';
import { webBillingRoutes } from '../sdk/webBillingRoutes.js';

/** Every API v1 route the simulator serves (identify before the customer's own paths). */
export const v1Routes: V1Route[] = [...customerRoutes, ...receiptRoutes, ...entitlementRoutes, ...storeActionRoutes, ...offeringRoutes, ...webBillingRoutes];
