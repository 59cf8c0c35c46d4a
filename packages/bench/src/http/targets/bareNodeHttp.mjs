// Baseline: a bare node:http server that reads the body, JSON.parses it and answers {"ok":true}.
// Plain JavaScript, run without tsx, so its resident memory is the floor of a Node HTTP process.
import { createServer } from 'node:http';

const server = createServer((req, res) => {
  const chunks = [];
  req.on('data', (chunk) => chunks.push(chunk));
  req.on('end', () => {
    // The readiness probe is a bodyless GET; every measured request is a POST with a JSON body.
    if (req.method === 'POST') JSON.parse(Buffer.concat(chunks).toString('utf8'));
    const body = '{"ok":true}';
    res.writeHead(200, { 'content-type': 'application/json', 'content-length': body.length });
    res.end(body);
  });
});
server.listen(Number(process.env.PORT), '127.0.0.1', () => console.log('ready'));
