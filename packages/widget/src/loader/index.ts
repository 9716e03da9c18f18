// payframe.js: the one script a merchant page loads. It defines the global `Payframe` and nothing else.
import { createPayframe } from './payframe.ts';

declare global {
  interface Window {
    Payframe: ReturnType<typeof createPayframe>;
  }
}

// document.currentScript exists only while this script first runs: it says where Payframe is served from.
window.Payframe = createPayframe((document.currentScript as HTMLScriptElement | null)?.src);
