/**
 * The one outcome type of the core: a value, or the list of what went wrong. Every core function
 * that can refuse its input returns it (the credit rules `adjustBalances` and `setBalances` too), and
 * adapters map it to a status with a table at the edge (`ok: false` → 400 naming `errors[0].field`).
 */

/**
 * A success carrying `value`, or a failure carrying one or more `errors`.
 *
 * @example
 * const parsed: Result<ParsedEvent, FieldError> = parseWebhook(body);
 * if (!parsed.ok) return { status: 400, body: parsed.errors };
 */
export type Result<T, E> = { ok: true; value: T } | { ok: false; errors: E[] };

/**
 * Given a value, returns the success carrying it. Pure.
 *
 * @example
 * ok(42); // { ok: true, value: 42 }
 */
export function ok<T>(value: T): { ok: true; value: T } {
  return { ok: true, value };
}

/**
 * Given one or more errors, returns the failure carrying them. Pure.
 *
 * @example
 * err({ field: 'event.type', message: 'Expected a string' }); // { ok: false, errors: [...] }
 */
export function err<E>(...errors: [E, ...E[]]): { ok: false; errors: E[] } {
  return { ok: false, errors };
}

/** One validation problem; `field` is a dotted path into the input, e.g. `event.app_user_id`. */
export interface FieldError {
  field: string;
  message: string;
}
