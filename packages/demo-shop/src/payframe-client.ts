/**
 * The shop's server-side Payframe client: plain fetch with the secret key, nothing imported from
 * Payframe's own packages — exactly what any merchant could write from docs/api.md.
 */

export type ChargeStatus = 'PENDING' | 'CHARGE_SUCCESS' | 'PARTIALLY_REFUNDED' | 'REFUNDED' | 'CHARGE_FAILED';
export type ThreeDSStatus = 'PENDING' | 'CHARGEABLE' | 'NOT_AVAILABLE' | 'FAILED' | 'CAPTURED';

/** The fields of a charge the shop reads. */
export type Charge = {
  id: string;
  amount: number;
  amount_refunded: number;
  currency: string;
  status: ChargeStatus;
  reason: 'EXPIRED' | 'CANCEL_USING_API' | null;
  threedSecure: { redirect: string; returnUrl: string; status: ThreeDSStatus };
  token: { card: { brand: string; last4Digits: string; name: string } };
};

export type Refund = { id: string; amount: number; currency: string; charge: string; created: string };

export type CreateCharge = { token: string; amount: number; currency: string; description: string; txn_reference: string; return_url: string };

/** An error answer of the API: its status and the documented error body. */
export class PayframeApiError extends Error {
  constructor(
    readonly status: number,
    readonly type: string,
    readonly code: string,
    message: string,
    readonly declineReason: string | undefined,
  ) {
    super(message);
    this.name = 'PayframeApiError';
  }
}

type ErrorBody = { type?: string; message?: string; error?: { code?: string; message?: string; decline_reason?: string } };

export type PayframeClient = ReturnType<typeof payframeClient>;

export function payframeClient(options: { apiUrl: string; secretKey: string }) {
  async function call<T>(method: 'GET' | 'POST', path: string, body?: object, idempotencyKey?: string): Promise<T> {
    const headers: Record<string, string> = { 'x-api-key': options.secretKey };
    if (body) headers['content-type'] = 'application/json';
    if (idempotencyKey) headers['idempotency-key'] = idempotencyKey;
    const response = await fetch(`${options.apiUrl}/v2${path}`, { method, headers, body: body ? JSON.stringify(body) : null });
    const json = (await response.json().catch(() => ({}))) as ErrorBody;
    if (response.ok) return json as T;
    throw new PayframeApiError(
      response.status,
      json.type ?? 'api_error',
      json.error?.code ?? 'INTERNAL_ERROR',
      json.error?.message ?? json.message ?? `HTTP ${response.status}`,
      json.error?.decline_reason,
    );
  }
  const id = encodeURIComponent;
  return {
    /** An Idempotency-Key makes a retried request (a double click, a timeout) return the first answer. */
    createCharge: (body: CreateCharge, idempotencyKey: string) => call<Charge>('POST', '/charges', body, idempotencyKey),
    getCharge: (chargeId: string) => call<Charge>('GET', `/charges/${id(chargeId)}`),
    capture: (chargeId: string) => call<Charge>('POST', `/charges/capture/${id(chargeId)}`, {}, `capture-${chargeId}`),
    cancel: (chargeId: string) => call<Charge>('POST', `/charges/cancel/${id(chargeId)}`, {}, `cancel-${chargeId}`),
    refund: (chargeId: string, amount: number | undefined, idempotencyKey: string) =>
      call<Refund>('POST', `/charges/refund/${id(chargeId)}`, amount === undefined ? {} : { amount }, idempotencyKey),
  };
}
