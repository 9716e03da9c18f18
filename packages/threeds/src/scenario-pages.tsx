import type { Messages } from './i18n/messages.ts';
import type { PageModel, PaymentSummary } from './model.ts';
import { isWebUrl } from './notice-page.tsx';
import { Summary, TestModeNotice } from './summary.tsx';

type Common = { formatLocale: string; t: Messages };
type Of<K extends PageModel['kind']> = Extract<PageModel, { kind: K }> & Common;

/**
 * The issuer's other answers (docs/three-d-secure.md "Scenarios"). Every form has no `action`: it
 * posts back to the very URL it was served from (keeping `display=iframe`), whatever prefix a
 * proxy put in front of it. None needs a script.
 */
export function OtpPage({ payment, paRes, notice, triesLeft, testCode, formatLocale, t }: Of<'otp'>) {
  const error = notice === 'wrong' ? t.otp.wrong(triesLeft) : notice === 'missing' ? t.otp.missing : null;
  return (
    <>
      <Intro payment={payment} title={t.otp.title} t={t} />
      <p>{t.otp.intro}</p>
      {payment.mode === 'test' && (
        <p class="hint" data-testid="otp-hint">
          {t.otp.testCode(testCode)}
        </p>
      )}
      <Summary payment={payment} formatLocale={formatLocale} t={t} />
      {notice === 'resent' && (
        <p class="status" role="status" data-testid="otp-resent">
          {t.otp.resent}
        </p>
      )}
      <form method="post" class="code-form">
        <input type="hidden" name="paRes" value={paRes} />
        <label for="otp">{t.otp.label}</label>
        <input
          id="otp"
          name="otp"
          data-testid="otp"
          type="text"
          inputmode="numeric"
          autocomplete="one-time-code"
          maxLength={6}
          aria-invalid={error ? 'true' : undefined}
          aria-describedby={error ? 'otp-error' : undefined}
          // Focus the field the shopper must fix; on the first view the page reads from the top.
          autofocus={error !== null}
        />
        {error && (
          <p class="error" id="otp-error" data-testid="otp-error" role="alert">
            {error}
          </p>
        )}
        <div class="actions">
          <button type="submit" id="otp-submit" class="primary" name="action" value="verify">
            {t.otp.submit}
          </button>
          <button type="submit" id="otp-resend" class="secondary" name="action" value="resend">
            {t.otp.resend}
          </button>
        </div>
      </form>
    </>
  );
}

export function OobWaitingPage({ payment, deviceLink, formatLocale, t }: Of<'oob-waiting'>) {
  return (
    <>
      <Intro payment={payment} title={t.oobWaiting.title} t={t} />
      <p role="status">{t.oobWaiting.body}</p>
      <Summary payment={payment} formatLocale={formatLocale} t={t} />
      {payment.mode === 'test' && (
        <a class="link-button" id="device-link" data-testid="device-link" href={deviceLink} target="_blank" rel="noopener noreferrer">
          {t.oobWaiting.device}
        </a>
      )}
    </>
  );
}

export function OobDevicePage({ payment, paRes, formatLocale, t }: Of<'oob-device'>) {
  return (
    <>
      <Intro payment={payment} title={t.oobDevice.title} t={t} />
      <p>{t.oobDevice.intro}</p>
      <Summary payment={payment} formatLocale={formatLocale} t={t} />
      <form method="post" class="actions">
        <input type="hidden" name="paRes" value={paRes} />
        <button type="submit" id="approve" class="primary" name="result" value="success">
          {t.oobDevice.approve}
        </button>
        <button type="submit" id="deny" class="secondary" name="result" value="failure">
          {t.oobDevice.deny}
        </button>
      </form>
    </>
  );
}

/** Frictionless, rejected, unavailable: what the issuer said, and one way on. Frictionless goes on by itself. */
export function ContinuePage({ kind, payment, paRes, formatLocale, t }: Of<'frictionless' | 'rejected' | 'auth-unavailable'>) {
  const text = kind === 'frictionless' ? t.frictionless : kind === 'rejected' ? t.rejected : t.authUnavailable;
  return (
    <>
      <Intro payment={payment} title={text.title} t={t} />
      <p role={kind === 'frictionless' ? 'status' : undefined}>{text.body}</p>
      <Summary payment={payment} formatLocale={formatLocale} t={t} />
      <form method="post" class="actions" data-auto-submit={kind === 'frictionless' ? '' : undefined}>
        <input type="hidden" name="paRes" value={paRes} />
        {/* A field, not the button's value: a script's form.submit() sends no submitter. */}
        <input type="hidden" name="action" value="continue" />
        <button type="submit" id="continue" class="primary">
          {t.proceed}
        </button>
      </form>
    </>
  );
}

/** Shown in the merchant's dialog once settled: its script posts the outcome; the link is the way on without one. */
export function CompletePage({ payment, chargeId, status, transStatus, targetOrigin, returnLink, formatLocale, t }: Of<'complete'>) {
  return (
    <>
      <h1>{t.complete.title}</h1>
      <p
        id="completion"
        role="status"
        data-charge-id={chargeId}
        data-status={status}
        data-trans-status={transStatus ?? undefined}
        data-target-origin={targetOrigin}
      >
        {t.complete.body}
      </p>
      <Summary payment={payment} formatLocale={formatLocale} t={t} />
      <a class="link-button" id="return" data-testid="return-link" href={isWebUrl(returnLink) ? returnLink : undefined} target="_top">
        {t.returnTo(payment.merchantName)}
      </a>
    </>
  );
}

function Intro({ payment, title, t }: { payment: PaymentSummary; title: string; t: Messages }) {
  return (
    <>
      {payment.mode === 'test' && <TestModeNotice t={t} />}
      <h1>{title}</h1>
    </>
  );
}
