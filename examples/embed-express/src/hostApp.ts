/**
 * An existing Express backend (its own routes and body parsing) that mounts the tenure retention
 * service under /retention. Building the app is separate from listening, so the smoke test reuses it.
 */
import express, { type Express } from 'express';
import { createRetentionApp, type RetentionOptions } from '@tenure/server';

export interface HostApp {
  app: Express;
  /** The mounted retention app (pass it to closeRetentionApp on shutdown). */
  retention: Express;
}

export function createHostApp(options: RetentionOptions = {}): HostApp {
  const app = express();

  // Mount tenure before the host's own body parsers: its webhook route reads the raw body itself.
  // (Mounted after express.json() it still works: it then validates the already-parsed body.)
  const retention = createRetentionApp({
    serviceName: 'acme-retention',
    webhookAuthKey: process.env['BILLING_WEBHOOK_AUTH_KEY'],
    apiKey: process.env['TENURE_API_KEY'],
    ...options,
  });
  app.use('/retention', retention);

  // The host's own API, unchanged.
  app.use(express.json());
  app.get('/', (_req, res) => void res.json({ app: 'acme', retention: '/retention/health' }));
  app.post('/orders', (req, res) => void res.status(201).json({ received: req.body as unknown }));

  return { app, retention };
}
