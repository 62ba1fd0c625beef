// Migrations are listed here rather than read from disk, so they load the same way under
// tsx, vitest and a compiled build. A test checks this list against the folder.
import type { Knex } from 'knex';
import * as createAccounts from './20261122190000_create_accounts.ts';
import * as createApiKeys from './20261122190100_create_api_keys.ts';
import * as createSlugs from './20261122190200_create_slugs.ts';
import * as createCodes from './20261122190300_create_codes.ts';
import * as createRoutingRules from './20261122190400_create_routing_rules.ts';
import * as createScans from './20261122200000_create_scans.ts';
import * as createVisitorSalts from './20261122200100_create_visitor_salts.ts';
import * as createLogos from './20261122201000_create_logos.ts';
import * as addCodesBatch from './20261122202000_add_codes_batch.ts';
import * as createIdempotencyKeys from './20261122202100_create_idempotency_keys.ts';
import * as addScansUniqueFlags from './20261122210000_add_scans_unique_flags.ts';
import * as createScanVisitors from './20261122210100_create_scan_visitors.ts';
import * as createScanRollups from './20261122210200_create_scan_rollups.ts';
import * as backfillScanRollups from './20261122210300_backfill_scan_rollups.ts';
import * as createWebhookEndpoints from './20261122220000_create_webhook_endpoints.ts';
import * as createWebhookEvents from './20261122220100_create_webhook_events.ts';
import * as createWebhookDeliveries from './20261122220200_create_webhook_deliveries.ts';
import * as createWebhookAttempts from './20261122220300_create_webhook_attempts.ts';
import * as addApiKeysScopes from './20261122230000_add_api_keys_scopes.ts';
import * as createOauthClients from './20261122230100_create_oauth_clients.ts';
import * as createOauthPayloads from './20261122230200_create_oauth_payloads.ts';
import * as createOauthSecrets from './20261122230300_create_oauth_secrets.ts';
import * as widenAccountScanRollupsValue from './20261123000000_widen_account_scan_rollups_value.ts';
import * as backfillAccountScanBreakdowns from './20261123000100_backfill_account_scan_breakdowns.ts';
import * as createScanBatches from './20261123010000_create_scan_batches.ts';
import * as binaryCollateSlugsAndCodeIds from './20261124090000_binary_collate_slugs_and_code_ids.ts';
import * as createAccountLogos from './20261125100000_create_account_logos.ts';
import * as addOauthPayloadsAccount from './20261125110000_add_oauth_payloads_account.ts';
import * as addCodesNameNotes from './20261125120000_add_codes_name_notes.ts';
import * as addCodesForwardQuery from './20261125140000_add_codes_forward_query.ts';
import * as createTags from './20261126120000_create_tags.ts';
import * as addCodesLifecycle from './20261126120100_add_codes_lifecycle.ts';
import * as addDomains from './20261126120200_add_domains.ts';
import * as createCodePurges from './20261126220000_create_code_purges.ts';
import * as addScansRegionCity from './20261126230000_add_scans_region_city.ts';
import * as createAccountDailyRollups from './20261127010000_create_account_daily_rollups.ts';
import * as createCodeDailyRollups from './20261127100000_create_code_daily_rollups.ts';
import * as createCodeLastScans from './20261127110000_create_code_last_scans.ts';
import * as addCodesAccountStatusIndex from './20261127120000_add_codes_account_status_index.ts';
import * as createScanDimensionDeltas from './20261128100000_create_scan_dimension_deltas.ts';
import * as createAccountCodeCounts from './20261128110000_create_account_code_counts.ts';
import * as createTagRollups from './20261129100000_create_tag_rollups.ts';
import * as createCodeScanDays from './20261130100000_create_code_scan_days.ts';
import * as createCodeScanUses from './20261201100000_create_code_scan_uses.ts';
import * as quarterHourRollups from './20261202100000_quarter_hour_rollups.ts';
import * as addCodesImportedScans from './20261203100000_add_codes_imported_scans.ts';
import * as addCodesPassword from './20261203120000_add_codes_password.ts';
import * as addScansScanId from './20261204100000_add_scans_scan_id.ts';
import * as addCodesAppLinksUtm from './20261204110000_add_codes_app_links_utm.ts';
import * as addDomainsWellKnown from './20261204110100_add_domains_well_known.ts';
import * as createUtmTemplates from './20261204110200_create_utm_templates.ts';
import * as createAuditLog from './20261204120000_create_audit_log.ts';
import * as createLockedViewIds from './20261205090000_create_locked_view_ids.ts';
import * as createUsers from './20261207154300_create_users.ts';
import * as addCodesPreview from './20261212154300_add_codes_preview.ts';
import * as addCodesPage from './20261212164300_add_codes_page.ts';
import * as createInvitations from './20261213090000_create_invitations.ts';
import * as createPasswordResets from './20261213100000_create_password_resets.ts';
import * as addApiKeysCreatedBy from './20261213110000_add_api_keys_created_by.ts';
import * as createImages from './20261214100000_create_images.ts';
import * as createSecondFactors from './20261214130000_create_second_factors.ts';
import * as createScanIdRuns from './20261214140000_create_scan_id_runs.ts';
import * as createPasskeys from './20261215100000_create_passkeys.ts';
import * as createWorkspaceSso from './20261215110000_create_workspace_sso.ts';
import * as addUsersEmailVerifiedAt from './20261215120000_add_users_email_verified_at.ts';
import * as addInvitationsMailedAt from './20261215120100_add_invitations_mailed_at.ts';

export const migrations: Record<string, Knex.Migration> = {
  '20261122190000_create_accounts': createAccounts,
  '20261122190100_create_api_keys': createApiKeys,
  '20261122190200_create_slugs': createSlugs,
  '20261122190300_create_codes': createCodes,
  '20261122190400_create_routing_rules': createRoutingRules,
  '20261122200000_create_scans': createScans,
  '20261122200100_create_visitor_salts': createVisitorSalts,
  '20261122201000_create_logos': createLogos,
  '20261122202000_add_codes_batch': addCodesBatch,
  '20261122202100_create_idempotency_keys': createIdempotencyKeys,
  '20261122210000_add_scans_unique_flags': addScansUniqueFlags,
  '20261122210100_create_scan_visitors': createScanVisitors,
  '20261122210200_create_scan_rollups': createScanRollups,
  '20261122210300_backfill_scan_rollups': backfillScanRollups,
  '20261122220000_create_webhook_endpoints': createWebhookEndpoints,
  '20261122220100_create_webhook_events': createWebhookEvents,
  '20261122220200_create_webhook_deliveries': createWebhookDeliveries,
  '20261122220300_create_webhook_attempts': createWebhookAttempts,
  '20261122230000_add_api_keys_scopes': addApiKeysScopes,
  '20261122230100_create_oauth_clients': createOauthClients,
  '20261122230200_create_oauth_payloads': createOauthPayloads,
  '20261122230300_create_oauth_secrets': createOauthSecrets,
  '20261123000000_widen_account_scan_rollups_value': widenAccountScanRollupsValue,
  '20261123000100_backfill_account_scan_breakdowns': backfillAccountScanBreakdowns,
  '20261123010000_create_scan_batches': createScanBatches,
  '20261124090000_binary_collate_slugs_and_code_ids': binaryCollateSlugsAndCodeIds,
  '20261125100000_create_account_logos': createAccountLogos,
  '20261125110000_add_oauth_payloads_account': addOauthPayloadsAccount,
  '20261125120000_add_codes_name_notes': addCodesNameNotes,
  '20261125140000_add_codes_forward_query': addCodesForwardQuery,
  '20261126120000_create_tags': createTags,
  '20261126120100_add_codes_lifecycle': addCodesLifecycle,
  '20261126120200_add_domains': addDomains,
  '20261126220000_create_code_purges': createCodePurges,
  '20261126230000_add_scans_region_city': addScansRegionCity,
  '20261127010000_create_account_daily_rollups': createAccountDailyRollups,
  '20261127100000_create_code_daily_rollups': createCodeDailyRollups,
  '20261127110000_create_code_last_scans': createCodeLastScans,
  '20261127120000_add_codes_account_status_index': addCodesAccountStatusIndex,
  '20261128100000_create_scan_dimension_deltas': createScanDimensionDeltas,
  '20261128110000_create_account_code_counts': createAccountCodeCounts,
  '20261129100000_create_tag_rollups': createTagRollups,
  '20261130100000_create_code_scan_days': createCodeScanDays,
  '20261201100000_create_code_scan_uses': createCodeScanUses,
  '20261202100000_quarter_hour_rollups': quarterHourRollups,
  '20261203100000_add_codes_imported_scans': addCodesImportedScans,
  '20261203120000_add_codes_password': addCodesPassword,
  '20261204100000_add_scans_scan_id': addScansScanId,
  '20261204110000_add_codes_app_links_utm': addCodesAppLinksUtm,
  '20261204110100_add_domains_well_known': addDomainsWellKnown,
  '20261204110200_create_utm_templates': createUtmTemplates,
  '20261204120000_create_audit_log': createAuditLog,
  '20261205090000_create_locked_view_ids': createLockedViewIds,
  '20261207154300_create_users': createUsers,
  '20261212154300_add_codes_preview': addCodesPreview,
  '20261212164300_add_codes_page': addCodesPage,
  '20261213090000_create_invitations': createInvitations,
  '20261213100000_create_password_resets': createPasswordResets,
  '20261213110000_add_api_keys_created_by': addApiKeysCreatedBy,
  '20261214100000_create_images': createImages,
  '20261214130000_create_second_factors': createSecondFactors,
  '20261214140000_create_scan_id_runs': createScanIdRuns,
  '20261215100000_create_passkeys': createPasskeys,
  '20261215110000_create_workspace_sso': createWorkspaceSso,
  '20261215120000_add_users_email_verified_at': addUsersEmailVerifiedAt,
  '20261215120100_add_invitations_mailed_at': addInvitationsMailedAt,
};
