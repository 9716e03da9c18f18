import { EVENT_NAMES, type EventName } from '@payframe/contract';
import { parsedArgs, UsageError } from './args.ts';
import { MOVE_REQUESTS, TRIGGER_PLANS } from './trigger-plans.ts';

const OPTIONS = { 'api-key': { type: 'string' }, 'api-base': { type: 'string' } } as const;
const DEFAULT_API_BASE = 'http://127.0.0.1:4000';

/**
 * `payframe trigger EVENT`: makes, in test mode and through the HTTP API only, the objects that
 * produce EVENT (a token, a charge, the moves after it), so that the account's webhook endpoints
 * receive a real, signed delivery of it; prints the ids it made, one `kind id` line each.
 * A wrong event name or key is a usage error (exit 2); an API refusal stops it (exit 1).
 */
export async function triggerCommand(args: string[]): Promise<void> {
  const { values, positionals } = parsedArgs({ args, options: OPTIONS, allowPositionals: true, strict: true });
  const [name, ...extra] = positionals;
  if (name === undefined || extra.length > 0 || !isEventName(name)) {
    const got = name === undefined ? 'no event name' : extra.length > 0 ? 'more than one event name' : `unknown event "${name}"`;
    throw new UsageError(`trigger needs one event name; got ${got}. Event names:\n${EVENT_NAMES.map((event) => `  ${event}`).join('\n')}`);
  }
  const apiKey = values['api-key'];
  // Never echoed: a live key pasted here by mistake must not land in a terminal log.
  if (!apiKey?.startsWith('sk_test_')) {
    throw new UsageError('trigger needs --api-key with a test-mode secret key (sk_test_…)');
  }
  const apiBase = values['api-base'] ?? DEFAULT_API_BASE;
  if (!URL.canParse(apiBase)) {
    throw new UsageError('trigger needs --api-base to be a URL, such as http://127.0.0.1:4000');
  }

  const call = caller(apiBase, apiKey);
  const plan = TRIGGER_PLANS[name];
  const token = await call('/v2/tokens', tokenBody(plan.card));
  console.log(`token   ${token.id}`);
  const charge = await call('/v2/charges', {
    token: token.id,
    amount: 1000,
    currency: 'EUR',
    description: `payframe trigger ${name}`,
    return_url: `${new URL(apiBase).origin}/trigger-return`,
  });
  console.log(`charge  ${charge.id}`);
  for (const move of plan.moves) {
    const { path, body } = MOVE_REQUESTS[move](charge.id);
    const answer = await call(path, body ?? {});
    // A refund makes an object of its own; every other move answers the charge.
    if (answer.type === 'refund') console.log(`refund  ${answer.id}`);
  }
  const events = await call(`/v2/events?name=${encodeURIComponent(name)}&charge=${encodeURIComponent(charge.id)}&limit=1`);
  const event = (events.data as Array<{ id: string }> | undefined)?.[0];
  if (!event) throw new Error(`the moves succeeded but no ${name} event was recorded for ${charge.id}`);
  console.log(`event   ${event.id}  ${name}`);
}

function isEventName(name: string): name is EventName {
  return (EVENT_NAMES as readonly string[]).includes(name);
}

function tokenBody(number: string): Record<string, unknown> {
  return {
    card: { number, cvc: '123', exp_month: 12, exp_year: new Date().getUTCFullYear() + 3, name: 'Payframe Trigger' },
    // A secret-key token names the shopper's address itself; a documentation address (RFC 5737).
    shopper: { ip: '192.0.2.1', session_id: 'payframe-trigger', email: 'trigger@example.com' },
  };
}

type Answer = Record<string, unknown> & { id: string; type: string };

/** POSTs `body` as JSON (or GETs without one); anything but 200 stops the command with the API's own error. */
function caller(apiBase: string, apiKey: string) {
  return async (path: string, body?: Record<string, unknown>): Promise<Answer> => {
    const method = body === undefined ? 'GET' : 'POST';
    const url = new URL(path, apiBase);
    let response: Response;
    try {
      response = await fetch(url, {
        method,
        headers: { 'x-api-key': apiKey, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
        ...(body === undefined ? {} : { body: JSON.stringify(body) }),
      });
    } catch (error) {
      const cause = error instanceof Error && error.cause instanceof Error ? `: ${error.cause.message}` : '';
      throw new Error(`cannot reach ${url.origin}${cause}`);
    }
    const text = await response.text();
    const answer = parsed(text);
    if (response.status !== 200 || !answer) {
      const error = answer?.error as { code?: string; message?: string } | undefined;
      throw new Error(`${method} ${url.pathname} answered ${response.status} ${error?.code ?? ''}: ${error?.message ?? text.slice(0, 200)}`);
    }
    return answer;
  };
}

function parsed(text: string): Answer | undefined {
  try {
    return JSON.parse(text) as Answer;
  } catch {
    return undefined;
  }
}
