import type { DashboardSession, Mode } from '@payframe/contract';
import { createContext } from 'preact';
import { useContext } from 'preact/hooks';
import type { DashboardClient } from './api/client.ts';

export type Dashboard = {
  client: DashboardClient;
  session: DashboardSession;
  mode: Mode;
  /** Admins capture, cancel, refund, and manage keys, webhooks, the test clock and the account; viewers read. */
  canWrite: boolean;
  setMode: (mode: Mode) => void;
  setAccountName: (name: string) => void;
  signOut: () => Promise<void>;
};

export const DashboardContext = createContext<Dashboard | null>(null);

export function useDashboard(): Dashboard {
  const dashboard = useContext(DashboardContext);
  if (dashboard === null) throw new Error('useDashboard outside a signed-in dashboard');
  return dashboard;
}
