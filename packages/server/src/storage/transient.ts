/** Serialization failures and deadlocks: a whole transaction may safely run again after them. */
const RETRYABLE = new Set(['40001', '40P01']);
const MAX_ATTEMPTS = 5;

export async function retryingTransient<T>(run: () => Promise<T>): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await run();
    } catch (error) {
      const code = (error as { code?: string }).code;
      if (attempt >= MAX_ATTEMPTS || !code || !RETRYABLE.has(code)) throw error;
    }
  }
}
