/**
 * The yardstick of the API figures: a plain node:http server that answers every request with the
 * bytes and content type given on the command line, doing nothing else. `node bare-server.mjs
 * <port> <body file> <content type>`.
 */
import { readFileSync } from 'node:fs';
import { createServer } from 'node:http';

const [port, file, type] = process.argv.slice(2);
const body = readFileSync(file);
createServer((_req, res) => {
  res.writeHead(200, { 'content-type': type, 'content-length': body.length });
  res.end(body);
}).listen(Number(port), '127.0.0.1', () => process.send?.('ready'));
