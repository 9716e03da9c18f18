/** The English texts; each other language must translate every key (its type says so). */
export const en = {
  service: 'Payframe secure payment',
  footer: 'This page is provided by Payframe on behalf of the merchant. Your card details are not shown to the merchant.',
  testMode: {
    title: 'Test mode',
    body: 'This is a simulated 3-D Secure challenge. No real card is charged and no bank is contacted.',
  },
  summary: {
    label: 'Payment details',
    merchant: 'Merchant',
    amount: 'Amount',
    card: 'Card',
    cardEnding: 'ending in',
    description: 'Description',
  },
  unknownBrand: 'Card',
  challenge: {
    title: 'Confirm your payment',
    intro: 'Your card issuer asks you to confirm this payment before it can go ahead.',
    choose: 'Choose an outcome for this authentication.',
    authenticate: 'Complete authentication',
    fail: 'Fail authentication',
  },
  completed: {
    title: 'Authentication already completed',
    succeeded: 'This payment was authenticated successfully.',
    failed: 'Authentication failed for this payment.',
    next: 'There is nothing more to do on this page.',
  },
  notNeeded: {
    title: 'No authentication needed',
    body: 'Your card does not need 3-D Secure authentication for this payment.',
  },
  unavailable: {
    title: 'This payment is no longer available',
    body: 'The payment has expired, been captured, refunded or canceled, so it can no longer be authenticated here.',
  },
  notFound: {
    title: 'Page not found',
    body: 'This authentication link is not valid. Make sure you opened the whole link, or go back to the shop and start the payment again.',
  },
  error: {
    title: 'Something went wrong',
    badRequest: 'This request could not be understood. Go back to the shop and try again.',
    methodNotAllowed: 'This page cannot be used that way. Open the link you were given, then choose an option.',
    unavailable: 'The payment service is busy right now. Wait a moment, then reload this page.',
  },
  returnTo: (merchant: string) => `Return to ${merchant}`,
};

export type Messages = typeof en;
