/**
 * The ceiling for compare.bench.mts: a bare node:http server that answers each recorded path
 * with exactly the status, headers and bytes fxrates gave for it, and 404 otherwise. Node adds
 * Date, Connection and Keep-Alive itself, as it does for fxrates.
 *
 *   node bench/bare-server.mjs RESPONSES.json
 *     RESPONSES.json: { "/path": { "status": 200, "headers": [name, value, ...], "body": base64 } }
 * Prints `listening at http://127.0.0.1:PORT` once it listens.
 */
import { readFileSync } from 'node:fs';
import { createServer } from 'node:http';

const recorded = JSON.parse(readFileSync(process.argv[2], 'utf8'));
const responses = new Map(
  Object.entries(recorded).map(([path, { status, headers, body }]) => [
    path,
    { status, headers, body: Buffer.from(body, 'base64') },
  ]),
);

const server = createServer((request, response) => {
  const answer = responses.get(request.url);
  if (!answer) {
    response.writeHead(404).end();
    return;
  }
  response.writeHead(answer.status, answer.headers);
  response.end(answer.body);
});
server.listen(0, '127.0.0.1', () => {
  console.log(`listening at http://127.0.0.1:${server.address().port}`);
});
process.once('SIGTERM', () => {
  server.close();
  server.closeAllConnections();
});
