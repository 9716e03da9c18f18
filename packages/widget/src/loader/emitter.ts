type Handler<T> = (detail: T) => void;

/** on/off/emit for the merchant's handlers; one throwing handler does not silence the others. */
export function createEmitter<Details extends Record<string, unknown>>() {
  const handlers = new Map<keyof Details, Set<Handler<never>>>();
  return {
    on<E extends keyof Details>(event: E, handler: Handler<Details[E]>): void {
      const set = handlers.get(event) ?? new Set();
      set.add(handler as Handler<never>);
      handlers.set(event, set);
    },
    off<E extends keyof Details>(event: E, handler: Handler<Details[E]>): void {
      handlers.get(event)?.delete(handler as Handler<never>);
    },
    emit<E extends keyof Details>(event: E, detail: Details[E]): void {
      for (const handler of [...(handlers.get(event) ?? [])]) {
        try {
          (handler as Handler<Details[E]>)(detail);
        } catch (error) {
          console.error(error);
        }
      }
    },
    clear(): void {
      handlers.clear();
    },
  };
}
