/** Contract drive: webhook integration operations, answering success and errors. */
import type { TestApp } from '../../helpers.js';

const HOOKS = '/v2/projects/proj1/integrations/webhooks';

export async function driveIntegrations(app: TestApp): Promise<void> {
  const created = await app.call('POST', HOOKS, { name: 'backend', url: 'http://127.0.0.1:9/hook', authorization_header: 'Bearer s3cret', environment: 'production', event_types: ['renewal', 'cancellation'] });
  await app.call('POST', HOOKS, { name: 'all', url: 'https://example.test/all' });
  await app.call('POST', HOOKS, { name: 'bad', url: 'not a url' }); // 400
  await app.call('POST', HOOKS, { name: 'bad', url: 'http://x.test', event_types: ['RENEWAL'] }); // 400
  const id: string = created.body?.id ?? 'missing';
  await app.call('GET', HOOKS);
  await app.call('GET', `${HOOKS}?limit=1`);
  await app.call('GET', `${HOOKS}?limit=500`); // 400
  await app.call('GET', `${HOOKS}/${id}`);
  await app.call('GET', `${HOOKS}/whnone`); // 404
  await app.call('POST', `${HOOKS}/${id}`, { environment: null, event_types: null, name: 'renamed' });
  await app.call('POST', `${HOOKS}/${id}`, { url: 'ftp://x.test' }); // 400
  await app.call('POST', `${HOOKS}/whnone`, { name: 'x' }); // 404
  await app.call('DELETE', `${HOOKS}/${id}`);
  await app.call('DELETE', `${HOOKS}/${id}`); // 404
}
