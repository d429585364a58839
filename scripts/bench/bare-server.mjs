/**
 * The yardstick of the API figures: a plain node:http server that answers every request with the
 * body and headers given on the command line, doing nothing else. `node bare-server.mjs <port>
 * <body file> <headers JSON file>`.
 */
import { readFileSync } from 'node:fs';
import { createServer } from 'node:http';

const [port, file, headersFile] = process.argv.slice(2);
const body = readFileSync(file);
const headers = { ...JSON.parse(readFileSync(headersFile, 'utf8')), 'content-length': body.length };
createServer((_req, res) => {
  res.writeHead(200, headers);
  res.end(body);
}).listen(Number(port), '127.0.0.1', () => process.send?.('ready'));
