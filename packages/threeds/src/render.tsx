import type { Locale } from '@payframe/contract/locales';
import { renderToString } from 'preact-render-to-string';
import { ChallengePage } from './challenge-page.tsx';
import { chooseLocale } from './i18n/locale.ts';
import { type Messages, messagesFor } from './i18n/messages.ts';
import { Document } from './layout.tsx';
import type { PageModel } from './model.ts';
import { NoticePage } from './notice-page.tsx';
import { PAGE_SCRIPT_PATH } from './page-script.ts';
import { CompletePage, ContinuePage, OobDevicePage, OobWaitingPage, OtpPage } from './scenario-pages.tsx';

export type RenderedPage = { html: string; lang: Locale };

/** The out-of-band waiting page reloads itself this often, until the banking app has answered. */
export const WAITING_REFRESH_SECONDS = 2;

type NoticeModel = Extract<PageModel, { kind: 'completed' | 'not-needed' | 'unavailable' | 'not-found' | 'error' | 'oob-device-done' }>;

/** A page shown in the merchant's dialog (`display=iframe`): its charge, and the only origin it may talk to. */
export type Framing = { chargeId: string; targetOrigin: string };

/**
 * The page for `model`, in the first language of Accept-Language that it speaks (else English).
 * In the merchant's dialog (`framing`) every page loads the pages' script, which tells the
 * merchant's page when the shopper presses Esc inside the frame.
 */
export function renderPage(model: PageModel, acceptLanguage?: string, framing?: Framing): RenderedPage {
  const { lang, formatLocale } = chooseLocale(acceptLanguage);
  const t = messagesFor(lang);
  const title = titleOf(model, t);
  const documentTitle = 'payment' in model ? `${title} – ${model.payment.merchantName}` : title;
  const html = renderToString(
    <Document
      lang={lang}
      title={documentTitle}
      kind={model.kind}
      t={t}
      refresh={model.kind === 'oob-waiting' ? WAITING_REFRESH_SECONDS : undefined}
      script={usesScript(model, framing) ? PAGE_SCRIPT_PATH : undefined}
      framing={framing}
    >
      {body(model, title, formatLocale, t)}
    </Document>,
  );
  return { html: `<!DOCTYPE html>${html}`, lang };
}

/** Whether the page loads the pages' one script (its CSP must then allow it). */
export function usesScript(model: PageModel, framing?: Framing): boolean {
  return framing !== undefined || model.kind === 'frictionless' || model.kind === 'complete';
}

function body(model: PageModel, title: string, formatLocale: string, t: Messages) {
  switch (model.kind) {
    case 'challenge':
      return <ChallengePage payment={model.payment} paRes={model.paRes} formatLocale={formatLocale} t={t} />;
    case 'otp':
      return <OtpPage {...model} formatLocale={formatLocale} t={t} />;
    case 'oob-waiting':
      return <OobWaitingPage {...model} formatLocale={formatLocale} t={t} />;
    case 'oob-device':
      return <OobDevicePage {...model} formatLocale={formatLocale} t={t} />;
    case 'frictionless':
    case 'rejected':
    case 'auth-unavailable':
      return <ContinuePage {...model} formatLocale={formatLocale} t={t} />;
    case 'complete':
      return <CompletePage {...model} formatLocale={formatLocale} t={t} />;
    default:
      return (
        <NoticePage
          title={title}
          lines={linesOf(model, t)}
          payment={'payment' in model ? model.payment : undefined}
          returnLink={'returnLink' in model ? model.returnLink : undefined}
          formatLocale={formatLocale}
          t={t}
        />
      );
  }
}

function titleOf(model: PageModel, t: Messages): string {
  switch (model.kind) {
    case 'challenge':
      return t.challenge.title;
    case 'otp':
      return t.otp.title;
    case 'oob-waiting':
      return t.oobWaiting.title;
    case 'oob-device':
      return t.oobDevice.title;
    case 'oob-device-done':
      return t.oobDone.title;
    case 'frictionless':
      return t.frictionless.title;
    case 'rejected':
      return t.rejected.title;
    case 'auth-unavailable':
      return t.authUnavailable.title;
    case 'complete':
      return t.complete.title;
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

function linesOf(model: NoticeModel, t: Messages): string[] {
  switch (model.kind) {
    case 'completed': {
      const outcome = { CHARGEABLE: t.completed.succeeded, FAILED: t.completed.failed, NOT_AVAILABLE: t.completed.unavailable }[model.outcome];
      return [outcome, t.completed.next];
    }
    case 'oob-device-done':
      return [model.approved ? t.oobDone.approved : t.oobDone.denied, t.oobDone.next];
    case 'not-needed':
      return [t.notNeeded.body];
    case 'unavailable':
      return [t.unavailable.body];
    case 'not-found':
      return [t.notFound.body];
    case 'error':
      return [model.reason === 'bad-request' ? t.error.badRequest : model.reason === 'method-not-allowed' ? t.error.methodNotAllowed : t.error.unavailable];
    default:
      return assertNever(model);
  }
}

function assertNever(value: never): never {
  throw new Error(`Unhandled page: ${JSON.stringify(value)}`);
}
