// The 3-D Secure page's only script: Payframe's challenge in a dialog over the shop's page, then
// back to the return URL, where the shop's server reads the charge (never the status in the URL)
// and captures. Closing the dialog comes back too, and the order stays awaiting authentication.
const config = JSON.parse(document.getElementById('three-ds-config').textContent);

window
  .Payframe(config.publishableKey)
  .handleThreeDS(config.redirectUrl)
  .then((result) => {
    const url = new URL(config.returnPath, location.href);
    if (!result.canceled) {
      url.searchParams.set('charge_id', result.chargeId);
      url.searchParams.set('status', result.status);
    }
    location.assign(url.href);
  });
