import type { Locale } from '@payframe/contract/locales';
import { renderToString } from 'preact-render-to-string';
import { ChallengePage } from './challenge-page.tsx';
import { chooseLocale } from './i18n/locale.ts';
import { type Messages, messagesFor } from './i18n/messages.ts';
import { Document } from './layout.tsx';
import type { PageModel } from './model.ts';
import { NoticePage } from './notice-page.tsx';

export type RenderedPage = { html: string; lang: Locale };

/** The page for `model`, in the first language of Accept-Language that it speaks (else English). */
export function renderPage(model: PageModel, acceptLanguage?: string): RenderedPage {
  const { lang, formatLocale } = chooseLocale(acceptLanguage);
  const t = messagesFor(lang);
  const title = titleOf(model, t);
  const page =
    model.kind === 'challenge' ? (
      <ChallengePage payment={model.payment} paRes={model.paRes} formatLocale={formatLocale} t={t} />
    ) : (
      <NoticePage
        title={title}
        lines={linesOf(model, t)}
        payment={'payment' in model ? model.payment : undefined}
        returnLink={'returnLink' in model ? model.returnLink : undefined}
        formatLocale={formatLocale}
        t={t}
      />
    );
  const documentTitle = 'payment' in model ? `${title} – ${model.payment.merchantName}` : title;
  const html = renderToString(
    <Document lang={lang} title={documentTitle} kind={model.kind} t={t}>
      {page}
    </Document>,
  );
  return { html: `<!DOCTYPE html>${html}`, lang };
}

function titleOf(model: PageModel, t: Messages): string {
  switch (model.kind) {
    case 'challenge':
      return t.challenge.title;
    case 'completed':
      return t.completed.title;
    case 'not-needed':
      return t.notNeeded.title;
    case 'unavailable':
      return t.unavailable.title;
    case 'not-found':
      return t.notFound.title;
    case 'error':
      return t.error.title;
    default:
      return assertNever(model);
  }
}

function linesOf(model: Exclude<PageModel, { kind: 'challenge' }>, t: Messages): string[] {
  switch (model.kind) {
    case 'completed':
      return [model.outcome === 'CHARGEABLE' ? t.completed.succeeded : t.completed.failed, t.completed.next];
    case 'not-needed':
      return [t.notNeeded.body];
    case 'unavailable':
      return [t.unavailable.body];
    case 'not-found':
      return [t.notFound.body];
    case 'error':
      return [
        model.reason === 'bad-request'
          ? t.error.badRequest
          : model.reason === 'method-not-allowed'
            ? t.error.methodNotAllowed
            : t.error.unavailable,
      ];
    default:
      return assertNever(model);
  }
}

function assertNever(value: never): never {
  throw new Error(`Unhandled page: ${JSON.stringify(value)}`);
}
