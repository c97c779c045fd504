import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import express, { Router, type Express } from 'express';

/** apps/console's build, found from this file in src/ or dist/ alike (both are 4 levels below apps/). */
const CONSOLE_DIST = fileURLToPath(new URL('../../../../console/dist/', import.meta.url));

/**
 * Same origin only: the console's scripts, styles and calls come from here and nowhere else,
 * so no request leaves the machine even if a page tried. Inline styles: React and uPlot set
 * element styles.
 */
const CSP =
  "default-src 'self'; connect-src 'self'; img-src 'self' data: blob:; style-src 'self' 'unsafe-inline'; frame-ancestors 'none'; base-uri 'none'; form-action 'none'";

/**
 * `/console/`: the page (never cached) and its hashed assets (cached for good); its routes live
 * after `#`. Anything else under /console gets the API's own 404. Not built: nothing is
 * mounted, and /console is that 404 too.
 */
export function mountConsole(app: Express, dist = CONSOLE_DIST): void {
  if (!existsSync(`${dist}index.html`)) return;
  const page = Router({ strict: true });
  page.use((_req, res, next) => {
    res.set({ 'Content-Security-Policy': CSP, 'X-Content-Type-Options': 'nosniff', 'Referrer-Policy': 'no-referrer' });
    next();
  });
  page.use(
    '/assets',
    express.static(`${dist}assets`, { immutable: true, maxAge: '1y', index: false, redirect: false }),
  );
  page.get('/', (_req, res) => {
    res.set('Cache-Control', 'no-cache');
    res.sendFile('index.html', { root: dist });
  });
  page.use((_req, _res, next) => next('router'));
  app.get('/console', (req, res, next) => {
    if (!req.originalUrl.startsWith('/console/')) return res.redirect(301, 'console/');
    next();
  });
  app.use('/console', page);
}
