// The iframe's entry: the only code that ever sees a card number. It renders nothing until the page
// that launched it has proved itself (origin, window and nonce); then it talks over a private channel.
import { render } from 'preact';
import { portBridge } from './bridge.ts';
import { CardForm } from './card-form.tsx';
import { awaitConnect, readLaunchParams } from './handshake.ts';
import './frame.css';

const params = readLaunchParams(location.hash);
const root = document.getElementById('root');
if (params && root && window.parent !== window) {
  awaitConnect(window, params, (port, connect) => {
    render(<CardForm publishableKey={connect.publishableKey} initialOptions={connect.options} bridge={portBridge(port)} />, root);
  });
}
