/** RevenueCat's answer as the offer routes pass it on (grant and revoke), and its one-line text. */

/** What the offer routes answer beside their own fields: RevenueCat's status and body, or an error. */
export interface RevenueCatReply {
  revenuecat?: { status: number | null; body: unknown };
  error?: { message?: string };
}

/** RevenueCat's answer in one line: its status and (shortened) body; empty without one. */
export const answerText = (a: RevenueCatReply['revenuecat']): string =>
  a === undefined ? '' : `RevenueCat answered ${a.status ?? 'nothing (unreachable)'}: ${JSON.stringify(a.body).slice(0, 300)}`;
