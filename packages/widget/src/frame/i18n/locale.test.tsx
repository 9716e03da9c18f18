import { LOCALES } from '@payframe/contract/locales';
import { cleanup, render, screen } from '@testing-library/preact';
import { afterEach, describe, expect, it } from 'vitest';
import { CardForm } from '../card-form.tsx';
import { fakeBridge, type } from '../test-support.ts';
import { en } from './en.ts';
import { messagesFor, resolveLocale } from './locale.ts';

afterEach(cleanup);

describe('resolveLocale', () => {
  it('prefers the merchant’s choice, then the browser’s first language we speak, then English', () => {
    expect(resolveLocale('es', ['fr-FR'])).toBe('es');
    expect(resolveLocale(undefined, ['it-IT', 'de-CH', 'fr'])).toBe('de');
    expect(resolveLocale(undefined, ['FR-ca'])).toBe('fr');
    expect(resolveLocale(undefined, ['ja'])).toBe('en');
    expect(resolveLocale(undefined, [])).toBe('en');
  });
});

describe('translations', () => {
  it.each(LOCALES)('%s has every text, and no English left behind except shared formats', (locale) => {
    const messages = messagesFor(locale);
    for (const group of ['labels', 'placeholders', 'errors'] as const) {
      for (const [key, text] of Object.entries(en[group])) {
        const translated = (messages[group] as Record<string, string>)[key];
        expect(translated, `${locale} ${group}.${key}`).toBeTruthy();
        if (locale !== 'en' && group !== 'placeholders') expect(translated, `${locale} ${group}.${key}`).not.toBe(text);
      }
    }
  });
});

describe('the form in the shopper’s language', () => {
  function mount(locale: 'fr' | 'de' | undefined, languages: string[]) {
    const fake = fakeBridge();
    render(<CardForm publishableKey="pk_test_abc" initialOptions={locale ? { locale } : {}} bridge={fake.bridge} languages={languages} />);
    return fake;
  }

  it('labels and placeholders follow the merchant’s locale', () => {
    mount('fr', ['en-US']);
    expect(screen.getByTestId('card-number').getAttribute('aria-label')).toBe('Numéro de carte');
    expect(screen.getByTestId('card-expiry').getAttribute('placeholder')).toBe('MM / AA');
    expect(document.documentElement.lang).toBe('fr');
  });

  it('errors follow the browser’s language when the merchant sets none, and switch on update', async () => {
    const fake = mount(undefined, ['de-DE']);
    type(screen.getByTestId('card-expiry'), '1399');
    expect(screen.getByTestId('card-expiry-error').textContent).toBe('Der Ablaufmonat muss zwischen 01 und 12 liegen.');
    await fake.deliver({ type: 'payframe:options', options: { locale: 'es' } });
    expect(screen.getByTestId('card-expiry-error').textContent).toBe('El mes de caducidad debe estar entre 01 y 12.');
  });
});
