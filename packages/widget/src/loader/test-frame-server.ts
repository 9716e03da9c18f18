/**
 * happy-dom loads no iframe page unless told to, and logs an error for each one. In loader tests the
 * frame's page is an empty stand-in; the frame's own code is tested on its side of the protocol.
 */
export function serveEmptyFramePages(): void {
  const { settings } = (window as unknown as { happyDOM: { settings: { enableIframePageLoading: boolean; fetch: { interceptor: unknown } } } }).happyDOM;
  settings.enableIframePageLoading = true;
  settings.fetch.interceptor = {
    beforeAsyncRequest: async () => new Response('<!doctype html><title>frame</title>', { headers: { 'content-type': 'text/html' } }),
  };
}
