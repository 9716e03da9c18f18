// The checkout page's only script (the CSP allows no inline code): mount the Payframe card widget,
// exchange the card for a token on Pay, and submit the shop's form with the token id alone.
const config = JSON.parse(document.getElementById('checkout-config').textContent);
const form = document.getElementById('checkout-form');
const pay = document.getElementById('pay');
const message = document.getElementById('checkout-error');
const payLabel = pay.textContent;

const card = window.Payframe(config.publishableKey).mount('#card', { fields: { email: true } });
card.on('ready', () => {
  pay.disabled = false;
});

form.addEventListener('submit', async (event) => {
  event.preventDefault();
  pay.disabled = true;
  pay.textContent = 'Paying…';
  message.textContent = '';
  message.removeAttribute('data-code');
  message.removeAttribute('data-decline-reason');
  const { token, error } = await card.createToken();
  if (token) {
    form.elements.token.value = token.id;
    form.submit();
    return;
  }
  // The frame already shows field errors beside the fields; say it once more next to the button.
  message.textContent = error.message;
  message.setAttribute('data-code', error.error.code);
  pay.disabled = false;
  pay.textContent = payLabel;
});
