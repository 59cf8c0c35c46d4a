/** API v2 overview metrics (Charts & Metrics domain, 5 a minute), computed from the virtual world (`overviewMetrics`). */
import { overviewMetrics } from './overviewMetrics.js';
import { fail } from '../machine/apiError.js';
import { errorResponse, json } from '../http/httpTypes.js';
import type { Route } from '../http/route.js';
import { checkIds, param } from './ids.js';

/** The currencies the document lets `currency` name. */
const CURRENCIES = ['USD', 'EUR', 'GBP', 'AUD', 'CAD', 'JPY', 'BRL', 'KRW', 'CNY', 'MXN', 'SEK', 'PLN'];

/** The metrics routes. */
export const metricsRoutes: Route[] = [
  {
    method: 'GET', pattern: '/v2/projects/:project_id/metrics/overview', domain: 'charts_metrics',
    summary: 'Overview metrics of the virtual world: active trials and subscriptions, MRR, revenue, new customers and active users (currency: USD only)',
    handler(sim, input) {
      const bad = checkIds(sim, input);
      if (bad !== null) return bad;
      const currency = input.query['currency'];
      if (currency !== undefined && !CURRENCIES.includes(currency)) return errorResponse(fail('parameter_error', `currency must be one of ${CURRENCIES.join(', ')}`, 'currency').error);
      if (currency !== undefined && currency !== 'USD') {
        return errorResponse(fail('parameter_error', 'The simulator has no exchange rates: it reports in USD only', 'currency').error);
      }
      return json(200, { object: 'overview_metrics', metrics: overviewMetrics(sim.world(), param(input, 'project_id')) });
    },
  },
];
