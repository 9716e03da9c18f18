import { render } from 'preact';
import { config } from 'zod';
import { App } from './app.tsx';
import './styles.css';

// The page's CSP has no 'unsafe-eval': zod must not even probe for `new Function`, or the browser reports a violation.
config({ jitless: true });

const root = document.getElementById('app');
if (root !== null) render(<App />, root);
