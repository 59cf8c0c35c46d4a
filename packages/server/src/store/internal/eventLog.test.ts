import { describe, expect, it } from 'vitest';
import { EventLog, NO_EVENT } from './eventLog.js';

interface E {
  id: string;
  customer: string;
}

describe('EventLog', () => {
  it('returns every event in storage order, as fresh copies', () => {
    const log = new EventLog<E>();
    const a = { id: 'a', customer: 'x' };
    log.append(a, NO_EVENT);
    log.append({ id: 'b', customer: 'y' }, NO_EVENT);
    const all = [...log.all()];
    expect(all).toEqual([a, { id: 'b', customer: 'y' }]);
    expect(all[0]).not.toBe(a);
    expect(log.size).toBe(2);
  });

  it('chains one customer’s events newest first, beyond the initial capacity', () => {
    const log = new EventLog<E>();
    const latest = new Map<string, number>();
    for (let i = 0; i < 5000; i++) {
      const customer = `c${i % 3}`;
      latest.set(customer, log.append({ id: `e${i}`, customer }, latest.get(customer) ?? NO_EVENT));
    }
    const chain = [...log.chain(latest.get('c1')!)];
    expect(chain).toHaveLength(1667);
    expect(chain.every((e) => e.customer === 'c1')).toBe(true);
    expect(chain[0]?.id).toBe('e4999');
    expect(chain.at(-1)?.id).toBe('e1');
    expect(log.get(4998)).toEqual({ id: 'e4998', customer: 'c0' });
  });
});
