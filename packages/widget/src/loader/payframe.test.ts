import { afterEach, describe, expect, it } from 'vitest';
import { createPayframe } from './payframe.ts';
import { serveEmptyFramePages } from './test-frame-server.ts';

serveEmptyFramePages();

const Payframe = createPayframe('https://pay.example/v2/js/payframe.js');

afterEach(() => {
  document.body.innerHTML = '';
});

describe('Payframe()', () => {
  it('refuses anything but a publishable key, secret keys first of all', () => {
    expect(() => Payframe('sk_test_abc')).toThrow(/secret key must never reach a browser/);
    expect(() => Payframe('')).toThrow(TypeError);
  });

  it('needs a script URL or an apiBase', () => {
    expect(() => createPayframe(undefined)('pk_test_abc')).toThrow(/apiBase/);
  });

  it('mounts the frame from the origin the script came from, or from apiBase', () => {
    document.body.innerHTML = '<div id="a"></div><div id="b"></div>';
    Payframe('pk_test_abc').mount('#a');
    createPayframe(undefined)('pk_test_abc', { apiBase: 'http://localhost:4000' }).mount(document.getElementById('b') as HTMLElement);
    const sources = [...document.querySelectorAll('iframe')].map((iframe) => iframe.src.split('#')[0]);
    expect(sources).toEqual(['https://pay.example/v2/widget/frame.html', 'http://localhost:4000/v2/widget/frame.html']);
  });

  it('says which selector matched nothing, and checks the options before creating anything', () => {
    expect(() => Payframe('pk_test_abc').mount('#missing')).toThrow(/no element matches #missing/);
    document.body.innerHTML = '<div id="card"></div>';
    expect(() => Payframe('pk_test_abc').mount('#card', { locale: 'it' as 'en' })).toThrow(/locale/);
    expect(document.querySelector('iframe')).toBeNull();
  });
});
