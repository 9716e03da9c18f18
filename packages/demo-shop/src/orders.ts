import { randomBytes } from 'node:crypto';
import { mkdir, readFile, rename, writeFile } from 'node:fs/promises';
import { join } from 'node:path';

export type OrderRefund = { id: string; amount: number; created: string };

export type Order = {
  id: string;
  product: string;
  description: string;
  amount: number;
  currency: string;
  chargeId: string;
  /** Epoch milliseconds. */
  created: number;
  /** The shopper failed 3-D Secure (the shop then cancels the charge, which no longer says why). */
  authenticationFailed: boolean;
  refunds: OrderRefund[];
  /** Payframe's `charge.expired` webhook said the charge expired uncaptured (webhooks.ts). */
  expired?: boolean;
};

export type OrderStore = {
  newId(): string;
  list(): Order[];
  get(id: string): Order | undefined;
  /** The order paid (or being paid) by this charge. */
  byCharge(chargeId: string): Order | undefined;
  save(order: Order): Promise<void>;
};

/**
 * Orders in memory, written through to `orders.json` in the shop's data directory (write then
 * rename, one write at a time), so they survive a restart. The charges themselves live in Payframe.
 */
export async function openOrderStore(dataDir: string): Promise<OrderStore> {
  await mkdir(dataDir, { recursive: true });
  const file = join(dataDir, 'orders.json');
  const orders = new Map<string, Order>();
  try {
    for (const order of JSON.parse(await readFile(file, 'utf8')) as Order[]) orders.set(order.id, order);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
  }
  let writing: Promise<void> = Promise.resolve();
  const persist = () => {
    const snapshot = JSON.stringify([...orders.values()], null, 2);
    writing = writing
      .catch(() => undefined)
      .then(async () => {
        await writeFile(`${file}.tmp`, snapshot);
        await rename(`${file}.tmp`, file);
      });
    return writing;
  };
  return {
    newId: () => `ord_${randomBytes(8).toString('hex')}`,
    list: () => [...orders.values()].sort((a, b) => b.created - a.created),
    get: (id) => orders.get(id),
    byCharge: (chargeId) => [...orders.values()].find((order) => order.chargeId === chargeId),
    save: (order) => {
      orders.set(order.id, order);
      return persist();
    },
  };
}
