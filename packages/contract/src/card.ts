import { z } from 'zod';

const BRANDS = ['VISA', 'MASTERCARD', 'MAESTRO', 'AMEX', 'DISCOVER', 'JCB', 'DINERS', 'UNIONPAY', 'UNKNOWN'] as const;
export const BrandSchema = z.enum(BRANDS);
export type Brand = z.infer<typeof BrandSchema>;

export const FundingSchema = z.enum(['CREDIT', 'DEBIT']);
export type Funding = z.infer<typeof FundingSchema>;

/** REQUIRED: the shopper must pass 3-D Secure; NOT_AVAILABLE: the charge captures directly. */
export const AuthorizationSchema = z.enum(['REQUIRED', 'NOT_AVAILABLE']);
export type Authorization = z.infer<typeof AuthorizationSchema>;

export const ModeSchema = z.enum(['test', 'live']);
export type Mode = z.infer<typeof ModeSchema>;
