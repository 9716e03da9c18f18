import type { ErrorBody, Token } from '@payframe/contract';
import type { TokenResult } from '../../protocol/to-page.ts';
import type { TokenBody } from './token-body.ts';

function unavailableError(message: string): ErrorBody {
  return { type: 'api_error', message, error: { code: 'SERVICE_UNAVAILABLE', message } };
}

function isErrorBody(body: unknown): body is ErrorBody {
  return typeof (body as ErrorBody | null)?.error?.code === 'string';
}

/** Posts to the frame's own origin (so the page's CSP and CORS never see card data) and never throws. */
export async function requestToken(publishableKey: string, body: TokenBody): Promise<TokenResult> {
  try {
    const response = await fetch('/v2/tokens', {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-api-key': publishableKey },
      body: JSON.stringify(body),
      credentials: 'omit',
      cache: 'no-store',
    });
    const json: unknown = await response.json();
    if (response.ok) return { token: json as Token };
    return { error: isErrorBody(json) ? json : unavailableError(`Payframe answered ${response.status}.`) };
  } catch {
    return { error: unavailableError('Could not reach Payframe.') };
  }
}
