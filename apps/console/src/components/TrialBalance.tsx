import type { ReactNode } from 'react';
import { Money, TotalsFoot } from './ui.js';

interface Row {
  account_code: string;
  name: string;
  debit_balance: string;
  credit_balance: string;
}

/** A trial balance, the firm's or a customer's: each account's balance on its side, and the totals. */
export function TrialBalanceTable({
  accounts,
  totalDebit,
  totalCredit,
  caption,
}: {
  accounts: Row[];
  totalDebit: string;
  totalCredit: string;
  caption?: ReactNode;
}) {
  return (
    <table data-testid="trial-balance">
      {caption ? <caption>{caption}</caption> : null}
      <thead>
        <tr>
          <th scope="col">Account</th>
          <th scope="col" className="num">
            Debit
          </th>
          <th scope="col" className="num">
            Credit
          </th>
        </tr>
      </thead>
      <tbody>
        {accounts.map((a) => (
          <tr key={a.account_code}>
            <td>
              {a.account_code} {a.name}
            </td>
            <td>
              <Money value={a.debit_balance} />
            </td>
            <td>
              <Money value={a.credit_balance} />
            </td>
          </tr>
        ))}
      </tbody>
      <TotalsFoot totals={[totalDebit, totalCredit]} />
    </table>
  );
}
