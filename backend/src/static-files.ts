import { existsSync, statSync } from 'node:fs';
import { extname, join, normalize, sep } from 'node:path';
import { Logger } from '@nestjs/common';
import type { NestExpressApplication } from '@nestjs/platform-express';
import type { NextFunction, Request, Response } from 'express';

/** Hashed file names from Vite: the content never changes under that name. */
export const IMMUTABLE = 'public, max-age=31536000, immutable';

/** Encodings the build writes next to each compressible file (frontend/vite.config.ts), best first. */
const ENCODINGS = [
  { name: 'br', ext: '.br' },
  { name: 'gzip', ext: '.gz' },
] as const;

function isFile(path: string): boolean {
  try {
    return statSync(path).isFile();
  } catch {
    return false;
  }
}

function accepts(req: Request, encoding: string): boolean {
  const header = req.headers['accept-encoding'];
  if (typeof header !== 'string') return false;
  return header.split(',').some((part) => {
    const [token, ...params] = part.trim().split(';');
    if (token.trim().toLowerCase() !== encoding) return false;
    const q = params.map((p) => p.trim()).find((p) => p.startsWith('q='));
    return !q || Number(q.slice(2)) > 0;
  });
}

/**
 * Sends a built file, choosing its pre-compressed brotli or gzip sibling when the client accepts it.
 * Content-Type follows the original file; Vary tells caches the body depends on Accept-Encoding.
 */
function sendBuilt(req: Request, res: Response, next: NextFunction, file: string, cacheControl: string) {
  res.setHeader('Cache-Control', cacheControl);
  res.setHeader('Vary', 'Accept-Encoding');
  res.type(extname(file));
  const encoded = ENCODINGS.find((e) => accepts(req, e.name) && isFile(file + e.ext));
  if (encoded) res.setHeader('Content-Encoding', encoded.name);
  // send() keeps a Content-Type already set, so the .br/.gz file is labelled as what it decodes to.
  res.sendFile(encoded ? file + encoded.ext : file, { cacheControl: false, dotfiles: 'deny', acceptRanges: !encoded }, (err) => {
    if (err) next(err);
  });
}

/**
 * The built SPA: files under dist are served (pre-compressed when possible), hashed assets as
 * immutable; every other GET outside /api answers index.html (client-side routing), never cached
 * without revalidation so a deploy is picked up on the next load.
 */
export function serveFrontend(app: NestExpressApplication, dist: string) {
  const indexHtml = join(dist, 'index.html');
  if (!existsSync(indexHtml)) {
    new Logger('Frontend').warn(`No built frontend at ${dist}; run npm run build`);
    return;
  }
  const assets = join(dist, 'assets') + sep;
  app.use((req: Request, res: Response, next: NextFunction) => {
    if ((req.method !== 'GET' && req.method !== 'HEAD') || req.path === '/api' || req.path.startsWith('/api/')) return next();
    let path: string;
    try {
      path = decodeURIComponent(req.path);
    } catch {
      return next();
    }
    const file = normalize(join(dist, path));
    const inside = file.startsWith(dist + sep) && !path.split('/').some((s) => s.startsWith('.'));
    if (inside && file !== indexHtml && !ENCODINGS.some((e) => file.endsWith(e.ext)) && isFile(file)) {
      return sendBuilt(req, res, next, file, file.startsWith(assets) ? IMMUTABLE : 'public, max-age=3600');
    }
    // A missing hashed asset is a 404, not the SPA page (a stale tab must not parse HTML as JS).
    if (file.startsWith(assets)) return next();
    sendBuilt(req, res, next, indexHtml, 'no-cache');
  });
}
