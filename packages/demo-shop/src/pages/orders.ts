import type { Shop } from '../context.ts';
import { html } from '../html.ts';
import { htmlReply, type Reply } from '../http.ts';
import { orderState } from '../messages.ts';
import { formatMoney } from '../money.ts';
import type { Order } from '../orders.ts';
import { layout } from './layout.ts';

/** Every order with its status read live from Payframe, so a charge that expired shows as expired. */
export async function orderList(shop: Shop): Promise<Reply> {
  const orders = shop.orders.list();
  const charges = await Promise.allSettled(orders.map((order) => shop.payframe.getCharge(order.chargeId)));
  const rows = orders.map((order: Order, index) => {
    const result = charges[index];
    const state = result?.status === 'fulfilled' ? orderState(result.value, order.authenticationFailed) : undefined;
    const refunded = result?.status === 'fulfilled' ? formatMoney(result.value.amount_refunded, order.currency) : '—';
    return html`<tr data-testid="order-row" data-order-id="${order.id}" data-charge-id="${order.chargeId}">
      <td><a href="/orders/${order.id}" data-testid="order-link">${order.id}</a></td>
      <td class="when">${new Date(order.created).toISOString().slice(0, 16).replace('T', ' ')}</td>
      <td>${order.description}</td>
      <td class="amount">${formatMoney(order.amount, order.currency)}</td>
      <td class="amount" data-testid="order-refunded">${refunded}</td>
      <td><span class="status ${state?.tone ?? 'bad'}" data-testid="order-status" data-state="${state?.key ?? 'unknown'}"
        data-charge-status="${result?.status === 'fulfilled' ? result.value.status : ''}">${state?.label ?? 'Unknown (Payframe did not answer)'}</span></td>
    </tr>`;
  });
  const table = orders.length === 0
    ? html`<p data-testid="no-orders">No orders yet.</p>`
    : html`<table data-testid="orders-table">
        <thead><tr><th>Order</th><th>Placed (UTC)</th><th>Item</th><th>Amount</th><th>Refunded</th><th>Status</th></tr></thead>
        <tbody>${rows}</tbody>
      </table>`;
  return htmlReply(layout(shop, { title: 'Orders', testId: 'orders', body: html`<h1>Orders</h1>${table}` }));
}
