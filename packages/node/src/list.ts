import type { List } from '@payframe/contract';

type Cursors = { starting_after?: string | undefined; ending_before?: string | undefined };

/**
 * One page when awaited (as the API sent it, newest first), every object of every page when
 * iterated with `for await`. Iteration walks towards older objects, newest first, or, when the first
 * page was asked `ending_before`, towards newer ones, oldest first.
 */
export class ListPromise<T extends { id: string }, P extends Cursors> implements PromiseLike<List<T>>, AsyncIterable<T> {
  readonly #fetchPage: (params: P) => Promise<List<T>>;
  readonly #params: P;
  #firstPage: Promise<List<T>> | undefined;

  constructor(fetchPage: (params: P) => Promise<List<T>>, params: P) {
    this.#fetchPage = fetchPage;
    this.#params = params;
  }

  #first(): Promise<List<T>> {
    this.#firstPage ??= this.#fetchPage(this.#params);
    return this.#firstPage;
  }

  // biome-ignore lint/suspicious/noThenProperty: awaiting a list gives its first page, and for await walks every page, as in the big payment SDKs.
  then<A = List<T>, B = never>(
    onFulfilled?: ((page: List<T>) => A | PromiseLike<A>) | null,
    onRejected?: ((reason: unknown) => B | PromiseLike<B>) | null,
  ): Promise<A | B> {
    return this.#first().then(onFulfilled, onRejected);
  }

  async *[Symbol.asyncIterator](): AsyncIterator<T> {
    const newer = this.#params.ending_before !== undefined;
    let page = await this.#first();
    for (;;) {
      // Each page is newest first; walking towards newer objects, its reverse keeps the whole walk in one order.
      yield* newer ? page.data.toReversed() : page.data;
      const edge = newer ? page.data[0] : page.data.at(-1);
      if (!page.has_more || edge === undefined) return;
      const cursor = newer ? { starting_after: undefined, ending_before: edge.id } : { starting_after: edge.id, ending_before: undefined };
      page = await this.#fetchPage({ ...this.#params, ...cursor });
    }
  }
}
