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
    unavailable: 'Your bank could not authenticate this payment; it can go ahead without authentication.',
    next: 'There is nothing more to do on this page.',
  },
  otp: {
    title: 'Enter your one-time code',
    intro: 'Your bank has sent a 6-digit code by text message to the phone number it holds for this card.',
    testCode: (code: string) => `Test mode: the code is ${code}.`,
    label: 'One-time code',
    submit: 'Confirm',
    resend: 'Send a new code',
    resent: 'A new code has been sent.',
    missing: 'Enter the code you received.',
    wrong: (left: number) => (left === 1 ? 'That code is not right. You have 1 try left.' : `That code is not right. You have ${left} tries left.`),
  },
  oobWaiting: {
    title: 'Approve this payment in your banking app',
    body: 'Your bank has sent a notification to your banking app. Open it and approve or decline the payment; this page moves on by itself.',
    device: 'Open the simulated banking app',
  },
  oobDevice: {
    title: 'Approve this payment?',
    intro: 'A shop is asking to take this payment from your card.',
    approve: 'Approve',
    deny: 'Decline',
  },
  oobDone: {
    title: 'Answer sent',
    approved: 'You approved the payment.',
    denied: 'You declined the payment.',
    next: 'Go back to the shop’s page to continue.',
  },
  frictionless: {
    title: 'Checking with your bank…',
    body: 'Your bank is confirming this payment without asking you anything. This only takes a moment.',
  },
  rejected: {
    title: 'Your bank rejected this payment',
    body: 'Your card issuer refused to authenticate this payment without asking you to confirm it. The payment cannot go ahead with this card.',
  },
  authUnavailable: {
    title: 'Authentication unavailable',
    body: 'Your bank could not be reached to authenticate this payment. The payment can go ahead without authentication.',
  },
  complete: {
    title: 'Authentication complete',
    body: 'Returning you to the shop…',
  },
  proceed: 'Continue',
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
