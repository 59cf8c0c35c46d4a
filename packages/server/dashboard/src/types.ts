/** The shapes of the answers the page reads (see docs/retention-service.md and docs/dashboard.md). */
import type { RiskBand } from '@tenure/core';

export interface Recommendation {
  action: string;
  urgency: string;
  reason: string;
  priority: number;
}

export interface AtRiskItem {
  customer_id: string;
  /** The app's own id, when the service reports it apart from the customer id. */
  app_user_id?: string | null;
  state: string;
  risk_score: number;
  /** With a calibration only: the chance of churning within its horizon. */
  churn_probability?: number;
  risk_band: RiskBand;
  monthly_value_usd: number;
  top_recommendation: Recommendation | null;
}

export interface AtRiskPage {
  items: AtRiskItem[];
  next_cursor: string | null;
  total: { subscribers: number; monthly_value_usd: number };
}

export interface SubscriberView {
  customer_id: string;
  state: string;
  risk_score: number;
  /** With a calibration only. */
  churn_probability?: number;
  risk_band: RiskBand;
  breakdown: Record<string, number>;
  monthly_value_usd: number;
  revenue: { price?: number; currency?: string; store?: string; period_ms?: number | null } | null;
  [field: string]: unknown;
}

/** An offer of the configuration file, as `GET api/subscribers/{id}` shows it. */
export interface OfferView {
  action: string;
  entitlement: string;
  duration: string;
  auto: boolean;
  daily_cap: number;
  cooldown: string;
  recommended: boolean;
}

export interface DispatchRecord {
  id: number;
  at: number;
  action: string;
  urgency: string;
  channel: string;
  outcome: string;
  attempt: number;
  error: string | null;
  trigger: string;
  delivery_id: number | null;
  target: string | null;
  detail: string | null;
  actor: string | null;
}

export interface SubscriberDashboard {
  now: number;
  next_change_at: number | null;
  dispatches: { items: DispatchRecord[]; complete: boolean };
}

export interface Summary {
  now: number;
  subscribers: number;
  by_state: Record<string, number>;
  by_band: Record<RiskBand, number>;
  at_risk: { min_score: number; subscribers: number; monthly_value_usd: number };
  alerts_today: { email: number; chat: number; log: number; webhook: number; complete: boolean };
  webhooks_last_hour: { received: number; rejected: number };
}

export interface TrendDay {
  day: string;
  source: 'sweep' | 'events' | 'live' | 'none';
  at: number | null;
  by_band: Record<RiskBand, { subscribers: number; monthly_value_usd: number }> | null;
  at_risk: { min_score: number; subscribers: number; monthly_value_usd: number } | null;
}

export interface Trends {
  now: number;
  days: TrendDay[];
  backfill: { filled: number; skipped: string | null };
}

export interface StoredEvent {
  id: string;
  type: string;
  event_timestamp_ms: number;
  [field: string]: unknown;
}

export interface EventsPage {
  items: StoredEvent[];
  next_cursor: string | null;
}
