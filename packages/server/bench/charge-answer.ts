/**
 * The bytes a real `GET /v2/charges/:id` answers, for the floor server to send: a `payframe serve`
 * on a fresh embedded store, one token and one (uncaptured) charge made through the API with the
 * bench's card, as the `get` scenario reads them, then read back. Everything is removed after.
 */
import { cleanUp, createTestKeys, deploy, startServer, stopServer } from './deployment.ts';
import { apiClient, chargeForm, TOKEN_FORM } from './load.ts';
import { parseOptions } from './options.ts';

export async function realChargeAnswer(): Promise<string> {
  const options = parseOptions(['--db', 'sqlite']);
  try {
    const deployment = await deploy(options);
    const server = await startServer(deployment, 0, options);
    const { secretKey } = await createTestKeys(deployment);
    const api = apiClient(server.url, secretKey, 1);
    try {
      const token = await api.post('/v2/tokens', TOKEN_FORM);
      if (token.status !== 200) throw new Error(`token: ${token.status} ${token.body}`);
      const charge = await api.post('/v2/charges', chargeForm((JSON.parse(token.body) as { id: string }).id));
      if (charge.status !== 200) throw new Error(`charge: ${charge.status} ${charge.body}`);
      const read = await api.get(`/v2/charges/${encodeURIComponent((JSON.parse(charge.body) as { id: string }).id)}`);
      if (read.status !== 200) throw new Error(`GET charge: ${read.status} ${read.body}`);
      return read.body;
    } finally {
      api.close();
      await stopServer(server);
    }
  } finally {
    await cleanUp();
  }
}
