import { PAGES } from './index.js';
import { href, useRoute } from '../router.js';

/** An address that names no page: said so, with the pages there are (never another page shown instead). */
export default function NotFoundPage() {
  const { page } = useRoute();
  return (
    <>
      <h1>No such page</h1>
      <p data-testid="not-found">
        The console has no page <code>#/{page}</code>. The pages are:
      </p>
      <ul>
        {PAGES.map((p) => (
          <li key={p.path}>
            <a href={href(p.path)}>{p.title}</a>
          </li>
        ))}
      </ul>
    </>
  );
}
