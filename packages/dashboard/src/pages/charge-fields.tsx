import type { Charge } from '@payframe/contract';
import { dateTime, label, money } from '../format.ts';

/** Every field of a charge, as the API returns it, in words. */
export function ChargeFields({ charge }: { charge: Charge }) {
  const card = charge.token.card;
  const address = [card.addressLine1, card.addressLine2, card.addressZip, card.addressCity, card.addressState, card.addressCountry]
    .filter((part) => part !== null && part !== '')
    .join(', ');
  return (
    <dl class="fields">
      <dt>Status</dt>
      <dd data-testid="charge-detail-status">
        <span class={`status status-${charge.status.toLowerCase()}`}>{label(charge.status)}</span>
        {charge.reason !== null && <span> ({label(charge.reason)})</span>}
      </dd>
      <dt>Amount</dt>
      <dd data-testid="charge-detail-amount" class="amount">
        {money(charge.amount, charge.currency)}
      </dd>
      <dt>Refunded</dt>
      <dd data-testid="charge-refunded" class="amount">
        {money(charge.amount_refunded, charge.currency)}
      </dd>
      <dt>Fees</dt>
      <dd class="amount">{charge.fees === null ? '—' : money(charge.fees, charge.currency)}</dd>
      <dt>Description</dt>
      <dd>{charge.description === '' ? '—' : charge.description}</dd>
      <dt>txn_reference</dt>
      <dd>{charge.txn_reference ?? '—'}</dd>
      <dt>Created</dt>
      <dd>{dateTime(charge.created)}</dd>
      <dt>Mode</dt>
      <dd>{charge.mode}</dd>
      <dt>3-D Secure</dt>
      <dd>{label(charge.threedSecure.status)}</dd>
      <dt>Return URL</dt>
      <dd class="wrap">{charge.threedSecure.returnUrl}</dd>
      <dt>Card</dt>
      <dd>
        {label(card.brand)} {label(card.fundingType)} •••• {card.last4Digits}, {card.name}
      </dd>
      <dt>Issuer</dt>
      <dd>
        {card.bank === '' ? '—' : card.bank} ({card.country === '' ? '—' : card.country}), 3-D Secure {label(card.authorization)}
      </dd>
      <dt>Billing address</dt>
      <dd>{address === '' ? '—' : address}</dd>
      <dt>Token</dt>
      <dd class="wrap">{charge.token.id}</dd>
      <dt>Metadata</dt>
      <dd data-testid="charge-metadata">
        {Object.keys(charge.metadata).length === 0 ? (
          'None'
        ) : (
          <ul class="metadata">
            {Object.entries(charge.metadata).map(([key, value]) => (
              <li key={key}>
                <code>{key}</code>: {value}
              </li>
            ))}
          </ul>
        )}
      </dd>
    </dl>
  );
}
