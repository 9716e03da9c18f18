import type { Messages } from './i18n/messages.ts';
import type { PaymentSummary } from './model.ts';
import { Summary, TestModeNotice } from './summary.tsx';

type Props = {
  title: string;
  lines: string[];
  payment?: PaymentSummary | undefined;
  returnLink?: string | undefined;
  formatLocale: string;
  t: Messages;
};

/** Every page that is not the challenge: a heading, what happened, and (when known) the way back. */
export function NoticePage({ title, lines, payment, returnLink, formatLocale, t }: Props) {
  const href = returnLink && isWebUrl(returnLink) ? returnLink : undefined;
  return (
    <>
      {payment?.mode === 'test' && <TestModeNotice t={t} />}
      <h1>{title}</h1>
      {lines.map((line) => (
        <p key={line}>{line}</p>
      ))}
      {payment && <Summary payment={payment} formatLocale={formatLocale} t={t} />}
      {href && payment && (
        <a class="link-button" id="return" data-testid="return-link" href={href}>
          {t.returnTo(payment.merchantName)}
        </a>
      )}
    </>
  );
}

/** Only http(s) links are ever rendered: never `javascript:` or `data:`, whatever was stored. */
export function isWebUrl(url: string): boolean {
  if (!URL.canParse(url)) return false;
  const { protocol } = new URL(url);
  return protocol === 'https:' || protocol === 'http:';
}
