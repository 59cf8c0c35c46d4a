/**
 * An official RevenueCat API document (v2 by default; v1 with `V1_DOCUMENT`) as a response
 * validator. The document is reference data outside the repository: it is read from the path in an
 * environment variable (`REVENUECAT_OPENAPI`, `REVENUECAT_OPENAPI_V1`; absolute, or relative to the
 * working directory), never copied here. OpenAPI 3.0 schemas become JSON Schema for ajv:
 * `nullable: true` becomes "or null", `$ref`s point into the loaded document.
 */
import { existsSync, readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { Ajv, type ValidateFunction } from 'ajv';
import addFormatsModule from 'ajv-formats';
import { parse } from 'yaml';

// ajv-formats is CommonJS: its default export arrives wrapped under ESM interop.
const addFormats = ((addFormatsModule as unknown as { default?: unknown }).default ?? addFormatsModule) as (ajv: Ajv) => Ajv;

type Json = Record<string, unknown>;

/**
 * The simulator's deliberate differences from the document, by schema and property: each one is
 * added to the loaded schema (so nothing else about the object loosens) and documented in
 * docs/api-v2-conformance.md. `state` on a virtual currency was observed on real responses.
 */
export const DELIBERATE_DIFFERENCES: Record<string, Record<string, unknown>> = {
  VirtualCurrency: { state: { type: 'string', enum: ['active'] } },
};

/** One exchange with the simulator, as the validator sees it. */
export interface Exchange {
  method: string;
  /** The simulator's route pattern, e.g. `/v2/projects/:project_id/customers/:customer_id`. */
  pattern: string;
  status: number;
  body: unknown;
  headers: Headers;
}

export interface OfficialSpec {
  /** The spec path (`/projects/{project_id}/…`) a simulator pattern serves, or null when none. */
  specPathOf(pattern: string): string | null;
  /** Every problem of the exchange against the document (empty when it conforms). */
  problemsOf(exchange: Exchange): string[];
  /** The operation's rate-limit domain (`x-revenuecat-rate-limiting-domain`). */
  rateDomainOf(method: string, pattern: string): string | undefined;
}

/** Which document to load and how the simulator's paths map onto it. */
export interface DocumentChoice {
  /** The environment variable naming the document's path. */
  env: string;
  /** The id the loaded document's schemas are registered under. */
  id: string;
  /** The simulator's path prefix the document's paths leave out (`/v2`, `/v1`). */
  prefix: string;
  /** The simulator's deliberate differences, added to the loaded schemas before anything is compiled. */
  adjust: (schemas: Record<string, Json>) => void;
  /** Errors at a status an operation does not document are checked against this schema (the document's `Error`), or refused. */
  undocumentedErrors: string | null;
}

/** Adds each deliberate difference's properties to its schema (nothing else about the object loosens). */
const addProperties = (differences: Record<string, Record<string, unknown>>) => (schemas: Record<string, Json>) => {
  for (const [name, extra] of Object.entries(differences)) {
    const schema = schemas[name];
    if (schema === undefined) throw new Error(`the document has no schema ${name}`);
    schema['properties'] = { ...(schema['properties'] as Json), ...extra };
  }
};

/** API v2's document: every status must be documented. */
export const V2_DOCUMENT: DocumentChoice = { env: 'REVENUECAT_OPENAPI', id: 'revenuecat-api-v2', prefix: '/v2', adjust: addProperties(DELIBERATE_DIFFERENCES), undocumentedErrors: null };

/** OpenAPI 3.0 schema → JSON Schema: `nullable`, and `$ref`s into the loaded document. */
function toJsonSchema(node: unknown, docId: string): unknown {
  if (Array.isArray(node)) return node.map((n) => toJsonSchema(n, docId));
  if (node === null || typeof node !== 'object') return node;
  const out: Json = {};
  let nullable = false;
  for (const [key, value] of Object.entries(node as Json)) {
    if (key === 'nullable') nullable = value === true;
    else if (key === 'example' || key === 'examples' || key.startsWith('x-')) continue;
    else if (key === '$ref' && typeof value === 'string' && value.startsWith('#/')) out[key] = `${docId}${value}`;
    else out[key] = toJsonSchema(value, docId);
  }
  return nullable ? { anyOf: [out, { type: 'null' }] } : out;
}

/**
 * Loads the chosen document (API v2 by default), or returns null when its variable is unset (the
 * caller skips with a notice). A set variable naming a missing file is an error, not a skip.
 */
export function loadOfficialSpec(choice: DocumentChoice = V2_DOCUMENT): OfficialSpec | null {
  const where = process.env[choice.env];
  if (where === undefined || where === '') return null;
  const file = resolve(where);
  if (!existsSync(file)) throw new Error(`${choice.env} names ${file}, which does not exist`);
  const doc = parse(readFileSync(file, 'utf8')) as Json;
  const components = doc['components'] as Json;
  choice.adjust(components['schemas'] as Record<string, Json>);
  const paths = doc['paths'] as Record<string, Record<string, Json>>;
  const ajv = new Ajv({ strict: false, allErrors: true });
  addFormats(ajv);
  ajv.addSchema({ $id: choice.id, components: toJsonSchema(components, choice.id) } as Json);
  // `/v2/projects/:project_id/x/:code` → `projects/*/x/*`.
  const shapeOf = (path: string) => (path.startsWith(choice.prefix) ? path.slice(choice.prefix.length) : path).split('/').filter(Boolean).map((s) => (s.startsWith(':') || s.startsWith('{') ? '*' : s));

  const deref = (node: Json): Json => {
    const ref = node['$ref'];
    if (typeof ref !== 'string') return node;
    const target = ref.replace(/^#\//, '').split('/').reduce<unknown>((n, k) => (n as Json)[k], doc);
    return deref(target as Json);
  };
  const specPaths = Object.keys(paths);
  const specPathOf = (pattern: string): string | null => {
    const shape = shapeOf(pattern).join('/');
    return specPaths.find((p) => shapeOf(p).join('/') === shape) ?? null;
  };
  const operation = (method: string, pattern: string): Json | undefined => {
    const path = specPathOf(pattern);
    return path === null ? undefined : paths[path]?.[method.toLowerCase()];
  };
  const validators = new Map<string, ValidateFunction>();

  return {
    specPathOf,
    rateDomainOf: (method, pattern) => operation(method, pattern)?.['x-revenuecat-rate-limiting-domain'] as string | undefined,
    problemsOf({ method, pattern, status, body, headers }) {
      const op = operation(method, pattern);
      const where = `${method} ${pattern} → ${status}`;
      if (op === undefined) return [`${where}: no such operation in the official document`];
      const responses = op['responses'] as Json;
      let declared = responses[String(status)] as Json | undefined;
      if (declared === undefined && status >= 400 && choice.undocumentedErrors !== null) {
        declared = { content: { 'application/json': { schema: { $ref: `#/components/schemas/${choice.undocumentedErrors}` } } } };
      }
      if (declared === undefined) return [`${where}: status not documented (documented: ${Object.keys(responses).join(', ')})`];
      const response = deref(declared);
      const problems: string[] = [];
      for (const [name, header] of Object.entries((response['headers'] ?? {}) as Record<string, Json>)) {
        const h = deref(header);
        const value = headers.get(name);
        if (h['required'] === true && value === null) problems.push(`${where}: header ${name} missing`);
        if (value !== null && (h['schema'] as Json | undefined)?.['type'] === 'integer' && !/^\d+$/.test(value)) {
          problems.push(`${where}: header ${name} is not an integer: ${value}`);
        }
      }
      const schema = ((response['content'] as Json | undefined)?.['application/json'] as Json | undefined)?.['schema'];
      if (schema === undefined) return problems;
      const key = `${method} ${pattern} ${status}`;
      let validate = validators.get(key);
      if (validate === undefined) {
        validate = ajv.compile(toJsonSchema(schema, choice.id) as Json);
        validators.set(key, validate);
      }
      if (!validate(body)) {
        for (const e of validate.errors ?? []) problems.push(`${where}: body${e.instancePath} ${e.message ?? ''} ${JSON.stringify(e.params)}`);
      }
      return problems;
    },
  };
}
