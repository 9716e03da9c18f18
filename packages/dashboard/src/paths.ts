/** Every page's URL: the server serves index.html for each of them, so each is reachable by typing it. */
export const BASE = '/dashboard';

export const paths = {
  home: BASE,
  login: `${BASE}/login`,
  overview: `${BASE}/home`,
  logs: `${BASE}/logs`,
  charges: `${BASE}/charges`,
  charge: (id: string) => `${BASE}/charges/${encodeURIComponent(id)}`,
  keys: `${BASE}/keys`,
  webhooks: `${BASE}/webhooks`,
  events: `${BASE}/events`,
  clock: `${BASE}/clock`,
  settings: `${BASE}/settings`,
} as const;
