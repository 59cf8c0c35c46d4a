/**
 * RevenueCat's official API v1 document (`REVENUECAT_OPENAPI_V1`) as a response validator, with the
 * simulator's documented differences (docs/api-v1-conformance.md): the fields the document types as
 * strings but describes, and shows in its own example, as null are read as nullable; an error at a
 * status an operation does not list is checked against the document's `Error` schema.
 */
import { loadOfficialSpec, type DocumentChoice, type OfficialSpec } from '../v2/officialSpec.js';

type Json = Record<string, any>;

const nullable = (schema: Json, names: readonly string[]) => {
  for (const name of names) {
    const property = schema['properties'][name];
    if (property === undefined) throw new Error(`the document has no property ${name}`);
    property['nullable'] = true;
  }
};

/** The fields the simulator answers null where the document says a value may be missing. */
export const NULLABLE_V1 = {
  subscriber: ['management_url', 'original_application_version', 'original_purchase_date'],
  subscription: ['auto_resume_date', 'billing_issues_detected_at', 'expires_date', 'grace_period_expires_date', 'refunded_at', 'unsubscribe_detected_at'],
  offerings: ['current_offering_id'],
} as const;

export const V1_DOCUMENT: DocumentChoice = {
  env: 'REVENUECAT_OPENAPI_V1',
  id: 'revenuecat-api-v1',
  prefix: '/v1',
  undocumentedErrors: 'Error',
  adjust(schemas) {
    const subscriber = (schemas['Subscriber'] as Json)['properties']['subscriber'];
    nullable(subscriber, NULLABLE_V1.subscriber);
    nullable(subscriber['properties']['subscriptions']['additionalProperties'], NULLABLE_V1.subscription);
    nullable(schemas['Offerings'] as Json, NULLABLE_V1.offerings);
  },
};

/** Loads the v1 document, or null when `REVENUECAT_OPENAPI_V1` is unset. */
export const loadOfficialSpecV1 = (): OfficialSpec | null => loadOfficialSpec(V1_DOCUMENT);
