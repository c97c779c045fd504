import type { ComponentType } from 'react';
import CashRequestsPage from './CashRequests.js';
import CustomersPage from './Customers.js';
import FirmPage from './Firm.js';
import IndiaPage from './India.js';
import JobsPage from './Jobs.js';
import ReconciliationPage from './Reconciliation.js';
import TransactionsPage from './Transactions.js';

export interface Page {
  /** Its route: `#/<path>`, and `#/<path>/<param>` for one of its things. */
  path: string;
  title: string;
  component: ComponentType;
}

/** The navigation, in order: a new page is its file in this folder and one line here. */
export const PAGES: Page[] = [
  { path: 'firm', title: 'Firm', component: FirmPage },
  { path: 'transactions', title: 'Transactions', component: TransactionsPage },
  { path: 'customers', title: 'Customers', component: CustomersPage },
  { path: 'cash-requests', title: 'Cash requests', component: CashRequestsPage },
  { path: 'jobs', title: 'Jobs', component: JobsPage },
  { path: 'reconciliation', title: 'Reconciliation', component: ReconciliationPage },
  { path: 'india', title: 'India', component: IndiaPage },
];
