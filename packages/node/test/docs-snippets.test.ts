import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { Webhook } from 'standardwebhooks';
import { describe, expect, it } from 'vitest';

// The plain node:crypto verification snippets of the docs are code merchants copy: they must work.
const docs = ['docs/sdk.md', 'docs/webhooks.md'].map((path) => [path, readFileSync(new URL(`../../../${path}`, import.meta.url), 'utf8')] as const);

type Verify = (rawBody: string | Buffer, headers: Record<string, string>, secret: string) => unknown;

async function loadSnippet(markdown: string): Promise<Verify> {
  const snippet = [...markdown.matchAll(/```js\n([\s\S]*?)```/g)].map((match) => match[1]).find((code) => code?.includes('verifyPayframeWebhook'));
  if (snippet === undefined) throw new Error('no js snippet');
  const file = join(mkdtempSync(join(tmpdir(), 'payframe-snippet-')), 'verify.mjs');
  writeFileSync(file, snippet);
  const module = (await import(pathToFileURL(file).href)) as { verifyPayframeWebhook: Verify };
  return module.verifyPayframeWebhook;
}

describe.each(docs)('the node:crypto snippet of %s', (_path, markdown) => {
  it('accepts what standardwebhooks signs and refuses a changed body or another secret', async () => {
    const verify = await loadSnippet(markdown);
    const secret = `whsec_${Buffer.alloc(32, 5).toString('base64')}`;
    const body = JSON.stringify({ type: 'event', id: 'evt_doc' });
    const now = new Date();
    const headers = {
      'webhook-id': 'evt_doc',
      'webhook-timestamp': String(Math.floor(now.getTime() / 1000)),
      'webhook-signature': new Webhook(secret).sign('evt_doc', now, body),
    };
    expect(verify(Buffer.from(body), headers, secret)).toEqual({ type: 'event', id: 'evt_doc' });
    expect(() => verify(body.replace('evt_doc', 'evt_other'), headers, secret)).toThrow();
    expect(() => verify(body, headers, `whsec_${Buffer.alloc(32, 6).toString('base64')}`)).toThrow();
  });
});
