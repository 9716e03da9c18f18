import './zod-jitless.ts';
import { render } from 'preact';
import { App } from './app.tsx';
import './styles.css';

const root = document.getElementById('app');
if (root !== null) render(<App />, root);
