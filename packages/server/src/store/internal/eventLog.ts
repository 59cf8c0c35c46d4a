/**
 * The memory store's event log: every stored event as its JSON text, in storage order, with a
 * per-customer chain (each event points to the previous event of the same customer) so a replay
 * can fold one customer's events without scanning the whole log or keeping a list per customer.
 * JSON text, not the parsed object: a one-byte string is a fraction of the size of an object with
 * twenty fields, and every read hands out a fresh copy that callers cannot mutate in place.
 */

/** Sequence number of "no event". */
export const NO_EVENT = -1;

/** An append-only log of JSON texts with per-customer back links. */
export class EventLog<T> {
  private texts: string[] = [];
  /** `previous[seq]`: the seq of the same customer's previous event, or NO_EVENT. */
  private previous = new Int32Array(1024);

  /** Number of events stored. */
  get size(): number {
    return this.texts.length;
  }

  /**
   * Given an event and the seq of its customer's latest event (NO_EVENT for a first event), stores
   * it and returns its seq.
   */
  append(event: T, previousOfCustomer: number): number {
    const seq = this.texts.length;
    if (seq === this.previous.length) {
      const grown = new Int32Array(this.previous.length * 2);
      grown.set(this.previous);
      this.previous = grown;
    }
    this.texts.push(JSON.stringify(event));
    this.previous[seq] = previousOfCustomer;
    return seq;
  }

  /** The event stored at `seq` (a fresh copy). */
  get(seq: number): T {
    return JSON.parse(this.texts[seq]!) as T;
  }

  /** Given a customer's latest seq, yields that customer's events, newest first. */
  *chain(latest: number): Generator<T, void, undefined> {
    for (let seq = latest; seq !== NO_EVENT; seq = this.previous[seq]!) yield this.get(seq);
  }

  /** Given a customer's latest seq, returns the seqs of its chain (any order). */
  seqsOf(latest: number): number[] {
    const seqs: number[] = [];
    for (let seq = latest; seq !== NO_EVENT; seq = this.previous[seq]!) seqs.push(seq);
    return seqs;
  }

  /** Replaces the event stored at `seq` by `rewrite` of it (a transfer re-keys its senders' events). */
  rewrite(seq: number, rewrite: (event: T) => T): void {
    this.texts[seq] = JSON.stringify(rewrite(this.get(seq)));
  }

  /**
   * Given the seqs of several chains, makes them one chain in storage order; returns the new
   * chain's latest seq (NO_EVENT for none).
   */
  merge(seqs: readonly number[]): number {
    const sorted = [...seqs].sort((a, b) => a - b);
    let latest = NO_EVENT;
    for (const seq of sorted) {
      this.previous[seq] = latest;
      latest = seq;
    }
    return latest;
  }

  /** Every event in storage order (events appended while iterating are included). */
  *all(): Generator<T, void, undefined> {
    for (let seq = 0; seq < this.texts.length; seq++) yield this.get(seq);
  }
}
