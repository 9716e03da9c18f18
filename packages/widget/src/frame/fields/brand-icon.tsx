import type { Brand } from '@payframe/contract';

/** A badge per brand (name and colour, no trademarked artwork); white text keeps 4.5:1 on each colour. */
const BADGES: Record<Exclude<Brand, 'UNKNOWN'>, [label: string, colour: string]> = {
  VISA: ['VISA', '#1a1f71'],
  MASTERCARD: ['MC', '#b3001b'],
  MAESTRO: ['MAES', '#0a5ea8'],
  AMEX: ['AMEX', '#00609c'],
  DISCOVER: ['DISC', '#a2430f'],
  JCB: ['JCB', '#0b4ea2'],
  DINERS: ['DC', '#004a97'],
  UNIONPAY: ['UP', '#a1001f'],
};

/** Decorative: the brand reaches assistive technology through the change event, not through the picture. */
export function BrandIcon({ brand }: { brand: Brand }) {
  const badge = brand === 'UNKNOWN' ? undefined : BADGES[brand];
  return (
    <svg class="brand" viewBox="0 0 40 26" aria-hidden="true" data-testid="card-brand" data-brand={brand}>
      {badge ? (
        <>
          <rect width="40" height="26" rx="4" fill={badge[1]} />
          <text x="20" y="17" text-anchor="middle" font-size="10" font-weight="700" font-family="sans-serif" fill="#fff">
            {badge[0]}
          </text>
        </>
      ) : (
        <>
          <rect x="1" y="1" width="38" height="24" rx="4" fill="none" stroke="#6b6b6b" stroke-width="2" />
          <rect x="1" y="7" width="38" height="4" fill="#6b6b6b" />
        </>
      )}
    </svg>
  );
}
