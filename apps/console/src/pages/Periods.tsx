import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState, type ReactNode } from 'react';
import { api, unwrap, type Schemas } from '../api/client.js';
import { Confirm } from '../components/Confirm.js';
import { ListTable, type Column } from '../components/List.js';
import { Loaded } from '../components/ui.js';
import { href, navigate, useRoute } from '../router.js';
import { useSession } from '../session-context.js';

const LIMIT = 20;

/** The day before `day` (YYYY-MM-DD), in UTC like the book's dates. */
function dayBefore(day: string): string {
  const d = new Date(`${day}T00:00:00Z`);
  d.setUTCDate(d.getUTCDate() - 1);
  return d.toISOString().slice(0, 10);
}

/**
 * One control of the periods: its fields in a form, then a confirmation that says what it will
 * do with what was entered (`says`), and only then the call.
 */
function PeriodAction({
  title,
  button,
  fields,
  ready,
  says,
  run,
  onDone,
}: {
  title: string;
  button: string;
  fields: ReactNode;
  ready: boolean;
  says: string;
  run: () => Promise<unknown>;
  onDone: () => void;
}) {
  const client = useQueryClient();
  const [confirming, setConfirming] = useState(false);
  const action = useMutation({
    mutationFn: run,
    onSuccess: () => {
      setConfirming(false);
      onDone();
      // A close changes what may post and what the reports show: everything is read again.
      void client.invalidateQueries();
    },
  });
  return (
    <form
      className="panel filters"
      aria-label={title}
      onSubmit={(e) => {
        e.preventDefault();
        setConfirming(true);
      }}
    >
      <strong>{title}</strong>
      {fields}
      <button type="submit" disabled={!ready || confirming}>
        {button}…
      </button>
      {confirming ? (
        <Confirm
          label={`Confirm: ${title.toLowerCase()}`}
          says={says}
          button={button}
          danger
          pending={action.isPending}
          error={action.error}
          onConfirm={() => action.mutate()}
          onBack={() => setConfirming(false)}
        />
      ) : null}
    </form>
  );
}

function Controls({ through }: { through: string | null }) {
  return (
    <>
      <CloseBooks />
      <ReopenDays through={through} />
      <CloseYear />
    </>
  );
}

function CloseBooks() {
  const [closeDay, setCloseDay] = useState('');
  return (
    <PeriodAction
      title="Close the books"
      button="Close through the day"
      ready={closeDay !== ''}
      fields={
        <label>
          Through <input type="date" required value={closeDay} onChange={(e) => setCloseDay(e.target.value)} />
        </label>
      }
      says={`This closes every day up to and including ${closeDay}: nothing may be dated on or before it by any path. A manual entry or reversal dated there is refused (422 period_closed); a late upstream record posts on the first open day with its original date kept. Only a reopening, with a reason, moves the close back.`}
      run={() => unwrap(api.POST('/v1/periods/close', { body: { through: closeDay } }))}
      onDone={() => setCloseDay('')}
    />
  );
}

/** Reopening, offered while some day is closed (`through`); its draft is kept while none is. */
function ReopenDays({ through }: { through: string | null }) {
  const [reopenTo, setReopenTo] = useState('');
  const [reason, setReason] = useState('');
  if (through === null) return null;
  return (
    <PeriodAction
      title="Reopen closed days"
      button={reopenTo === '' ? 'Reopen every closed day' : `Reopen the days after ${reopenTo}`}
      ready={reason.trim() !== ''}
      fields={
        <>
          <label>
            Stay closed through (empty: nothing){' '}
            <input
              type="date"
              max={dayBefore(through)}
              value={reopenTo}
              onChange={(e) => setReopenTo(e.target.value)}
            />
          </label>
          <label>
            Reason (required) <input required value={reason} onChange={(e) => setReason(e.target.value)} />
          </label>
        </>
      }
      says={`This reopens ${reopenTo === '' ? `every day through ${through}: nothing stays closed` : `the days after ${reopenTo} through ${through}`}, recorded with your reason. Postings may be dated there again. A financial year closed to retained earnings whose last day opens again is reopened with it: its closing entry is reversed on that day.`}
      run={() =>
        unwrap(
          api.POST('/v1/periods/reopen', {
            body: { reason: reason.trim(), ...(reopenTo === '' ? {} : { through: reopenTo }) },
          }),
        )
      }
      onDone={() => {
        setReopenTo('');
        setReason('');
      }}
    />
  );
}

function CloseYear() {
  const [yearEnd, setYearEnd] = useState('');
  return (
    <PeriodAction
      title="Close a financial year"
      button="Close the year"
      ready={yearEnd !== ''}
      fields={
        <label>
          The year’s last day{' '}
          <input type="date" required value={yearEnd} onChange={(e) => setYearEnd(e.target.value)} />
        </label>
      }
      says={`This posts one entry dated ${yearEnd} that brings every revenue and expense balance of the year ending that day to zero against 3000 (retained earnings). The books must already be closed through ${yearEnd}. Income reports leave the entry out, so net income reads the same; reopening the period before ${yearEnd} reverses it.`}
      run={() => unwrap(api.POST('/v1/periods/close-year', { body: { through: yearEnd } }))}
      onDone={() => setYearEnd('')}
    />
  );
}

const CLOSE_COLUMNS: Column<Schemas['PeriodClose']>[] = [
  { header: 'When', cell: (c) => c.created_at.slice(0, 19).replace('T', ' ') },
  { header: 'Action', cell: (c) => c.action },
  { header: 'Closed through', cell: (c) => c.through ?? 'nothing closed' },
  { header: 'Reason', cell: (c) => c.reason ?? '' },
  { header: 'By', cell: (c) => c.actor },
];

const YEAR_COLUMNS: Column<Schemas['YearClose']>[] = [
  { header: 'When', cell: (y) => y.created_at.slice(0, 19).replace('T', ' ') },
  { header: 'Action', cell: (y) => y.action },
  { header: 'Year', cell: (y) => `${y.fy_start} – ${y.fy_end}` },
  { header: 'Net income', money: (y) => y.net_income_usd },
  {
    header: 'Entry',
    cell: (y) => (y.txn_id ? <a href={href('transactions', y.txn_id)}>transaction</a> : 'nothing to carry'),
  },
  { header: 'Reason', cell: (y) => y.reason ?? '' },
  { header: 'By', cell: (y) => y.actor },
];

export default function PeriodsPage() {
  const { admin } = useSession();
  const { query } = useRoute();
  const offset = Number(query.get('offset') ?? 0);
  const yearsOffset = Number(query.get('years_offset') ?? 0);
  const at = (moved: Record<string, number>) =>
    navigate(href('periods', '', { offset, years_offset: yearsOffset, ...moved }));
  const closes = useQuery({
    queryKey: ['periods', offset],
    queryFn: () => unwrap(api.GET('/v1/periods', { params: { query: { limit: LIMIT, offset } } })),
  });
  const current = useQuery({
    queryKey: ['periods', 'current'],
    queryFn: () => unwrap(api.GET('/v1/periods', { params: { query: { limit: 1 } } })),
  });
  const years = useQuery({
    queryKey: ['periods/years', yearsOffset],
    queryFn: () => unwrap(api.GET('/v1/periods/years', { params: { query: { limit: LIMIT, offset: yearsOffset } } })),
  });
  return (
    <>
      <h1>Periods</h1>
      <Loaded query={current}>
        {(c) => {
          const through = c.items[0]?.through ?? null;
          return (
            <>
              <p data-testid="period-state" className="note">
                {through === null ? (
                  'No day is closed: postings may be dated any day.'
                ) : (
                  <>
                    The books are closed through <strong>{through}</strong>: nothing may be dated on or before it.
                  </>
                )}
              </p>
              {admin ? (
                <Controls through={through} />
              ) : (
                <p className="muted">Closing and reopening need the admin token.</p>
              )}
            </>
          );
        }}
      </Loaded>
      <h2>Closes and reopenings</h2>
      <ListTable
        query={closes}
        testId="period-closes"
        columns={CLOSE_COLUMNS}
        rowKey={(c) => c.close_id}
        empty="The books have never been closed."
        limit={LIMIT}
        offset={offset}
        onOffset={(o) => at({ offset: o })}
      />
      <h2>Financial years closed to retained earnings</h2>
      <ListTable
        query={years}
        testId="year-closes"
        columns={YEAR_COLUMNS}
        rowKey={(y) => y.year_close_id}
        empty="No financial year has been closed."
        limit={LIMIT}
        offset={yearsOffset}
        onOffset={(o) => at({ years_offset: o })}
      />
    </>
  );
}
