/** The schemas of `GET /api/config` (validation of its query, and its answer for /openapi.json). */
import { configFileSchema, epochMsSchema, URGENCIES } from '@tenure/core';
import { z } from 'zod';

/** `GET /api/config` takes no parameters (an unknown one is a 400 naming it, as everywhere). */
export const configQuerySchema = z.strictObject({});

export const configResponseSchema = z.object({
  source: z.string().meta({ description: 'Where the configuration came from: the file of `--config` / `TENURE_CONFIG`, `default` (nothing configured), or `options` (an embedding app\'s options).' }),
  hash: z
    .string()
    .regex(/^sha256:[0-9a-f]{64}$/)
    .meta({ description: 'SHA-256 of `config` as canonical JSON (keys sorted): the same effective configuration gives the same hash, whatever the file\'s formatting.' }),
  config: configFileSchema.meta({
    description:
      'The effective configuration, every value filled in (defaults, then the file): `risk`, `bands`, `recommend`, `dispatch.cooldown_hours` per urgency and channel (after the cooldown flag), `calibration` or null. It is itself a valid configuration file (docs/backtesting.md, "The configuration file").',
  }),
  calibration: z
    .object({
      horizon_ms: z.number().int().positive().meta({ description: 'A probability is the chance of churning within this long.' }),
      window: z.object({ from: epochMsSchema, to: epochMsSchema }).meta({ description: 'The first and last cutoff the calibration was fitted on.' }),
      samples: z.number().int().nonnegative().meta({ description: 'Assessments the fit saw (a subscriber once per cutoff it was live at).' }),
      positives: z.number().int().nonnegative().meta({ description: 'Of those, how many churned within the horizon.' }),
    })
    .nullable()
    .meta({ description: 'The calibration\'s provenance; null without a calibration (answers then carry no `churn_probability`).' }),
  alert_webhooks: z
    .array(z.object({ name: z.string(), origin: z.string(), urgencies: z.array(z.enum(URGENCIES)) }))
    .meta({ description: 'The signed webhook endpoints alerts go to: name, the URL\'s origin (a path or query may hold a token) and the urgencies received. Never the secret.' }),
});
