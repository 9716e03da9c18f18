// The merchant's own checkout script: what a real integration writes, plus a record of every event.
const config = JSON.parse(document.getElementById('config').textContent);
const result = document.getElementById('result');
window.cardEvents = [];

const mountedAt = performance.now();
const card = window.Payframe(config.publishableKey).mount('#card', config.options);
for (const name of ['ready', 'change', 'focus', 'blur', 'complete', 'error']) {
  card.on(name, (detail) => window.cardEvents.push({ name, detail }));
}
card.on('ready', () => {
  window.readyAfterMs = performance.now() - mountedAt;
});
window.card = card;

document.getElementById('pay').addEventListener('click', async () => {
  const outcome = await card.createToken({ shopper: { email: config.email } });
  window.tokenResult = outcome;
  if (outcome.token) {
    await fetch('/pay', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ token: outcome.token.id }) });
    result.textContent = `Paid with token ${outcome.token.id}`;
  } else {
    result.textContent = `Refused: ${outcome.error.error.code}`;
  }
});
