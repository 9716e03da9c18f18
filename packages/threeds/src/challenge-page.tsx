import type { Messages } from './i18n/messages.ts';
import type { PaymentSummary } from './model.ts';
import { Summary, TestModeNotice } from './summary.tsx';

type Props = { payment: PaymentSummary; paRes: string; formatLocale: string; t: Messages };

/**
 * The simulator's challenge: one form, two submit buttons, no script. The form has no `action`, so
 * it posts back to the very URL it was served from, whatever prefix a proxy put in front of it.
 */
export function ChallengePage({ payment, paRes, formatLocale, t }: Props) {
  return (
    <>
      {payment.mode === 'test' && <TestModeNotice t={t} />}
      <h1>{t.challenge.title}</h1>
      <p>{t.challenge.intro}</p>
      <Summary payment={payment} formatLocale={formatLocale} t={t} />
      <p id="choose">{t.challenge.choose}</p>
      <form method="post" class="actions" aria-describedby="choose">
        <input type="hidden" name="paRes" value={paRes} />
        <button type="submit" id="authenticate" class="primary" name="result" value="success">
          {t.challenge.authenticate}
        </button>
        <button type="submit" id="fail" class="secondary" name="result" value="failure">
          {t.challenge.fail}
        </button>
      </form>
    </>
  );
}
