/**
 * @tenure/core: the pure domain core of tenure. No I/O, no clock, no randomness: time comes in as a
 * parameter (epoch milliseconds). Every export is listed here by hand.
 */

// --- Outcomes ---
export { ok, err } from './result.js';
export type { Result, FieldError } from './result.js';

// --- Webhook events ---
export {
  LIFECYCLE_EVENT_TYPES,
  HANDLED_EVENT_TYPES,
  DOCUMENTED_UNHANDLED_EVENT_TYPES,
  PERIOD_TYPES,
  CANCEL_REASONS,
  EXPIRATION_REASONS,
  STORES,
  HANDLED_EVENT_SCHEMAS,
  handledEventSchema,
  transferEventSchema,
  unhandledEventSchema,
  webhookEnvelopeSchema,
  webhookBodySchema,
  identifierSchema,
  epochMsSchema,
  EVENT_TYPE_PATTERN,
} from './events/webhookSchema.js';
export { MAX_ID_BYTES, identifierProblem, isStorableId, utf8Length } from './events/identifier.js';
export { EPOCH_MS_MIN, EPOCH_MS_END, isEpochMs } from './events/epochMs.js';
export type {
  LifecycleEventType,
  HandledEventType,
  HandledEvent,
  UnhandledEvent,
  InitialPurchaseEvent,
  RenewalEvent,
  CancellationEvent,
  UncancellationEvent,
  ExpirationEvent,
  BillingIssueEvent,
  ProductChangeEvent,
  NonRenewingPurchaseEvent,
  RefundReversedEvent,
  SubscriptionPausedEvent,
  SubscriptionExtendedEvent,
  TemporaryEntitlementGrantEvent,
  TransferEvent,
} from './events/webhookSchema.js';
export { parseWebhook } from './events/parseWebhook.js';
export { identityOf, transferOf } from './events/identityOf.js';
export type { Identity, Transfer } from './events/identityOf.js';
export type { ParsedWebhook, ParsedEvent } from './events/parseWebhook.js';

// --- Subscriber state ---
export { SUBSCRIBER_STATES } from './subscriber/subscriber.js';
export type { Subscriber, SubscriberState, EventKey } from './subscriber/subscriber.js';
export { countedTransactionOf, EVENT_PRECEDENCE, isLaterKey, occurrenceKeyOf, occurrenceStoreOf, transactionOccurrenceOf } from './subscriber/eventKey.js';
export { applyEvent, ACTIVITY_EVENT_TYPES, MAX_ALIASES, PROMOTIONAL_STORE } from './subscriber/applyEvent.js';
export { assessedAt, promotionalAccessAt, promotionalAccessEnd } from './subscriber/promotionalAccess.js';
export { distinctOccurrences } from './subscriber/distinctOccurrences.js';
export { foldEvents, foldEventsByCustomer } from './subscriber/foldEvents.js';
export { reKeyToReceiver, transferHistory } from './subscriber/transferHistory.js';
export { movedSubscriptionOf, routeMovedSubscription } from './subscriber/routeMovedSubscription.js';
export { foldByIdentity, groupByIdentity, identityIdsOf } from './subscriber/groupByIdentity.js';
export { recordActivity } from './subscriber/recordActivity.js';
export { ACCESS_RANK, MAX_SUBSCRIPTIONS, accessStandingOf, comparePrimary } from './subscriber/primarySubscription.js';
export type { AccessStanding } from './subscriber/primarySubscription.js';
export type { SubscriptionRecord } from './subscriber/subscription.js';

// --- Revenue at risk ---
export { MAX_PRICE_USD, revenueOf } from './revenue/subscriptionRevenue.js';
export type { SubscriptionRevenue } from './revenue/subscriptionRevenue.js';
export { MONTH_MS, BILLING_PERIOD_MONTHS, periodMonths, monthlyValueUsd, monthlyValueCents } from './revenue/monthlyValueUsd.js';

// --- Configuration ---
export { DEFAULT_CONFIG, DAY_MS, resolveConfig } from './config/defaultConfig.js';
export type { TenureConfig, ConfigOverrides } from './config/defaultConfig.js';
export { CONFIG_FILE_VERSION, configFileSchema, parseConfigFile, validateConfigFile, resolveConfigFile, rulesOf, toConfigFile, DEFAULT_COOLDOWN_HOURS, isWebhookSecret } from './config/configFile.js';
export type { ConfigFile, ConfigCalibration, CooldownTable, EffectiveConfig } from './config/configFile.js';
export { durationMs, OFFER_DEFAULTS, offersSchema, resolveOffers } from './config/offersConfig.js';
export type { Offer, OffersConfig } from './config/offersConfig.js';

// --- Risk ---
export { RISK_BANDS } from './risk/risk.js';
export type { Risk, RiskBand, RiskBreakdown } from './risk/risk.js';
export { scoreSubscriber } from './risk/scoreSubscriber.js';
export { bandFor } from './risk/bandFor.js';
export { inactiveDays, inactivityPoints } from './risk/inactiveDays.js';
export { graceEndsAt } from './risk/graceEndsAt.js';

// --- Recommendations ---
export { ACTIONS, URGENCIES, URGENCY_BY_ACTION, URGENCY_RANK } from './recommend/recommendation.js';
export type { Action, Urgency, Recommendation } from './recommend/recommendation.js';
export { recommend } from './recommend/recommend.js';
export { assessSubscriber } from './recommend/assessSubscriber.js';
export { sameAssessment } from './recommend/sameAssessment.js';
export { nextAssessmentChange } from './recommend/nextAssessmentChange.js';

// --- Dispatch ---
export type { ChatBlock, HeaderBlock, SectionBlock, ContextBlock, DividerBlock, TextObject, PlainTextObject, MrkdwnObject } from './dispatch/blockKit.js';
export { CHANNELS_BY_URGENCY, DEFAULT_WEBHOOK_URGENCIES } from './dispatch/delivery.js';
export type { Assessment, Alert, Delivery, DeliveryChannel, DispatchRouting, WebhookRoute } from './dispatch/delivery.js';
export { planDispatch } from './dispatch/planDispatch.js';
export { AUTO_DISPATCH_BY_URGENCY, shouldAutoDispatch } from './dispatch/shouldAutoDispatch.js';
export { toAlert } from './dispatch/toAlert.js';
export { RISK_COLORS, RISK_COLOR_BY_BAND, RISK_COLOR_HEX, RISK_COLOR_EMOJI, colorForBand, riskColor } from './dispatch/riskColor.js';
export type { RiskColor } from './dispatch/riskColor.js';
export { ACTION_LABELS, SIGNAL_LABELS, STORE_LABELS, storeLabel, formatMonthlyUsd, formatHorizon, formatChurnPercent, formatChurnChance, churnChanceText } from './dispatch/alertText.js';
export { buildChatMessage } from './dispatch/buildChatMessage.js';
export type { ChatMessage, ChatAttachment, AlertMessageOptions } from './dispatch/buildChatMessage.js';
export { buildEmail } from './dispatch/buildEmail.js';
export type { EmailMessage } from './dispatch/buildEmail.js';

// --- Credits ---
export {
  BALANCE_MAX,
  MAX_CURRENCIES_PER_PROJECT,
  CURRENCY_CODE_PATTERN,
  CURRENCY_CODE_MAX_LENGTH,
  isCurrencyCode,
  SINGULAR_PRODUCT_ID_MESSAGE,
  currencyCodeSchema,
  productGrantInputSchema,
  virtualCurrencyCreateSchema,
  virtualCurrencyUpdateSchema,
  createVirtualCurrency,
  updateVirtualCurrency,
} from './credits/virtualCurrency.js';
export type {
  ProductGrant,
  ProductGrantInput,
  VirtualCurrency,
  VirtualCurrencyState,
  VirtualCurrencyCreateInput,
  VirtualCurrencyUpdateInput,
} from './credits/virtualCurrency.js';
export { currencyAmountsSchema, toCurrencyRecord } from './credits/currencyAmounts.js';
export type { CurrencyRecord } from './credits/currencyAmounts.js';
export { grantsForPurchase, IS_SUBSCRIPTION_CYCLE } from './credits/grantsFor.js';
export type { GrantKind, PurchaseContext, PlannedGrant } from './credits/grantsFor.js';
export { emptyLedger, isLive } from './credits/ledger.js';
export type { CreditLot, Ledger, LedgerEntry, LedgerEntryKind, LotSource, Balances } from './credits/ledger.js';
export { applyGrants } from './credits/applyGrants.js';
export type { ApplyGrantsResult } from './credits/applyGrants.js';
export { expireCredits } from './credits/expireCredits.js';
export type { ExpireResult } from './credits/expireCredits.js';
export { balancesOf, balanceOf } from './credits/balancesOf.js';
export { spendingOrder } from './credits/spendLots.js';
export { adjustBalances } from './credits/adjustBalances.js';
export type { AdjustmentOutcome, AdjustmentError, AdjustmentErrorCode, AdjustOptions } from './credits/adjustBalances.js';
export { setBalances } from './credits/setBalances.js';
export { clawbackCredits, refundFraction } from './credits/clawbackCredits.js';
export type { ClawbackResult, RefundedPeriod } from './credits/clawbackCredits.js';
export { removeCurrency } from './credits/removeCurrency.js';
export type { RemoveCurrencyResult } from './credits/removeCurrency.js';
export { nextCreditExpiry } from './credits/nextCreditExpiry.js';
export { vcAdjustmentSchema, virtualCurrencyTransactionEventSchema } from './credits/virtualCurrencyTransactionEvent.js';
export type { VcAdjustment, VirtualCurrencyTransactionEvent } from './credits/virtualCurrencyTransactionEvent.js';

// --- Evaluation: backtest and calibration ---
export { backtest, backtestHistory, evaluateHistogram, historySpan, resolveCutoffs, MIN_POSITIVES, MAX_CUTOFFS } from './evaluation/backtest.js';
export type { BacktestOptions, BacktestReport, EvaluationMetrics, SignalCoverage } from './evaluation/backtest.js';
export { groupHistory, walkCustomers, walkCutoffs } from './evaluation/walkCutoffs.js';
export type { CustomerHistory, GroupedHistory, WalkVisitor, WalkSummary } from './evaluation/walkCutoffs.js';
export { DEFAULT_LAPSE_MS, hasLapsed, isLiveAt, isEndedState } from './evaluation/churnOutcome.js';
export { rocAuc, prAuc } from './evaluation/rankMetrics.js';
export { bandTable, calibrationTable, thresholdTable } from './evaluation/thresholdMetrics.js';
export type { BandRow, CalibrationRow, ThresholdRow } from './evaluation/thresholdMetrics.js';
export { calibrate, churnProbability, brierScore } from './evaluation/calibrate.js';
export { tune, tuneHistory } from './evaluation/tune.js';
export { seededRandom } from './evaluation/seededRandom.js';
export type { TuneOptions, TuneReport, SplitScore } from './evaluation/tune.js';
export type { Calibration } from './evaluation/calibrate.js';
export { addSample, emptyHistogram, mergeHistograms, histogramTotals } from './evaluation/scoreHistogram.js';
export type { ScoreHistogram } from './evaluation/scoreHistogram.js';

// --- At-risk selection ---
export { compareIds } from './atRisk/compareIds.js';
export {
  AT_RISK_SORTS,
  atRiskMinScore,
  compareAtRisk,
  compareRevenue,
  compareIn,
  positionIn,
  isAfterPosition,
  matchesAtRisk,
  selectAtRisk,
} from './atRisk/atRisk.js';
export type {
  AtRiskFilters,
  AtRiskPosition,
  RevenuePosition,
  AtRiskSort,
  ScoreQuery,
  RevenueQuery,
  AtRiskQuery,
  PositionOf,
  AtRiskTotal,
  AtRiskRow,
  AtRiskPage,
} from './atRisk/atRisk.js';
export { materializeAtRisk, configFingerprint } from './atRisk/materializeAtRisk.js';

// --- Store ports ---
export type { SubscriberStore, ImportSession, SnapshotStore, CheckpointStore, TransferOutcome, ApplyOutcome, OccurrenceHolder, HeldElsewhereListener, StoreContext, AtRiskEntry, StoredRecord, MovedSubscription, ProgressListener, ConfigCheck } from './store/subscriberStore.js';
export { DISPATCH_OUTCOMES } from './store/dispatchLog.js';
export type { DispatchChannel, DispatchEntry, DispatchLog, DispatchRecord, DispatchPage, DispatchOutcome, DispatchTrigger, DispatchQuery, DispatchTally } from './store/dispatchLog.js';
export { compareTimeline, timelinePage, cursorOf } from './store/eventTimeline.js';
export type { TimelineCursor, EventPage, TimelineQuery } from './store/eventTimeline.js';
export { utcDayOf, dayStartOf, lastDays } from './trends/utcDay.js';
export { civilFromDays, daysFromCivil, daysInMonth } from './calendar/civilDate.js';
export type { CivilDate } from './calendar/civilDate.js';
export { parseDuration, addDuration } from './calendar/duration.js';
export type { Duration } from './calendar/duration.js';
export type { UtcDay } from './trends/utcDay.js';
export { SNAPSHOT_SOURCES, dailySnapshotOf, mergeSnapshots } from './trends/dailySnapshot.js';
export type { DailySnapshot, SnapshotSource, SnapshotTotal } from './trends/dailySnapshot.js';
export { snapshotsFromEvents } from './trends/snapshotsFromEvents.js';
export { EXPORT_API_VERSION, toExportLine, toMovedSubscriptionLine, parseExportLine } from './store/exportLine.js';
export { EXPORT_V5_COLUMNS, type ExportColumn } from './events/dataExportColumns.js';
export type { ParsedExportLine, ExportLineValue } from './store/exportLine.js';
