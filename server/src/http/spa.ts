import fs from 'node:fs';
import path from 'node:path';
import express, { type Router } from 'express';
import { hostKindOf } from './context';

/**
 * Serves the built client: hashed assets for a year, and for every other path the entry of the front end
 * the host asks for (`student.…` → the portal), never cached, so a deploy is picked up at once.
 */
export function spaRouter(distDir: string): Router {
  const router = express.Router();
  router.use(
    '/assets',
    express.static(path.join(distDir, 'assets'), { immutable: true, maxAge: '365d', index: false }),
  );
  router.use(express.static(distDir, { index: false, maxAge: '1h' }));
  router.get('/{*path}', (req, res) => {
    const entry = hostKindOf(req.hostname) === 'student' ? 'portal.html' : 'index.html';
    const file = path.join(distDir, entry);
    res.setHeader('Cache-Control', 'no-cache');
    if (!fs.existsSync(file)) {
      res.status(503).type('text/plain').send('The web client has not been built yet: run `npm run build`.');
      return;
    }
    res.sendFile(file);
  });
  return router;
}
