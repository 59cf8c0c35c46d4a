/**
 * @tenure/testkit (private): what the tests of every tenure package share, so there is one copy:
 * the webhook fixtures, the test clock's constants and real local peers. The fast-check
 * arbitraries are published with the core as `@tenure/core/testing`.
 */
export { DAY, HOUR, MINUTE, T0 } from './time.js';
export { FIXTURE_NAMES, fixture, loadFixture, webhookFixtures, type WebhookBody } from './fixtures.js';
export { startSmtpReceiver, type ReceivedMail } from './receivers/smtpReceiver.js';
export { startChatReceiver, type ChatPost } from './receivers/chatReceiver.js';
export { startWebhookReceiver, type ReceivedWebhook, type WebhookReceiver } from './receivers/webhookReceiver.js';
export { killCliProcesses, runCliProcess, startCliProcess, type CliProcess, type CliProcessOptions, type CliRun } from './cliProcess.js';
export { parsePrometheusText, sampleValue, type PromFamily, type PromSample } from './prometheusText.js';
export { externalReferences, pageAssetPaths } from './servedPage.js';
