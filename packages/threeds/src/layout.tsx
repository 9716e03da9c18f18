import type { Locale } from '@payframe/contract/locales';
import type { ComponentChildren } from 'preact';
import type { Messages } from './i18n/messages.ts';
import type { PageKind } from './model.ts';
import { PAGE_CSS } from './styles.ts';

type DocumentProps = {
  lang: Locale;
  title: string;
  kind: PageKind;
  t: Messages;
  /** Seconds after which the browser reloads the page by itself (no script needed). */
  refresh?: number | undefined;
  /** The pages' one script, for the pages that use it. */
  script?: string | undefined;
  /** In the merchant's dialog: what the script needs to post to the merchant's page. */
  framing?: { chargeId: string; targetOrigin: string } | undefined;
  children: ComponentChildren;
};

/** The whole document: landmarks (banner, main, contentinfo), the language, and the phone viewport. */
export function Document({ lang, title, kind, t, refresh, script, framing, children }: DocumentProps) {
  return (
    <html lang={lang} dir="ltr">
      <head>
        <meta charset="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <meta name="referrer" content="no-referrer" />
        <meta name="robots" content="noindex, nofollow" />
        {refresh !== undefined && <meta http-equiv="refresh" content={String(refresh)} />}
        {/* No favicon request: it would be a 404 (and a console error) on every view. */}
        <link rel="icon" href="data:," />
        <title>{title}</title>
        {/* Raw on purpose: escaping would break the CSS and its CSP hash. It is a constant, never input. */}
        <style dangerouslySetInnerHTML={{ __html: PAGE_CSS }} />
        {script && <script src={script} defer />}
      </head>
      <body data-charge-id={framing?.chargeId} data-target-origin={framing?.targetOrigin}>
        <header class="banner">
          <p class="service">{t.service}</p>
        </header>
        <main class="page" id="main" data-page={kind}>
          <div class="card">{children}</div>
        </main>
        <footer class="footer">
          <p>{t.footer}</p>
        </footer>
      </body>
    </html>
  );
}
