export * from './brands.ts';
export * from './card.ts';
export * from './charges.ts';
export * from './errors.ts';
export * from './money.ts';
export * from './refunds.ts';
export * from './test-helpers.ts';
export * from './tokens.ts';
