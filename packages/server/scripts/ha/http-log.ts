/**
 * Every answer the instances gave, including those the SDK retried on its own and never showed its
 * caller: the failover's 503s are counted here, and anything else unexpected is caught here.
 */
export type Answer = { instance: number; method: string; path: string; status: number; code: string | null; startedAt: number; endedAt: number };

export function recordAnswers(instanceUrls: string[]): Answer[] {
  const answers: Answer[] = [];
  const original = globalThis.fetch;
  globalThis.fetch = async (input, init) => {
    const url = typeof input === 'string' ? input : input instanceof URL ? input.href : input.url;
    const instance = instanceUrls.findIndex((base) => url.startsWith(base));
    const startedAt = Date.now();
    const method = init?.method ?? 'GET';
    const path = instance >= 0 ? new URL(url).pathname : url;
    try {
      const response = await original(input, init);
      if (instance >= 0) {
        const code = response.ok
          ? null
          : ((
              (await response
                .clone()
                .json()
                .catch(() => undefined)) as { error?: { code?: string } } | undefined
            )?.error?.code ?? null);
        answers.push({ instance, method, path, status: response.status, code, startedAt, endedAt: Date.now() });
      }
      return response;
    } catch (error) {
      // No answer at all (a refused or cut connection): status 0.
      if (instance >= 0) answers.push({ instance, method, path, status: 0, code: null, startedAt, endedAt: Date.now() });
      throw error;
    }
  };
  return answers;
}
