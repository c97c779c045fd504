import { Router, type Express } from 'express';
import swaggerUi from 'swagger-ui-express';
import type { ApiDocument } from '../../openapi/types.js';

/** The files the page links to (`./swagger-ui.css`, ...): the only ones served from swagger-ui-dist. */
function linkedAssets(html: string): Set<string> {
  return new Set([...html.matchAll(/(?:src|href)="\.\/([^"?#]+)"/g)].map((m) => `/${m[1]}`));
}

/**
 * `/docs`: Swagger UI from swagger-ui-dist's files in node_modules (no CDN), and the raw
 * document at `/docs/openapi.json`. Open, and outside the validator: the UI's assets are not
 * API operations. The page's asset links are relative, so the page lives at `/docs/`.
 * Only the files the page links to are served: swagger-ui-dist also ships a stock index.html
 * that would load a demo document from the internet.
 */
export function mountDocs(app: Express, document: ApiDocument): void {
  // validatorUrl null: the UI must not send the document to an outside validator service.
  const uiOptions = { customSiteTitle: document.info.title, swaggerOptions: { validatorUrl: null } };
  const assets = linkedAssets(swaggerUi.generateHTML(document, uiOptions));

  const docs = Router({ strict: true });
  docs.get('/openapi.json', (_req, res) => {
    res.json(document);
  });
  docs.get('/', swaggerUi.setup(document, uiOptions));
  // Anything else leaves the docs and gets the API's own 404.
  docs.use((req, _res, next) => next(req.method === 'GET' && assets.has(req.path) ? undefined : 'router'));
  docs.use(swaggerUi.serveFiles(document, uiOptions));

  app.get('/docs', (req, res, next) => {
    if (!req.originalUrl.startsWith('/docs/')) return res.redirect(301, 'docs/');
    next();
  });
  app.use('/docs', docs);
}
