import { formatAmount } from '@payframe/contract/money-format';
import { brandName } from './brand.ts';
import type { Messages } from './i18n/messages.ts';
import type { PaymentSummary } from './model.ts';

type Props = { payment: PaymentSummary; formatLocale: string; t: Messages };

/** Merchant, amount, card and description: what the shopper is approving. */
export function Summary({ payment, formatLocale, t }: Props) {
  return (
    <>
      <h2 class="sr-only">{t.summary.label}</h2>
      <dl class="summary">
        <dt>{t.summary.merchant}</dt>
        <dd data-testid="merchant">{payment.merchantName}</dd>
        <dt>{t.summary.amount}</dt>
        <dd class="amount" data-testid="amount">
          {formatAmount(payment.amount, payment.currency, formatLocale)}
        </dd>
        <dt>{t.summary.card}</dt>
        <dd data-testid="card">
          {brandName(payment.brand, t.unknownBrand)} <span class="sr-only">{t.summary.cardEnding} </span>
          <span aria-hidden="true">•••• </span>
          {payment.last4}
        </dd>
        {payment.description !== '' && (
          <>
            <dt>{t.summary.description}</dt>
            <dd data-testid="description">{payment.description}</dd>
          </>
        )}
      </dl>
    </>
  );
}

export function TestModeNotice({ t }: { t: Messages }) {
  return (
    <div class="test-mode" role="note" data-testid="test-mode">
      <strong>{t.testMode.title}</strong>
      <p>{t.testMode.body}</p>
    </div>
  );
}
