import type { Charge } from '@payframe/node';
import type { Shop } from '../context.ts';
import { htmlReply, type Reply } from '../http.ts';
import { EXPIRED, orderState } from '../messages.ts';
import { formatMoney } from '../money.ts';
import type { Order } from '../orders.ts';
import { Layout } from './layout.tsx';

/** An order with its charge as Payframe answered, or undefined when it did not. */
export type OrderRow = { order: Order; charge: Charge | undefined };

function Row({ order, charge }: OrderRow) {
  const state = charge ? orderState(charge, order.authenticationFailed) : order.expired ? EXPIRED : undefined;
  return (
    <tr data-testid="order-row" data-order-id={order.id} data-charge-id={order.chargeId}>
      <td>
        <a href={`/orders/${order.id}`} data-testid="order-link">
          {order.id}
        </a>
      </td>
      <td class="when">{new Date(order.created).toISOString().slice(0, 16).replace('T', ' ')}</td>
      <td>{order.description}</td>
      <td class="amount">{formatMoney(order.amount, order.currency)}</td>
      <td class="amount" data-testid="order-refunded">
        {charge ? formatMoney(charge.amount_refunded, order.currency) : '—'}
      </td>
      <td>
        <span
          class={`status ${state?.tone ?? 'bad'}`}
          data-testid="order-status"
          data-state={state?.key ?? 'unknown'}
          data-charge-status={charge?.status ?? ''}
        >
          {state?.label ?? 'Unknown (Payframe did not answer)'}
        </span>
      </td>
    </tr>
  );
}

export function OrderList({ rows, payframeUrl }: { rows: OrderRow[]; payframeUrl: string }) {
  return (
    <Layout title="Orders" testId="orders" payframeUrl={payframeUrl}>
      <h1>Orders</h1>
      {rows.length === 0 ? (
        <p data-testid="no-orders">No orders yet.</p>
      ) : (
        <table data-testid="orders-table">
          <thead>
            <tr>
              <th>Order</th>
              <th>Placed (UTC)</th>
              <th>Item</th>
              <th>Amount</th>
              <th>Refunded</th>
              <th>Status</th>
            </tr>
          </thead>
          <tbody>
            {rows.map((row) => (
              <Row {...row} />
            ))}
          </tbody>
        </table>
      )}
    </Layout>
  );
}

/** Every order with its status read live from Payframe, so a charge that expired shows as expired. */
export async function orderList(shop: Shop): Promise<Reply> {
  const orders = shop.orders.list();
  const charges = await Promise.allSettled(orders.map((order) => shop.payframe.charges.retrieve(order.chargeId)));
  const rows = orders.map((order, index) => {
    const result = charges[index];
    return { order, charge: result?.status === 'fulfilled' ? result.value : undefined };
  });
  return htmlReply(<OrderList rows={rows} payframeUrl={shop.payframeUrl} />);
}
