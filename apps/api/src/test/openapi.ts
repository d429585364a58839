import type { FastifyInstance } from 'fastify';

/** A JSON Schema as the OpenAPI document carries it (only what the tests read). */
export interface JsonSchema {
  type?: string | string[];
  properties?: Record<string, JsonSchema>;
  required?: string[];
  items?: JsonSchema;
  enum?: unknown[];
  anyOf?: JsonSchema[];
  oneOf?: JsonSchema[];
  minimum?: number;
  maximum?: number;
  pattern?: string;
}

export interface Operation {
  /** `METHOD /path/{param}/` as in the document. */
  key: string;
  method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  path: string;
  secured: boolean;
  params: string[];
  query?: JsonSchema;
  body?: JsonSchema;
}

interface OpenApiOperation {
  security?: unknown[];
  parameters?: { in: string; name: string; schema?: JsonSchema; required?: boolean }[];
  requestBody?: { content?: Record<string, { schema?: JsonSchema }> };
}

/** Every operation of the app's own OpenAPI document, as the sweep and the fuzz tests walk them. */
export async function listOperations(app: FastifyInstance): Promise<Operation[]> {
  const res = await app.inject({ method: 'GET', url: '/api/openapi.json' });
  const doc = res.json() as { paths: Record<string, Record<string, OpenApiOperation>> };
  const out: Operation[] = [];
  for (const [path, methods] of Object.entries(doc.paths)) {
    for (const [m, op] of Object.entries(methods)) {
      const method = m.toUpperCase() as Operation['method'];
      if (!['GET', 'POST', 'PUT', 'PATCH', 'DELETE'].includes(method)) continue;
      const queryParams = (op.parameters ?? []).filter((p) => p.in === 'query');
      out.push({
        key: `${method} ${path}`,
        method,
        path,
        secured: (op.security?.length ?? 0) > 0,
        params: (op.parameters ?? []).filter((p) => p.in === 'path').map((p) => p.name),
        ...(queryParams.length > 0
          ? {
              query: {
                type: 'object',
                properties: Object.fromEntries(queryParams.map((p) => [p.name, p.schema ?? {}])),
                required: queryParams.filter((p) => p.required).map((p) => p.name),
              },
            }
          : {}),
        ...(op.requestBody?.content?.['application/json']?.schema
          ? { body: op.requestBody.content['application/json'].schema }
          : {}),
      });
    }
  }
  return out;
}
