import type { Mode } from '@payframe/contract';
import type { IssuerOutcome, ThreeDSScenario } from '@payframe/contract/test-cards';
import type { CardSecret } from '../security/vault.ts';

export type AuthorizationRequest = {
  card: CardSecret & { expMonth: number; expYear: number };
  amount: number;
  currency: string;
  mode: Mode;
};

/** The issuer's answer, and for cards that need 3-D Secure how it will run it (the two-button challenge when absent). */
export type AcquirerAnswer = IssuerOutcome & { threeDSScenario?: ThreeDSScenario };

/** The bank-facing side of a charge. Live mode uses the one the operator configured; test mode always simulates. */
export interface Acquirer {
  readonly name: string;
  authorize(request: AuthorizationRequest): Promise<AcquirerAnswer>;
}
