import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js';

type Json = Record<string, unknown>;

interface Operation {
  method: string;
  template: string;
  pattern: RegExp;
  responses: Record<string, { content?: Record<string, { schema?: Json }> }>;
}

export interface ApiResponse<T = Json> {
  status: number;
  headers: Headers;
  text: string;
  /** The raw bytes (for files and PDFs, where `text` would be lossy). */
  bytes: Uint8Array;
  body: T;
}

export interface ApiOptions {
  /** An object is sent as JSON; a string or bytes are sent as is (for malformed bodies). */
  body?: unknown;
  token?: string;
  headers?: Record<string, string>;
  /** A multipart body; fetch sets the boundary. */
  form?: FormData;
}

/** Rewrites component refs so each response schema compiles on its own with the components as $defs. */
function toDefs(value: unknown): unknown {
  return JSON.parse(JSON.stringify(value).replaceAll('#/components/schemas/', '#/$defs/'));
}

function operationsOf(document: Json): Operation[] {
  const paths = document.paths as Record<string, Record<string, Operation['responses'] | Json>>;
  const operations: Operation[] = [];
  for (const [template, item] of Object.entries(paths)) {
    const pattern = new RegExp(`^${template.replace(/\{[^}]+\}/g, '[^/]+')}$`);
    for (const [method, operation] of Object.entries(item)) {
      const { responses } = operation as { responses: Operation['responses'] };
      operations.push({ method: method.toUpperCase(), template, pattern, responses });
    }
  }
  return operations;
}

/**
 * A client that checks EVERY response against the served /openapi.json: the status must be one the
 * operation declares, and a JSON body must validate against the declared schema (components resolved).
 */
export async function apiClient(baseUrl: string) {
  const document = (await (await fetch(`${baseUrl}/openapi.json`)).json()) as Json;
  const components = toDefs((document.components as Json).schemas) as Json;
  const operations = operationsOf(document);
  const ajv = new Ajv2020({ strict: false, allErrors: true });
  ajv.addFormat(
    'date-time',
    (v) => !Number.isNaN(Date.parse(v)) && /T.*(Z|[+-]\d\d:\d\d)$/.test(v),
  );
  ajv.addFormat('email', /^[^\s@]+@[^\s@]+$/);
  const validators = new Map<string, ValidateFunction>();

  function check(method: string, path: string, response: ApiResponse<unknown>): void {
    const pathOnly = path.split('?')[0] ?? path;
    const operation = operations.find((op) => op.method === method && op.pattern.test(pathOnly));
    if (!operation) {
      // Unknown routes are outside the document: only the error shape applies.
      if (response.status !== 404 && response.status !== 405) {
        throw new Error(`${method} ${path} is not in openapi.json but answered ${response.status}`);
      }
      return;
    }
    const declared = operation.responses[String(response.status)];
    if (!declared) {
      throw new Error(
        `${method} ${operation.template} answered undeclared status ${response.status}: ${response.text}`,
      );
    }
    const contentType = response.headers.get('content-type') ?? '';
    if (!declared.content) {
      if (response.text !== '')
        throw new Error(`${method} ${operation.template} ${response.status} should have no body`);
      return;
    }
    if (!contentType.startsWith('application/json')) {
      if (!Object.keys(declared.content).some((type) => contentType.startsWith(type))) {
        throw new Error(
          `${method} ${operation.template} answered undeclared content type ${contentType}`,
        );
      }
      return;
    }
    const schema = declared.content['application/json']?.schema;
    if (!schema)
      throw new Error(`${method} ${operation.template} ${response.status} declares no JSON schema`);
    const key = `${method} ${operation.template} ${response.status}`;
    let validate = validators.get(key);
    if (!validate) {
      validate = ajv.compile({ ...(toDefs(schema) as Json), $defs: components });
      validators.set(key, validate);
    }
    if (!validate(response.body)) {
      throw new Error(
        `${key} body does not match openapi.json: ${JSON.stringify(validate.errors)}\n${response.text}`,
      );
    }
  }

  async function api<T = Json>(
    method: string,
    path: string,
    options: ApiOptions = {},
  ): Promise<ApiResponse<T>> {
    const headers: Record<string, string> = {
      accept: 'application/json',
      ...(options.headers ?? {}),
    };
    if (options.token !== undefined) headers.authorization = `Bearer ${options.token}`;
    let body: string | Uint8Array | FormData | undefined = options.form;
    if (options.body !== undefined) {
      body =
        typeof options.body === 'string' || options.body instanceof Uint8Array
          ? options.body
          : JSON.stringify(options.body);
      if (!Object.keys(headers).some((h) => h.toLowerCase() === 'content-type')) {
        headers['content-type'] = 'application/json';
      }
    }
    const res = await fetch(`${baseUrl}${path}`, {
      method,
      headers,
      ...(body !== undefined ? { body } : {}),
    });
    const bytes = new Uint8Array(await res.arrayBuffer());
    const text = new TextDecoder().decode(bytes);
    const isJson = (res.headers.get('content-type') ?? '').startsWith('application/json');
    const response: ApiResponse<unknown> = {
      status: res.status,
      headers: res.headers,
      text,
      bytes,
      body: isJson && text !== '' ? JSON.parse(text) : undefined,
    };
    check(method, path, response);
    return response as ApiResponse<T>;
  }

  return { api, document };
}

export type Api = Awaited<ReturnType<typeof apiClient>>['api'];
