/**
 * The commands of the simulator machine: everything that changes the world, as data. The HTTP
 * routes, scenarios and the facade build commands; `transition` applies them.
 */
import type { virtualCurrencyCreateSchema, virtualCurrencyUpdateSchema } from '@tenure/core';
import type { z } from 'zod';
import type { BalanceChange, BalanceResource } from './balanceOps.js';
import type { Job } from './clock.js';
import type { VirtualCurrencyResource } from './currencyOps.js';
import type { Duration } from '../internal/duration.js';
import type { PurchaseInput, PurchaseOutcome, TemporaryGrantInput } from './lifecycle.js';
import type { Product, CustomerAttributes, PlacementMap, EntitlementRecord, WebhookIntegrationRecord, EligibilityCriteria, OfferingRecord, PackageRecord, PortalToken, CustomerState, IdempotencyRecord, SubscriptionState } from './world.js';
import type { ProjectResource } from './projects.js';
import type { AttributeInput } from './attributes.js';
import type { AppUser } from './appUsers.js';
import type { PromotionalInput } from './promotional.js';
import type { ReceiptInput, ReceiptOutcome } from './receipts.js';
import type { IntegrationInput, IntegrationUpdate } from './integrations.js';
import type { OfferingInput, OfferingUpdate } from './offerings.js';
import type { PackageInput } from './packages.js';

/** A command and its parameters, discriminated on `type`. */
export type SimCommand =
  | { type: 'advance' }
  | { type: 'put_product'; product: Product }
  | { type: 'create_currency'; project_id: string; body: z.output<typeof virtualCurrencyCreateSchema> }
  | { type: 'update_currency'; project_id: string; code: string; body: z.output<typeof virtualCurrencyUpdateSchema> }
  | { type: 'delete_currency'; project_id: string; code: string }
  | { type: 'change_balances'; project_id: string; customer_id: string; change: BalanceChange; reference: string | null; include_empty: boolean }
  | ({ type: 'purchase' } & PurchaseInput)
  | { type: 'refund_purchase'; project_id: string; transaction_id: string }
  | { type: 'cancel'; subscription_id: string; reason: string }
  | { type: 'uncancel'; subscription_id: string }
  | { type: 'billing_issue'; subscription_id: string; grace_ms: number | null; when: 'now' | 'next_renewal' }
  | { type: 'recover'; subscription_id: string }
  | { type: 'change_product'; subscription_id: string; new_product_id: string; timing: 'immediate' | 'next_renewal' }
  | { type: 'refund'; subscription_id: string }
  | { type: 'expire'; subscription_id: string; reason: string }
  | { type: 'pause'; subscription_id: string; resume_after: Duration }
  | { type: 'resume'; subscription_id: string }
  | { type: 'extend'; subscription_id: string; by: Duration }
  | { type: 'reverse_refund'; subscription_id: string }
  | { type: 'transfer'; project_id: string; customer_id: string; target_customer_id: string }
  | ({ type: 'temporary_grant' } & TemporaryGrantInput)
  | { type: 'remember_idempotency'; project_id: string; key: string; record: Omit<IdempotencyRecord, 'created_at'> }
  | { type: 'create_project'; project_id: string }
  | { type: 'create_named_project'; name: string }
  | { type: 'create_customer'; project_id: string; customer_id: string; attributes: { name: string; value: string }[] }
  | { type: 'create_offering'; project_id: string; input: OfferingInput }
  | { type: 'update_offering'; project_id: string; id: string; update: OfferingUpdate }
  | { type: 'delete_offering'; project_id: string; id: string }
  | { type: 'assign_offering'; project_id: string; customer_id: string; offering_id: string | null }
  | { type: 'create_package'; project_id: string; offering_id: string; input: PackageInput }
  | { type: 'update_package'; project_id: string; id: string; update: { display_name?: string | undefined; position?: number | undefined } }
  | { type: 'delete_package'; project_id: string; id: string }
  | { type: 'attach_package_products'; project_id: string; id: string; products: { product_id: string; eligibility_criteria: EligibilityCriteria }[] }
  | { type: 'detach_package_products'; project_id: string; id: string; product_ids: string[] }
  | { type: 'issue_portal_token'; project_id: string; subscription_id: string }
  | { type: 'redeem_portal_token'; token: string }
  | { type: 'update_entitlement'; project_id: string; id: string; display_name: string }
  | { type: 'delete_entitlement'; project_id: string; id: string }
  | { type: 'delete_api_product'; id: string }
  | { type: 'create_integration'; project_id: string; input: IntegrationInput }
  | { type: 'update_integration'; project_id: string; id: string; input: IntegrationUpdate }
  | { type: 'delete_integration'; project_id: string; id: string }
  | { type: 'set_attributes'; project_id: string; customer_id: string; attributes: AttributeInput[] }
  | { type: 'delete_customer'; project_id: string; customer_id: string }
  | { type: 'create_api_product'; product: Product }
  | { type: 'create_entitlement'; project_id: string; lookup_key: string; display_name: string }
  | { type: 'change_entitlement_products'; project_id: string; id: string; product_ids: string[]; attach: boolean }
  | { type: 'grant_entitlement'; project_id: string; customer_id: string; entitlement_id: string; expires_at: number }
  | { type: 'revoke_granted_entitlement'; project_id: string; customer_id: string; entitlement_id: string }
  | ({ type: 'grant_promotional' } & PromotionalInput)
  | { type: 'revoke_promotional'; project_id: string; customer_id: string; lookup_key: string }
  | ({ type: 'post_receipt' } & ReceiptInput)
  | { type: 'get_or_create_customer'; project_id: string; customer_id: string; seen: boolean }
  | { type: 'identify'; project_id: string; customer_id: string; new_customer_id: string }
  | { type: 'set_placements'; project_id: string; placements: PlacementMap };

export type SimCommandType = SimCommand['type'];

type SubscriptionValue = { customer: CustomerState; sub: SubscriptionState };

/** What each command answers when it succeeds. */
export interface CommandValues {
  advance: { now: number; jobs_run: Job[] };
  put_product: Product;
  create_currency: VirtualCurrencyResource;
  update_currency: VirtualCurrencyResource;
  delete_currency: { object: 'virtual_currency'; id: string; deleted_at: number };
  change_balances: BalanceResource[];
  purchase: PurchaseOutcome;
  refund_purchase: { transaction_id: string };
  cancel: SubscriptionValue;
  uncancel: SubscriptionValue;
  billing_issue: SubscriptionValue;
  recover: SubscriptionValue;
  change_product: SubscriptionValue;
  refund: SubscriptionValue;
  expire: SubscriptionValue;
  pause: SubscriptionValue;
  resume: SubscriptionValue;
  extend: SubscriptionValue;
  reverse_refund: SubscriptionValue;
  transfer: { customer_id: string; target_customer_id: string; subscription_ids: string[]; transaction_ids: string[] };
  temporary_grant: { subscription_id: string; transaction_id: string };
  remember_idempotency: IdempotencyRecord;
  create_project: ProjectResource;
  create_named_project: ProjectResource;
  create_customer: CustomerState;
  create_offering: OfferingRecord;
  update_offering: OfferingRecord;
  delete_offering: { object: 'offering'; id: string; deleted_at: number };
  assign_offering: { customer_id: string; offering_id: string | null };
  create_package: PackageRecord;
  update_package: PackageRecord;
  delete_package: { object: 'package'; id: string; deleted_at: number };
  attach_package_products: PackageRecord;
  detach_package_products: PackageRecord;
  issue_portal_token: { token: string } & PortalToken;
  redeem_portal_token: PortalToken;
  update_entitlement: EntitlementRecord;
  delete_entitlement: { object: 'entitlement'; id: string; deleted_at: number };
  delete_api_product: { object: 'product'; id: string; deleted_at: number };
  create_integration: WebhookIntegrationRecord;
  update_integration: WebhookIntegrationRecord;
  delete_integration: { object: 'webhook_integration'; id: string; deleted_at: number };
  set_attributes: CustomerAttributes;
  delete_customer: { object: 'customer'; id: string; deleted_at: number };
  create_api_product: Product;
  create_entitlement: EntitlementRecord;
  change_entitlement_products: EntitlementRecord;
  grant_entitlement: CustomerState;
  revoke_granted_entitlement: CustomerState;
  grant_promotional: CustomerState;
  revoke_promotional: CustomerState;
  post_receipt: ReceiptOutcome;
  get_or_create_customer: AppUser;
  identify: AppUser;
  set_placements: PlacementMap;
}

/** The command of a given type. */
export type CommandOf<T extends SimCommandType> = Extract<SimCommand, { type: T }>;
