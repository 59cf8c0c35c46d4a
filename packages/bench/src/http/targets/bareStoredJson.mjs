// Baseline of the v1 bench: a bare node:http server answering every request with one stored JSON
// body (BENCH_BODY: one customer info answer of the simulator, taken before the run), its length
// computed once. Plain JavaScript, run without tsx.
import { createServer } from 'node:http';

const body = process.env.BENCH_BODY ?? '{}';
const headers = ['content-type', 'application/json; charset=utf-8', 'content-length', String(Buffer.byteLength(body))];

const server = createServer((req, res) => {
  req.resume();
  res.writeHead(200, headers);
  res.end(body);
});
server.listen(Number(process.env.PORT), '127.0.0.1', () => console.log('ready'));
