/** Runs the host app: `npm start` (PORT, default 3000; BILLING_WEBHOOK_AUTH_KEY, TENURE_API_KEY). */
import { closeRetentionApp } from '@tenure/server';
import { createHostApp } from './hostApp.js';

const { app, retention } = createHostApp();
const port = Number(process.env['PORT'] ?? 3000);
const server = app.listen(port, '127.0.0.1', () => {
  console.log(`acme listening on http://127.0.0.1:${port} (tenure under /retention)`);
});

const stop = () => {
  server.close(() => void closeRetentionApp(retention)); // finish requests, then flush pending alerts
  server.closeIdleConnections();
};
process.once('SIGTERM', stop);
process.once('SIGINT', stop);
