/** The billing service's API v2 routes, one module per resource under `../v2/` (the /sim control routes under `../control/`). */
import { balanceRoutes } from '../v2/balanceRoutes.js';
import { catalogRoutes } from '../v2/catalogRoutes.js';
import { customerRoutes } from '../v2/customerRoutes.js';
import { integrationRoutes } from '../v2/integrationRoutes.js';
import { invoiceRoutes } from '../v2/invoiceRoutes.js';
import { metricsRoutes } from '../v2/metricsRoutes.js';
import { offeringRoutes } from '../v2/offeringRoutes.js';
import { packageRoutes } from '../v2/packageRoutes.js';
import { portalRoutes } from '../v2/portalRoutes.js';
import { projectRoutes } from '../v2/projectRoutes.js';
import { purchaseRoutes } from '../v2/purchaseRoutes.js';
import { subscriptionRoutes } from '../v2/subscriptionRoutes.js';
import { virtualCurrencyRoutes } from '../v2/virtualCurrencyRoutes.js';
import type { Route } from './route.js';

export { adjustmentsBodySchema } from '../v2/balanceRoutes.js';
export { simApiRoutes, createProjectBodySchema } from '../control/simApiRoutes.js';

/** Every API v2 route the simulator serves. */
export const v2Routes: Route[] = [...virtualCurrencyRoutes, ...customerRoutes, ...balanceRoutes, ...subscriptionRoutes, ...purchaseRoutes, ...integrationRoutes, ...catalogRoutes, ...projectRoutes, ...offeringRoutes, ...packageRoutes, ...invoiceRoutes, ...portalRoutes, ...metricsRoutes];
