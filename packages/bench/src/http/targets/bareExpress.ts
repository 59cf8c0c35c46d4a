// Baseline: a bare Express 5 route with express.json(), answering {"ok":true}.
import express from 'express';

const app = express();
app.post('/webhook', express.json({ limit: '1mb' }), (_req, res) => {
  res.json({ ok: true });
});
app.listen(Number(process.env.PORT), '127.0.0.1', () => console.log('ready'));
