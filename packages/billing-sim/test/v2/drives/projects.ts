/** Contract drive: projects, apps and customer creation, answering success and errors. */
import type { TestApp } from '../../helpers.js';

const P = '/v2/projects/proj1';

export async function driveProjects(app: TestApp): Promise<void> {
  await app.call('GET', '/v2/projects');
  await app.call('GET', '/v2/projects?limit=101'); // 400
  await app.call('POST', '/v2/projects', { name: 'Contract project' });
  await app.call('POST', '/v2/projects', { name: '' }); // 400
  await app.call('GET', `${P}/apps`);
  await app.call('GET', `${P}/apps?starting_after=nope`); // 400
  await app.call('GET', `${P}/apps/app_sim`);
  await app.call('GET', `${P}/apps/app_none`); // 404
  await app.call('GET', `${P}/apps/app_sim/public_api_keys`);
  await app.call('GET', `${P}/apps/app_none/public_api_keys`); // 404
  await app.call('POST', `${P}/customers`, { id: 'created_1', attributes: [{ name: '$email', value: 'c1@example.com' }] });
  await app.call('POST', `${P}/customers`, { id: 'created_1' }); // 409
  await app.call('POST', `${P}/customers`, { id: 'has space' }); // 400
}
