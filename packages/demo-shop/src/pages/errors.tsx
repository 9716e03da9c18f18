import type { Shop } from '../context.ts';
import { htmlReply, type Reply } from '../http.ts';
import { Layout } from './layout.tsx';

export function notFound(shop: Shop, what = 'page'): Reply {
  return htmlReply(
    <Layout title="Not found" testId="not-found" payframeUrl={shop.payframeUrl}>
      <h1>Not found</h1>
      <p>
        No such {what}. <a href="/">Back to the shop</a>
      </p>
    </Layout>,
    404,
  );
}

/** The API could not be reached or answered with a fault: say so, never a stack trace. */
export function unavailable(shop: Shop): Reply {
  return htmlReply(
    <Layout title="Payments unavailable" testId="unavailable" payframeUrl={shop.payframeUrl}>
      <h1>Payments are unavailable</h1>
      <p role="alert" data-testid="unavailable-message">
        The payment service did not answer. Nothing was charged twice; try again in a moment.
      </p>
    </Layout>,
    502,
  );
}
