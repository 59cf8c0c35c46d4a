/**
 * ISO 8601 durations in the simulator's API bodies: the schema that checks them. The durations and
 * their calendar arithmetic are the core's (`parseDuration`, `addDuration`), re-exported here for
 * the simulator's modules.
 */
import { parseDuration } from '@tenure/core';
import { z } from 'zod';

export { addDuration, parseDuration, type Duration } from '@tenure/core';

/** A duration in an API body: an ISO 8601 string (`P1M`) or a positive number of milliseconds. */
export const durationSchema = z
  .union([z.string(), z.number()])
  .refine((v) => parseDuration(v) !== null, 'Expected an ISO 8601 duration such as "P1M", "P7D", "PT5M" or milliseconds > 0');
