import { describe, expect, it } from 'vitest';
import { chargeSearch } from './charge-search.ts';

describe('chargeSearch', () => {
  it.each([
    ['C12345678901234567890', { charge: 'C12345678901234567890' }],
    [' 4242 ', { filter: { last4: '4242' } }],
    ['Ada@Example.com', { filter: { email: 'Ada@Example.com' } }],
    ['order-1001', { filter: { txn_reference: 'order-1001' } }],
    ['CART-7', { filter: { txn_reference: 'CART-7' } }],
    ['42424', { filter: { txn_reference: '42424' } }],
  ])('maps %j to %j', (input, search) => {
    expect(chargeSearch(input)).toEqual(search);
  });

  it('maps an empty box to no filter', () => {
    expect(chargeSearch('   ')).toBeNull();
  });
});
