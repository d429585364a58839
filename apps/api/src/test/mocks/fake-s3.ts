/**
 * A small stand-in for an S3-compatible bucket on 127.0.0.1, for tests only: path-style
 * `/<bucket>/<key>` with PUT, GET, HEAD and DELETE of one object, S3's XML error bodies, and a check
 * that every request carries a Signature Version 4 `Authorization` header naming the expected access
 * key (the signature itself is not recomputed).
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface FakeS3Object {
  body: Buffer;
  contentType: string | undefined;
  cacheControl: string | undefined;
}

export interface FakeS3Request {
  method: string;
  bucket: string;
  key: string;
  /** The access key named in the `Credential=` part of the Authorization header. */
  accessKeyId: string | null;
}

export interface FakeS3 {
  /** The endpoint to give the client (S3_ENDPOINT). */
  url: string;
  bucket: string;
  /** The access key the fake accepts; change it to see the shop's answer to a refused key. */
  accessKeyId: string;
  /** Objects of the bucket by key. */
  objects: Map<string, FakeS3Object>;
  requests: FakeS3Request[];
  close(): Promise<void>;
}

const SIGV4 =
  /^AWS4-HMAC-SHA256 Credential=([^/]+)\/\d{8}\/[^/]+\/s3\/aws4_request, ?SignedHeaders=[^,]+, ?Signature=[0-9a-f]{64}$/;

function xmlError(res: ServerResponse, status: number, code: string, message: string) {
  res.writeHead(status, { 'content-type': 'application/xml' });
  res.end(
    `<?xml version="1.0" encoding="UTF-8"?>\n<Error><Code>${code}</Code><Message>${message}</Message></Error>`,
  );
}

async function readBody(req: IncomingMessage): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

export async function startFakeS3(options: { bucket: string; accessKeyId: string }): Promise<FakeS3> {
  const objects = new Map<string, FakeS3Object>();
  const requests: FakeS3Request[] = [];
  const fake = { bucket: options.bucket, accessKeyId: options.accessKeyId, objects, requests };

  const server = createServer(async (req, res) => {
    const url = new URL(req.url ?? '/', 'http://fake-s3');
    const [, bucket = '', ...rest] = url.pathname.split('/');
    const key = decodeURIComponent(rest.join('/'));
    const auth = SIGV4.exec(req.headers.authorization ?? '');
    const body = await readBody(req);
    requests.push({ method: req.method ?? '', bucket, key, accessKeyId: auth?.[1] ?? null });

    if (!auth || !req.headers['x-amz-date']) {
      return xmlError(res, 403, 'AccessDenied', 'Missing or malformed SigV4 Authorization header');
    }
    if (auth[1] !== fake.accessKeyId) {
      return xmlError(res, 403, 'InvalidAccessKeyId', 'The AWS Access Key Id you provided does not exist');
    }
    if (bucket !== fake.bucket)
      return xmlError(res, 404, 'NoSuchBucket', 'The specified bucket does not exist');
    if (!key) return xmlError(res, 501, 'NotImplemented', 'Only object operations are implemented');

    switch (req.method) {
      case 'PUT': {
        const contentType = req.headers['content-type'];
        const cacheControl = req.headers['cache-control'];
        objects.set(key, { body, contentType, cacheControl });
        res.writeHead(200, { etag: `"${body.length.toString(16)}"` });
        return res.end();
      }
      case 'GET':
      case 'HEAD': {
        const object = objects.get(key);
        if (!object) {
          if (req.method === 'HEAD') return res.writeHead(404).end();
          return xmlError(res, 404, 'NoSuchKey', 'The specified key does not exist.');
        }
        res.writeHead(200, {
          'content-type': object.contentType ?? 'application/octet-stream',
          'content-length': object.body.length,
          ...(object.cacheControl ? { 'cache-control': object.cacheControl } : {}),
        });
        return res.end(req.method === 'GET' ? object.body : undefined);
      }
      case 'DELETE':
        objects.delete(key);
        return res.writeHead(204).end();
      default:
        return xmlError(res, 405, 'MethodNotAllowed', 'The specified method is not allowed');
    }
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return Object.assign(fake, {
    url: `http://127.0.0.1:${port}`,
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.closeAllConnections();
        server.close((err) => (err ? reject(err) : resolve()));
      }),
  });
}
