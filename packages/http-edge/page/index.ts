/**
 * @tenure/http-edge/page: what both services' pages share in the browser (bundled into each page's
 * script by `buildPageModule`; never part of a service's Node build): DOM helpers, the API key kept
 * for the tab, `fetchJson` and the key dialog. Every export is listed here by hand.
 */
export { byId, h, when, words } from './dom.js';
export { createKeyStore, fetchJson, setUpKeyDialog } from './apiKey.js';
export type { JsonAnswer, KeyDialogText, KeyStore } from './apiKey.js';
