import { TEST_CARDS } from '@payframe/contract/test-cards';
import { cleanup, fireEvent, render, screen } from '@testing-library/preact';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { CardOptions } from '../protocol/options.ts';
import { CardForm } from './card-form.tsx';
import { fakeBridge, type } from './test-support.ts';

const NOW = new Date(2026, 10, 21);
const KEY = 'pk_test_abcdefghijklmnopqrstuvwxyz';
const TOKEN = { type: 'token', id: '6f1c2d8e-1111-4222-8333-944455556666', card: { last4Digits: '4242', brand: 'VISA' }, created: 1, mode: 'test' };

function mount(options: CardOptions = {}, languages: readonly string[] = ['en-US']) {
  const fake = fakeBridge();
  render(<CardForm publishableKey={KEY} initialOptions={options} bridge={fake.bridge} now={() => NOW} languages={languages} />);
  return fake;
}

const input = (testId: string) => screen.getByTestId(testId) as HTMLInputElement;

type TypedCard = { number?: string; expiry?: string; cvc?: string; name?: string };

function fillCard({ number = TEST_CARDS.visa.number, expiry = '1230', cvc = '123', name = 'Ada Lovelace' }: TypedCard = {}) {
  type(input('card-number'), number);
  type(input('card-expiry'), expiry);
  type(input('card-cvc'), cvc);
  type(input('card-name'), name);
}

function stubFetch(status: number, body: unknown) {
  const fetch = vi.fn(async (_url: string, _init: RequestInit) => new Response(JSON.stringify(body), { status }));
  vi.stubGlobal('fetch', fetch);
  return fetch;
}

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

describe('typing', () => {
  it('formats the number 4-4-4-4 and shows the Visa brand', () => {
    mount();
    type(input('card-number'), '42424242');
    expect(input('card-number').value).toBe('4242 4242');
    expect(screen.getByTestId('card-brand').getAttribute('data-brand')).toBe('VISA');
  });

  it('formats Amex 4-6-5, stops at 15 digits and takes a 4-digit code', () => {
    mount();
    type(input('card-number'), '3782822463100059999');
    expect(input('card-number').value).toBe('3782 822463 10005');
    expect(screen.getByTestId('card-brand').getAttribute('data-brand')).toBe('AMEX');
    type(input('card-cvc'), '12345');
    expect(input('card-cvc').value).toBe('1234');
  });

  it('cleans a pasted number with dashes and letters', () => {
    mount();
    type(input('card-number'), '4242-4242-4242-4242', 'insertFromPaste');
    expect(input('card-number').value).toBe('4242 4242 4242 4242');
  });

  it('formats the expiry as MM / YY and moves on to the next field when each is complete', () => {
    mount();
    type(input('card-number'), TEST_CARDS.visa.number);
    expect(document.activeElement).toBe(input('card-expiry'));
    type(input('card-expiry'), '4');
    expect(input('card-expiry').value).toBe('04 / ');
    type(input('card-expiry'), '04 / 30');
    expect(document.activeElement).toBe(input('card-cvc'));
  });

  it('does not put the separator back while deleting', () => {
    mount();
    type(input('card-expiry'), '12');
    type(input('card-expiry'), '12 /', 'deleteContentBackward');
    expect(input('card-expiry').value).toBe('12');
  });

  it('declares numeric keyboards, autocomplete and labels', () => {
    mount({ fields: { email: true, address: 'postal' } });
    const expected = {
      'card-number': 'cc-number',
      'card-expiry': 'cc-exp',
      'card-cvc': 'cc-csc',
      'card-name': 'cc-name',
      email: 'email',
      'postal-code': 'postal-code',
    };
    for (const [testId, autocomplete] of Object.entries(expected)) {
      expect(input(testId).getAttribute('autocomplete')).toBe(autocomplete);
      expect(input(testId).getAttribute('aria-label')).toBeTruthy();
    }
    for (const testId of ['card-number', 'card-expiry', 'card-cvc']) expect(input(testId).getAttribute('inputmode')).toBe('numeric');
  });
});

describe('inline errors', () => {
  it('shows a Luhn failure when the shopper leaves the field, tied to the input and announced', () => {
    mount();
    type(input('card-number'), '4242424242424241');
    expect(input('card-number').getAttribute('aria-invalid')).toBe('false');
    fireEvent.blur(input('card-number'));
    expect(input('card-number').getAttribute('aria-invalid')).toBe('true');
    const describedBy = input('card-number').getAttribute('aria-describedby') ?? '';
    expect(document.getElementById(describedBy)?.textContent).toBe('Your card number is invalid.');
    expect(screen.getByTestId('live-region').textContent).toBe('Your card number is invalid.');
  });

  it('shows a past expiry at once', () => {
    mount();
    type(input('card-expiry'), '0126');
    expect(screen.getByTestId('card-expiry-error').textContent).toBe('Your card’s expiry date is in the past.');
  });

  it('reports the first error in the change event', () => {
    const fake = mount();
    type(input('card-expiry'), '1326');
    expect(fake.events('change').at(-1)).toEqual({
      complete: false,
      empty: false,
      brand: 'UNKNOWN',
      error: { field: 'card-expiry', message: 'The expiry month must be between 01 and 12.' },
    });
  });
});

describe('createToken', () => {
  it('posts the card to /v2/tokens on its own origin and answers the parent with the token only', async () => {
    const fetch = stubFetch(200, TOKEN);
    const fake = mount();
    fillCard();
    expect(fake.events('complete')).toHaveLength(1);
    expect(fake.events('change').at(-1)).toEqual({ complete: true, empty: false, brand: 'VISA' });
    const reply = await fake.tokenize(7, { shopper: { email: 'ada@example.com' } });

    expect(fetch).toHaveBeenCalledTimes(1);
    const [url, init] = fetch.mock.calls[0] ?? [];
    expect(url).toBe('/v2/tokens');
    expect(new Headers(init?.headers).get('x-api-key')).toBe(KEY);
    const body = JSON.parse(String(init?.body));
    expect(body.card).toEqual({ number: TEST_CARDS.visa.number, cvc: '123', exp_month: '12', exp_year: '2030', name: 'Ada Lovelace' });
    expect(body.shopper.email).toBe('ada@example.com');
    expect(body.shopper.session_id).toMatch(/^[0-9a-f]{32}$/);
    expect(body.address).toBeUndefined();
    expect(reply).toEqual({ type: 'payframe:token', id: 7, result: { token: TOKEN } });
  });

  it('uses the merchant’s session id and the address fields it shows', async () => {
    const fetch = stubFetch(200, TOKEN);
    const fake = mount({ fields: { address: 'postal', email: true } });
    fillCard();
    type(input('email'), 'grace@example.com');
    type(input('postal-code'), '75001');
    await fake.tokenize(1, { shopper: { email: 'ignored@example.com', sessionId: 'checkout-42' }, address: { country: 'FR' } });
    const body = JSON.parse(String(fetch.mock.calls[0]?.[1]?.body));
    expect(body.shopper).toEqual({ email: 'grace@example.com', session_id: 'checkout-42' });
    expect(body.address).toEqual({ zipcode: '75001', country: 'FR' });
  });

  it('collects the full billing address, the country from a localized list', async () => {
    const fetch = stubFetch(200, TOKEN);
    const fake = mount({ fields: { address: 'full' }, locale: 'de' });
    fillCard();
    type(input('address-line1'), '1 Rue de Rivoli');
    type(input('address-city'), 'Paris');
    type(input('postal-code'), '75001');
    const country = screen.getByTestId('address-country') as HTMLSelectElement;
    expect([...country.options].find((option) => option.value === 'DE')?.textContent).toBe('Deutschland');
    country.value = 'FR';
    fireEvent.change(country);
    await fake.tokenize(8, { shopper: { email: 'ada@example.com' } });
    expect(JSON.parse(String(fetch.mock.calls[0]?.[1]?.body)).address).toEqual({
      address_line1: '1 Rue de Rivoli',
      city: 'Paris',
      zipcode: '75001',
      country: 'FR',
    });
  });

  it('refuses an incomplete card without calling the API, with the code the API would give', async () => {
    const fetch = stubFetch(200, TOKEN);
    const fake = mount();
    type(input('card-number'), '4242424242424241');
    const reply = await fake.tokenize(2, {});
    expect(fetch).not.toHaveBeenCalled();
    expect(reply).toMatchObject({
      type: 'payframe:token',
      id: 2,
      result: { error: { type: 'card_error', error: { code: 'INCORRECT_NUMBER', parameter: 'card.number' } } },
    });
    expect(fake.events('error')).toHaveLength(1);
    // Every empty required field now says so, and the first problem has the focus.
    expect(screen.getByTestId('card-expiry-error').textContent).toBe('This field is required.');
    expect(screen.getByTestId('card-name-error').textContent).toBe('This field is required.');
    expect(document.activeElement).toBe(input('card-number'));
  });

  // What POST /v2/tokens answers for the body the frame would send (e2e/widget.spec.ts asks the real API the same).
  it.each([
    ['a short number', { number: '424242' }, 'card_error', 'INCORRECT_NUMBER', 'card.number'],
    ['a full number failing Luhn', { number: '4242424242424241' }, 'card_error', 'INCORRECT_NUMBER', 'card.number'],
    ['a month and no year', { expiry: '12' }, 'invalid_request_error', 'PARAMETER_INVALID', 'card.exp_year'],
    ['a month and part of a year', { expiry: '123' }, 'invalid_request_error', 'PARAMETER_INVALID', 'card.exp_year'],
    ['a month 0', { expiry: '0' }, 'invalid_request_error', 'PARAMETER_INVALID', 'card.exp_month'],
    ['a month 13', { expiry: '13' }, 'invalid_request_error', 'PARAMETER_INVALID', 'card.exp_month'],
    ['a past expiry', { expiry: '1025' }, 'card_error', 'EXPIRED_CARD', 'card.exp_year'],
    ['a 2-digit code', { cvc: '12' }, 'invalid_request_error', 'PARAMETER_INVALID', 'card.cvc'],
    ['no name', { name: '' }, 'invalid_request_error', 'PARAMETER_MISSING', 'card.name'],
  ])('refuses %s with what the API answers for it', async (_, card, type, code, parameter) => {
    const fetch = stubFetch(200, TOKEN);
    const fake = mount();
    fillCard(card);
    const reply = await fake.tokenize(9, { shopper: { email: 'ada@example.com' } });
    expect(fetch).not.toHaveBeenCalled();
    expect(reply).toMatchObject({ result: { error: { type, error: { code, parameter } } } });
  });

  it('asks the API for a token with an Amex and a 3-digit code, as the API issues one', async () => {
    const fetch = stubFetch(200, TOKEN);
    const fake = mount();
    fillCard({ number: '378282246310005', cvc: '123' });
    expect(await fake.tokenize(10, { shopper: { email: 'ada@example.com' } })).toMatchObject({ result: { token: TOKEN } });
    expect(JSON.parse(String(fetch.mock.calls[0]?.[1]?.body)).card).toMatchObject({ number: '378282246310005', cvc: '123' });
  });

  it('asks the API for a token with any postal code the API takes', async () => {
    const fetch = stubFetch(200, TOKEN);
    const fake = mount({ fields: { address: 'postal' } });
    fillCard();
    type(input('postal-code'), '1');
    expect(await fake.tokenize(11, { shopper: { email: 'ada@example.com' } })).toMatchObject({ result: { token: TOKEN } });
    expect(JSON.parse(String(fetch.mock.calls[0]?.[1]?.body)).address).toEqual({ zipcode: '1' });
  });

  it('shows the API’s refusal on its field and passes the API’s error body to the parent unchanged', async () => {
    const apiError = {
      type: 'card_error',
      message: 'The card has expired.',
      error: { code: 'EXPIRED_CARD', message: 'The card has expired.', parameter: 'card.exp_year' },
    };
    stubFetch(402, apiError);
    const fake = mount();
    fillCard();
    const reply = await fake.tokenize(3, { shopper: { email: 'ada@example.com' } });
    expect(reply).toEqual({ type: 'payframe:token', id: 3, result: { error: apiError } });
    expect(screen.getByTestId('card-expiry-error').textContent).toBe('Your card has expired.');
    expect(fake.events('error')).toEqual([{ error: apiError }]);
    // Editing the field clears the API's verdict on it.
    type(input('card-expiry'), '11 / 31');
    expect(screen.queryByTestId('card-expiry-error')).toBeNull();
  });

  it('shows a decline without a field as a form alert', async () => {
    stubFetch(429, { type: 'rate_limit_error', message: 'Too many', error: { code: 'RATE_LIMITED', message: 'Too many' } });
    const fake = mount();
    fillCard();
    await fake.tokenize(4, { shopper: { email: 'ada@example.com' } });
    expect(screen.getByTestId('form-error').textContent).toBe('Too many attempts. Wait a minute and try again.');
    expect(screen.getByRole('alert')).toBe(screen.getByTestId('form-error'));
  });

  it('answers an unreachable API with an error, never a throw', async () => {
    vi.stubGlobal(
      'fetch',
      vi.fn(async () => Promise.reject(new TypeError('Failed to fetch'))),
    );
    const fake = mount();
    fillCard();
    const reply = await fake.tokenize(5, { shopper: { email: 'ada@example.com' } });
    expect(reply).toMatchObject({ id: 5, result: { error: { type: 'api_error', error: { code: 'SERVICE_UNAVAILABLE' } } } });
  });

  it('answers a malformed request with PARAMETER_INVALID and its id', async () => {
    const fake = mount();
    const reply = await fake.tokenize(6, { shopper: { email: 42 } });
    expect(reply).toMatchObject({ id: 6, result: { error: { error: { code: 'PARAMETER_INVALID', parameter: 'shopper.email' } } } });
  });
});

describe('parent commands', () => {
  it('clears every field and focuses the number', async () => {
    const fake = mount();
    fillCard();
    await fake.deliver({ type: 'payframe:clear' });
    expect(input('card-number').value).toBe('');
    expect(input('card-name').value).toBe('');
    await fake.deliver({ type: 'payframe:focus' });
    expect(document.activeElement).toBe(input('card-number'));
  });

  it('applies new options: disabled, and fields', async () => {
    const fake = mount();
    await fake.deliver({ type: 'payframe:options', options: { disabled: true, fields: { email: true } } });
    expect(input('card-number').disabled).toBe(true);
    expect(input('email').disabled).toBe(true);
  });

  it('sends its height, then ready, once rendered', () => {
    const fake = mount();
    expect(fake.sent.slice(0, 2).map((message) => message.type)).toEqual(['payframe:resize', 'payframe:ready']);
  });
});

describe('style', () => {
  it('applies allowed declarations per state, the placeholder’s through custom properties', () => {
    mount({ style: { base: { color: '#222222' }, invalid: { color: 'rgb(150, 0, 0)' }, placeholder: { color: '#555555' } } });
    const number = input('card-number');
    expect(number.style.color).toBe('#222222');
    expect(number.closest('form')?.style.getPropertyValue('--pf-placeholder-color')).toBe('#555555');
    type(number, '4242424242424241');
    fireEvent.blur(number);
    expect(number.style.color).toBe('rgb(150, 0, 0)');
  });
});
