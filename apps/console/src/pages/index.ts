import type { ComponentType } from 'react';
import CashRequestsPage from './CashRequests.js';
import CustomersPage from './Customers.js';
import ExceptionsPage from './Exceptions.js';
import FirmPage from './Firm.js';
import IndiaPage from './India.js';
import JobsPage from './Jobs.js';
import JournalPage from './Journal.js';
import PeriodsPage from './Periods.js';
import ReconciliationPage from './Reconciliation.js';
import TransactionsPage from './Transactions.js';
import VariancesPage from './Variances.js';

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
  { path: 'journal', title: 'Journal', component: JournalPage },
  { path: 'customers', title: 'Customers', component: CustomersPage },
  { path: 'cash-requests', title: 'Cash requests', component: CashRequestsPage },
  { path: 'jobs', title: 'Jobs', component: JobsPage },
  { path: 'reconciliation', title: 'Reconciliation', component: ReconciliationPage },
  { path: 'variances', title: 'Variances', component: VariancesPage },
  { path: 'exceptions', title: 'Exceptions', component: ExceptionsPage },
  { path: 'periods', title: 'Periods', component: PeriodsPage },
  { path: 'india', title: 'India', component: IndiaPage },
];
