/**
 * The webhook events of one transition, kept column-wise: per event a few numbers (type, time, the
 * words of its id, a subscription's period and renewal number) and references to what it shares
 * with the world (the customer's id and aliases, the product, the subscription's strings, the
 * currency adjustments), from which its body is built when someone reads or sends it. A month
 * advance emits 300 k events: as bodies (~300 bytes each, plus their id strings) they were the
 * largest part of what the young generation copied during the advance. A body built from the log is
 * the body the event had when it was emitted, field for field and in the same order.
 */
import { currencyText, lifecycleText } from './bodyText.js';
import { prefixedHexOfWords, randomWord, uuidOfWords, uuidVariantWord, uuidVersionWord, type Random } from '../internal/random.js';
import type { Product, CustomerState, SubscriptionState } from './world.js';
import {
  currencyBody,
  lifecycleBody,
  type EventSubscriptionFields,
  type LifecycleExtras,
  type LifecycleType,
  type SimEvent,
  type VcAdjustment,
  type WebhookBody,
} from './webhookEvents.js';

/**
 * The events of one transition, in emission order, read by position. `body` builds the body of a
 * lifecycle or currency event at each read (a new object each time); other events are kept whole.
 */
export interface EventLog {
  readonly length: number;
  /** The webhook body of the event at `index`. */
  body(index: number): WebhookBody;
  /** `JSON.stringify(body(index))`, written from the log's fields without building the body (`bodyText.ts`). */
  text(index: number): string;
  /** Its `id`. */
  id(index: number): string;
  /** Its `type`. */
  type(index: number): SimEvent['type'];
  /** Its `event_timestamp_ms`. */
  at(index: number): number;
  /** The project it belongs to (delivery sends it to that project's webhook integrations). */
  project(index: number): string;
}

/** The log a transition writes: appends events, each drawing its id from the PRNG as it is added. */
export interface EventLogWriter extends EventLog {
  /** A subscription lifecycle event of the subscription as it is now. */
  lifecycle<T extends LifecycleType>(type: T, at: number, customer: CustomerState, sub: SubscriptionState, product: Product, extra: LifecycleExtras[T]): void;
  /** A VIRTUAL_CURRENCY_TRANSACTION (its `virtual_currency_transaction_id` drawn after its id). */
  currency(at: number, customer: CustomerState, adjustments: VcAdjustment[], product: Product | null, environment: string, store: string, transactionId: string | null): void;
  /** Any other event, kept as its body (its id already drawn). */
  whole(projectId: string, body: WebhookBody): void;
}

/** Event types kept in columns, by code (0: a whole body). */
const TYPES = [
  'WHOLE',
  'VIRTUAL_CURRENCY_TRANSACTION',
  'INITIAL_PURCHASE',
  'RENEWAL',
  'CANCELLATION',
  'UNCANCELLATION',
  'EXPIRATION',
  'BILLING_ISSUE',
  'PRODUCT_CHANGE',
  'SUBSCRIPTION_PAUSED',
  'SUBSCRIPTION_EXTENDED',
  'TEMPORARY_ENTITLEMENT_GRANT',
  'REFUND_REVERSED',
] as const satisfies readonly ('WHOLE' | 'VIRTUAL_CURRENCY_TRANSACTION' | LifecycleType)[];
const WHOLE = 0;
const CURRENCY = 1;
const CODE = Object.fromEntries(TYPES.map((type, code) => [type, code])) as Record<(typeof TYPES)[number], number>;

/**
 * Per event, NUMS numbers: type code, time, the id's four words, then three of its own (lifecycle:
 * period start, period end, renewal number; currency transaction: the two words of its
 * `virtual_currency_transaction_id`). And REFS references: project, customer id, aliases, then its
 * own. Lifecycle: 3 product, 4 product_id, 5 period_type, 6 environment, 7 store,
 * 8 presented_offering_id, 9 transaction_id, 10 original_transaction_id, 11 country_code, 12 the
 * extra field's name (null: none; SEVERAL: an object of fields), 13 its value. Currency transaction:
 * 3 product, 4 adjustments, 5 environment, 6 store, 7 transaction id. Whole: 3 the body.
 */
const NUMS = 9;
const REFS = 14;
/** Events per chunk (a power of two): a chunk's two arrays stay a few hundred KB, and a log never copies a large one to grow. */
const CHUNK_BITS = 11;
const CHUNK = 1 << CHUNK_BITS;
const NO_NUMS = new Float64Array(0);
/** Marks an `extra` of several fields (the CANCELLATION of a refund, with its negative price). */
const SEVERAL = '';

/**
 * Given the app id every event carries and the PRNG ids are drawn from, returns an empty log.
 *
 * @example
 * const log = createEventLog('app_sim', random); log.whole('proj_sim', body); log.body(0) === body; // true
 */
export const createEventLog = (appId: string, random: Random): EventLogWriter => new ColumnLog(appId, random);

/**
 * The log's columns in chunks of CHUNK events, each chunk a Float64Array of numbers and an array of
 * references, written by index. The first chunk starts small and doubles (a request emits one or
 * two events); later ones are made full. A class, not a closure per method: the facade keeps one log
 * per transition that emitted anything.
 */
class ColumnLog implements EventLogWriter {
  length = 0;
  private readonly appId: string;
  private readonly random: Random;
  private readonly nums: Float64Array[];
  private readonly refs: unknown[][];
  private lastNums: Float64Array;
  private lastRefs: unknown[];
  /** Where the event being written starts in the last chunk's numbers and references. */
  private n = 0;
  private r = 0;

  constructor(appId: string, random: Random) {
    this.appId = appId;
    this.random = random;
    // Empty until the first event: a read-only view of a world starts a log it never writes.
    this.lastNums = NO_NUMS;
    this.lastRefs = [];
    this.nums = [this.lastNums];
    this.refs = [this.lastRefs];
  }

  /** Starts the next event (`n` and `r` point at its place): the last chunk grows, or a new one starts. */
  private next(): void {
    const slot = this.length & (CHUNK - 1);
    if (slot === 0 && this.length > 0) {
      this.nums.push((this.lastNums = new Float64Array(CHUNK * NUMS)));
      this.refs.push((this.lastRefs = new Array<unknown>(CHUNK * REFS)));
    } else if (slot * NUMS === this.lastNums.length) {
      const nums = new Float64Array(Math.max(4 * NUMS, this.lastNums.length * 2));
      nums.set(this.lastNums);
      this.nums[this.nums.length - 1] = this.lastNums = nums;
      const refs = new Array<unknown>(Math.max(4 * REFS, this.lastRefs.length * 2));
      for (let k = 0; k < this.lastRefs.length; k++) refs[k] = this.lastRefs[k];
      this.refs[this.refs.length - 1] = this.lastRefs = refs;
    }
    this.n = slot * NUMS;
    this.r = slot * REFS;
    this.length += 1;
  }

  /** Writes the event's code and time and draws its id (four words, as `uuidFrom` draws them). */
  private head(code: number, at: number): void {
    const random = this.random;
    const nums = this.lastNums;
    const n = this.n;
    nums[n] = code;
    nums[n + 1] = at;
    nums[n + 2] = randomWord(random);
    nums[n + 3] = uuidVersionWord(randomWord(random));
    nums[n + 4] = uuidVariantWord(randomWord(random));
    nums[n + 5] = randomWord(random);
  }

  /** Writes the references every event has: its project, its customer's id and aliases. */
  private owner(projectId: string, customerId: string | null, aliases: readonly string[] | undefined | null): void {
    const refs = this.lastRefs;
    refs[this.r] = projectId;
    refs[this.r + 1] = customerId;
    refs[this.r + 2] = aliases;
  }

  lifecycle<T extends LifecycleType>(type: T, at: number, customer: CustomerState, sub: SubscriptionState, product: Product, extra: LifecycleExtras[T]): void {
    this.next();
    this.head(CODE[type], at);
    const nums = this.lastNums;
    const n = this.n;
    nums[n + 6] = sub.period_start;
    nums[n + 7] = sub.period_end;
    nums[n + 8] = sub.renewal_number;
    // Most types add one field; none, or several (a refund's CANCELLATION), are kept as the object.
    let extraKey: string | null = null;
    let extraValue: unknown = null;
    let count = 0;
    for (const key in extra) {
      count += 1;
      extraKey = key;
      extraValue = (extra as Record<string, unknown>)[key];
    }
    if (count > 1) {
      extraKey = SEVERAL;
      extraValue = extra;
    }
    this.owner(customer.project_id, customer.id, customer.aliases);
    const refs = this.lastRefs;
    const r = this.r;
    refs[r + 3] = product;
    refs[r + 4] = sub.product_id;
    refs[r + 5] = sub.period_type;
    refs[r + 6] = sub.environment;
    refs[r + 7] = sub.store;
    refs[r + 8] = sub.presented_offering_id;
    refs[r + 9] = sub.transaction_id;
    refs[r + 10] = sub.original_transaction_id;
    refs[r + 11] = sub.country_code;
    refs[r + 12] = extraKey;
    refs[r + 13] = extraValue;
  }

  currency(at: number, customer: CustomerState, adjustments: VcAdjustment[], product: Product | null, environment: string, store: string, transactionId: string | null): void {
    this.next();
    this.head(CURRENCY, at);
    const nums = this.lastNums;
    nums[this.n + 6] = randomWord(this.random);
    nums[this.n + 7] = randomWord(this.random);
    this.owner(customer.project_id, customer.id, customer.aliases);
    const refs = this.lastRefs;
    const r = this.r;
    refs[r + 3] = product;
    refs[r + 4] = adjustments;
    refs[r + 5] = environment;
    refs[r + 6] = store;
    refs[r + 7] = transactionId;
  }

  whole(projectId: string, body: WebhookBody): void {
    this.next();
    this.lastNums[this.n] = WHOLE;
    this.lastNums[this.n + 1] = body.event.event_timestamp_ms;
    this.owner(projectId, null, null);
    this.lastRefs[this.r + 3] = body;
  }

  body(index: number): WebhookBody {
    return this.build(index, false) as WebhookBody;
  }

  text(index: number): string {
    return this.build(index, true) as string;
  }

  /** The body of the event at `index`, or its JSON text (`asText`): one reading of the columns for both. */
  private build(index: number, asText: boolean): WebhookBody | string {
    const n = this.nums[index >>> CHUNK_BITS]!;
    const r = this.refs[index >>> CHUNK_BITS]!;
    const i = (index & (CHUNK - 1)) * NUMS;
    const j = (index & (CHUNK - 1)) * REFS;
    const code = n[i]!;
    if (code === WHOLE) return asText ? JSON.stringify(r[j + 3]) : (r[j + 3] as WebhookBody);
    const id = uuidOfWords(n[i + 2]!, n[i + 3]!, n[i + 4]!, n[i + 5]!);
    const userId = r[j + 1] as string;
    // A customer without a shared aliases list: a list of its id per event, as emitted.
    const aliases = ((r[j + 2] as readonly string[] | undefined) ?? [userId]) as string[];
    if (code === CURRENCY) {
      const vcTransactionId = prefixedHexOfWords('vctx_', n[i + 6]!, n[i + 7]!);
      const adjustments = r[j + 4] as VcAdjustment[];
      const product = r[j + 3] as Product | null;
      const environment = r[j + 5] as string;
      const store = r[j + 6] as string;
      const transactionId = r[j + 7] as string | null;
      return asText
        ? currencyText(id, this.appId, n[i + 1]!, userId, aliases, adjustments, product, environment, store, vcTransactionId, transactionId)
        : currencyBody(id, this.appId, n[i + 1]!, userId, aliases, adjustments, product, environment, store, vcTransactionId, transactionId);
    }
    const sub: EventSubscriptionFields = {
      product_id: r[j + 4] as string,
      period_type: r[j + 5] as SubscriptionState['period_type'],
      period_start: n[i + 6]!,
      period_end: n[i + 7]!,
      environment: r[j + 6] as SubscriptionState['environment'],
      store: r[j + 7] as string,
      presented_offering_id: r[j + 8] as string | null,
      transaction_id: r[j + 9] as string,
      original_transaction_id: r[j + 10] as string,
      country_code: r[j + 11] as string,
      renewal_number: n[i + 8]!,
    };
    const extraKey = r[j + 12] as string | null;
    const several = extraKey === SEVERAL;
    const type = TYPES[code] as LifecycleType;
    const product = r[j + 3] as Product;
    const key = several ? null : extraKey;
    const extras = several ? (r[j + 13] as object) : null;
    return asText
      ? lifecycleText(type, id, this.appId, n[i + 1]!, userId, aliases, product, sub, key, r[j + 13], extras)
      : lifecycleBody(type, id, this.appId, n[i + 1]!, userId, aliases, product, sub, key, r[j + 13], extras);
  }

  id(index: number): string {
    const n = this.nums[index >>> CHUNK_BITS]!;
    const i = (index & (CHUNK - 1)) * NUMS;
    if (n[i] === WHOLE) return (this.refs[index >>> CHUNK_BITS]![(index & (CHUNK - 1)) * REFS + 3] as WebhookBody).event.id;
    return uuidOfWords(n[i + 2]!, n[i + 3]!, n[i + 4]!, n[i + 5]!);
  }

  type(index: number): SimEvent['type'] {
    const code = this.nums[index >>> CHUNK_BITS]![(index & (CHUNK - 1)) * NUMS]!;
    if (code === WHOLE) return (this.refs[index >>> CHUNK_BITS]![(index & (CHUNK - 1)) * REFS + 3] as WebhookBody).event.type;
    return TYPES[code] as SimEvent['type'];
  }

  at(index: number): number {
    return this.nums[index >>> CHUNK_BITS]![(index & (CHUNK - 1)) * NUMS + 1]!;
  }

  project(index: number): string {
    return this.refs[index >>> CHUNK_BITS]![(index & (CHUNK - 1)) * REFS] as string;
  }
}
