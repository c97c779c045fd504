import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef, useState, type FormEvent } from 'react';
import { useIndex } from './api/book.js';
import { api, unwrap, whenUnauthorized } from './api/client.js';
import { ErrorBox } from './components/ui.js';
import { PAGES } from './pages/index.js';
import NotFoundPage from './pages/NotFound.js';
import { href, useRoute } from './router.js';
import { SessionContext, useSession } from './session-context.js';
import { clearTokens, readTokens, saveTokens, type Tokens } from './session.js';

const BOOK_LABEL = { ENTITY_UAE: 'UAE', ENTITY_IND_IFSC: 'India' } as const;

function SignIn({ reason, onSignedIn }: { reason: string | null; onSignedIn: (tokens: Tokens) => void }) {
  const [ledger, setLedger] = useState('');
  const [admin, setAdmin] = useState('');
  const [error, setError] = useState<unknown>(reason === null ? null : new Error(reason));
  const submit = async (e: FormEvent) => {
    e.preventDefault();
    saveTokens({ ledger: ledger.trim(), admin: admin.trim() });
    try {
      // The read token is checked by a read; the admin token on its first use.
      await unwrap(api.GET('/v1/transactions', { params: { query: { limit: 1 } } }));
      onSignedIn({ ledger: ledger.trim(), admin: admin.trim() });
    } catch (failure) {
      clearTokens();
      setError(failure);
    }
  };
  return (
    <main className="signin">
      <h1>Ledger console</h1>
      <form onSubmit={submit} aria-label="Sign in">
        <label>
          Ledger token (reads)
          <input
            type="password"
            autoComplete="off"
            required
            value={ledger}
            onChange={(e) => setLedger(e.target.value)}
          />
        </label>
        <label>
          Admin token (optional: writes and jobs)
          <input type="password" autoComplete="off" value={admin} onChange={(e) => setAdmin(e.target.value)} />
        </label>
        <button type="submit">Sign in</button>
        <p className="muted">Kept in this tab only, until it closes or you sign out.</p>
      </form>
      <ErrorBox error={error} />
    </main>
  );
}

/** The skip link moves focus, not the route (routes live in the hash too). */
function skipToContent(e: { preventDefault: () => void }) {
  e.preventDefault();
  document.getElementById('content')?.focus();
}

function Header() {
  const { admin, signOut } = useSession();
  const index = useIndex();
  const ready = useQuery({
    queryKey: ['health'],
    queryFn: async () => (await api.GET('/health/ready')).response.ok,
    refetchInterval: 30_000,
  });
  const book = index.data?.book;
  const route = useRoute();
  return (
    <header>
      <a className="skip" href="#content" onClick={skipToContent}>
        Skip to content
      </a>
      <strong className="book">{book ? `${BOOK_LABEL[book]} book` : 'Ledger'}</strong>
      <span className={`health ${ready.data === undefined ? '' : ready.data ? 'up' : 'down'}`} data-testid="health">
        {ready.data === undefined ? '…' : ready.data ? 'ready' : 'not ready'}
      </span>
      <nav aria-label="Pages">
        {PAGES.map((p) => (
          <a key={p.path} href={href(p.path)} aria-current={route.page === p.path ? 'page' : undefined}>
            {p.title}
          </a>
        ))}
      </nav>
      {index.data?.peer_console ? (
        <a className="peer" href={index.data.peer_console}>
          Other book’s console
        </a>
      ) : null}
      <span className="muted">{admin ? 'admin' : 'read only'}</span>
      <button type="button" onClick={() => signOut()}>
        Sign out
      </button>
    </header>
  );
}

export function App() {
  const [tokens, setTokens] = useState(readTokens);
  const [reason, setReason] = useState<string | null>(null);
  const client = useQueryClient();
  const route = useRoute();
  const signOut = (why?: string) => {
    clearTokens();
    // The queues board's cookie goes with the tokens (its own expiry would end it anyway).
    void api.DELETE('/console/queues/session');
    client.clear();
    setReason(why ?? null);
    setTokens(null);
  };
  useEffect(() => whenUnauthorized(signOut));
  // A keyboard or screen reader user lands on the new page's content, not back at the top of the header.
  const main = useRef<HTMLElement>(null);
  const shown = useRef(route.page);
  useEffect(() => {
    if (shown.current !== route.page) main.current?.focus();
    shown.current = route.page;
  }, [route.page]);
  if (tokens === null) return <SignIn reason={reason} onSignedIn={setTokens} />;
  // No page named: the first (Firm); a page that does not exist: said so, never another page in its place.
  const Page =
    route.page === '' ? PAGES[0]!.component : (PAGES.find((p) => p.path === route.page)?.component ?? NotFoundPage);
  return (
    <SessionContext.Provider value={{ admin: tokens.admin !== '', signOut }}>
      <Header />
      <main id="content" tabIndex={-1} ref={main}>
        <Page />
      </main>
    </SessionContext.Provider>
  );
}
